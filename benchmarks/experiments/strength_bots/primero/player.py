"""'Primero': the first legal card of the list, always (a benchmark opponent, not a sample)."""

from arena.sdk import Move, Player, PlayRequest


class Primero(Player):
    name = "Primero"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        return Move(card=request.legal()[0], sing=cantos[0] if cantos else None)
