"""Idle time of a player's reply: wall-clock time its process tree neither ran nor waited to run.

CPU time bounds a player's computing; idle time bounds its *waiting* — sleeping or
blocking on anything but what the referee owes it — so that a bot that computes
nothing cannot stretch a partido up to the wall-clock backstop on every reply
(protocol revision 1.2). For one reply::

    idle = wall − CPU(tree) − run-queue delay(tree) − run-queue delay(referee)

The CPU time is the cgroup's (or the process tree's); the run-queue delays are the
kernel's per-thread ``/proc/<tid>/schedstat`` (second field: time spent runnable but
waiting for a CPU), over every thread of the player's tree, and the referee's own
thread: on a loaded machine the time the player waited for a core, and the time
the referee waited to read a reply already written, are never the player's idle.
Where the kernel keeps no schedstat, idle time is not measured (None).

Knows nothing of the rules or the protocol.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
import weakref
from collections.abc import Callable

from arena.containment import sandbox
from arena.containment.process import descendants, process_tree_cpu_ns

SCHEDSTAT = "/proc/{tid}/schedstat"
REFEREE = 0
"""The key of the referee's own thread among a clock's open files (no thread has tid 0)."""


def _wait_ns(path: str) -> int | None:
    try:
        with open(path, "rb") as f:
            return int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _open(path: str) -> int | None:
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None


def _read_wait_ns(fd: int) -> int | None:
    """The run-queue delay in an open schedstat file (read again from its start: one syscall).

    An open file stays the thread's it was opened for: once that thread has ended it reads
    nothing, even if its tid is given to another thread."""
    try:
        return int(os.pread(fd, 128, 0).split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _close_all(fds: dict[int, int]) -> None:
    for fd in fds.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    fds.clear()


@functools.cache
def measurable() -> bool:
    """Whether this kernel keeps per-thread run-queue delays (``CONFIG_SCHED_INFO``)."""
    return _wait_ns("/proc/thread-self/schedstat") is not None


def threads_of(pids: list[int]) -> list[int]:
    """Every thread of the processes ``pids``."""
    out = []
    for pid in pids:
        try:
            out += [int(t) for t in os.listdir(f"/proc/{pid}/task")]  # not shown
        except (OSError, ValueError):
            continue
    return out


def tree_clock(box: sandbox.Box, pid: int) -> IdleClock:
    """The idle clock of the player in ``box`` whose process is ``pid``: its threads and CPU time
    from its cgroup, else from ``pid`` and its descendants."""

    def threads() -> list[int]:
        found = box.threads()
        return found if found is not None else threads_of([pid, *descendants(pid)])

    def cpu_ns() -> int | None:
        used = box.cpu_ns()
        return used if used is not None else process_tree_cpu_ns(pid)

    return IdleClock(threads, cpu_ns)


class IdleClock:
    """Measures one reply's idle time from :meth:`start` (some time after the request was written:
    a reply quicker than that needs no measuring) on; what it finds is a lower bound of the reply's
    idle time.

    ``tasks()`` lists the player's threads (host tids) now, ``cpu_ns()`` the CPU time its tree has
    used so far; a thread born later counts from zero, one that ended keeps what was last seen of it.

    Each thread's schedstat file stays open from its first look until :meth:`close` (also when the
    clock is collected): a later look is one ``pread``, not an open, a read and a close.
    """

    def __init__(self, tasks: Callable[[], list[int]], cpu_ns: Callable[[], int | None]) -> None:
        self._tasks = tasks
        self._cpu_ns = cpu_ns
        self._start: float | None = None
        self._cpu0: int | None = None
        self._first: dict[int, int] = {}
        self._last: dict[int, int] = {}
        self._referee0 = 0
        self._files: dict[int, int] = {}  # tid (REFEREE: the referee's thread) -> its schedstat, open
        self._closer = weakref.finalize(self, _close_all, self._files)
        self.enabled = measurable()

    def _wait(self, tid: int, path: str) -> int | None:
        fd = self._files.get(tid)
        if fd is None:
            fd = _open(path)
            if fd is None:
                return None
            self._files[tid] = fd
        wait = _read_wait_ns(fd)
        if wait is None:  # the thread has ended: should its tid come back, it is another thread's
            del self._files[tid]
            os.close(fd)
        return wait

    def _sample(self) -> dict[int, int]:
        seen = {}
        for tid in self._tasks():
            wait = self._wait(tid, SCHEDSTAT.format(tid=tid))
            if wait is not None:
                seen[tid] = wait
        return seen

    def start(self) -> None:
        """From now on (the referee's thread that calls :meth:`idle_ms` must be this one)."""
        self._start = time.monotonic()
        if not self.enabled:
            return
        self._cpu0 = self._cpu_ns()
        self._first = self._sample()
        self._last = dict(self._first)
        self._referee0 = self._wait(REFEREE, "/proc/thread-self/schedstat") or 0

    def close(self) -> None:
        """Close the files kept open (the clock can still measure: it opens them again)."""
        _close_all(self._files)

    def __enter__(self) -> IdleClock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def idle_ms(self) -> float | None:
        """Idle time since :meth:`start`, in ms (None: not started, or not measurable here)."""
        if not self.enabled or self._start is None or self._cpu0 is None:
            return None
        cpu = self._cpu_ns()
        if cpu is None:
            return None
        wall_ms = (time.monotonic() - self._start) * 1000
        self._last.update(self._sample())
        player_wait = sum(wait - self._first.get(tid, 0) for tid, wait in self._last.items())
        referee_wait = (self._wait(REFEREE, "/proc/thread-self/schedstat") or 0) - self._referee0
        return max(0.0, wall_ms - (cpu - self._cpu0 + player_wait + referee_wait) / 1e6)
