"""Legal, but sleeps 2.8 s before every reply (computing nothing): stretches a partido under the
wall-clock backstop of 3 s. Faulted ``timeout`` (idle) at its first play (protocol revision 1.2)."""

import time

from arena.sdk import Player, PlayRequest


class IdleSleeper(Player):
    def play(self, request: PlayRequest) -> str:
        time.sleep(2.8)
        return request.legal()[0]
