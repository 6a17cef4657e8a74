"""Plays a random legal card, sings the first canto offered, never gives up the mano."""

import random

from arena.parejas.sdk import Move, ParejasPlayer, ParejasRequest


class RandomLegal(ParejasPlayer):
    name = "Azar"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(2002)

    def play(self, request: ParejasRequest) -> Move | str | None:
        if request.kind == "card":
            return self.rng.choice(request.legal)
        if request.kind == "sing":
            return Move(sing=request.may_sing[0])
        return None  # tirar offered: play the mano on
