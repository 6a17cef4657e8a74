"""What a player's uid can leave behind on the machine once its processes are gone: found and removed.

A player process runs under a leased uid (:mod:`arena.containment.uids`). Whatever it made that
outlives it would be found by the next player of that uid, so before the uid is used again
:func:`sweep` removes, and :func:`leftovers` then looks for, everything of the uid that the
kernel keeps without a process:

* **processes** still running under it (real, effective or saved uid);
* **kernel keys**: /proc/key-users counts the uid's keys; when it shows any, a short process
  dropped to the uid empties and invalidates the keyrings that outlive processes (its user,
  user-session and persistent keyrings) and every key it owns (``keyctl`` through ctypes: no
  keyutils). The kernel frees them a little later; the count is awaited;
* **file locks** (/proc/locks) held by a process of the uid, or on a file of it removed here
  but still open somewhere (looked for only then: a lock lives no longer than its open file);
* **SysV IPC** (/proc/sysvipc: shared memory, semaphores, message queues) of the referee's IPC
  namespace, whose owner or creator is the uid: removed with ``IPC_RMID``;
* **POSIX message queues** of that namespace, seen through a private mqueue mount (made with
  ``fsopen``, attached nowhere) or /dev/mqueue;
* **files and folders** owned by the uid (or its group) anywhere under the machine's shared
  writable folders (:data:`PLACES`), to any depth.

Players in bubblewrap or warm-started have IPC, /tmp and /dev of their own, which die with
them; the sweep is the second line, and the whole story for ``--sandbox rlimits``.

The folders are walked without following a link, through descriptors (``openat`` with
``O_NOFOLLOW``, ``unlinkat``), entering only folders some player could enter (another player
may have moved or linked there what the uid left in its reach). Each process remembers the
folders it walked, watched with inotify (added before a folder is read, so no change is
missed): a folder with no event since is not read again, and a subtree holding nothing of any
player and no folder a player can write in is not entered again. Without inotify (or past its
limits) a folder is trusted unchanged only while its ctime and mtime (which no user can set
back) stay those of a while ago, and one no player can write in is read for its subfolders
alone. The walk stops at :data:`MAX_ENTRIES` entries read or :data:`MAX_DEPTH` levels: what it
could not see is a leftover. The referee's own staged folders (:data:`REFEREE_FOLDERS`) are not
walked; neither are mounts made after a folder was read (inotify does not see them; only root
mounts).

Knows nothing of the rules, the protocol or the sandbox.
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import os
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

from arena.containment import seal

PLACES = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/run/shm", tempfile.gettempdir())
"""Folders of the machine every user may write in (each walked whole; the same folder once)."""
REFEREE_FOLDERS = ("tute-arena-stage-",)
"""Names of the referee's own folders at the top of a place, not walked when root's and writable
by no one else: its staged copies of the players' folders (0711 over 0755 folders and 0644 files,
made by root, changed by no one but root)."""
MAX_ENTRIES = 200_000
"""The most folder entries one walk reads (beyond: not checked, so not clean)."""
MAX_DEPTH = 64
"""The deepest folder one walk enters (a tree of the uid itself is removed at any depth)."""
QUIET_NS = 2_000_000_000
"""Where inotify cannot watch: a folder unchanged this long is remembered, and not read again while
its ctime and mtime stay the same (no user can set those back)."""
KEYS_WAIT = 2.0
"""Seconds to wait for the kernel to free the keys of a uid once they are invalidated."""

IPC_RMID = 0
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
PLAYER_IDS = range(0x70000000, 0x70000000 + 65_536)
"""The uids (and gids) leased to players (:mod:`arena.containment.uids` leases them)."""

_libc = ctypes.CDLL(None, use_errno=True)
_libc.syscall.restype = ctypes.c_long

KEYS_CHILD = """
import ctypes, os, sys
uid = int(sys.argv[1])
number = int(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
os.setgroups([])
os.setresgid(uid, uid, uid)
os.setresuid(uid, uid, uid)

def keyctl(op, *args):
    return libc.syscall(number, ctypes.c_long(op), *(ctypes.c_ulong(a & (2**64 - 1)) for a in args))

SESSION, USER, USER_SESSION = -3, -4, -5
session = keyctl(1, 0)  # KEYCTL_JOIN_SESSION_KEYRING: an empty one of its own, gone when it exits
for spec in (USER, USER_SESSION):  # possessed through it: possessor rights on all they hold
    keyctl(8, keyctl(0, spec, 1), SESSION)

def owned():
    found = []
    with open("/proc/keys") as f:
        for line in f:
            fields = line.split(None, 9)
            if len(fields) >= 9 and int(fields[5]) == uid and int(fields[0], 16) != session:
                found.append((int(fields[0], 16), fields[7], fields[8] if len(fields) > 8 else ""))
    return found

if any(desc.startswith("_persistent.") for _, _, desc in owned()):
    keyctl(22, uid, SESSION)  # KEYCTL_GET_PERSISTENT, linked to the session: possessed too
keys = owned()
anchors = {key for key, _, desc in keys if desc.startswith(("_uid.", "_uid_ses.", "_persistent."))}
for key, kind, _ in keys:  # keys, then keyrings, then the keyrings they are reached through
    if kind != "keyring":
        keyctl(21, key)  # KEYCTL_INVALIDATE
for last in (False, True):
    for key, kind, _ in keys:
        if kind == "keyring" and (key in anchors) == last:
            keyctl(7, key)  # KEYCTL_CLEAR: unlinks what it could not see as well
            keyctl(21, key)
"""  # not shown
"""Run as root, dropped to the uid (its first argument) before it touches a key: ``keyctl``'s
number is the second. Whatever a player linked into its keyrings goes with them."""


@dataclass(frozen=True)
class _Entry:
    name: str
    mode: int
    uid: int
    gid: int
    key: tuple[int, int]
    """(st_dev, st_ino)."""

    @classmethod
    def of(cls, name: str, st: os.stat_result) -> _Entry:
        return cls(name, st.st_mode, st.st_uid, st.st_gid, (st.st_dev, st.st_ino))


_removed: dict[int, set[tuple[int, int, int]]] = {}
"""uid -> (major, minor, inode) of the files of it the last sweep removed (their locks are looked for)."""
_names = itertools.count()


# ---------------------------------------------------------------- processes


def processes_of(uid: int) -> list[int]:
    """Pids of live processes whose real, effective or saved uid is ``uid``.

    /proc/PID belongs to the process's effective uid (to root when it is not dumpable): one of
    another unprivileged uid cannot hold ``uid`` among its three (it could only have got there
    with CAP_SETUID), so only root's and ``uid``'s have their status read.
    """
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            owner = os.stat(f"/proc/{entry}").st_uid
            if owner == uid:
                found.append(int(entry))
                continue
            if owner != 0:
                continue
            fd = os.open(f"/proc/{entry}/status", os.O_RDONLY | os.O_CLOEXEC)  # not shown
            try:
                data = os.read(fd, 8192)
            finally:
                os.close(fd)
            at = data.index(b"\nUid:") + 5
            if uid in map(int, data[at : data.index(b"\n", at)].split()[:3]):
                found.append(int(entry))
        except (OSError, ValueError):
            continue
    return found


def live(pids: list[int]) -> list[int]:
    """``pids`` but the zombies (dead, holding nothing, waiting for their parent to reap them).

    A thread group's leader that exited before its other threads looks a zombie too: it is not
    one while its folder lists more than itself under ``task``.
    """
    out = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:  # not shown
                state = f.read().rpartition(b")")[2].split()[0]
            if state != b"Z" or len(os.listdir(f"/proc/{pid}/task")) > 1:  # not shown
                out.append(pid)
        except (OSError, IndexError):
            continue  # gone
    return out


# ---------------------------------------------------------------- kernel keys


def key_count(uid: int) -> int:
    """How many keys the kernel holds for ``uid`` (/proc/key-users; 0 when it has no line)."""
    try:
        with open("/proc/key-users", "rb") as f:  # not shown
            for line in f:
                head, _, rest = line.partition(b":")
                if head.strip() == str(uid).encode():
                    return int(rest.split()[1].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def remove_keys(uid: int) -> None:
    """Empty and invalidate every keyring and key of ``uid``, then wait (a while) for the kernel
    to free them. Only when it has keys: it costs a short process of the uid."""
    if not key_count(uid):
        return
    try:
        number = seal.number("keyctl")
    except seal.SealError:
        return
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [sys.executable, "-I", "-S", "-c", KEYS_CHILD, str(uid), str(number)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
            close_fds=True,
        )
    deadline = time.monotonic() + KEYS_WAIT
    pause = 0.001
    while key_count(uid) and time.monotonic() < deadline:
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


# ---------------------------------------------------------------- SysV IPC, POSIX message queues


def sysv_of(uid: int) -> list[tuple[str, int]]:
    """(``shm``/``sem``/``msg``, id) of this IPC namespace's SysV objects owned or made by ``uid``."""
    found = []
    for kind in ("shm", "sem", "msg"):
        try:
            with open(f"/proc/sysvipc/{kind}", "rb") as f:  # not shown
                header = f.readline().split()
                at = [header.index(b"uid"), header.index(b"cuid")]
                for line in f:
                    fields = line.split()
                    if any(int(fields[i]) == uid for i in at):
                        found.append((kind, int(fields[1])))
        except (OSError, ValueError, IndexError):
            continue
    return found


def remove_sysv(uid: int) -> None:
    for kind, ident in sysv_of(uid):
        if kind == "shm":
            _libc.shmctl(ctypes.c_int(ident), IPC_RMID, None)
        elif kind == "sem":
            _libc.semctl(ctypes.c_int(ident), 0, IPC_RMID)
        else:
            _libc.msgctl(ctypes.c_int(ident), IPC_RMID, None)


_mqueue: dict[int, int | None] = {}
"""pid -> a descriptor of this IPC namespace's POSIX message queue folder (None: none could be had)."""


def mqueue_folder() -> int | None:
    """A descriptor of the POSIX message queues' folder: a private mount of the mqueue file
    system (attached nowhere; the referee's own IPC namespace), else /dev/mqueue if mounted."""
    pid = os.getpid()
    if pid not in _mqueue:
        folder = _private_mqueue()
        _mqueue[pid] = folder if folder is not None else _dev_mqueue()
    return _mqueue[pid]


def _private_mqueue() -> int | None:
    try:
        fsopen, fsconfig, fsmount = (seal.number(name) for name in ("fsopen", "fsconfig", "fsmount"))
    except seal.SealError:
        return None
    fs = _libc.syscall(fsopen, b"mqueue", 1)  # FSOPEN_CLOEXEC
    if fs < 0:
        return None
    try:
        if _libc.syscall(fsconfig, ctypes.c_int(fs), 6, None, None, 0) < 0:  # FSCONFIG_CMD_CREATE
            return None
        mount = _libc.syscall(fsmount, ctypes.c_int(fs), 1, 0)  # FSMOUNT_CLOEXEC
        if mount < 0:
            return None
        try:
            return os.open(".", DIR_FLAGS, dir_fd=mount)
        except OSError:
            return None
        finally:
            os.close(mount)
    finally:
        os.close(fs)


def _dev_mqueue() -> int | None:
    if not _is_mqueue("/dev/mqueue"):
        return None
    try:
        return os.open("/dev/mqueue", DIR_FLAGS)
    except OSError:
        return None


def _is_mqueue(path: str) -> bool:
    with contextlib.suppress(OSError), open("/proc/self/mounts") as f:  # not shown
        return any(line.split()[1:3] == [path, "mqueue"] for line in f)
    return False


def mqueues_of(uid: int, gid: int | None = None) -> list[str]:
    """Names of this IPC namespace's POSIX message queues owned by ``uid`` (or ``gid``)."""
    folder = mqueue_folder()
    if folder is None:
        return []
    found = []
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in entries:
            with contextlib.suppress(OSError):
                info = entry.stat(follow_symlinks=False)
                if info.st_uid == uid or info.st_gid == gid:
                    found.append(entry.name)
    return found


def remove_mqueues(uid: int, gid: int | None = None) -> None:
    folder = mqueue_folder()
    for name in mqueues_of(uid, gid) if folder is not None else []:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)


