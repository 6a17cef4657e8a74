"""Unprivileged uids of their own for player processes when the referee is root.

A root referee runs every player process under a uid leased from a range that
nothing else on the machine uses (:data:`FIRST_UID` onwards, far above the
system's and the usual container ranges). A lease is an exclusive ``flock`` on a
file in a root-only folder, so concurrent workers and referees never share a
uid. Whenever a uid is released (given back to a pool too), its processes are killed and
whatever it left on the machine is swept away (:mod:`arena.containment.leftovers`: keys, locks, IPC
objects, files), and its lock file notes it; a lease sweeps a uid first unless so noted (its
referee killed hard, say), and a referee's first lease sweeps every uid that owns something and
that no one leases. A uid of which something survives the sweep is quarantined: never leased
again by this process, with a warning.

Knows nothing of the rules, the protocol or the sandbox.
"""

from __future__ import annotations

import contextlib
import fcntl
import itertools
import logging
import os
import signal
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from arena.containment import leftovers
from arena.containment.leftovers import processes_of
from arena.errors import ArenaError
from arena.i18n import _

__all__ = [
    "COUNT",
    "FIRST_UID",
    "UidError",
    "UidLease",
    "UidPool",
    "kill_all",
    "processes_of",
    "quarantined",
    "sweep_abandoned",
]

FIRST_UID = leftovers.PLAYER_IDS.start
"""0x70000000: the first uid of the range leased to players."""
COUNT = len(leftovers.PLAYER_IDS)
LOCK_FOLDERS = (Path("/run/tute-arena/uids"), Path(tempfile.gettempdir()) / "tute-arena-uids-0")
HELD_MAX = 256
"""The most lock files of quarantined uids kept open (other referees skip those while this one lives)."""

log = logging.getLogger("arena.containment.uids")
_quarantined: set[int] = set()
_held: list[int] = []
_recent: list[int] = []
"""Uids this process released clean, latest last: leased again first (no sweep needed, unless
another referee leased them since)."""
RECENT_MAX = 1024


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


def kill_all(uid: int, wait: float = 2.0) -> list[int]:
    """SIGKILL every process of ``uid`` until none is left alive (or ``wait`` seconds pass): those
    still alive (zombies do not count: dead, they wait for their parent to reap them)."""
    deadline = time.monotonic() + wait
    while (pids := leftovers.live(processes_of(uid))) and time.monotonic() < deadline:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
    return pids


_counter = itertools.count()


def _start() -> int:
    """Where in the range this lease starts looking (spread, so referees rarely meet)."""
    return (os.getpid() * 7919 + next(_counter) * 104_729) % COUNT


def _candidates(start: int) -> Iterator[int]:
    """The uids a lease tries in turn: the ones this process released last, then all from ``start``."""
    while _recent:
        yield _recent.pop()
    for i in range(COUNT):
        yield FIRST_UID + (start + i) % COUNT


def quarantined() -> frozenset[int]:
    """The uids this process found something of after their sweep: never leased again by it."""
    return frozenset(_quarantined)


def _clean(uid: int) -> list[str]:
    """Kill the processes of ``uid``, sweep what it left; what survived (empty: usable again)."""
    return leftovers.sweep(uid, pids=kill_all(uid))


def _quarantine(uid: int, fd: int, left: list[str]) -> None:
    """Never lease ``uid`` again here; its lock stays held (up to :data:`HELD_MAX` of them), and
    its lock file says what survived (for the referees after this one)."""
    _quarantined.add(uid)
    log.warning(
        _("player uid {uid} will not be used again: what it left survived the sweep: {left}").format(
            uid=uid, left=" ".join(left)
        )
    )
    _note(fd, (" ".join(left) + "\n").encode())
    if len(_held) < HELD_MAX:
        _held.append(fd)
    else:
        os.close(fd)


SWEPT = b"swept\n"
"""What a uid's lock file says once it is released clean. :data:`LEASED` (or nothing, a new
file): leased, or its referee was killed hard; anything else: what survived its last sweep."""
LEASED = b"lease\n"


def _note(fd: int, text: bytes) -> None:
    """Say ``text`` in the lock file of ``fd`` (what the next referee to lease it reads)."""
    with contextlib.suppress(OSError):
        if os.pread(fd, 256, 0) != text:
            if os.fstat(fd).st_size != len(text):
                os.ftruncate(fd, 0)
            os.pwrite(fd, text, 0)


