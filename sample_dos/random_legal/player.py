"""Plays a random legal card and, at a moment, does one of the things offered or passes, at random."""

import random

from arena.dos.sdk import DosPlayer, DosRequest, Move


class RandomLegal(DosPlayer):
    name = "Azar"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(2002)

    def play(self, request: DosRequest) -> Move | str | None:
        if request.kind == "card":
            return self.rng.choice(request.legal)
        choice = self.rng.choice([*request.may_sing, None])  # a canto, the cambio, or a pass
        return None if choice is None else Move(sing=choice)
