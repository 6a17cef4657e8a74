"""'Posicional': plays by its place in the baza (a benchmark opponent, not a sample; a hold-out
written after maestro's styles).

Leading, its strongest trump when it holds four or more trumps, else its weakest card outside
trumps. Last to play, it wins with its cheapest winning card, else throws its weakest. In between,
it plays its strongest winning card (to stay ahead of those still to play), else its weakest.
Sings every canto.
"""

from arena.cards import NAMES, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


class Posicional(Player):
    name = "Posicional"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = [parse(c) for c in request.legal()]
        trump = self.view.trump_suit
        strength = lambda c: (c // 10 == trump, c % 10)  # noqa: E731
        if not request.table:
            trumps = [c for c in legal if c // 10 == trump]
            if len(trumps) >= 4:
                return Move(card=NAMES[max(trumps)], sing=sing)
            plain = [c for c in legal if c // 10 != trump] or legal
            return Move(card=NAMES[min(plain, key=strength)], sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(c, winning, trump)]
        last = len(request.table) == len(self.view.order) - 1
        if winners:
            return Move(card=NAMES[(min if last else max)(winners, key=strength)])
        return Move(card=NAMES[min(legal, key=strength)])
