"""'Último': the last legal card of the list, always; sings only tute (a benchmark opponent, not a sample)."""

from arena.sdk import Move, Player, PlayRequest


class Ultimo(Player):
    name = "Último"

    def play(self, request: PlayRequest) -> Move:
        if "tute" in request.cantos():
            return Move(sing="tute")
        return Move(card=request.legal()[-1])
