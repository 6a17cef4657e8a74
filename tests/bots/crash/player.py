"""Exits with status 3 on its first play request (a ``crash``)."""

import sys

from arena.sdk import Player, PlayRequest


class Crash(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("crash bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        print("crash bot: exiting with status 3", file=sys.stderr, flush=True)
        sys.exit(3)
