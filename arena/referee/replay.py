"""The replay file of a partido: one JSON object per line (``docs/replay.md``)."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError
from arena.i18n import _

Message = dict[str, Any]


class ReplayError(ArenaError, ValueError):
    """A replay file that cannot be read; the message names the file and line."""


class ReplayWriter:
    """An event sink writing each event as one line, flushed as it comes."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new folder: ours alone
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # never readable by players
        self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")

    def __call__(self, event: Message) -> None:
        assert self._file is not None, "replay already closed"  # not shown
        self._file.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> ReplayWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_replay(path: str | Path) -> list[Message]:
    """All events of a replay file; ReplayError naming the file and line otherwise."""
    path = Path(path)
    try:
        if path.name.endswith(".gz"):  # a replay kept compressed (arena serve's ladder)
            text = gzip.decompress(path.read_bytes()).decode("utf-8")
        else:
            text = path.read_text(encoding="utf-8")
    except (EOFError, gzip.BadGzipFile) as exc:
        raise ReplayError(_("{path}: cannot read replay: {error}").format(path=path, error=exc)) from None
    except OSError as exc:
        raise ReplayError(
            _("{path}: cannot read replay: {error}").format(path=path, error=exc.strerror)
        ) from None
    events: list[Message] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(
                _("{path}:{line}: not a JSON line ({error})").format(path=path, line=number, error=exc.msg)
            ) from None
        if not isinstance(event, dict) or "type" not in event:
            raise ReplayError(
                _("{path}:{line}: not an event object with a 'type'").format(path=path, line=number)
            )
        events.append(event)
    if not events or events[0]["type"] != "partido_start":
        raise ReplayError(_("{path}: a replay starts with a partido_start line").format(path=path))
    return events
