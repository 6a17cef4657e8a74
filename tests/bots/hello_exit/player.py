"""Exits with status 3 when greeted, before replying ``ready`` (a ``crash`` at hello)."""

import sys

from arena.sdk import Player, PlayRequest


class HelloExit(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("hello_exit bot: exiting with status 3 at hello", file=sys.stderr, flush=True)
        sys.exit(3)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
