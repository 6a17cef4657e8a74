"""'Bajo': always its weakest legal card (a benchmark opponent, not a sample)."""

from arena.cards import parse
from arena.sdk import Move, Player, PlayRequest


class Bajo(Player):
    name = "Bajo"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else None
        trump = self.view.trump_suit
        card = min(request.legal(), key=lambda c: (parse(c) // 10 == trump, parse(c) % 10))
        return Move(card=card, sing=sing)
