"""Stops listening: on its first play it closes its standard input, then replies legally.

The reply arrives, so the referee's next write to it (the next event) finds the
pipe broken; the runner, unable to read, exits with status 1 right after.
"""

import os
import sys

from arena.sdk import Player, PlayRequest


class HostileDeaf(Player):
    def play(self, request: PlayRequest) -> str:
        print("hostile_deaf bot: closing my standard input", file=sys.stderr, flush=True)
        os.close(0)
        return request.legal()[0]
