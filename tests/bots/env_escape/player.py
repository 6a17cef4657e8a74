"""Leaves behind a double-forked ``setsid`` grandchild that also drops its environment.

On its first play the grandchild (``sleep 301``) writes ``grandchild pid N`` to
standard error and execs with an empty environment, so it carries no
``ARENA_PLAYER=1``; then the player goes on playing legal cards normally.
"""

import os

from arena.sdk import Player, PlayRequest


def spawn_escapee() -> None:
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                os.write(2, f"grandchild pid {os.getpid()}\n".encode())
                os.execve("/bin/sleep", ["sleep", "301"], {})
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


class EnvEscape(Player):
    def __init__(self) -> None:
        super().__init__()
        self.spawned = False

    def play(self, request: PlayRequest) -> str:
        if not self.spawned:
            self.spawned = True
            spawn_escapee()
        return request.legal()[0]
