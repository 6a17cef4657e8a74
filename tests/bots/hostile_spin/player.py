"""Starts background spinners at hello to take the other players' CPU, then plays legally.

At hello it forks ``targets.txt``'s count of processes that spin forever. On its
first play it measures, over one second, the CPU time its spinners got (from
``/proc/<pid>/stat``) and writes ``SPIN <cores>`` (CPU seconds per wall second).
It plays the first legal card at once, every time; its spinners die with it.
"""

import os
import sys
import time
from pathlib import Path

from arena.sdk import Player, PlayRequest

TICKS = os.sysconf("SC_CLK_TCK")


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def cpu(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return total / TICKS


class HostileSpin(Player):
    def __init__(self) -> None:
        super().__init__()
        self.spinners: list[int] = []
        for _ in range(int(Path("targets.txt").read_text(encoding="utf-8").split()[0])):
            pid = os.fork()
            if pid == 0:
                while True:
                    pass
            self.spinners.append(pid)
        self.measured = False

    def play(self, request: PlayRequest) -> str:
        if not self.measured:
            self.measured = True
            before, start = cpu(self.spinners), time.monotonic()
            time.sleep(1.0)
            used = cpu(self.spinners) - before
            log(f"SPIN {used / (time.monotonic() - start):.2f}")
        return request.legal()[0]
