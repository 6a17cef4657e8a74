"""Starts processes that outlive it, then plays legal cards normally.

On its first play it starts ``sleep 300`` (a plain child) and a double-forked
grandchild in a new session (``setsid``) running ``sleep 300``: that one is
orphaned at once and escapes the player's process group. Each writes its pid to
standard error (``child pid N`` / ``grandchild pid N``) so a test can check that
the referee killed them all.
"""

import os
import subprocess
import sys

from arena.sdk import Player, PlayRequest


def spawn_escapees() -> None:
    child = subprocess.Popen(["sleep", "300"])
    print(f"child pid {child.pid}", file=sys.stderr, flush=True)
    pid = os.fork()
    if pid == 0:  # the intermediate: new session, fork the grandchild, vanish
        try:
            os.setsid()
            if os.fork() == 0:
                os.write(2, f"grandchild pid {os.getpid()}\n".encode())
                os.execvp("sleep", ["sleep", "300"])
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


class ChildLeft(Player):
    def __init__(self) -> None:
        super().__init__()
        self.spawned = False

    def play(self, request: PlayRequest) -> str:
        if not self.spawned:
            self.spawned = True
            spawn_escapees()
        return request.legal()[0]