# ---------------------------------------------------------------- locks


def locks_of(uid: int, pids: list[int]) -> list[str]:
    """/proc/locks lines of locks held by one of ``pids`` (the uid's processes), or on a file of
    ``uid`` removed by the last sweep (an open file description of it is still alive somewhere)."""
    mine = set(pids)
    removed = _removed.get(uid, set())
    found = []
    with contextlib.suppress(OSError), open("/proc/locks") as f:  # not shown
        for line in f:
            fields = line.split()
            if "->" in fields:
                fields.remove("->")
            try:
                pid = int(fields[4])
                major, minor, inode = fields[5].split(":")
                where = (int(major, 16), int(minor, 16), int(inode))
            except (IndexError, ValueError):
                continue
            if pid in mine or where in removed:
                found.append(f"{fields[1]}:{pid}:{fields[5]}")
    return found


# ---------------------------------------------------------------- files


IN_ATTRIB, IN_MOVED_FROM, IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x4, 0x40, 0x80, 0x100, 0x200
IN_DELETE_SELF, IN_MOVE_SELF, IN_Q_OVERFLOW, IN_IGNORED, IN_ONLYDIR = 0x400, 0x800, 0x4000, 0x8000, 0x1000000
WATCH = (
    IN_ATTRIB
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
    | IN_ONLYDIR
)
"""What changes a folder in a way a walk cares for: an entry made, removed, moved in or out, or its
owner or mode changed (the folder's own, or an entry's)."""
MAX_FOLDERS = 200_000
"""The most folders remembered between walks."""


