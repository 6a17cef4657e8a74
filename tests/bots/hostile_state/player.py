"""Leaves files behind for a later partido in every shared writable place, then plays legally.

On its first play it tries to create ``<place>/<name>`` for each line ``place name``
of ``targets.txt`` and writes ``WROTE <path>`` or ``BLOCKED <path> <error>``;
then ``STATE DONE``. It plays the first legal card, every time.
"""

import sys
from pathlib import Path

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HostileState(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            for line in Path("targets.txt").read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                place, name = line.split()
                path = Path(place) / name
                try:
                    path.write_text("state from an earlier partido")
                except OSError as exc:
                    log(f"BLOCKED {path} {type(exc).__name__}")
                else:
                    log(f"WROTE {path}")
            log("STATE DONE")
        return request.legal()[0]
