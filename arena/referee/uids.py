"""Unprivileged uids of their own for player processes when the referee is root.

A root referee runs every player process under a uid leased from a range that
nothing else on the machine uses (:data:`FIRST_UID` onwards, far above the
system's and the usual container ranges). A lease is an exclusive ``flock`` on a
file in a root-only folder, so concurrent workers and referees never share a
uid; a uid is cleared of leftover processes when leased and when released.

Knows nothing of the rules, the protocol or the sandbox.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import os
import signal
import stat
import tempfile
import time
from pathlib import Path

from arena.errors import ArenaError
from arena.i18n import _

FIRST_UID = 1_879_048_192
"""0x70000000: the first uid of the range leased to players."""
COUNT = 65_536
LOCK_FOLDERS = (Path("/run/tute-arena/uids"), Path(tempfile.gettempdir()) / "tute-arena-uids-0")
SHARED_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")


class UidError(ArenaError, RuntimeError):
    """No uid could be leased."""


def _lock_folder() -> Path:
    """A folder only root can enter (made if needed; refused if anyone else could write it)."""
    for folder in LOCK_FOLDERS:
        with contextlib.suppress(OSError):
            folder.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)
            info = os.lstat(folder)
            if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o077:
                return folder
    raise UidError(_("no root-only folder for uid leases (/run/tute-arena/uids)"))


def processes_of(uid: int) -> list[int]:
    """Pids of live processes whose real, effective or saved uid is ``uid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as f:  # not shown
                for line in f:
                    if line.startswith(b"Uid:"):
                        if uid in map(int, line.split()[1:4]):
                            found.append(int(entry))
                        break
        except (OSError, ValueError):
            continue
    return found


def kill_all(uid: int, wait: float = 2.0) -> None:
    """SIGKILL every process of ``uid`` until none is left (or ``wait`` seconds pass)."""
    deadline = time.monotonic() + wait
    while (pids := processes_of(uid)) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)


def remove_files_of(uid: int, places: tuple[str, ...] = SHARED_WRITABLE) -> None:
    """Delete what ``uid`` left at the top of the machine's shared writable folders.

    A player can create entries only there (every deeper folder belongs to someone),
    so this leaves no state for whoever leases the uid next.
    """
    for place in places:
        try:
            entries = list(os.scandir(place))
        except OSError:
            continue
        for entry in entries:
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if info.st_uid != uid:
                    continue
                if stat.S_ISDIR(info.st_mode):
                    _remove_tree(entry.path)
                else:
                    os.unlink(entry.path)


def _remove_tree(path: str) -> None:
    for root, dirs, files in os.walk(path, topdown=False):
        for name in files:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(root, name))
        for name in dirs:
            full = os.path.join(root, name)
            with contextlib.suppress(OSError):
                os.unlink(full) if os.path.islink(full) else os.rmdir(full)
    with contextlib.suppress(OSError):
        os.rmdir(path)


_counter = itertools.count()


class UidLease:
    """An exclusive uid for one player process; :meth:`release` when its processes are gone."""

    def __init__(self) -> None:
        if os.geteuid() != 0:
            raise UidError(_("only a root referee leases player uids"))
        folder = _lock_folder()
        start = (os.getpid() * 7919 + next(_counter) * 104_729) % COUNT
        for i in range(COUNT):
            uid = FIRST_UID + (start + i) % COUNT
            fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            self.uid = uid
            self._fd = fd
            kill_all(uid)  # a referee killed hard may have left some behind
            return
        raise UidError(_("all {count} player uids are leased").format(count=COUNT))

    def release(self, clean_shared: bool = False) -> None:
        """Kill what still runs as this uid (and, if asked, its files in /tmp…), then free it."""
        if self._fd < 0:
            return
        kill_all(self.uid)
        if clean_shared:
            remove_files_of(self.uid)
        os.close(self._fd)
        self._fd = -1


class UidPool:
    """Leases kept by one referee process and used again: a uid whose processes are all known to
    be gone (its player's cgroup emptied) goes back here instead of being searched for and freed.

    Every uid is still used by one player process at a time, and only by this referee.
    """

    def __init__(self) -> None:
        self._free: list[UidLease] = []
        self.pid = os.getpid()

    def take(self) -> UidLease:
        return self._free.pop() if self._free else UidLease()

    def give_back(self, lease: UidLease) -> None:
        self._free.append(lease)

    def close(self) -> None:
        while self._free:
            self._free.pop().release()
