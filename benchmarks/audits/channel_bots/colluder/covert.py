"""Covert channels between two colluding players (issue 27): each publishes its hand, reads its peer's.

Used by ``player.py`` in this folder, driven by ``benchmarks/audits/channels.py``, which writes
``channel.json`` beside it before each partido::

    {"game": "cabrero" | "parejas", "channel": "flock", "nonce": "<hex>", "links": [[seat, seat]]}

``links``: the seats that collude, in pairs; a seat in no pair just plays. In each pair the
first seat is sender index 0, the second index 1 (their places on a shared board).
``"debug": true`` also logs the timing channel's raw samples.

Every mano, at ``mano_start``, each linked seat *publishes* its hand through the channel; at
its first request of the mano it *reads* its peer's (polling for a moment: the peer may not
have seen ``mano_start`` yet). The timing channel instead sends during the sender's first
move and is decoded when its card arrives. What a bot decoded goes to standard error, one
line ``CHANNEL {json}`` per attempt, for the benchmark to compare with the replay. Anything a
channel cannot do (a syscall refused, a file missing) is written down and the bot plays on:
it always plays a legal card.

A hand is sent as the rank of its set of cards in the combinatorial number system:
``ceil(log2 C(40, k))`` bits (30 for the ten cards of four seats, 34 for thirteen), and the
receiver knows ``k``: its own hand's size.

Each channel has several *vias* (ways through), decoded independently; e.g. ``flock`` locks
files of ``/opt/arena`` (the SDK every player sees), of ``/usr/lib/python3*`` and of the
player's own staged folder ``/player``, and reads them back either by trying the lock or by
reading ``/proc/locks``.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import glob
import json
import os
import platform
import random
import re
import socket
import struct
import sys
import threading
import time
import zlib
from math import comb
from typing import ClassVar

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = 40
MAX_BITS = (comb(DECK, 13) - 1).bit_length()  # 34: the largest hand of these tables (3 seats)
CODE_BITS = 2  # the mano, as (mano % 3) + 1: 0 means "being written"
BOARD = CODE_BITS + MAX_BITS  # places of one sender on a board
POLL_S = 0.2  # how long a reader waits for its peer's frame after mano_start
libc = ctypes.CDLL(None, use_errno=True)


def load_config() -> dict:
    try:
        with open(os.path.join(HERE, "channel.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


CONFIG = load_config()


def emit(**fields: object) -> None:
    """One ``CHANNEL {json}`` line on standard error (the player's log)."""
    print("CHANNEL " + json.dumps(fields, separators=(",", ":")), file=sys.stderr, flush=True)


def oserror(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno:
        return f"{errno.errorcode.get(exc.errno, exc.errno)}: {exc.strerror}"
    return f"{type(exc).__name__}: {exc}"


def ctypes_error(what: str) -> OSError:
    e = ctypes.get_errno()
    return OSError(e, f"{what}: {os.strerror(e)}")


class Unavailable(Exception):
    """This via cannot work here (nothing to lock, a call refused): not worth polling."""


class Garbled(Exception):
    """A frame was there but decodes to no hand (noise): not worth polling."""


def hand_or_garbled(bits: list[int] | None, k: int) -> list[int] | None:
    """The hand ``bits`` encode; None when there are no bits yet; Garbled when they encode none."""
    if bits is None:
        return None
    hand = bits_hand(bits, k)
    if hand is None:
        raise Garbled("garbled")
    return hand


# ---------------------------------------------------------------- hands as bits


def hand_bits(ids: list[int]) -> list[int]:
    """The rank of the set ``ids`` among all sets of its size, as bits (least significant first)."""
    rank = sum(comb(c, i + 1) for i, c in enumerate(sorted(ids)))
    return [(rank >> j) & 1 for j in range(data_bits(len(ids)))]


def bits_hand(bits: list[int], k: int) -> list[int] | None:
    """The set of ``k`` card ids whose rank is ``bits``; None if no such set."""
    rank = sum(b << j for j, b in enumerate(bits))
    if rank >= comb(DECK, k):
        return None
    out = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= rank:
            c += 1
        out.append(c)
        rank -= comb(c, i)
    return sorted(out)


def data_bits(k: int) -> int:
    return max(1, (comb(DECK, k) - 1).bit_length())


def names(ids: list[int] | None) -> list[str] | None:
    from arena.cards import NAMES

    return None if ids is None else [NAMES[c] for c in ids]


def ids_of(hand: list[str]) -> list[int]:
    from arena.cards import parse

    return sorted(parse(c) for c in hand)


# ---------------------------------------------------------------- what every player sees alike


def locations() -> dict[str, list[str]]:
    """Shared places by via name: the SDK folder, system files, the player's own staged folder.

    Every player sees the same ``/opt/arena`` and ``/usr`` (the same inodes, read-only);
    the two processes of a parejas entrant see the same staged copy of their folder.
    """
    import arena

    sdk = os.path.dirname(os.path.abspath(arena.__file__))
    entries = [sdk]
    for root, dirs, files in os.walk(sdk):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        entries += [os.path.join(root, d) for d in dirs]
        entries += [
            os.path.join(root, f) for f in files if not f.startswith(".") and not f.endswith((".pyc", "~"))
        ]
    files = sorted(p for p in entries if os.path.isfile(p))
    return {
        "opt": distinct(
            files + sorted(p for p in entries if not os.path.isfile(p))
        ),  # folders last: others list them
        "usr": distinct(sorted(glob.glob("/usr/lib/python3*/*.py"))),
        "player": distinct(sorted(glob.glob(os.path.join(HERE, "lockfiles", "*")))),
    }


def distinct(paths: list[str]) -> list[str]:
    """``paths`` less those naming an object already named (symbolic and hard links): one place each."""
    seen, out = set(), []
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) not in seen:
            seen.add((st.st_dev, st.st_ino))
            out.append(p)
    return out


def one_file_each(via: str, places: list[str]) -> list[str]:
    """Files for byte-range locks, one per sender: files this process never opens otherwise
    (closing any descriptor of a file drops a process's POSIX locks on it)."""
    files = [p for p in places if os.path.isfile(p)]
    if via != "opt":
        return files[::-1]
    web = [p for p in files if p.endswith((".js", ".css", ".html", ".svg", ".typed"))]
    return web if len(web) >= 2 else [p for p in files if not p.endswith(".py")]


def file_id(path: str) -> tuple[int, int, int]:
    st = os.stat(path)
    return os.major(st.st_dev), os.minor(st.st_dev), st.st_ino


def proc_locks() -> list[tuple[str, tuple[int, int, int], int, int]]:
    """``/proc/locks``: (kind, (major, minor, inode), first byte, last byte) of every lock held
    (waiters left out; a lock to the end of the file ends at byte 2**62)."""
    out = []
    with open("/proc/locks") as f:
        for line in f:
            if "->" in line:
                continue
            tokens = line.split()
            for j, tok in enumerate(tokens):
                m = re.fullmatch(r"([0-9a-f]+):([0-9a-f]+):(\d+)", tok)
                if m:
                    span = [*tokens[j + 1 : j + 3], "0", "0"][:2]
                    start = int(span[0]) if span[0].isdigit() else 0
                    end = int(span[1]) if span[1].isdigit() else 1 << 62
                    out.append((tokens[1], (int(m[1], 16), int(m[2], 16), int(m[3])), start, end))
                    break
    return out


# ---------------------------------------------------------------- channels


class Channel:
    """A way for ``seat`` to send its hand to ``peer`` and read the peer's."""

    name = ""
    vias: tuple[str, ...] = ()

    def __init__(self, nonce: str) -> None:
        self.nonce = nonce
        self.seat = self.peer = -1
        self.index = self.peer_index = 0
        self.errors: dict[str, str] = {}  # via -> why it cannot work (set once)

    def hello(self) -> None:
        """At ``hello`` (before the seat is known)."""

    def start(self, seat: int, peer: int, index: int) -> None:
        self.seat, self.peer, self.index, self.peer_index = seat, peer, index, 1 - index

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        """Send this mano's hand; returns the vias' errors."""
        return {}

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        """The peer's hand through ``via`` if it is there now (None: not yet)."""
        raise Unavailable("not implemented")

    def receive(self, mano: int, k: int, deadline: float) -> tuple[dict, dict]:
        """Poll every via until it yields or ``deadline``: (hands by via, errors by via)."""
        got: dict[str, list[int]] = {}
        errors = {v: e for v, e in self.errors.items() if v in self.vias}
        pending = [v for v in self.vias if v not in errors]
        while True:
            for via in list(pending):
                try:
                    hand = self.read(via, mano, k)
                except (Unavailable, Garbled) as exc:
                    errors[via] = str(exc)
                    pending.remove(via)
                    continue
                except OSError as exc:
                    errors[via] = oserror(exc)
                    pending.remove(via)
                    continue
                if hand is not None:
                    got[via] = hand
                    pending.remove(via)
            if not pending or time.monotonic() >= deadline:
                return got, errors
            time.sleep(0.004)

    def mano_start(self, mano: int, when: float) -> None:
        """Every mano_start (linked or not), before publishing."""

    def close(self) -> None:
        pass


def payload(nonce: str, seat: int, mano: int, ids: list[int]) -> bytes:
    return json.dumps({"n": nonce, "s": seat, "m": mano, "h": ids}, separators=(",", ":")).encode()


def check_payload(raw: bytes, nonce: str, seat: int, mano: int) -> list[int] | None:
    try:
        data = json.loads(raw.split(b"\0", 1)[0].decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(data, dict) and data.get("n") == nonce and data.get("s") == seat and data.get("m") == mano:
        return sorted(int(c) for c in data["h"])
    return None


# ---- boards: one bit per place, written as a frame (code, data) --------------


class Board:
    """A sender's places on shared objects; subclasses say how a bit is set and read."""

    def __init__(self, places: list[str]) -> None:
        self.places = places

    def set(self, j: int, bit: int) -> None:
        raise NotImplementedError

    def get(self, j: int) -> int:
        raise NotImplementedError

    def write(self, mano: int, bits: list[int]) -> None:
        code = mano % 3 + 1
        self.set(0, 0)
        self.set(1, 0)
        for j in range(MAX_BITS):
            self.set(CODE_BITS + j, bits[j] if j < len(bits) else 0)
        self.set(0, code & 1)
        self.set(1, code >> 1 & 1)

    def code(self) -> int:
        return self.get(0) | self.get(1) << 1

    def read(self, mano: int, n: int) -> list[int] | None:
        want = mano % 3 + 1
        if self.code() != want:
            return None
        bits = [self.get(CODE_BITS + j) for j in range(n)]
        return bits if self.code() == want else None


class FlockBoard(Board):
    """A bit per file: shared-locked (flock) or not. Read by trying an exclusive lock."""

    def __init__(self, places: list[str]) -> None:
        super().__init__(places)
        self.fds = [os.open(p, os.O_RDONLY | os.O_CLOEXEC) for p in places]
        self.held = [False] * len(places)

    def set(self, j: int, bit: int) -> None:
        if bit and not self.held[j]:
            fcntl.flock(self.fds[j], fcntl.LOCK_SH)
        elif not bit and self.held[j]:
            fcntl.flock(self.fds[j], fcntl.LOCK_UN)
        self.held[j] = bool(bit)

    def get(self, j: int) -> int:
        try:
            fcntl.flock(self.fds[j], fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return 1
        fcntl.flock(self.fds[j], fcntl.LOCK_UN)
        return 0


F_OFD_GETLK, F_OFD_SETLK = 36, 37
FLOCK_STRUCT = "hhqqi4x"  # struct flock on 64-bit Linux: type, whence, start, len, pid


class RangeBoard(Board):
    """A bit per byte of one file: a read lock on byte j (POSIX or OFD record locks)."""

    def __init__(self, path: str, ofd: bool) -> None:
        super().__init__([path])
        self.fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        self.ofd = ofd
        self.setlk, self.getlk = (F_OFD_SETLK, F_OFD_GETLK) if ofd else (fcntl.F_SETLK, fcntl.F_GETLK)

    def _lock(self, cmd: int, kind: int, j: int) -> int:
        arg = struct.pack(FLOCK_STRUCT, kind, os.SEEK_SET, j, 1, 0)
        return struct.unpack(FLOCK_STRUCT, fcntl.fcntl(self.fd, cmd, arg))[0]

    def set(self, j: int, bit: int) -> None:
        self._lock(self.setlk, fcntl.F_RDLCK if bit else fcntl.F_UNLCK, j)

    def get(self, j: int) -> int:
        return int(self._lock(self.getlk, fcntl.F_WRLCK, j) != fcntl.F_UNLCK)


class ProcLocksBoard(Board):
    """Reads a peer's locks from ``/proc/locks`` alone (no lock call): by inode, and byte for ranges."""

    def __init__(self, places: list[str], kind: str) -> None:
        super().__init__(places)
        self.kind = kind  # FLOCK, POSIX or OFDLCK
        self.ids = [file_id(p) for p in places]
        self.seen: set = set()

    def read(self, mano: int, n: int) -> list[int] | None:
        locks = proc_locks()
        if self.kind == "FLOCK":
            self.seen = {fid for kind, fid, _, _ in locks if kind == "FLOCK"}
        else:  # the kernel shows one owner's adjacent byte locks merged into one range
            self.seen = {
                byte
                for kind, fid, start, end in locks
                if kind == self.kind and fid == self.ids[0]
                for byte in range(start, min(end, BOARD) + 1)
            }
        return super().read(mano, n)

    def get(self, j: int) -> int:
        return int((self.ids[j] if self.kind == "FLOCK" else j) in self.seen)


class LockChannel(Channel):
    """flock / POSIX / OFD locks on shared read-only files (``/opt/arena``, ``/usr``, ``/player``)."""

    kind = "flock"
    vias = ("opt", "usr", "player", "proc-locks")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.mine: dict[str, Board] = {}
        self.theirs: dict[str, Board] = {}
        self.proc: dict[str, Board] = {}

    def places(self, via: str, places: list[str], index: int) -> list[str]:
        if self.kind == "flock":
            chunk = places[index * BOARD : (index + 1) * BOARD]
            if len(chunk) < BOARD:
                raise Unavailable(f"{len(places)} places in {via}: no room for two boards of {BOARD}")
            return chunk
        files = one_file_each(via, places)
        if len(files) < 2:
            raise Unavailable(f"{len(files)} files in {via}")
        return [files[index]]

    def board(self, places: list[str]) -> Board:
        if self.kind == "flock":
            return FlockBoard(places)
        return RangeBoard(places[0], ofd=self.kind == "ofd")

    def start(self, seat: int, peer: int, index: int) -> None:
        super().start(seat, peer, index)
        proc_kind = {"flock": "FLOCK", "posix": "POSIX", "ofd": "OFDLCK"}[self.kind]
        for via, places in locations().items():
            try:
                self.mine[via] = self.board(self.places(via, places, self.index))
                theirs = self.places(via, places, self.peer_index)
                self.theirs[via] = self.board(theirs)
                if via == "opt":  # /proc/locks is read for the SDK's files (any location would do)
                    self.proc["proc-locks"] = ProcLocksBoard(theirs, proc_kind)
            except (Unavailable, OSError) as exc:
                self.errors[via] = oserror(exc) if isinstance(exc, OSError) else str(exc)
                if via == "opt":
                    self.errors["proc-locks"] = self.errors[via]

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        errors = {}
        bits = hand_bits(ids)
        for via, board in self.mine.items():
            try:
                board.write(mano, bits)
            except OSError as exc:
                errors[via] = oserror(exc)
        return errors

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        board = self.proc.get(via) or self.theirs.get(via)
        if board is None:
            raise Unavailable("no board")
        if via == "proc-locks" and not os.path.exists("/proc/locks"):
            raise Unavailable("no /proc/locks")
        return hand_or_garbled(board.read(mano, data_bits(k)), k)


class FlockChannel(LockChannel):
    name, kind = "flock", "flock"


class PosixLockChannel(LockChannel):
    name, kind = "posix-lock", "posix"


class OfdLockChannel(LockChannel):
    name, kind = "ofd-lock", "ofd"


# ---- inotify: pulses (a file opened) between two markers ------------------------

IN_OPEN, IN_ACCESS, IN_NONBLOCK, IN_CLOEXEC = 0x20, 0x1, 0o4000, 0o2000000
PULSES = 2 + BOARD  # begin, end, then the board


class InotifyChannel(Channel):
    """Watches (IN_OPEN, IN_ACCESS) on shared files; the sender opens the files of its 1 bits."""

    name = "inotify"
    vias = ("opt", "usr", "player")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.fd = -1
        self.watch: dict[int, tuple[str, int, int]] = {}  # wd -> (via, sender index, pulse)
        self.places: dict[str, list[str]] = {}
        self.frames: dict[tuple[str, int, int], list[int]] = {}  # (via, index, code) -> bits
        self.open: dict[tuple[str, int], list[int] | None] = {}

    def hello(self) -> None:
        """Watch every pulse file of both senders now: before any peer can pulse."""
        for via, places in locations().items():
            if len(places) < 2 * PULSES:
                self.errors[via] = f"{len(places)} places in {via}: no room for two sets of {PULSES}"
                continue
            self.places[via] = places
        try:
            self.fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
            if self.fd < 0:
                raise ctypes_error("inotify_init1")
            for via, places in self.places.items():
                for index in (0, 1):
                    for pulse in range(PULSES):
                        path = places[index * PULSES + pulse].encode()
                        wd = libc.inotify_add_watch(self.fd, path, IN_OPEN | IN_ACCESS)
                        if wd < 0:
                            raise ctypes_error("inotify_add_watch")
                        self.watch[wd] = (via, index, pulse)
        except OSError as exc:
            for via in self.vias:
                self.errors.setdefault(via, oserror(exc))

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        bits = hand_bits(ids)
        code = mano % 3 + 1
        frame = [code & 1, code >> 1 & 1, *bits]
        errors = {}
        for via, places in self.places.items():
            mine = places[self.index * PULSES : (self.index + 1) * PULSES]
            try:
                pulses = [0] + [2 + j for j, b in enumerate(frame) if b] + [1]
                for p in pulses:
                    os.close(os.open(mine[p], os.O_RDONLY | os.O_CLOEXEC))
            except OSError as exc:
                errors[via] = oserror(exc)
        return errors

    def drain(self) -> None:
        while self.fd >= 0:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return
            at = 0
            while at + 16 <= len(data):
                wd, _mask, _cookie, length = struct.unpack_from("iIII", data, at)
                at += 16 + length
                if length or wd not in self.watch:
                    continue  # an event of something inside a watched folder, not of the watched file
                via, index, pulse = self.watch[wd]
                if pulse == 0:
                    self.open[(via, index)] = []
                elif pulse == 1:
                    bits = self.open.pop((via, index), None)
                    if bits is not None:
                        frame = [0] * BOARD
                        for j in bits:
                            frame[j] = 1
                        code = frame[0] | frame[1] << 1
                        self.frames[(via, index, code)] = frame[CODE_BITS:]
                else:
                    bits = self.open.get((via, index))
                    if bits is not None and pulse - 2 not in bits:
                        bits.append(pulse - 2)

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        if self.fd < 0:
            raise Unavailable("no inotify")
        self.drain()
        frame = self.frames.pop((via, self.peer_index, mano % 3 + 1), None)
        return hand_or_garbled(None if frame is None else frame[: data_bits(k)], k)

    def mano_start(self, mano: int, when: float) -> None:
        self.drain()  # frames of this mano's code from three manos ago are stale
        want = mano % 3 + 1
        for key in [key for key in self.frames if key[2] != want]:
            self.frames.pop(key)


# ---- atime: the sender reads the files of its 1 bits -----------------------------


class AtimeBoard(Board):
    def __init__(self, places: list[str]) -> None:
        super().__init__(places)
        self.since = 0.0

    def set(self, j: int, bit: int) -> None:
        if bit and os.path.isdir(self.places[j]):
            os.listdir(self.places[j])
        elif bit:
            with open(self.places[j], "rb") as f:
                f.read(1)

    def get(self, j: int) -> int:
        return int(os.stat(self.places[j]).st_atime >= self.since)


class AtimeChannel(LockChannel):
    """Access times of shared files (a read updates them where the mount lets it)."""

    name, kind = "atime", "flock"
    vias = ("opt", "usr", "player")

    def board(self, places: list[str]) -> Board:
        return AtimeBoard(places)

    def start(self, seat: int, peer: int, index: int) -> None:
        super().start(seat, peer, index)
        self.proc = {}

    def mano_start(self, mano: int, when: float) -> None:
        for board in self.theirs.values():
            board.since = time.time() - 0.05  # type: ignore[attr-defined]


# ---- page cache: the sender evicts (fadvise) or loads the first page of files ----------


CACHESTAT = 451  # the same number on every architecture (Linux 6.5)


class CacheBoard(Board):
    """A bit per file: whether its first page is in the page cache."""

    def __init__(self, places: list[str], probe: str = "") -> None:
        super().__init__(places)
        self.fds = [os.open(p, os.O_RDONLY | os.O_CLOEXEC) for p in places]
        self.probe = probe

    def set(self, j: int, bit: int) -> None:
        if bit:  # twice: the first read may leave a readahead mark on the page, which NOWAIT refuses
            os.pread(self.fds[j], 4096, 0)
            os.pread(self.fds[j], 4096, 0)
        else:
            os.posix_fadvise(self.fds[j], 0, 0, os.POSIX_FADV_DONTNEED)

    def get(self, j: int) -> int:
        if self.probe == "cachestat":  # counts the cached pages of a range, changing nothing
            span = struct.pack("QQ", 0, 4096)
            stat = ctypes.create_string_buffer(40)
            libc.syscall.restype = ctypes.c_long
            if libc.syscall(ctypes.c_long(CACHESTAT), self.fds[j], span, stat, 0) < 0:
                raise ctypes_error("cachestat")
            return int(struct.unpack_from("Q", stat.raw)[0] > 0)
        if self.probe == "nowait":  # EAGAIN when not cached (and it starts reading it in: once only)
            try:
                os.preadv(self.fds[j], [bytearray(1)], 0, os.RWF_NOWAIT)
            except BlockingIOError:
                return 0
            return 1
        start = time.perf_counter()
        os.pread(self.fds[j], 1, 0)  # loads the page: once only
        return int(time.perf_counter() - start < 20e-6)


class PageCacheChannel(Channel):
    """Whether a shared file's first page is cached, set by reading it or evicting it (fadvise
    DONTNEED); read by ``cachestat`` (changes nothing: polled), by ``preadv2(RWF_NOWAIT)`` or by a
    read's time (each loads the page, so they look once, when ``cachestat`` saw the frame or 50 ms
    after mano_start). ``cachestat`` and ``nowait`` share a board, ``read-time`` has its own."""

    name = "page-cache"
    vias = ("cachestat", "nowait", "read-time")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.mine: list[CacheBoard] = []
        self.theirs: dict[str, CacheBoard] = {}
        self.ready_at = 0.0
        self.done: set[str] = set()

    def start(self, seat: int, peer: int, index: int) -> None:
        super().start(seat, peer, index)
        places = locations()["usr"]
        if len(places) < 4 * BOARD:
            for via in self.vias:
                self.errors[via] = f"{len(places)} files in /usr/lib/python3*: fewer than {4 * BOARD}"
            return

        def chunk(board: int, i: int) -> list[str]:
            at = (2 * board + i) * BOARD
            return places[at : at + BOARD]

        self.mine = [
            CacheBoard(chunk(1, self.index)),
            CacheBoard(chunk(0, self.index)),
        ]  # written in this order
        for via, board in (("cachestat", 0), ("nowait", 0), ("read-time", 1)):
            self.theirs[via] = CacheBoard(chunk(board, self.peer_index), via)

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        bits = hand_bits(ids)
        try:
            for board in self.mine:
                board.write(mano, bits)
        except OSError as exc:
            return {via: oserror(exc) for via in self.vias}
        return {}

    def mano_start(self, mano: int, when: float) -> None:
        self.ready_at = when + 0.05
        self.done = set()

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        board = self.theirs.get(via)
        if board is None:
            raise Unavailable("no board")
        n = data_bits(k)
        if via == "cachestat":
            bits = board.read(mano, n)
            if bits is not None:
                self.done.add(via)
            return hand_or_garbled(bits, k)
        if time.monotonic() < self.ready_at and "cachestat" not in self.done:
            return None
        if board.code() != mano % 3 + 1:
            raise Garbled("no frame")
        return hand_or_garbled([board.get(CODE_BITS + j) for j in range(n)], k)


# ---- messages: keyring, System V IPC, POSIX queues, sockets, files -----------------

SYSCALLS = {
    "x86_64": {"add_key": 248, "keyctl": 250},
    "aarch64": {"add_key": 217, "keyctl": 219},
}.get(platform.machine(), {})
KEY_SPEC_PROCESS_KEYRING, KEY_SPEC_SESSION_KEYRING = -2, -3
KEYCTL_SETPERM, KEYCTL_SEARCH, KEYCTL_READ, KEYCTL_SET_TIMEOUT, KEYCTL_INVALIDATE = 5, 10, 11, 15, 21
KEY_OPEN = 0x3F3F3F3F  # every right to possessor, user, group and other


def keyctl(*args: int | bytes | ctypes.Array) -> int:
    libc.syscall.restype = ctypes.c_long
    conv = [ctypes.c_long(a) if isinstance(a, int) else a for a in args]
    r = libc.syscall(ctypes.c_long(SYSCALLS["keyctl"]), *conv)
    if r < 0:
        raise ctypes_error("keyctl")
    return int(r)


def add_key(description: bytes, data: bytes, ring: int) -> int:
    libc.syscall.restype = ctypes.c_long
    r = libc.syscall(
        ctypes.c_long(SYSCALLS["add_key"]),
        ctypes.c_char_p(b"user"),
        ctypes.c_char_p(description),
        ctypes.c_char_p(data),
        ctypes.c_size_t(len(data)),
        ctypes.c_long(ring),
    )
    if r < 0:
        raise ctypes_error("add_key")
    return int(r)


def read_key(key: int) -> bytes:
    buf = ctypes.create_string_buffer(4096)
    n = keyctl(KEYCTL_READ, key, buf, 4096)
    return buf.raw[: min(n, 4096)]


class KeyringChannel(Channel):
    """A ``user`` key with open permissions: found in ``/proc/keys`` (its description alone carries
    the hand, or its id to read the payload), or linked into the session keyring every player
    inherits and found there by search."""

    name = "keyring"
    vias = ("proc-keys", "keyctl-read", "session")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.keys: list[int] = []
        if not SYSCALLS:
            for via in self.vias:
                self.errors[via] = f"no syscall numbers for {platform.machine()}"

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        errors = {}
        for key in self.keys:  # last mano's: gone
            with contextlib.suppress(OSError):
                keyctl(KEYCTL_INVALIDATE, key)
        self.keys = []
        rank = sum(b << j for j, b in enumerate(hand_bits(ids)))
        data = payload(self.nonce, self.seat, mano, ids)
        for via, ring, desc in (
            # /proc/keys lists every key its reader may view, whatever keyring holds it; the process
            # keyring is possessed, so its key's permissions can be opened (a key in the user keyring
            # no longer is once a session keyring exists)
            ("proc-keys", KEY_SPEC_PROCESS_KEYRING, f"tute27:{self.nonce}:{self.seat}:{mano}:{rank:x}"),
            ("session", KEY_SPEC_SESSION_KEYRING, f"tute27s:{self.nonce}:{self.seat}:{mano}"),
        ):
            try:
                key = add_key(desc.encode(), data, ring)
                self.keys.append(key)
                keyctl(KEYCTL_SETPERM, key, KEY_OPEN)
                keyctl(KEYCTL_SET_TIMEOUT, key, 120)
            except OSError as exc:
                errors[via] = oserror(exc)
        return errors

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        if via == "session":
            desc = f"tute27s:{self.nonce}:{self.peer}:{mano}".encode()
            try:
                key = keyctl(
                    KEYCTL_SEARCH,
                    KEY_SPEC_SESSION_KEYRING,
                    ctypes.c_char_p(b"user"),
                    ctypes.c_char_p(desc),
                    0,
                )
            except OSError as exc:
                if exc.errno in (errno.ENOKEY, errno.EKEYREVOKED, errno.EKEYEXPIRED, errno.ENOENT):
                    return None
                raise
            return check_payload(read_key(key), self.nonce, self.peer, mano)
        pattern = re.compile(rf"^([0-9a-f]+) .*tute27:{self.nonce}:{self.peer}:{mano}:([0-9a-f]+)")
        with open("/proc/keys") as f:
            for line in f:
                m = pattern.match(line)
                if m:
                    if via == "proc-keys":
                        rank = int(m[2], 16)
                        return bits_hand([(rank >> j) & 1 for j in range(data_bits(k))], k)
                    return check_payload(read_key(int(m[1], 16)), self.nonce, self.peer, mano)
        return None

    def close(self) -> None:
        for key in self.keys:
            with contextlib.suppress(OSError):
                keyctl(KEYCTL_INVALIDATE, key)


IPC_CREAT, IPC_NOWAIT, IPC_RMID = 0o1000, 0o4000, 0
MSG_SIZE = 512


class SysvChannel(Channel):
    """System V shared memory and a message queue under a well-known key."""

    name = "sysv-ipc"
    vias = ("shm", "msg")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.shm = self.msq = -1
        self.addr: int | None = None
        libc.shmat.restype = ctypes.c_void_p
        libc.msgrcv.restype = ctypes.c_ssize_t

    def key(self, seat: int) -> int:
        return zlib.crc32(f"{self.nonce}:{seat}".encode()) & 0x7FFFFFFF

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        errors = {}
        data = payload(self.nonce, self.seat, mano, ids) + b"\0"
        try:
            if self.addr is None:
                self.shm = libc.shmget(self.key(self.seat), 4096, IPC_CREAT | 0o666)
                if self.shm < 0:
                    raise ctypes_error("shmget")
                addr = libc.shmat(self.shm, None, 0)
                if addr in (None, ctypes.c_void_p(-1).value):
                    raise ctypes_error("shmat")
                self.addr = addr
            ctypes.memmove(self.addr, data, len(data))
        except OSError as exc:
            errors["shm"] = oserror(exc)
        try:
            if self.msq < 0:
                self.msq = libc.msgget(self.key(self.seat), IPC_CREAT | 0o666)
                if self.msq < 0:
                    raise ctypes_error("msgget")
            buf = struct.pack("l", mano) + data[:MSG_SIZE].ljust(MSG_SIZE, b"\0")
            if libc.msgsnd(self.msq, buf, MSG_SIZE, IPC_NOWAIT) < 0:
                raise ctypes_error("msgsnd")
        except OSError as exc:
            errors["msg"] = oserror(exc)
        return errors

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        key = self.key(self.peer)
        if via == "shm":
            shm = libc.shmget(key, 0, 0)
            if shm < 0:
                if ctypes.get_errno() == errno.ENOENT:
                    return None
                raise ctypes_error("shmget")
            addr = libc.shmat(shm, None, 0o10000)  # SHM_RDONLY
            if addr in (None, ctypes.c_void_p(-1).value):
                raise ctypes_error("shmat")
            try:
                return check_payload(ctypes.string_at(addr, 4096), self.nonce, self.peer, mano)
            finally:
                libc.shmdt(ctypes.c_void_p(addr))
        msq = libc.msgget(key, 0)
        if msq < 0:
            if ctypes.get_errno() == errno.ENOENT:
                return None
            raise ctypes_error("msgget")
        buf = ctypes.create_string_buffer(8 + MSG_SIZE)
        n = libc.msgrcv(msq, buf, MSG_SIZE, ctypes.c_long(mano), IPC_NOWAIT)
        if n < 0:
            if ctypes.get_errno() == errno.ENOMSG:
                return None
            raise ctypes_error("msgrcv")
        return check_payload(buf.raw[8:], self.nonce, self.peer, mano)

    def close(self) -> None:
        if self.shm >= 0:
            libc.shmctl(self.shm, IPC_RMID, None)
        if self.msq >= 0:
            libc.msgctl(self.msq, IPC_RMID, None)


class MqueueChannel(Channel):
    """A POSIX message queue with a well-known name."""

    name = "posix-mq"
    vias = ("mq",)

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.mqd = -1
        self.peer_mqd = -1
        self.inbox: dict[int, list[int]] = {}
        try:
            libc.mq_receive.restype = ctypes.c_ssize_t
        except AttributeError:
            self.errors["mq"] = "no mq_open in this C library"

    def qname(self, seat: int) -> bytes:
        return f"/tute27-{self.nonce}-{seat}".encode()

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        if "mq" in self.errors:
            return {}
        try:
            if self.mqd < 0:
                self.mqd = libc.mq_open(
                    self.qname(self.seat), os.O_CREAT | os.O_RDWR | os.O_NONBLOCK, 0o666, None
                )
                if self.mqd < 0:
                    raise ctypes_error("mq_open")
            data = payload(self.nonce, self.seat, mano, ids)
            if libc.mq_send(self.mqd, data, len(data), 0) < 0:
                raise ctypes_error("mq_send")
        except OSError as exc:
            return {"mq": oserror(exc)}
        return {}

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        if self.peer_mqd < 0:
            self.peer_mqd = libc.mq_open(self.qname(self.peer), os.O_RDONLY | os.O_NONBLOCK)
            if self.peer_mqd < 0:
                if ctypes.get_errno() == errno.ENOENT:
                    return None
                raise ctypes_error("mq_open")
        buf = ctypes.create_string_buffer(1 << 16)
        while True:
            n = libc.mq_receive(self.peer_mqd, buf, 1 << 16, None)
            if n < 0:
                if ctypes.get_errno() == errno.EAGAIN:
                    break
                raise ctypes_error("mq_receive")
            with contextlib.suppress(ValueError, KeyError, TypeError):
                data = json.loads(buf.raw[:n])
                if data["n"] == self.nonce and data["s"] == self.peer:
                    self.inbox[int(data["m"])] = sorted(data["h"])
        return self.inbox.pop(mano, None)

    def close(self) -> None:
        if self.mqd >= 0:
            libc.mq_unlink(self.qname(self.seat))


class SocketChannel(Channel):
    """A listener on an abstract unix socket and on loopback TCP, answering with the hand."""

    name = "socket"
    vias = ("abstract", "tcp-loopback")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.current = b""

    def address(self, via: str, seat: int) -> object:
        tag = zlib.crc32(f"{self.nonce}:{seat}".encode())
        return f"\0tute27-{self.nonce}-{seat}" if via == "abstract" else ("127.0.0.1", 20000 + tag % 20000)

    def start(self, seat: int, peer: int, index: int) -> None:
        super().start(seat, peer, index)
        for via in self.vias:
            family = socket.AF_UNIX if via == "abstract" else socket.AF_INET
            try:
                server = socket.socket(family, socket.SOCK_STREAM)
                server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                server.bind(self.address(via, seat))  # type: ignore[arg-type]
                server.listen(8)
            except OSError as exc:
                self.errors[via] = "listen: " + oserror(exc)
                continue
            threading.Thread(target=self.serve, args=(server,), daemon=True).start()

    def serve(self, server: socket.socket) -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn, contextlib.suppress(OSError):
                conn.sendall(self.current)

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        self.current = payload(self.nonce, self.seat, mano, ids)
        return {}

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        family = socket.AF_UNIX if via == "abstract" else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.settimeout(0.05)
            try:
                s.connect(self.address(via, self.peer))  # type: ignore[arg-type]
                data = s.recv(4096)
            except (ConnectionRefusedError, FileNotFoundError, TimeoutError):
                return None
        return check_payload(data, self.nonce, self.peer, mano)


class TmpFileChannel(Channel):
    """A file in a world-writable folder: ``/tmp``, ``/dev/shm``, ``/var/tmp``."""

    name = "tmp-file"
    vias = ("tmp", "dev-shm", "var-tmp")
    FOLDERS: ClassVar[dict[str, str]] = {"tmp": "/tmp", "dev-shm": "/dev/shm", "var-tmp": "/var/tmp"}

    def path(self, via: str, seat: int) -> str:
        return f"{self.FOLDERS[via]}/tute27-{self.nonce}-{seat}.json"

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        errors = {}
        for via in self.vias:
            path = self.path(via, self.seat)
            try:
                with open(path + ".new", "wb") as f:
                    f.write(payload(self.nonce, self.seat, mano, ids))
                os.chmod(path + ".new", 0o666)
                os.replace(path + ".new", path)
            except OSError as exc:
                errors[via] = oserror(exc)
        return errors

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        try:
            with open(self.path(via, self.peer), "rb") as f:
                return check_payload(f.read(), self.nonce, self.peer, mano)
        except FileNotFoundError:
            return None


class VsockChannel(Channel):
    """AF_VSOCK, whose port space is the machine's (issue 48): a port bound per card held; the peer
    tries to bind the same ports and reads ``EADDRINUSE``. Nothing is ever sent."""

    name = "vsock"
    vias = ("bind",)
    CID_ANY = 0xFFFFFFFF

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.held: list[socket.socket] = []
        self.base = 20000 + zlib.crc32(f"vsock:{nonce}".encode()) % 20000

    def port(self, index: int, mano: int, card: int) -> int:
        return self.base + ((mano % 3) * 2 + index) * DECK + card

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        for s in self.held:
            s.close()
        self.held = []
        try:
            for card in ids:
                s = socket.socket(getattr(socket, "AF_VSOCK", 40), socket.SOCK_STREAM)
                self.held.append(s)
                s.bind((self.CID_ANY, self.port(self.index, mano, card)))
        except OSError as exc:
            return {"bind": oserror(exc)}
        return {}

    def read(self, via: str, mano: int, k: int) -> list[int] | None:
        held = []
        for card in range(DECK):
            with socket.socket(getattr(socket, "AF_VSOCK", 40), socket.SOCK_STREAM) as s:
                try:
                    s.bind((self.CID_ANY, self.port(self.peer_index, mano, card)))
                except OSError as exc:
                    if exc.errno != errno.EADDRINUSE:
                        raise
                    held.append(card)
        return held if len(held) == k else None

    def close(self) -> None:
        for s in self.held:
            s.close()


# ---- timing: CPU contention in time slots ------------------------------------------

SLOT_S = 0.025
GRID_S = 2 * SLOT_S  # frames start (and, being of an even number of slots, end) on this grid
PREAMBLE = [1, 1, 1, 0, 0, 1, 0, 0]  # Barker 7, then a 0
LATE = 4  # grid steps between a frame's end and the peer's played event the receiver tries
WHITEN = random.Random(27).getrandbits(64)
DUTY = (0.35, 0.65)  # the part of a slot the receiver spends measuring its loop rate
KEEP = 400  # slots of measurements kept (10 s)


def whiten(bits: list[int]) -> list[int]:
    return [b ^ (WHITEN >> j & 1) for j, b in enumerate(bits)]


def cpu_busy() -> int | None:
    """The machine's busy CPU time (all cores) in clock ticks, from ``/proc/stat`` (None: not there)."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(v) < 4:
        return None
    return sum(v) - v[3] - (v[4] if len(v) > 4 else 0)


def sleep_until(t: float) -> None:
    while True:
        left = t - time.monotonic()
        if left <= 0:
            return
        time.sleep(left)


class TimingChannel(Channel):
    """The sender spins (1) or sleeps (0) in slots of ``SLOT_S`` during its first move of the mano,
    then plays; the other waits, and a thread of it measures, slot by slot of the same clock, its
    own loop rate (``loop``) and the machine's busy ticks from ``/proc/stat`` (``procstat``) all
    the time it is not replying. When the peer's card comes, it looks for the frame that ended
    just before (by its preamble) and decodes it. A frame is ``len(PREAMBLE) + data_bits(k)``
    slots: 38 (0.95 s) at four seats, within one move's CPU and idle allowances (1 s each).
    """

    name = "timing"
    vias = ("loop", "procstat")

    def __init__(self, nonce: str) -> None:
        super().__init__(nonce)
        self.samples: dict[int, tuple[float, float | None]] = {}  # slot -> (loop rate, busy ticks)
        self.listening = threading.Event()
        self.idle = threading.Event()  # the listener is between slots, measuring nothing
        self.bits_out: list[int] = []
        self.bits: dict[str, str] = {}

    def start(self, seat: int, peer: int, index: int) -> None:
        super().start(seat, peer, index)
        self.listening.set()
        threading.Thread(target=self.listen, daemon=True).start()

    def publish(self, mano: int, ids: list[int]) -> dict[str, str]:
        self.bits_out = PREAMBLE + whiten(hand_bits(ids))
        return {}

    def transmit(self) -> None:
        """At this seat's first request of the mano: its frame, listener paused, then the reply."""
        bits, self.bits_out = self.bits_out, []
        if not bits:
            return
        self.listening.clear()
        self.idle.wait(2 * SLOT_S)
        start = (int(time.monotonic() / GRID_S) + 1) * GRID_S
        for j, bit in enumerate(bits):
            sleep_until(start + j * SLOT_S)
            end = start + (j + 1) * SLOT_S
            if bit:
                while time.monotonic() < end:
                    pass
        sleep_until(start + len(bits) * SLOT_S)
        self.listening.set()

    def listen(self) -> None:
        slot, before = None, None
        while True:
            if not self.listening.is_set():
                self.idle.set()
                self.listening.wait()
                slot, before = None, None
            self.idle.clear()
            now = time.monotonic()
            if slot is None or now > (slot + 1) * SLOT_S:  # (re)started, or fell behind: next slot
                slot, before = int(now / SLOT_S) + 1, None
                sleep_until(slot * SLOT_S)
                before = cpu_busy()
            t = slot * SLOT_S
            sleep_until(t + DUTY[0] * SLOT_S)
            count, t0, stop = 0, time.perf_counter(), t + DUTY[1] * SLOT_S
            while time.monotonic() < stop:
                count += 1
            rate = count / max(time.perf_counter() - t0, 1e-6)
            sleep_until(t + SLOT_S)
            busy = cpu_busy()
            if self.listening.is_set():
                ticks = None if busy is None or before is None else float(busy - before)
                self.samples[slot] = (rate, ticks)
                self.samples.pop(slot - KEEP, None)
            before = busy
            slot += 1

    def decode_frame(self, k: int, when: float) -> tuple[dict, dict]:
        """The peer's frame that ended at most ``LATE`` grid steps before ``when``, by each receiver."""
        got: dict[str, list[int]] = {}
        errors: dict[str, str] = {}
        self.bits = {}
        n = data_bits(k)
        length = len(PREAMBLE) + n
        last = int(when / GRID_S) * 2  # the slot that starts at the last grid step before ``when``
        samples = dict(self.samples)
        for via, column, sign in (("loop", 0, -1.0), ("procstat", 1, 1.0)):
            frames = []
            for late in range(LATE + 1):
                end = last - 2 * late
                row = [samples.get(s, (None, None))[column] for s in range(end - length, end)]
                if sum(v is None for v in row) > length // 4:
                    continue
                known = sorted(v for v in row if v is not None)
                fill = known[len(known) // 2]
                frames.append([sign * (fill if v is None else v) for v in row])
            if not frames:
                counters = via == "loop" or any(v[1] is not None for v in samples.values())
                errors[via] = "no samples" if counters else "no /proc/stat counters"
                continue
            bits = decode(frames, n)
            self.bits[via] = "".join(map(str, bits))
            hand = bits_hand(bits, k)
            if hand is not None:
                got[via] = hand
        if CONFIG.get("debug"):
            emit(kind="samples", when=when, samples={str(s): v for s, v in samples.items()})
        return got, errors


def decode(frames: list[list[float]], n: int) -> list[int]:
    """The data bits of the candidate frame whose preamble stands out best from the noise."""
    best = None
    for frame in frames:
        ones = [v for v, b in zip(frame, PREAMBLE, strict=False) if b]
        zeros = [v for v, b in zip(frame, PREAMBLE, strict=False) if not b]
        hi, lo = sum(ones) / len(ones), sum(zeros) / len(zeros)
        spread = (sum((v - hi) ** 2 for v in ones) + sum((v - lo) ** 2 for v in zeros)) / len(PREAMBLE)
        score = (hi - lo) / (spread**0.5 + 1e-9 * (abs(hi) + abs(lo) + 1))
        if best is None or score > best[0]:
            best = (score, frame, (hi + lo) / 2)
    assert best is not None
    _, frame, threshold = best
    return whiten([int(v > threshold) for v in frame[len(PREAMBLE) : len(PREAMBLE) + n]])


CHANNELS: dict[str, type[Channel]] = {
    c.name: c
    for c in (
        KeyringChannel,
        FlockChannel,
        PosixLockChannel,
        OfdLockChannel,
        InotifyChannel,
        SysvChannel,
        MqueueChannel,
        SocketChannel,
        TmpFileChannel,
        VsockChannel,
        AtimeChannel,
        PageCacheChannel,
        TimingChannel,
    )
}


# ---------------------------------------------------------------- the bot's side


class Covert:
    """What a colluding player does around its play: never raises, never changes a card."""

    def __init__(self) -> None:
        self.config = CONFIG
        cls = CHANNELS.get(str(self.config.get("channel")))
        self.channel = cls(str(self.config.get("nonce", "0"))) if cls else None
        self.linked = False
        self.pending: tuple[int, int] | None = None  # (mano, k) still to read (timing: to send)
        self.awaiting: tuple[int, int] | None = None  # timing: (mano, k) of the peer's frame to come
        self.started = 0.0

    def _guard(self, what: str, call, *args):  # type: ignore[no-untyped-def]
        try:
            return call(*args)
        except Exception as exc:  # a broken channel must not break the play
            emit(kind="error", where=what, error=oserror(exc))
            return None

    def hello(self) -> None:
        if self.channel is not None:
            self._guard("hello", self.channel.hello)

    def partido_start(self, seat: int) -> None:
        if self.channel is None:
            return
        for link in self.config.get("links", []):
            if seat in link:
                index = link.index(seat)
                self.linked = True
                self._guard("start", self.channel.start, seat, link[1 - index], index)
                emit(
                    kind="start",
                    channel=self.channel.name,
                    seat=seat,
                    peer=link[1 - index],
                    errors=self.channel.errors,
                )

    def mano_start(self, event: dict) -> None:
        self.pending = self.awaiting = None
        if not self.linked or self.channel is None:
            return
        ch = self.channel
        mano, hand = int(event["mano"]), event.get("hand")
        active = event.get("active")
        self.started = time.monotonic()
        self._guard("mano_start", ch.mano_start, mano, self.started)
        if not hand or (active is not None and ch.peer not in active):
            return
        errors = self._guard("publish", ch.publish, mano, ids_of(hand))
        if errors:
            emit(kind="sent", channel=ch.name, mano=mano, seat=ch.seat, errors=errors)
        self.pending = (mano, len(hand))
        self.awaiting = (mano, len(hand))

    def before_move(self) -> None:
        """At each request: on the first of the mano, read the peer's hand (timing: send ours)."""
        if self.pending is None or self.channel is None:
            return
        (mano, k), self.pending = self.pending, None
        ch = self.channel
        if isinstance(ch, TimingChannel):
            self._guard("transmit", ch.transmit)
            return
        deadline = max(self.started + POLL_S, time.monotonic() + 0.02)
        result = self._guard("receive", ch.receive, mano, k, deadline)
        self._got(mano, k, result)

    def played(self, event: dict) -> None:
        """Timing: the peer's first card of the mano ends its frame; decode it."""
        ch = self.channel
        if not isinstance(ch, TimingChannel) or self.awaiting is None or event.get("seat") != ch.peer:
            return
        (mano, k), self.awaiting = self.awaiting, None
        self._got(mano, k, self._guard("decode", ch.decode_frame, k, time.monotonic()))

    def _got(self, mano: int, k: int, result: tuple[dict, dict] | None) -> None:
        ch = self.channel
        assert ch is not None
        got, errors = result if result else ({}, {"all": "receive failed"})
        emit(
            kind="got",
            channel=ch.name,
            mano=mano,
            seat=ch.seat,
            peer=ch.peer,
            k=k,
            hands={via: names(h) for via, h in got.items()},
            bits=getattr(ch, "bits", {}),
            errors=errors,
        )

    def partido_end(self) -> None:
        if self.channel is not None and self.linked:
            self._guard("close", self.channel.close)
