"""Finding player processes from the tests: by an environment token, and by pid namespace.

The referee gives every player ``ARENA_PLAYER=1``; the :func:`run_token` fixture adds a
token unique to the test (passed through the players' clean environment with
``ARENA_PASS_ENV``), so leak checks never see another run's processes. Import the
module opts in with ``pytestmark = pytest.mark.usefixtures("run_token")`` (the fixture
lives in ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from typing import Any

TOKEN_VAR = "TUTE_ARENA_TEST_RUN"


def read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def state(pid: int) -> str | None:
    """The process state letter (``R``, ``S``, ``Z``...), or None when there is no such process."""
    stat = read(f"/proc/{pid}/stat")
    return None if stat is None else stat[stat.rindex(b")") + 2 :].split()[0].decode()


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (zombies are dead)."""
    return state(pid) not in (None, "Z", "X")


def marked(token: str | None = None, players_only: bool = True) -> dict[int, str]:
    """Live processes with the test's token (and ``ARENA_PLAYER=1`` if ``players_only``): pid -> argv."""
    token = token or os.environ[TOKEN_VAR]
    wanted = {f"{TOKEN_VAR}={token}".encode(), *([b"ARENA_PLAYER=1"] if players_only else [])}
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        env = read(f"/proc/{entry}/environ")
        if env and wanted <= set(env.split(b"\0")) and alive(int(entry)):
            argv = (read(f"/proc/{entry}/cmdline") or b"").replace(b"\0", b" ").decode(errors="replace")
            found[int(entry)] = argv.strip()
    return found


def player_processes(token: str | None = None) -> dict[int, str]:
    return marked(token)


def leftover_players(
    token: str | None = None, grace: float = 5.0, players_only: bool = True
) -> dict[int, str]:
    """The marked processes still alive after ``grace`` seconds (SIGKILL is not instantaneous).

    Returns as soon as none is left: the grace is generous for a loaded machine.
    """
    deadline = time.monotonic() + grace
    while (left := marked(token, players_only)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def kill_and_reap(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(pid, signal.SIGKILL)
    for _ in range(100):  # the referee made this process a subreaper: orphans may be ours
        try:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
        except ChildProcessError:
            return
        time.sleep(0.01)


class PidCollector:
    """A sink noting the player processes (and their pid namespaces) at the start and every mano.

    It holds each namespace open (a file descriptor) until :meth:`close`: the kernel gives a
    dead namespace's number to the next one created, by anyone on the machine (another test
    run's player), and a number held open cannot be handed out again.
    """

    def __init__(self) -> None:
        self.pids: set[int] = set()
        self.namespaces: set[str] = set()
        self._fds: list[int] = []
        self._mine = os.readlink("/proc/self/ns/pid")

    def __call__(self, event: dict[str, Any]) -> None:
        if event["type"] in ("partido_start", "mano_start"):
            found = set(player_processes())
            self.pids |= found
            for pid in found:
                with contextlib.suppress(OSError):
                    fd = os.open(f"/proc/{pid}/ns/pid", os.O_RDONLY)
                    name = os.readlink(f"/proc/self/fd/{fd}")
                    if name in self.namespaces or name == self._mine:
                        os.close(fd)
                    else:
                        self.namespaces.add(name)
                        self._fds.append(fd)

    def close(self) -> None:
        for fd in self._fds:
            os.close(fd)
        self._fds = []


def in_namespaces(namespaces: set[str]) -> list[int]:
    """Live processes in any of the given pid namespaces (other than ours)."""
    mine = os.readlink("/proc/self/ns/pid")
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                ns = os.readlink(f"/proc/{entry}/ns/pid")
                if ns in namespaces and ns != mine and alive(int(entry)):
                    found.append(int(entry))
    return found