class _Node:
    """What the walks of this process know of one folder."""

    __slots__ = ("changed", "clean", "ctime", "entries", "mtime", "parent", "watched")

    def __init__(self, info: os.stat_result, entries: list[_Entry], parent: tuple[int, int] | None) -> None:
        self.ctime, self.mtime = info.st_ctime_ns, info.st_mtime_ns
        self.entries = entries
        self.parent = parent
        self.watched = False
        """inotify tells of its changes (else it is trusted only unchanged a while, and never skipped)."""
        self.changed = False
        """Changed since it was read."""
        self.clean = False
        """Nothing of a player below it and no folder a player may write in: not entered again
        while watched and unchanged."""


class _Tree:
    """The folders of :data:`PLACES` read by this process's walks, and an inotify instance watching
    them, which says what changed since (without it, or past its limits, every walk reads every
    folder again, but those unchanged a while)."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.nodes: dict[tuple[int, int], _Node] = {}
        self.wds: dict[int, tuple[int, int]] = {}
        self.fd = _libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def watch(self, fd: int, key: tuple[int, int]) -> bool:
        """Watch the folder ``fd`` (the very one: through its descriptor); whether it is."""
        if self.fd < 0:
            return False
        wd = _libc.inotify_add_watch(self.fd, f"/proc/self/fd/{fd}".encode(), WATCH)  # not shown
        if wd < 0:
            return False
        self.wds[wd] = key
        return True

    def catch_up(self) -> bool:
        """Mark the folders changed since the last walk; False when that cannot be known (the events
        overflowed): everything is forgotten."""
        while self.fd >= 0:
            try:
                data = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                return True
            except OSError:
                return False
            at = 0
            while at + 16 <= len(data):
                wd, mask, _cookie, size = struct.unpack_from("iIII", data, at)
                at += 16 + size
                if mask & IN_Q_OVERFLOW:
                    return False
                key = self.wds.get(wd)
                if key is None:
                    continue
                if mask & IN_IGNORED:
                    del self.wds[wd]
                    node = self.nodes.pop(key, None)
                    self.spoil(node.parent if node else None)
                else:
                    self.spoil(key, changed=True)
        return True

    def spoil(self, key: tuple[int, int] | None, changed: bool = False) -> None:
        """The folder ``key`` (changed, if so) and all above it are no longer known clean."""
        node = self.nodes.get(key) if key else None
        if node is not None and changed:
            node.changed = True
        for _ in range(MAX_DEPTH + 2):
            if node is None:
                return
            node.clean = False
            node = self.nodes.get(node.parent) if node.parent else None


_trees: dict[int, _Tree] = {}
"""pid -> its :class:`_Tree` (a forked child never reads its parent's events)."""
_walking = threading.Lock()
"""Held through a walk: another thread's could take the events that say what changed, and skip it."""


def _after_fork() -> None:
    global _walking
    _walking = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


def _tree() -> _Tree:
    pid = os.getpid()
    tree = _trees.get(pid)
    if tree is not None and (len(tree.nodes) > MAX_FOLDERS or not tree.catch_up()):
        tree.close()
        tree = None
    if tree is None:
        for other in _trees.values():
            other.close()  # a parent's (this process was forked): its copy, never read here
        _trees.clear()
        tree = _trees[pid] = _Tree()
    return tree


class _Walk:
    """One walk of :data:`PLACES` for the entries of ``uid`` (or ``gid``): removed, or listed; or,
    with no ``uid``, for the players' uids owning any (:attr:`owners`)."""

    tree: _Tree
    """This process's, while :meth:`places` walks."""

    def __init__(self, uid: int | None, gid: int | None, remove: bool) -> None:
        self.uid, self.gid, self.remove = uid, gid, remove
        self.found: list[str] = []
        self.owners: set[int] = set()
        self.removed: set[tuple[int, int, int]] = set()
        self.budget = MAX_ENTRIES
        self.seen: set[tuple[int, int]] = set()
        self.quiet_before = time.time_ns() - QUIET_NS

    def places(self) -> None:
        with _walking:
            self.tree = _tree()
            for place in PLACES:
                try:
                    fd = os.open(place, DIR_FLAGS)
                except OSError:
                    continue
                try:
                    self.folder(fd, place, 0, None)
                finally:
                    os.close(fd)

    def mine(self, uid: int, gid: int) -> bool:
        if self.uid is None:
            return uid in PLAYER_IDS or gid in PLAYER_IDS
        return uid == self.uid or gid == self.gid

    @staticmethod
    def searchable(entry: _Entry) -> bool:
        """Whether some player could enter this folder (not the uid's own), so put something of the
        uid there: another player may move or link there a file the uid left it in reach of."""
        return bool(entry.mode & 0o001) or entry.uid in PLAYER_IDS or entry.gid in PLAYER_IDS

    @staticmethod
    def referees(entry: _Entry) -> bool:
        """Whether this is one of :data:`REFEREE_FOLDERS`."""
        return entry.name.startswith(REFEREE_FOLDERS) and entry.uid == 0 and not entry.mode & 0o022

    def folder(self, fd: int, path: str, depth: int, parent: tuple[int, int] | None) -> bool:
        """Walk the folder ``fd``; whether it is clean (see :attr:`_Node.clean`)."""
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino)
        if key in self.seen:  # /var/lock is /run/lock, /run/shm is /dev/shm
            return True
        self.seen.add(key)
        node = self.read(fd, info, parent)
        clean = node.watched and not self.every(info)
        for entry in node.entries:
            where = f"{path.rstrip('/')}/{entry.name}"
            if entry.uid in PLAYER_IDS or entry.gid in PLAYER_IDS:
                clean = False
            if self.mine(entry.uid, entry.gid):
                if self.uid is None:
                    self.owners.add(entry.uid if entry.uid in PLAYER_IDS else entry.gid)
                elif not self.remove:
                    self.found.append(f"file:{where}")
                else:
                    if stat.S_ISDIR(entry.mode):
                        self.remove_tree(fd, entry.name)
                    else:
                        self.remove_file(fd, entry.name)
                    with contextlib.suppress(FileNotFoundError):
                        os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                        self.found.append(f"file:{where}")  # could not be removed
            elif depth == 0 and self.referees(entry):
                continue
            elif stat.S_ISDIR(entry.mode) and self.searchable(entry):
                below = self.tree.nodes.get(entry.key)
                if below and below.clean and below.watched and not below.changed and below.parent == key:
                    continue  # nothing changed there since it was found clean
                if depth >= MAX_DEPTH:
                    self.found.append(f"unchecked:{where}")
                    clean = False
                    continue
                try:
                    child = os.open(entry.name, DIR_FLAGS, dir_fd=fd)
                except OSError:
                    clean = False
                    continue  # gone, or no longer a folder
                try:
                    clean = self.folder(child, where, depth + 1, key) and clean
                finally:
                    os.close(child)
        node.clean = clean and self.budget >= 0
        return node.clean

    @staticmethod
    def every(info: os.stat_result) -> bool:
        """Whether a player may write in the folder: anyone may, or it is a player's (its owner or
        its group: a player has no group but its own)."""
        return bool(info.st_mode & 0o002) or info.st_uid in PLAYER_IDS or info.st_gid in PLAYER_IDS

    def read(self, fd: int, info: os.stat_result, parent: tuple[int, int] | None) -> _Node:
        """What matters in the folder ``fd`` (see :meth:`scan`), read again only if it changed."""
        key = (info.st_dev, info.st_ino)
        node = self.tree.nodes.get(key)
        if node is not None and (node.ctime, node.mtime) == (info.st_ctime_ns, info.st_mtime_ns):
            if node.watched and not node.changed:
                node.parent = parent
                return node
            if not node.watched and max(node.ctime, node.mtime) < self.quiet_before:
                node.entries = self.restat(fd, node.entries)  # unwatched: their modes may have changed
                node.parent = parent
                return node
        watched = self.tree.watch(fd, key)  # before reading: no change is missed in between
        node = _Node(info, self.scan(fd, self.every(info) or watched), parent)
        node.watched = watched
        whole = self.budget >= 0  # else its entries were not all read: not remembered
        if whole and (watched or max(node.ctime, node.mtime) < self.quiet_before):
            self.tree.nodes[key] = node
        else:
            self.tree.nodes.pop(key, None)
        return node

    def scan(self, fd: int, every: bool) -> list[_Entry]:
        """The entries of the folder ``fd``: ``every`` one, or only its folders (enough where no
        player may write: they may lead to where one may; a watched folder is read seldom, whole)."""
        out = []
        try:
            with os.scandir(fd) as listing:
                for item in listing:
                    self.budget -= 1
                    if self.budget < 0:
                        if self.budget == -1:
                            self.found.append(f"unchecked:more-than-{MAX_ENTRIES}-entries")  # not shown
                        break
                    with contextlib.suppress(OSError):
                        if every or item.is_dir(follow_symlinks=False):
                            st = item.stat(follow_symlinks=False)
                            out.append(_Entry.of(item.name, st))
        except OSError:
            pass
        return out

    @staticmethod
    def restat(fd: int, entries: list[_Entry]) -> list[_Entry]:
        """Remembered entries, each folder's mode and owners read again; a file's owner does not
        change but by root's hand."""
        out = []
        for entry in entries:
            if not stat.S_ISDIR(entry.mode):
                out.append(entry)
                continue
            with contextlib.suppress(OSError):
                st = os.stat(entry.name, dir_fd=fd, follow_symlinks=False)
                out.append(_Entry.of(entry.name, st))
        return out

    def note_removed(self, st: os.stat_result) -> None:
        self.removed.add((os.major(st.st_dev), os.minor(st.st_dev), st.st_ino))

    def remove_file(self, parent: int, name: str) -> None:
        with contextlib.suppress(OSError):
            st = os.stat(name, dir_fd=parent, follow_symlinks=False)
            if not stat.S_ISDIR(st.st_mode):
                self.note_removed(st)
                os.unlink(name, dir_fd=parent)

    def remove_tree(self, parent: int, name: str) -> None:
        """Remove the folder ``name`` and all below it, never through a link. A tree deeper than
        :data:`MAX_DEPTH` is flattened (its deep folders moved up, to be emptied after) instead of
        being held open whole."""
        try:
            top = os.open(name, DIR_FLAGS, dir_fd=parent)
        except OSError:
            self.remove_file(parent, name)  # replaced by a file or a link meanwhile
            return
        pending: list[str] = []
        try:
            self.empty(top, top, 1, pending)
            while pending:
                moved = pending.pop()
                with contextlib.suppress(OSError):
                    child = os.open(moved, DIR_FLAGS, dir_fd=top)
                    try:
                        self.empty(child, top, 1, pending)
                    finally:
                        os.close(child)
                    os.rmdir(moved, dir_fd=top)
        finally:
            os.close(top)
        with contextlib.suppress(OSError):
            os.rmdir(name, dir_fd=parent)

    def empty(self, fd: int, top: int, depth: int, pending: list[str]) -> None:
        try:
            with os.scandir(fd) as listing:
                items = list(listing)
        except OSError:
            return
        for item in items:
            with contextlib.suppress(OSError):
                st = item.stat(follow_symlinks=False)
                if not stat.S_ISDIR(st.st_mode):
                    self.note_removed(st)
                    os.unlink(item.name, dir_fd=fd)
                elif depth >= MAX_DEPTH:
                    moved = f".tute-arena-swept-{os.getpid()}-{next(_names)}"  # not shown
                    os.rename(item.name, moved, src_dir_fd=fd, dst_dir_fd=top)
                    pending.append(moved)
                else:
                    child = os.open(item.name, DIR_FLAGS, dir_fd=fd)
                    try:
                        self.empty(child, top, depth + 1, pending)
                    finally:
                        os.close(child)
                    os.rmdir(item.name, dir_fd=fd)


