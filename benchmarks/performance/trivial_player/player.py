"""The trivial player of the protocol benchmark: the first legal card, no cantos."""

from arena.sdk import Player, PlayRequest


class Trivial(Player):
    name = "Trivial"

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
