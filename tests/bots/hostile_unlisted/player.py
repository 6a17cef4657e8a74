"""On its first play request: a vsock socket (refused: only AF_UNIX), then ``acct``, a call on no
list at all, which the players' syscall filter answers by killing the process (its fault names it)."""

import ctypes
import platform
import socket
import sys

from arena.sdk import Player, PlayRequest

ACCT = {"x86_64": 163, "aarch64": 89}[platform.machine()]


class Unlisted(Player):
    def play(self, request: PlayRequest) -> str:
        try:
            socket.socket(40, socket.SOCK_STREAM)  # AF_VSOCK
            print("VSOCK opened", file=sys.stderr, flush=True)
        except OSError as exc:
            print(f"VSOCK refused errno={exc.errno}", file=sys.stderr, flush=True)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall(ctypes.c_long(ACCT), ctypes.c_long(0))
        print("ACCT survived", file=sys.stderr, flush=True)
        return request.hand[0]
