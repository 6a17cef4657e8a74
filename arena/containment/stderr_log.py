"""A player's standard error as the referee keeps it: a capped, inert log and a tail for incidents.

The referee drains the pipe in a thread of its own. Until the log's cap it reads
everything at once, escapes it as incident files are escaped (:func:`printable`:
terminal escapes, other control characters and bidi marks become ``\\x1b``-style
text; undecodable bytes become U+FFFD) and writes it to the log. Past the cap it
keeps only the newest bytes, for the incident reports, and discards the rest in
the kernel: once a tick, everything in the pipe but the tail is spliced to
``/dev/null`` (:func:`os.splice`; read and thrown away where splicing cannot be
done) and the tail alone is read. A player writing as fast as it can then costs
the referee one wake-up a tick and the freeing of the pages it wrote, a bounded
amount, instead of a core: what it writes beyond a full pipe a tick waits in its
own ``write`` (about 50 MB/s still gets through).
"""

from __future__ import annotations

import array
import bisect
import codecs
import contextlib
import fcntl
import itertools
import os
import select
import termios
import threading
import time
from pathlib import Path

from arena.i18n import n_
from arena.inert import printable

TICK_S = 0.01
"""Past the cap, how long the drain lets a pipe fill before it empties it."""
PIPE_BYTES = 512 << 10
"""What a flood's pipe is enlarged to (once a pass finds half a default pipe waiting), so that each
tick takes a large chunk."""
_HANGUP = select.POLLHUP | select.POLLERR | select.POLLNVAL
_BAD_BYTES = {code: "\ufffd" for code in range(0xDC80, 0xDD00)}
"""Undecodable bytes (as ``surrogateescape`` decodes them) shown as incident files show them."""


def _escapes(text: str) -> dict[int, str]:
    """What each character of ``text`` (decoded with ``surrogateescape``) is shown as: itself or
    :func:`printable`'s escape, found with one call over the distinct characters (it escapes
    character by character, and none of its escapes holds a newline). Every character is in the
    table: :meth:`str.translate` is twice as fast when none is missing."""
    chars = list(set(text) - {"\n"})
    shown = printable("\n".join(chars).translate(_BAD_BYTES), multiline=True).split("\n")
    if len(shown) != len(chars):  # cannot be; then one at a time
        shown = [printable(c.translate(_BAD_BYTES), multiline=True) for c in chars]
    return {10: "\n", **{ord(c): s for c, s in zip(chars, shown, strict=True)}}


def _inert(text: str) -> bytes:
    """``text`` (decoded with ``surrogateescape``) as the log keeps it: escaped like incident files
    (control characters, terminal escapes, bidi marks), undecodable bytes as U+FFFD."""
    table = _escapes(text)
    if all(chr(code) == shown for code, shown in table.items()):
        return text.encode()  # nothing to escape (most logs): no translation
    return text.translate(table).encode()


def _fit(text: str, room: int) -> tuple[int, int]:
    """How many characters of ``text`` fit, escaped, in ``room`` bytes, and the bytes they take."""
    table = _escapes(text)
    width = {c: len(table[ord(c)].encode()) for c in set(text)}
    ends = list(itertools.accumulate(map(width.__getitem__, text)))
    fits = bisect.bisect_right(ends, room)
    return fits, ends[fits - 1] if fits else 0


