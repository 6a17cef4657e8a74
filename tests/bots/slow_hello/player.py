"""Sleeps far past init_ms before answering ``hello`` (a ``timeout`` at the handshake)."""

import sys
import time

from arena.sdk import Player, PlayRequest


class SlowHello(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("slow_hello bot: sleeping before ready", file=sys.stderr, flush=True)
        time.sleep(300)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
