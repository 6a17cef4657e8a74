"""'Alto': always its strongest legal card (a benchmark opponent, not a sample)."""

from arena.cards import POINTS, parse
from arena.sdk import Move, Player, PlayRequest


class Alto(Player):
    name = "Alto"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        trump = self.view.trump_suit
        card = max(request.legal(), key=lambda c: (parse(c) // 10 == trump, parse(c) % 10, POINTS[parse(c)]))
        return Move(card=card, sing=sing)
