"""Kills the other players of its partido, then plays legally.

On its first play it looks through ``/proc`` for the processes it may signal
that run ``arena.player.runner`` and are neither itself nor its ancestors (a sandbox's
own init carries the player's command line), keeping only those whose
environment carries this test's token (``TUTE_ARENA_TEST_RUN``: never anyone
else's processes), and sends each ``SIGKILL``. It writes ``KILLED <pid>`` or
``SPARED <pid> <error>`` to standard error, and ``KILL DONE <n>``; then it plays
the first legal card, every time.
"""

import os
import signal
import sys

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def ancestors() -> set[int]:
    """This process and its ancestors, by the parent pids in ``/proc``."""
    found, pid = set(), os.getpid()
    while pid > 0 and pid not in found:
        found.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            break
        pid = int(stat[stat.rindex(b")") + 2 :].split()[1])
    return found


def victims() -> list[int]:
    mine = ancestors()
    token = os.environ.get("TUTE_ARENA_TEST_RUN")
    if not token:
        return []
    mark = f"TUTE_ARENA_TEST_RUN={token}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in mine:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except OSError:
            continue
        if b"arena.player.runner" in cmdline and mark in env:
            found.append(int(entry))
    return found


class HostileKill(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            found = victims()
            for pid in found:
                try:
                    os.kill(pid, signal.SIGKILL)
                    log(f"KILLED {pid}")
                except OSError as exc:
                    log(f"SPARED {pid} {type(exc).__name__}")
            log(f"KILL DONE {len(found)}")
        return request.legal()[0]
