"""Plays an illegal card whenever its hand holds one (a ``renuncio``); else the first legal card."""

import sys

from arena.sdk import Player, PlayRequest


class Renuncio(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("renuncio bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        legal = request.legal()
        illegal = [c for c in request.hand if c not in legal]
        return illegal[0] if illegal else legal[0]
