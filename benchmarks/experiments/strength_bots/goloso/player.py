"""'Goloso': goes for points (a benchmark opponent, not a sample).

Following, it wins with the card of most points that wins (else it throws its card of fewest
points); leading, it draws trumps with its weakest while it holds three or more, else leads its
card of most points outside trumps. Sings every canto.
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


class Goloso(Player):
    name = "Goloso"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        if not request.table:
            trumps = [c for c in legal if parse(c) // 10 == trump]
            if len(trumps) >= 3:
                return Move(card=min(trumps, key=lambda c: parse(c) % 10), sing=sing)
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=max(plain, key=lambda c: (POINTS[parse(c)], -(parse(c) % 10))), sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(parse(c), winning, trump)]
        if winners:
            return Move(card=max(winners, key=lambda c: (POINTS[parse(c)], -(parse(c) % 10))))
        return Move(card=min(legal, key=lambda c: (POINTS[parse(c)], parse(c) % 10)))