def _pending(fd: int) -> int:
    """Bytes waiting in pipe ``fd``."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


class StderrLog:
    """Drains a pipe into a log file capped at ``cap`` bytes, keeping the last ``tail`` bytes.

    :attr:`received` counts the bytes taken from the pipe, :attr:`written` those
    the log holds (escaped), :attr:`dropped` those it does not (its last line
    says how many). The thread's target is :meth:`_drain` (tests delay it).
    """

    def __init__(self, pipe: int, path: Path | None, cap: int = 1 << 20, tail: int = 4096) -> None:
        self.cap = cap
        self.received = 0
        self.written = 0
        self.dropped = 0
        self._tail = b""
        self._tail_size = tail
        self._file = (
            os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "ab") if path else None
        )
        self._decoder = codecs.getincrementaldecoder("utf-8")("surrogateescape")
        self._keeping = self._file is not None
        """Whether what arrives still goes to the log (until its cap); else only the tail is kept."""
        self._pipe = pipe
        self._busy = False
        """Whether the drain has begun taking what is in the pipe and not yet kept it all."""
        self._passes = 0
        """Passes completed: each keeps (or discards) everything that was in the pipe when it began."""
        self._wake = threading.Event()
        """Set to end the drain's tick early: someone waits for the tail."""
        self._null = -1
        self._splice = hasattr(os, "splice")
        self._grown = False
        self._done = False
        self._thread = threading.Thread(target=self._drain, args=(pipe,), name="stderr-log", daemon=True)
        self._thread.start()

    def _drain(self, fd: int) -> None:
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        try:
            while True:
                events = 0
                for _fd, got in poll.poll():
                    events |= got
                if not self._keeping:  # let a flood fill the pipe: one pass a tick, not one a write
                    self._wake.wait(TICK_S)
                    self._wake.clear()
                self._busy = True
                count = _pending(fd)
                if count == 0:
                    if events & _HANGUP:
                        break  # no writer left, nothing left to read
                    self._busy = False
                    continue
                if self._keeping:
                    chunk = self._read(fd, count)
                    self._keep(chunk)
                else:
                    self._discard(fd, count)
                    chunk = self._read(fd, min(count, self._tail_size))
                    self.dropped += count
                self._tail = (self._tail + chunk[-self._tail_size :])[-self._tail_size :]
                self.received += count
                self._passes += 1
                self._busy = False
        except OSError:
            pass
        finally:
            self._finish(fd)

    @staticmethod
    def _read(fd: int, count: int) -> bytes:
        """Exactly ``count`` bytes, which are in the pipe."""
        parts = []
        while count > 0:
            part = os.read(fd, count)
            if not part:
                break
            parts.append(part)
            count -= len(part)
        return b"".join(parts)

    def _keep(self, chunk: bytes) -> None:
        """Write ``chunk`` to the log, escaped, as far as its cap allows."""
        assert self._file is not None
        text = self._decoder.decode(chunk)
        out = _inert(text)
        room = self.cap - self.written
        if len(out) > room:
            fits, size = _fit(text, room)
            out = out[:size]
            held = len(self._decoder.getstate()[0])  # the start of a character cut by this read
            self.dropped += len(text[fits:].encode("utf-8", "surrogateescape")) + held
            self._keeping = False  # the log is full: from now on, only the tail
        self._file.write(out)
        self._file.flush()
        self.written += len(out)

    def _discard(self, fd: int, count: int) -> None:
        """Drop all but the newest ``tail`` bytes of the ``count`` in the pipe, in the kernel if it can."""
        if not self._grown and count >= 1 << 15:  # half a default pipe in a tick: a flood
            self._grown = True  # take it in large chunks
            with contextlib.suppress(OSError, AttributeError):  # Linux 2.6.35+
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        left = count - self._tail_size
        while left > 0:
            if self._splice:
                try:
                    if self._null < 0:
                        self._null = os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)
                    moved = os.splice(fd, self._null, left)
                except OSError:
                    self._splice = False  # not here: read and throw away
                    continue
            else:
                moved = len(os.read(fd, min(left, 1 << 20)))
            if moved <= 0:
                break  # cannot be (those bytes are there): leave them for the next pass
            left -= moved

    def _finish(self, fd: int) -> None:
        self._done = True
        for mine in (fd, self._null):
            if mine >= 0:
                with contextlib.suppress(OSError):
                    os.close(mine)
        if self._file:
            if self._keeping:  # an incomplete character at the very end
                held = len(self._decoder.getstate()[0])
                out = _inert(self._decoder.decode(b"", final=True))
                if self.written + len(out) <= self.cap:
                    self._file.write(out)
                    self.written += len(out)
                else:
                    self.dropped += held
            if self.dropped:
                dropped = n_(
                    "[arena: {n} more byte of stderr dropped]",
                    "[arena: {n} more bytes of stderr dropped]",
                    self.dropped,
                ).format(n=self.dropped)
                self._file.write(f"\n{dropped}\n".encode())
            self._file.close()

    def tail(self) -> str:
        return self._tail.decode("utf-8", errors="replace")

    def join(self, timeout: float) -> None:
        self._wake.set()
        self._thread.join(timeout)

    def catch_up(self, timeout: float) -> None:
        """Wait (up to ``timeout`` s) until what the player has written so far is kept: nothing left
        in the pipe and nothing taken but not yet kept, or (a player still writing) two passes of the
        drain begun since. The drain is a thread; on a loaded machine it can lag behind a player that
        wrote its last words just before the reply that got it disqualified."""
        deadline = time.monotonic() + timeout
        passes = self._passes
        self._wake.set()
        while not self._done and time.monotonic() < deadline:
            try:
                empty = _pending(self._pipe) == 0
            except OSError:
                return  # closed meanwhile: the drain is done
            if (empty and not self._busy) or self._passes >= passes + 2:
                return
            self._wake.set()
            time.sleep(0.002)
