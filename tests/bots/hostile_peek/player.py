"""Tries to stop, trace and read the memory of the other players, then plays legally.

On its first play it looks for the other players of its partido: processes
running ``arena.player.runner`` whose command line holds its own staging folder (the
referee copies every player under one folder) or whose environment carries this
test's token (``TUTE_ARENA_TEST_RUN``) — never anyone else's. For each it tries
``SIGSTOP`` (and ``SIGCONT`` at once if that worked), opening ``/proc/<pid>/mem``
and ``/proc/<pid>/environ``, and ``PTRACE_ATTACH``; it writes ``REACHED <what>
<pid>`` or ``BLOCKED <what> <pid> <error>``, then ``PEEK DONE <n players seen>``.
"""

import ctypes
import os
import signal
import sys
from pathlib import Path

from arena.sdk import Player, PlayRequest

PTRACE_ATTACH, PTRACE_DETACH = 16, 17


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def others() -> list[int]:
    me = os.getpid()
    stage = str(Path.cwd().parent.parent)  # <stage root>/p-xxxx/<name> under rlimits
    token = os.environ.get("TUTE_ARENA_TEST_RUN", "")
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        cmdline = read(f"/proc/{entry}/cmdline") or b""
        if b"\0-m\0arena.player.runner\0" not in cmdline or b"hostile_peek" in cmdline:
            continue
        env = read(f"/proc/{entry}/environ") or b""
        ours = "tute-arena-stage-" in stage and stage.encode() in cmdline
        if ours or (token and f"TUTE_ARENA_TEST_RUN={token}".encode() in env.split(b"\0")):
            found.append(int(entry))
    return found


def attempt(what: str, pid: int, fn) -> None:  # type: ignore[no-untyped-def]
    try:
        fn()
    except OSError as exc:
        log(f"BLOCKED {what} {pid} {type(exc).__name__}")
    else:
        log(f"REACHED {what} {pid}")


def ptrace(pid: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(PTRACE_ATTACH, pid, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "ptrace")
    libc.ptrace(PTRACE_DETACH, pid, 0, 0)


def peek_environ(pid: int) -> None:
    with open(f"/proc/{pid}/environ", "rb") as f:
        f.read(1)


def stop(pid: int) -> None:
    os.kill(pid, signal.SIGSTOP)
    os.kill(pid, signal.SIGCONT)


class HostilePeek(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            victims = others()
            for pid in victims:
                attempt("signal", pid, lambda p=pid: stop(p))
                attempt("mem", pid, lambda p=pid: open(f"/proc/{p}/mem", "rb").close())
                attempt("environ", pid, lambda p=pid: peek_environ(p))
                attempt("ptrace", pid, lambda p=pid: ptrace(p))
            log(f"PEEK DONE {len(victims)}")
        return request.legal()[0]