def files_of(uid: int, gid: int | None = None) -> list[str]:
    """``file:PATH`` of each entry of ``uid`` (or ``gid``) in :data:`PLACES`, ``unchecked:…`` where
    the walk could not look."""
    walk = _Walk(uid, gid, remove=False)
    walk.places()
    return walk.found


def remove_files(uid: int, gid: int | None = None) -> list[str]:
    """Remove every entry of ``uid`` (or ``gid``) in :data:`PLACES`, folders with all they hold:
    what remains, as :func:`files_of` says it (the same walk: no process of the uid can add any)."""
    walk = _Walk(uid, gid, remove=True)
    walk.places()
    _removed[uid] = walk.removed
    return walk.found


# ---------------------------------------------------------------- all of it


def owners() -> set[int]:
    """The players' uids (:data:`PLAYER_IDS`) that own something this module sweeps: keys, SysV or
    POSIX IPC objects, files (a walk of :data:`PLACES`). Some may be leased (in use) just now."""
    found = set()
    with contextlib.suppress(OSError), open("/proc/key-users", "rb") as f:  # not shown
        for line in f:
            with contextlib.suppress(ValueError):
                found.add(int(line.partition(b":")[0]))
    for kind in ("shm", "sem", "msg"):
        path = f"/proc/sysvipc/{kind}"  # not shown
        with contextlib.suppress(OSError, ValueError, IndexError), open(path, "rb") as f:
            header = f.readline().split()
            at = [header.index(b"uid"), header.index(b"cuid")]
            for line in f:
                found.update(int(line.split()[i]) for i in at)
    folder = mqueue_folder()
    if folder is not None:
        with contextlib.suppress(OSError), os.scandir(folder) as entries:
            for entry in entries:
                with contextlib.suppress(OSError):
                    found.add(entry.stat(follow_symlinks=False).st_uid)
    walk = _Walk(None, None, remove=False)
    walk.places()
    return {uid for uid in found if uid in PLAYER_IDS} | walk.owners