def _lock(folder: Path, uid: int) -> int | None:
    """A descriptor holding the lease of ``uid`` (None: someone holds it)."""
    fd = os.open(folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def _cleaned(uid: int, fd: int) -> bool:
    """Sweep ``uid`` (its lease held by ``fd``): whether nothing survived; if something did, it is
    quarantined (``fd`` with it)."""
    left = _clean(uid)
    if left:
        _quarantine(uid, fd, left)
        return False
    return True


_abandoned_swept: set[int] = set()
"""Pids of the processes that have swept the uids no one leases (once each)."""
RETRY_AFTER = 3600.0
"""Seconds before :func:`sweep_abandoned` tries again a uid an earlier referee quarantined."""


def sweep_abandoned() -> list[int]:
    """Sweep every player uid that owns something but is leased by no one (its referee killed
    hard, or one that did not sweep): the uids swept. Once per process, at its first lease.

    A uid quarantined by an earlier referee is tried again only :data:`RETRY_AFTER` later.
    """
    _abandoned_swept.add(os.getpid())
    folder = _lock_folder()
    swept = []
    for uid in sorted(leftovers.owners() - _quarantined):
        if not FIRST_UID <= uid < FIRST_UID + COUNT or (fd := _lock(folder, uid)) is None:
            continue  # not a player's, or leased: its referee sweeps it
        note = os.pread(fd, 256, 0)
        if note not in (b"", LEASED, SWEPT) and time.time() - os.fstat(fd).st_mtime < RETRY_AFTER:
            os.close(fd)
            continue
        swept.append(uid)
        if _cleaned(uid, fd):
            _note(fd, SWEPT)
            os.close(fd)
    return swept


class UidLease:
    """An exclusive uid for one player process, clean of anything an earlier player left;
    :meth:`release` when its processes are gone."""

    def __init__(self) -> None:
        if os.geteuid() != 0:
            raise UidError(_("only a root referee leases player uids"))
        if os.getpid() not in _abandoned_swept:
            sweep_abandoned()
        folder = _lock_folder()
        start = _start()
        self.clean = False
        """Swept and checked since its last player (nothing to do at :meth:`release`)."""
        for uid in _candidates(start):
            if uid in _quarantined or (fd := _lock(folder, uid)) is None:
                continue
            # Swept at its release (no process of it can have started since: none runs as a uid
            # but under its lease); else its referee was killed hard, or never swept, or what it
            # left did not go.
            if os.pread(fd, 256, 0) == SWEPT or _cleaned(uid, fd):
                _note(fd, LEASED)  # whoever finds it so sweeps it
                self.uid = uid
                self._fd = fd
                return
        raise UidError(_("all {count} player uids are leased").format(count=COUNT))

    def sweep(self) -> bool:
        """Kill what still runs as this uid and remove what it left; whether nothing survived.
        If something did, the uid is quarantined and this lease is over."""
        if self._fd < 0:
            return False
        if not self.clean:
            if not _cleaned(self.uid, self._fd):
                self._fd = -1
                return False
            self.clean = True
        return True

    def release(self, clean_shared: bool = True) -> None:
        """:meth:`sweep`, then free the uid (unless quarantined).

        ``clean_shared`` is no longer heeded: what a uid left is swept at every release.
        """
        if self.sweep():
            _note(self._fd, SWEPT)  # the next referee to lease it need not sweep it again
            os.close(self._fd)
            self._fd = -1
            _recent.append(self.uid)
            del _recent[:-RECENT_MAX]


class UidPool:
    """Leases kept by one referee process and used again: a uid whose processes are all known to
    be gone (its player's cgroup emptied) goes back here instead of being searched for and freed,
    once what it left is swept (a uid of which something survives is quarantined instead).

    Every uid is still used by one player process at a time, and only by this referee.
    """

    def __init__(self) -> None:
        self._free: list[UidLease] = []
        self.pid = os.getpid()

    def take(self) -> UidLease:
        try:
            lease = self._free.pop()  # one step: two threads never take the same one
        except IndexError:
            lease = UidLease()
        lease.clean = False  # from now on a player may leave something
        return lease

    def give_back(self, lease: UidLease) -> None:
        if lease.sweep():
            self._free.append(lease)

    def close(self) -> None:
        while self._free:
            self._free.pop().release()
