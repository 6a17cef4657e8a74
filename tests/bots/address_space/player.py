"""Reserves 8 GiB of address space it never touches, as a JVM or Go runtime does, then plays
its first legal card: honest, and no memory is used (a cgroup lets it play; a 1 GiB
``RLIMIT_AS`` would refuse the reservation)."""

import mmap
import sys

from arena.sdk import Player, PlayRequest

SIZE = 8 << 30
MAP_NORESERVE = 0x4000  # Linux's; Python 3.11's mmap does not name it


class AddressSpace(Player):
    def __init__(self) -> None:
        super().__init__()
        flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | MAP_NORESERVE
        self.reserved = mmap.mmap(-1, SIZE, flags=flags, prot=0)  # PROT_NONE: reserved, not committed
        print(f"address_space bot: reserved {SIZE >> 30} GiB", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
