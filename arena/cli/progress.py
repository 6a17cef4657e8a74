"""Showing a torneo's progress: a live bar on a terminal, plain lines when piped.

Both say the same, in the language in use: partidos settled out of the schedule, counted
from the torneo's start (a resumed torneo goes on from where it was), the time this run has
taken so far (``elapsed``, labelled ``in this run`` on a resumed torneo) and, from this run's
rate alone, the time still to go::

    Partidos: 52/80 (65%), elapsed 1 min 20 s in this run, 0.35 per second, ~1 min to go

(in Spanish: ``Partidos: 52/80 (65%), transcurrido 1 min 20 s en esta ejecución, 0.35 por
segundo, faltan ~1 min``).
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from typing import IO

import click

from arena.i18n import _
from arena.tournament.coordinator import Progress

EVERY_S = 60.0
"""When piped: a line at least this often (seconds)..."""
EVERY_FRACTION = 10
"""...and every tenth of the partidos to play."""
BAR_WIDTH, MIN_BAR = 30, 10
"""The bar's cells: as many as the terminal's width leaves, within these (the line is cut to fit)."""


def progress_for(stream: IO[str] | None = None) -> Progress:
    """A live bar when ``stream`` (stdout) is a terminal, plain lines otherwise."""
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return BarProgress(stream) if isatty and isatty() else LineProgress(stream)


def _duration(seconds: float) -> str:
    """A time taken: ``45 s``, ``1 min 05 s``, ``2 h 05 min``."""
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _rough(seconds: float) -> str:
    """A time estimated, no finer than it can be: ``40 s``, ``2 min``, ``1 h 05 min``."""
    if seconds < 59.5:
        return f"{max(1, int(seconds + 0.5))} s"
    minutes = int(seconds / 60 + 0.5)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60:02d} min"


class _Count(Progress):
    """The figures both displays show; ``clock`` is ``time.monotonic`` (a test gives its own)."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or time.monotonic
        self.total = self.settled = self.todo = self.done = self.run_done = 0
        self.run_start: float | None = None
        self.resumed = False

    def _now(self) -> float:
        return self.clock()

    def start(self, total: int, settled: int) -> None:
        """A batch begins (the schedule, then each ``--until-separated`` adds); the first starts the run."""
        if self.run_start is None:
            self.run_start = self._now()
            self.resumed = settled > 0
        self.total, self.settled, self.todo, self.done = total, settled, total - settled, 0

    def advance(self, n: int = 1) -> None:
        self.done += n
        self.run_done += n

    @property
    def pos(self) -> int:
        """Partidos settled since the torneo's start."""
        return self.settled + self.done

    def status(self, rate: bool = True, percent: bool = True, this_run: bool = True) -> str:
        """``52/80 (65%), elapsed 1 min 20 s, 0.35 per second, ~1 min to go``.

        ``rate``: the partidos per second; ``percent``: the (65%); ``this_run``: on a resumed
        torneo, ``in this run`` after the time (the bar leaves them out when short of room).
        """
        elapsed = self._now() - (self.run_start if self.run_start is not None else self._now())
        pos, total = self.pos, self.total
        text = f"{pos}/{total}"
        if percent:
            text += f" ({100 * pos / max(1, total):.0f}%)"
        if self.resumed and this_run:
            text += ", " + _("elapsed {time} in this run").format(time=_duration(elapsed))
        else:
            text += ", " + _("elapsed {time}").format(time=_duration(elapsed))
        if self.run_done and elapsed > 0:
            per_s = self.run_done / elapsed
            if rate:
                text += ", " + _("{rate} per second").format(rate=f"{per_s:.2f}")
            if pos < total:
                text += ", " + _("~{time} to go").format(time=_rough((total - pos) / per_s))
        return text


class BarProgress(_Count):
    """One line redrawn in place (no rate, to fit)::

    Partidos [#####-----] 52/80 (65%), elapsed 1 min 20 s, ~1 min to go
    """

    def __init__(self, stream: IO[str], clock: Callable[[], float] | None = None) -> None:
        super().__init__(clock)
        self.stream = stream
        self.label = _("Partidos")
        self.shown = 0
        """Characters of the line now on screen (0: none)."""

    def phase(self, label: str) -> None:
        self.label = _("Partidos ({phase})").format(phase=label)

    def start(self, total: int, settled: int) -> None:
        super().start(total, settled)
        self._draw()

    def advance(self, n: int = 1) -> None:
        super().advance(n)
        self._draw()

    def tick(self) -> None:
        self._draw()

    def finish(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
            self.shown = 0

    def _draw(self) -> None:
        columns = shutil.get_terminal_size().columns
        room = columns - 1 - len(self.label) - 4 - MIN_BAR  # 4: the brackets and two spaces
        shorter = ((True, True), (False, True), (False, False))
        forms = [self.status(rate=False, percent=p, this_run=r) for p, r in shorter]
        status = next((f for f in forms if len(f) <= room), forms[-1])
        cells = max(MIN_BAR, min(BAR_WIDTH, room + MIN_BAR - len(status)))
        filled = cells * self.pos // max(1, self.total)
        line = f"{self.label} [{'#' * filled}{'-' * (cells - filled)}] {status}"[: max(1, columns - 1)]
        self.stream.write("\r" + line.ljust(self.shown))
        self.stream.flush()
        self.shown = len(line)


class LineProgress(_Count):
    """A plain line every tenth of the partidos, or every minute, whichever comes first."""

    def __init__(self, stream: IO[str], clock: Callable[[], float] | None = None) -> None:
        super().__init__(clock)
        self.stream = stream
        self.every = 1
        self.last = 0.0

    def start(self, total: int, settled: int) -> None:
        super().start(total, settled)
        self.every = max(1, self.todo // EVERY_FRACTION)
        self.last = self._now()

    def advance(self, n: int = 1) -> None:
        before = self.done
        super().advance(n)
        if self.done // self.every > before // self.every or self.done == self.todo:
            self._line()

    def tick(self) -> None:
        if self._now() - self.last >= EVERY_S:
            self._line()

    def phase(self, label: str) -> None:
        click.echo(_("More partidos: {phase}").format(phase=label), file=self.stream)

    def _line(self) -> None:
        self.last = self._now()
        click.echo(_("Partidos: {status}").format(status=self.status()), file=self.stream)
