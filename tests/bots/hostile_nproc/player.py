"""Starts as many processes as it can on its first play, then plays legally.

It starts ``sleep 300`` children until the count in ``targets.txt`` or until one
fails, writes ``STARTED <n>`` and ``LIMITED <error>`` (when one failed) to
standard error, kills its children, and plays the first legal card, every time.
"""

import subprocess
import sys
from pathlib import Path

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HostileNproc(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            wanted = int(Path("targets.txt").read_text(encoding="utf-8").split()[0])
            children = []
            try:
                for _ in range(wanted):
                    children.append(subprocess.Popen(["sleep", "300"]))
            except OSError as exc:
                log(f"LIMITED {type(exc).__name__}: {exc}")
            log(f"STARTED {len(children)}")
            for child in children:
                child.kill()
                child.wait()
        return request.legal()[0]
