"""Writes standard error as fast as it can from hello on, and plays legally all the while.

At hello it starts a thread that writes 1 MiB chunks to file descriptor 2 with no
end: lines with terminal escapes (clear screen, colours, a bidi override) and
multibyte UTF-8 (which the referee's reads cut anywhere), for the log to keep
inert. The main thread answers every request at once with the first legal card.

With a ``targets.txt`` holding a number N, on its N-th play it stops the flood,
writes ``hostile_stderr_flood bot: last words`` and exits with status 3 (a ``crash``
whose last words, written after all that noise, must reach the incident report).
"""

import os
import threading
from pathlib import Path

from arena.sdk import Player, PlayRequest

LINE = "flood \x1b[2J\x1b[31mrojo\x1b[0m \u202eevil ñandú €\n".encode()
CHUNK = (LINE * (1 + (1 << 20) // len(LINE)))[: 1 << 20]  # cut mid-line


class HostileStderrFlood(Player):
    def __init__(self) -> None:
        super().__init__()
        targets = Path("targets.txt")
        self.crash_at = int(targets.read_text(encoding="utf-8").split()[0]) if targets.exists() else 0
        self.plays = 0
        self.stop = threading.Event()
        self.flooder = threading.Thread(target=self.flood, daemon=True)

    def flood(self) -> None:
        view = memoryview(CHUNK)
        try:
            while not self.stop.is_set():
                os.write(2, view)
        except OSError:
            pass

    def setup(self, name: str, limits: dict[str, int]) -> None:
        self.flooder.start()

    def play(self, request: PlayRequest) -> str:
        self.plays += 1
        if self.plays == self.crash_at:
            self.stop.set()
            self.flooder.join()
            os.write(2, b"\nhostile_stderr_flood bot: last words\n")
            os._exit(3)
        return request.legal()[0]