def sweep(uid: int, gid: int | None = None, pids: list[int] | None = None) -> list[str]:
    """Remove what ``uid`` left (its processes must be gone: see :func:`arena.containment.uids.kill_all`),
    then :func:`leftovers`: empty when the uid can be used again."""
    gid = uid if gid is None else gid
    remove_sysv(uid)  # first: a segment or a queue holds its maker's credentials, and so its keyrings
    remove_mqueues(uid, gid)
    files = remove_files(uid, gid)
    remove_keys(uid)
    return leftovers(uid, gid, pids, files)


def leftovers(
    uid: int, gid: int | None = None, pids: list[int] | None = None, files: list[str] | None = None
) -> list[str]:
    """What of ``uid`` remains on the machine, one short ``kind:what`` each (empty: nothing).

    ``gid`` is the group its players ran with (by default, the same number); ``pids``, its live
    processes if just looked for (none can start meanwhile: the uid is leased), and ``files``,
    what of it a sweep's walk could not remove. A zombie is no leftover: it holds nothing.
    """
    gid = uid if gid is None else gid
    if pids is None:
        pids = live(processes_of(uid))
    found = [f"process:{pid}" for pid in pids]
    if keys := key_count(uid):
        found.append(f"keys:{keys}")
    if pids or _removed.get(uid):  # reading /proc/locks stalls every lock on the machine a moment
        found += [f"lock:{where}" for where in locks_of(uid, pids)]
    found += [f"{kind}:{ident}" for kind, ident in sysv_of(uid)]
    found += [f"mqueue:/{name}" for name in mqueues_of(uid, gid)]
    found += files_of(uid, gid) if files is None else files
    return found
