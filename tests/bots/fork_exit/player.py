"""Forks a child that keeps its standard output open, then exits with status 3.

The player process is gone (a ``crash`` with exit status 3), but its pipe is
not closed: a referee that only watches for end-of-file waits out ``move_ms``.
"""

import os
import sys
import time

from arena.sdk import Player, PlayRequest


class ForkExit(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("fork_exit bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        if os.fork() == 0:  # the child holds the protocol pipe open and sleeps
            time.sleep(300)
            os._exit(0)
        print("fork_exit bot: exiting with status 3", file=sys.stderr, flush=True)
        sys.exit(3)
