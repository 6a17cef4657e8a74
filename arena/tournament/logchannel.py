"""The torneo's log: one writer of ``DIR/torneo.log``, fed through a pipe with no lock.

Every process (the coordinator and its workers) formats its own records and
sends each as one message of at most ``PIPE_BUF`` bytes through the write end of
one pipe: the kernel writes such a message whole or not at all, so writers need
no lock, and a worker killed at any moment (SIGKILL, ``os._exit``, the memory
killer) can neither cut a line in two nor leave a lock that silences the others
— which a ``multiprocessing.Queue`` does (its writers share a lock). A thread of
the coordinator reads the messages and appends them to the file; records sent
before the file is known are kept and written first.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import select
import threading
from pathlib import Path
from typing import Any

from arena.inert import printable

LOG_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"

MESSAGE_MAX = select.PIPE_BUF - 8
"""The longest message (the connection adds a 4-byte header; a write of PIPE_BUF is atomic)."""

CUT = " [...]"

LOG_CLOSE_S = 10.0
"""How long closing the log waits for the messages already sent."""

_END = b"\x00end"


class InertFormatter(logging.Formatter):
    """Log lines with control characters escaped: names and load errors come from players."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record), multiline=True)


def message(line: str) -> bytes:
    """``line`` as UTF-8, cut (with a mark) to fit one atomic pipe write."""
    data = line.encode("utf-8", "replace")
    if len(data) <= MESSAGE_MAX:
        return data
    return data[: MESSAGE_MAX - len(CUT)].decode("utf-8", "ignore").encode() + CUT.encode()


class PipeHandler(logging.Handler):
    """Sends each record, formatted, as one message through ``connection`` (a Pipe's write end)."""

    def __init__(self, connection: Any) -> None:
        super().__init__()
        self.connection = connection
        self.setFormatter(InertFormatter(LOG_FORMAT))

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):  # the reader is gone (the coordinator died): nowhere to log
            self.connection.send_bytes(message(self.format(record)))

    def createLock(self) -> None:
        self.lock = None  # one atomic write per record: no lock, so none to be left taken

    def acquire(self) -> None:
        pass

    def release(self) -> None:
        pass


class LogSink:
    """The one writer of the torneo's log file.

    ``channel`` (a picklable pipe end) goes to the workers; this process's own
    records under ``arena`` go through it too, so lines are never interleaved.
    """

    def __init__(self, context: Any = None, level: int = logging.INFO) -> None:
        context = context or multiprocessing.get_context()
        self._reader, self.channel = context.Pipe(duplex=False)
        self.local = PipeHandler(self.channel)
        self.logger = logging.getLogger("arena")
        self.old_level = self.logger.level
        self.logger.addHandler(self.local)
        self.logger.setLevel(level)
        self._early: list[bytes] = []
        self._file: int | None = None
        self._guard = threading.Lock()
        self._thread = threading.Thread(target=self._read, name="log-sink", daemon=True)
        self._thread.start()

    def start(self, path: Path) -> None:
        """Start writing to ``path`` (appending, mode 0600); records sent before are written first."""
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fchmod(fd, 0o600)  # also a log begun by an older version
        with self._guard:
            self._file = fd
            early, self._early = self._early, []
            for data in early:
                self._write(data)

    def _read(self) -> None:
        while True:
            try:
                data = self._reader.recv_bytes()
            except (EOFError, OSError):
                return
            if data == _END:
                return
            with self._guard:
                if self._file is None:
                    self._early.append(data)
                else:
                    self._write(data)

    def _write(self, data: bytes) -> None:
        assert self._file is not None
        with contextlib.suppress(OSError):
            os.write(self._file, data + b"\n")

    def close(self) -> None:
        """Write out every message sent so far and close the file (dropped if never started)."""
        self.logger.removeHandler(self.local)
        self.logger.setLevel(self.old_level)
        with contextlib.suppress(OSError):
            self.channel.send_bytes(_END)
        self._thread.join(LOG_CLOSE_S)
        with self._guard:
            if self._file is not None:
                os.close(self._file)
                self._file = None
        self.channel.close()
        if not self._thread.is_alive():
            self._reader.close()
