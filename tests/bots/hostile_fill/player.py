"""Looks for writable places outside its private /tmp and fills them, then plays legally.

On its first play it tries, in each folder of ``targets.txt`` (one a line), to
write files of one MiB chunks, each file kept under the file size limit, until
the total it wrote there reaches the MiB count on the first line. It writes
``FILLED <folder> <MiB>`` (what it got in) or ``BLOCKED <folder> <error>`` to
standard error, keeps the files, and plays the first legal card, every time.
"""

import os
import sys
from pathlib import Path

from arena.sdk import Player, PlayRequest

FILE_MIB = 4


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def fill(folder: str, total_mib: int) -> None:
    chunk = b"x" * (1 << 20)
    written = 0
    try:
        while written < total_mib:
            with open(os.path.join(folder, f"fill-{written}.bin"), "wb") as f:
                for _ in range(FILE_MIB):
                    f.write(chunk)
                    f.flush()
                    written += 1
    except OSError as exc:
        log(f"BLOCKED {folder} after {written} MiB: {type(exc).__name__}")
    if written:
        log(f"FILLED {folder} {written}")


class HostileFill(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            lines = Path("targets.txt").read_text(encoding="utf-8").split()
            for folder in lines[1:]:
                fill(folder, int(lines[0]))
            log("FILL DONE")
        return request.legal()[0]
