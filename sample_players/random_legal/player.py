"""Plays a random legal card, and sings whenever it can (tute first)."""

import random

from arena.sdk import Move, Player, PlayRequest


class RandomLegal(Player):
    name = "Azar"

    def __init__(self) -> None:
        super().__init__()
        self.rng = random.Random(2002)

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        return Move(card=self.rng.choice(request.legal()), sing=cantos[0] if cantos else None)
