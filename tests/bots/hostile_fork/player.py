"""Starts processes that try to outlive it, then plays legally.

On its first play it starts ``sleep 300`` (a plain child) and a double-forked
grandchild in a session of its own (``setsid``) that execs ``sleep 302`` with an
empty environment (so it carries no ``ARENA_PLAYER=1`` nor any mark of the
test). It writes ``child pid N`` and ``grandchild pid N`` to standard error,
then plays the first legal card, every time.
"""

import os
import subprocess
import sys

from arena.sdk import Player, PlayRequest


def spawn_escapees() -> None:
    child = subprocess.Popen(["sleep", "300"])
    print(f"child pid {child.pid}", file=sys.stderr, flush=True)
    pid = os.fork()
    if pid == 0:  # the intermediate: a new session, fork the grandchild, vanish
        try:
            os.setsid()
            if os.fork() == 0:
                os.write(2, f"grandchild pid {os.getpid()}\n".encode())
                os.execve("/bin/sleep", ["sleep", "302"], {})
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


class HostileFork(Player):
    def __init__(self) -> None:
        super().__init__()
        self.spawned = False

    def play(self, request: PlayRequest) -> str:
        if not self.spawned:
            self.spawned = True
            spawn_escapees()
        return request.legal()[0]
