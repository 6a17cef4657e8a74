"""'Maestro': the master of the colluding pair of ``benchmarks/collusion.py``; it plays honestly.

It knows nothing of its servants: a decent heuristic player that hunts points (as the sample
``a_mas``: the highest score of a mano is safe). Sings tute at once, the cuarenta before any
veinte; following, wins the trick with its cheapest winning card, else throws its cheapest
card; leading, leads its strongest non-trump card.
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


def strength(card: str) -> int:
    return parse(card) % 10


def cheap(card: str) -> tuple[int, int]:
    return POINTS[parse(card)], strength(card)


class Maestro(Player):
    name = "Maestro"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        win = request.winning()
        if win is None:
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=max(plain, key=strength), sing=sing)
        winners = [c for c in legal if beats(parse(c), parse(win[1]), trump)]
        return Move(card=min(winners or legal, key=cheap))
