"""Sleeps far past move_ms on its first play request (a ``timeout``)."""

import sys
import time

from arena.sdk import Player, PlayRequest


class Slow(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("slow bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        print("slow bot: sleeping on my first play", file=sys.stderr, flush=True)
        time.sleep(300)
        return request.legal()[0]
