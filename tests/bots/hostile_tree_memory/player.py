"""Holds memory in several processes at once, each under the per-process limit, then plays legally.

On its first play it forks ``targets.txt``'s count of children; each allocates
and touches the given MiB and then waits. Once each has reported (or died), it
writes ``HELD <n>``: how many children are still alive, holding their share.
Then it kills its children and plays the first legal card, every time.
"""

import os
import sys
import time
from pathlib import Path

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HostileTreeMemory(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            count, mib = map(int, Path("targets.txt").read_text(encoding="utf-8").split()[:2])
            kids = []
            for _ in range(count):
                r, w = os.pipe()
                pid = os.fork()
                if pid == 0:
                    os.close(r)
                    block = bytearray(mib << 20)
                    for i in range(0, len(block), 4096):
                        block[i] = 1
                    os.write(w, b"1")
                    time.sleep(60)
                    os._exit(0)
                os.close(w)
                kids.append((pid, r))
            for _, r in kids:
                os.read(r, 1)  # b"" when the child died before holding its share
            time.sleep(0.3)
            held = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid, _ in kids)
            log(f"HELD {held}")
            for pid, _ in kids:
                try:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                except OSError:
                    pass
        return request.legal()[0]
