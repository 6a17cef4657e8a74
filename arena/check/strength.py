"""``arena check PLAYER --strength``: how strong a player is, beside the samples, on the same deals.

The player plays duplicate partidos (:func:`arena.results.strength.duplicate_schedule`: every deal in every
seat rotation) against the reference field (:func:`arena.results.strength.reference_field`: a_mas,
a_menos, random_legal), in its own process and the sandbox, as in a torneo; then each sample player
(random_legal, the heuristics, the search players) takes its seat in the same deals and rotations
against the same field, in this process. The deals come from the deal numbers 1, 2, … (predictable
on purpose: everyone's figures are from the same cards). Figures: manos lost per 100 manos dealt
and partidos won, each with its 95% Wilson interval.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from arena.i18n import _
from arena.referee.players import PlayerSpec, find_player
from arena.results import strength
from arena.results.standings import wilson

T = TypeVar("T")

REFERENCES: tuple[str, ...] = ("random_legal", "a_menos", "a_mas", "fuerte", "maestro")
"""The samples whose figures are shown beside the player's (those found)."""
SEARCH = frozenset({"fuerte", "maestro"})
"""The samples that search within a time budget per move (given ``reference_ms`` here)."""
REFERENCE_MS = 40.0
"""The search samples' budget per move in the reference partidos (their own default is 300 ms):
the figures are then a little weaker than theirs at full strength, and come in about a minute."""


class Progress(Protocol):
    """What a progress display does (``arena.cli.progress``)."""

    def start(self, total: int, settled: int) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def finish(self) -> None: ...


@dataclass
class Figures:
    """One player's figures at the subject's seat over the schedule."""

    name: str
    manos: int = 0
    lost: int = 0
    partidos: int = 0
    won: int = 0
    faults: list[str] = field(default_factory=list)

    @property
    def rate(self) -> strength.Rate:
        """Manos lost per 100 manos dealt, with its interval."""
        return strength.lost_per_100(self.lost, self.manos)

    @property
    def won_interval(self) -> tuple[float, float]:
        """The 95% interval of the share of partidos won."""
        return wilson(self.won, self.partidos) if self.partidos else (math.nan, math.nan)

    def add(
        self, seat: int, stats: Sequence[dict[str, Any]], winners: Sequence[int], faults: list[str]
    ) -> None:
        """Count one partido in which this player sat at ``seat``."""
        self.partidos += 1
        self.won += seat in winners
        self.manos += int(stats[seat]["manos"])
        self.lost += int(stats[seat]["manos_perdidas"])
        self.faults += faults


def _rotated(items: Sequence[T], rotation: int) -> list[T]:
    """``items`` by seat in ``rotation`` (as :func:`arena.results.strength.seating`: item k sits first)."""
    k = rotation % len(items)
    return [*items[k:], *items[:k]]


def schedule(partidos: int, size: int) -> list[strength.Game]:
    """The duplicate schedule of about ``partidos`` partidos at tables of ``size``: whole deals
    (every rotation of each), at least one."""
    return strength.duplicate_schedule(size, max(1, math.ceil(partidos / size)))


def _field_specs(samples: Path, size: int) -> list[PlayerSpec]:
    return [find_player(samples / name) for name in strength.reference_field(size)]


def measure_player(
    folder: Path,
    samples: Path,
    games: Sequence[strength.Game],
    size: int,
    *,
    mechanism: str | None = None,
    limits: Any = None,
    progress: Progress | None = None,
) -> Figures:
    """The player of ``folder`` in the subject's seat of every game, in its own process."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_folders

    subject = find_player(folder)
    entrants = [subject, *_field_specs(samples, size)]
    figures = Figures(subject.name)
    for game in games:
        seated = _rotated(entrants, game.rotation)
        seat = strength.subject_seat(size, game.rotation)
        events: list[dict[str, Any]] = []
        result, _incidents = play_folders(
            seated,
            game.deal,
            limits=limits,
            sinks=[events.append],
            partido_id=f"strength-{game.deal}-{game.rotation}",
            mechanism=mechanism,
        )
        faults = [f.reason for f in result.faults if f.seat == seat]
        figures.add(seat, partido_stats(events), result.winners, faults)
        if progress is not None:
            progress.advance()
    return figures


def _sample(samples: Path, name: str, reference_ms: float) -> Callable[[], Any]:
    """A maker of fresh instances of the sample player ``name`` (search ones on ``reference_ms``)."""
    from arena.player.loader import load_player_class

    cls: Any = load_player_class(samples / name)
    if name in SEARCH and "budget_ms" in inspect.signature(cls).parameters:
        return lambda: cls(budget_ms=reference_ms)
    return lambda: cls()


def measure_sample(
    name: str,
    samples: Path,
    games: Sequence[strength.Game],
    size: int,
    *,
    reference_ms: float = REFERENCE_MS,
    progress: Progress | None = None,
) -> Figures:
    """The sample ``name`` in the subject's seat of every game, in this process."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_partido

    makers = [_sample(samples, n, reference_ms) for n in (name, *strength.reference_field(size))]
    names = [name, *strength.reference_field(size)]
    figures = Figures(name)
    for game in games:
        order = _rotated(list(range(size)), game.rotation)
        seat = strength.subject_seat(size, game.rotation)
        events: list[dict[str, Any]] = []
        result = play_partido(
            [makers[i]() for i in order],
            game.deal,
            names=[f"{names[i]}#{s}" for s, i in enumerate(order)],
            sinks=[events.append],
            partido_id=f"strength-{name}-{game.deal}-{game.rotation}",
        )
        faults = [f.reason for f in result.faults if f.seat == seat]
        figures.add(seat, partido_stats(events), result.winners, faults)
        if progress is not None:
            progress.advance()
    return figures


def samples_root(samples: Path | None) -> Path:
    """The folder of the sample players (``samples``, else the project's): the one holding the
    reference field (``SamplesNotFound``, one line, when none does)."""
    from arena.check.checker import _opponents

    return Path(_opponents(samples, strength.FIELD)[0].folder).parent


def references(samples: Path) -> list[str]:
    """The samples of :data:`REFERENCES` present in ``samples``."""
    return [name for name in REFERENCES if (samples / name / "player.py").is_file()]


def report(mine: Figures, others: Sequence[Figures], reference_ms: float) -> list[str]:
    """The lines ``arena check --strength`` prints."""
    lo, hi = mine.won_interval
    lines = [
        _("{player}: {rate} manos lost per 100; partidos won {won}/{partidos} ({share} [{lo}, {hi}])").format(
            player=mine.name,
            rate=mine.rate,
            won=mine.won,
            partidos=mine.partidos,
            share=f"{100 * mine.won / max(1, mine.partidos):.0f}%",
            lo=f"{100 * lo:.0f}%",
            hi=f"{100 * hi:.0f}%",
        )
    ]
    if mine.faults:
        lines.append(
            _("Faults of {player}: {faults} (run arena check without --strength to see them)").format(
                player=mine.name, faults="; ".join(dict.fromkeys(mine.faults))
            )
        )
    shown = [f"{f.name} {f.rate.value:.1f}" for f in others]
    lines.append(_("The samples on the same deals: {figures}").format(figures="; ".join(shown)))
    if any(f.name in SEARCH for f in others):
        lines.append(
            _("(the search samples think {ms} ms per move here, not their 300)").format(
                ms=f"{reference_ms:.0f}"
            )
        )
    return lines
