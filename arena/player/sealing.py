"""Loading the players' syscall filter into a process (stdlib only: the player's side of it).

The program is compiled by the referee (:mod:`arena.containment.seal`); this module only
hands it to the kernel, for the warm-start server's forks (:mod:`arena.player.zygote`) and, run
as ``python -I -S .../arena/player/sealing.py FD -- ARGV...`` (a file: ``-I`` ignores the path),
for ``--sandbox rlimits``, where it loads the program read from descriptor FD and then
executes ARGV.
"""

from __future__ import annotations

import ctypes
import os
import sys

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2
SEALED_EXIT = 125
"""What the launcher exits with when it could not seal (a failure of the sandbox, never the player's)."""


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def load(program: bytes) -> None:
    """Apply ``program`` (``struct sock_filter`` array) to this process and all it will start.

    Sets ``no_new_privs`` first (the kernel requires it of an unprivileged process).
    OSError if the kernel refuses.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if len(program) % 8 or not program:
        raise OSError(22, "seccomp: not a BPF program")  # not shown
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = _SockFprog(len(program) // 8, ctypes.addressof(buffer))
    for args in (
        (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
        (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.addressof(prog), 0, 0),
    ):
        if libc.prctl(*(ctypes.c_ulong(a) for a in args)) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"seccomp: {os.strerror(err)}")  # not shown: the referee names it


def main(argv: list[str]) -> None:
    """``FD -- ARGV...``: load the program on descriptor FD, close it, execute ARGV."""
    try:
        fd = int(argv[0])
        if argv[1] != "--" or len(argv) < 3:
            raise ValueError("usage: sealing.py FD -- ARGV...")  # not shown
        with os.fdopen(fd, "rb") as source:
            program = source.read()
        load(program)
        os.execvp(argv[2], argv[2:])
    except (OSError, ValueError, IndexError) as exc:
        os.write(2, f"arena-sandbox: {exc}\n".encode())  # not shown: the referee reports it
        os._exit(SEALED_EXIT)


if __name__ == "__main__":
    main(sys.argv[1:])
