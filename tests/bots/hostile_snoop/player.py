"""Tries to read what a player must never see, then plays legally.

On its first play it reads ``targets.txt`` in its own folder (one absolute path a
line, written by the test): for each path it tries to list it (a folder) or read
it (a file) and writes ``READ <path> <what it got>`` or ``BLOCKED <path> <error>``
to standard error. It also writes ``UID <n>`` (the uid it runs as). Then it plays
the first legal card, every time.
"""

import json
import os
import sys
from pathlib import Path

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def snoop(target: str) -> None:
    try:
        if os.path.isdir(target):
            got = json.dumps(sorted(os.listdir(target)))
        else:
            with open(target, "rb") as f:
                got = f"{len(f.read(4096))} bytes"
    except OSError as exc:
        log(f"BLOCKED {target} {type(exc).__name__}")
    else:
        log(f"READ {target} {got}")


class HostileSnoop(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            log(f"UID {os.getuid()}")
            for target in Path("targets.txt").read_text(encoding="utf-8").split("\n"):
                if target.strip():
                    snoop(target.strip())
            log("SNOOP DONE")
        return request.legal()[0]
