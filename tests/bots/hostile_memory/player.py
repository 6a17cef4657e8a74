"""Allocates far beyond the memory limit on its first play.

It asks for 4 GiB in one piece and writes to every page of it (if that is ever
granted, the machine would really have to provide it). Under the memory limit
the allocation fails with ``MemoryError``, which it does not catch: a crash.
"""

import sys

from arena.sdk import Player, PlayRequest

SIZE = 4 << 30


class HostileMemory(Player):
    def play(self, request: PlayRequest) -> str:
        print(f"hostile_memory bot: allocating {SIZE >> 20} MiB", file=sys.stderr, flush=True)
        hog = bytearray(SIZE)
        hog[::4096] = b"\1" * len(range(0, SIZE, 4096))
        print("hostile_memory bot: got it all", file=sys.stderr, flush=True)
        return request.legal()[0]
