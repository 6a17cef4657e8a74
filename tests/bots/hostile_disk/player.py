"""Writes until something stops it, on its first play.

First into its own folder (its working directory, which must be read-only: it
logs ``CWD BLOCKED`` or ``CWD WROTE``), then into ``/tmp/hostile_disk-<run>.bin``
one MiB at a time with no end and no ``except``: the file size limit (or a full
private ``/tmp``) stops it with an error, a crash. ``<run>`` is the test's token
(``TUTE_ARENA_TEST_RUN``) so the test can look for the file on the host.
"""

import os
import sys

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class HostileDisk(Player):
    def play(self, request: PlayRequest) -> str:
        try:
            with open("hostile_disk-cwd.bin", "wb") as f:
                f.write(b"x" * 4096)
            log("CWD WROTE")
        except OSError as exc:
            log(f"CWD BLOCKED {type(exc).__name__}")
        path = f"/tmp/hostile_disk-{os.environ.get('TUTE_ARENA_TEST_RUN', 'run')}.bin"
        log(f"filling {path}")
        chunk = b"x" * (1 << 20)
        with open(path, "wb") as f:
            while True:
                f.write(chunk)
                f.flush()
