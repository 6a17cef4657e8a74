"""Raises in its play method, from its own helper module (a ``crash`` whose detail must name the
exception and the student's file and line, not the SDK's)."""

import sys

from helpers import cheapest

from arena.sdk import Player, PlayRequest


class Raiser(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("msg_raise bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        return cheapest(list(request.legal()))
