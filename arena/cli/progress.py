"""Showing a torneo's progress: a live bar on a terminal, plain lines when piped."""

from __future__ import annotations

import sys
import time
from typing import IO, Any, TextIO, cast

import click

from arena.tournament.coordinator import Progress

EVERY_S = 60.0
"""When piped: a line at least this often (seconds)..."""
EVERY_FRACTION = 10
"""...and every tenth of the partidos to play."""


def progress_for(stream: IO[str] | None = None) -> Progress:
    """A live bar when ``stream`` (stdout) is a terminal, plain lines otherwise."""
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return BarProgress(stream) if isatty and isatty() else LineProgress(stream)


def _duration(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class BarProgress(Progress):
    """``click.progressbar`` over the partidos still to play, with the ETA."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.bar: Any = None
        self.label = "Partidos"

    def phase(self, label: str) -> None:
        self.label = f"Partidos ({label})"

    def start(self, total: int, settled: int) -> None:
        self.bar = click.progressbar(
            length=max(1, total - settled),
            label=self.label,
            show_eta=True,
            show_pos=True,
            file=cast("TextIO", self.stream),
        )
        self.bar.__enter__()

    def advance(self, n: int = 1) -> None:
        self.bar.update(n)

    def tick(self) -> None:
        self.bar.update(0)

    def finish(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


class LineProgress(Progress):
    """A plain line every tenth of the partidos, or every minute, whichever comes first."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.total = self.settled = self.todo = self.done = 0
        self.every = 1
        self.start_time = self.last = 0.0

    def start(self, total: int, settled: int) -> None:
        self.total, self.settled, self.todo, self.done = total, settled, total - settled, 0
        self.every = max(1, self.todo // EVERY_FRACTION)
        self.start_time = self.last = time.monotonic()

    def advance(self, n: int = 1) -> None:
        before = self.done
        self.done += n
        if self.done // self.every > before // self.every or self.done == self.todo:
            self._line()

    def tick(self) -> None:
        if time.monotonic() - self.last >= EVERY_S:
            self._line()

    def phase(self, label: str) -> None:
        click.echo(f"Partidos más: {label}", file=self.stream)

    def _line(self) -> None:
        self.last = now = time.monotonic()
        elapsed = now - self.start_time
        pos = self.settled + self.done
        text = f"Partidos: {pos}/{self.total} ({100 * pos / max(1, self.total):.0f}%)"
        if self.done and elapsed > 0:
            rate = self.done / elapsed
            left = (self.todo - self.done) / rate
            text += f", {rate:.2f} por segundo, faltan ~{_duration(left)}"
        click.echo(text, file=self.stream)
