"""``arena tournament --until-separated``: the budget of extra partidos when ``--budget`` is not
given, the line that says it, and the line that ends the torneo (the neighbouring places still
open and the partidos that would settle them, or none).

The rule (docs/tournament.md, "Until separated: the budget"). When the schedule is settled, each
pair of neighbouring places that is **open** (neither separated at 95% nor shown equal:
:mod:`arena.results.separate`) gets an estimate of the partidos each of the two still needs to be
settled — separated, or shown equal — if their difference is what it seems and its interval
narrows as 1/√partidos (:func:`settle`). The budget is the sum of these estimates over the open
neighbours, at most :data:`CAP_TIMES` times the schedule (or, when more, times the partidos in
which every entrant plays ``ranking.SEPARATE_FROM``), and a whole number of duplicate groups; the
most allowed when a neighbour has no estimate yet (too few partidos). No open neighbour: no
extra partido. The budget is kept in the store when chosen, so a resumed torneo plays on with the
same one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from arena.i18n import _, n_
from arena.results import ranking, report, separate, standings
from arena.tournament import coordinator as t
from arena.tournament.schedule import ScheduledPartido
from arena.tournament.store import Store

CAP_TIMES = 4
"""A chosen budget is at most this many times the schedule's partidos (or the partidos in which
every entrant plays ``ranking.SEPARATE_FROM`` times, when that is more): as the standings stop
estimating beyond four times the partidos played (``ranking.NEEDED_CAP``)."""
SHOWN_PAIRS = 4
"""Open pairs named on a line; the rest are counted."""


@dataclass(frozen=True)
class Neighbours:
    """An open pair of neighbouring places (1-based) and about how many more partidos each of the
    two needs to settle it (None: no estimate)."""

    upper: int
    lower: int
    needed: int | None

    def label(self) -> str:
        return _("#{upper}/#{lower}").format(upper=self.upper, lower=self.lower)


def settle(pairs: ranking.Pairs, i: int, j: int, each: int) -> int | None:
    """About how many more partidos each of rows ``i`` and ``j`` (``each`` partidos so far) needs for
    the pair to be separated or shown equal, if the difference is what it seems and its interval
    narrows as 1/√partidos: the standings' estimate when it gives one, else from the interval.
    None when the interval gives nothing to go on."""
    each = max(each, 1)
    low, high, found = float(pairs.low[i, j]), float(pairs.high[i, j]), float(pairs.needed[i, j])
    half, mid = (high - low) / 2, abs(high + low) / 2
    candidates = [found] if not math.isnan(found) else []
    if half > 0 and not math.isnan(half):
        if mid < ranking.EQUAL_BAND:  # its interval inside ±band: shown equal
            candidates.append(each * ((half / (ranking.EQUAL_BAND - mid)) ** 2 - 1))
        if math.isnan(found) and mid > 0:  # its interval clear of 0: separated
            candidates.append(each * ((half / mid) ** 2 - 1))
    if not candidates:
        return None
    return max(1, math.ceil(min(candidates)), ranking.SEPARATE_FROM - each)


def open_neighbours(posiciones: pd.DataFrame) -> tuple[list[Neighbours], list[Neighbours]]:
    """The neighbouring places (in the standings' order) still open, and those shown equal."""
    rows = posiciones[posiciones["grupo"] != ""].reset_index(drop=True)
    pairs = standings.pairs_of(posiciones)
    played = [int(p + r) for p, r in zip(rows["partidos"], rows["retiradas"], strict=True)]
    still, equal = [], []
    for i in range(len(rows) - 1):
        j = i + 1
        if pairs is None:  # no resamples yet: nothing is known
            still.append(Neighbours(i + 1, j + 1, None))
        elif pairs.equal(i, j):
            equal.append(Neighbours(i + 1, j + 1, 0))
        elif not pairs.separated(i, j):
            still.append(Neighbours(i + 1, j + 1, settle(pairs, i, j, min(played[i], played[j]))))
    return still, equal


def named(found: list[Neighbours], needs: bool = False) -> str:
    """``#3/#4, #5/#6`` (the first :data:`SHOWN_PAIRS`, then how many more); ``needs``: each with
    the partidos it needs, ``#3/#4 (about 47)``."""

    def one(n: Neighbours) -> str:
        if not needs:
            return n.label()
        if n.needed is None:
            return _("{pair} (no estimate)").format(pair=n.label())
        return _("{pair} (about {n})").format(pair=n.label(), n=n.needed)

    shown = ", ".join(one(n) for n in found[:SHOWN_PAIRS])
    if len(found) > SHOWN_PAIRS:
        shown = _("{pairs} and {n} more").format(pairs=shown, n=len(found) - SHOWN_PAIRS)
    return shown


def estimate(found: list[Neighbours]) -> int:
    """The partidos the open neighbours ``found`` need, summed (those with an estimate)."""
    return sum(n.needed or 0 for n in found)


def cap(scheduled: int, entrants: int, table_size: int) -> int:
    """The most a chosen budget may be (:data:`CAP_TIMES`)."""
    return CAP_TIMES * max(scheduled, math.ceil(entrants * ranking.SEPARATE_FROM / table_size))


def choose(
    found: list[Neighbours], scheduled: int, entrants: int, table_size: int, group: int = 1
) -> tuple[int, str]:
    """The budget for the open neighbours ``found`` and the line that says it and why."""
    most = cap(scheduled, entrants, table_size)
    if not found:
        return 0, _(
            "Until separated: every pair of neighbouring places is separated or shown equal after "
            "the schedule; no more partidos."
        )
    need = estimate(found)
    unknown = [n for n in found if n.needed is None]  # too few partidos to tell: the most allowed
    if need and need <= most and not unknown:
        budget = group * math.ceil(need / group)
        return budget, _(
            "Until separated: up to {budget} more partidos, about what the open neighbours {pairs} "
            "need to be separated or shown equal (no --budget; at most {cap})."
        ).format(budget=budget, pairs=named(found), cap=most)
    budget = group * (most // group) or group
    if need and not unknown:
        return budget, _(
            "Until separated: up to {budget} more partidos, the most without --budget ({times} × "
            "{base}); the open neighbours {pairs} would need about {need}."
        ).format(budget=budget, times=CAP_TIMES, base=most // CAP_TIMES, pairs=named(found), need=need)
    return budget, _(
        "Until separated: up to {budget} more partidos, the most without --budget ({times} × {base}); "
        "the partidos cannot yet tell how many the open neighbours {pairs} need."
    ).format(budget=budget, times=CAP_TIMES, base=most // CAP_TIMES, pairs=named(unknown or found))


def _posiciones(store: Store) -> pd.DataFrame:
    """The standings of the partidos committed in ``store`` (as :func:`separate.next_batch` reads them)."""
    names = [e.name for e in store.entrants()]
    counted = report.tally(store)
    recs = report.records(store, figures=counted is None)
    return standings.standings(recs, names, report.forfeits(store), counted=counted)


def start(store: Store) -> str:
    """Before the first extra partido of this run: the budget (chosen now and kept in the store when
    the torneo has none) and the one line that says which and why."""
    config = store.config()
    schedule = store.scheduled()
    extra = [p for p in schedule if p.round < 0]
    base = len(schedule) - len(extra)
    if config.get("budget") is not None and not t.budget_chosen(store):
        left = max(0, int(config["budget"]) - len(extra))
        return _("Until separated: up to {budget} more partidos (--budget).").format(budget=left)
    if config.get("budget") is not None:  # resumed
        return _(
            "Until separated: up to {budget} more partidos (chosen when the schedule ended), {n} played."
        ).format(budget=config["budget"], n=len(extra))
    # chosen now: after the schedule, or on playing on (--resume --until-separated) after extras
    found, _equal = open_neighbours(_posiciones(store))
    k = int(config["table_size"])
    group = (6 if k == 3 else k) if config.get("duplicate") else 1
    budget, line = choose(found, base, len(store.entrants()), k, group)
    t.choose_budget(store, len(extra) + budget)
    return line


def more(echo: Callable[[str], None]) -> Callable[[Store], tuple[list[ScheduledPartido], str] | None]:
    """The coordinator's ``more`` for ``--until-separated``: says the budget (:func:`start`) before
    the first batch, then :func:`arena.results.separate.next_batch`."""
    said = False

    def next_batch(store: Store) -> tuple[list[ScheduledPartido], str] | None:
        nonlocal said
        if not said:
            said = True
            echo(start(store))
        return separate.next_batch(store)

    return next_batch


def final_line(posiciones: pd.DataFrame) -> str:
    """The line that ends a torneo played until separated: the neighbouring places still open and
    about how many more partidos would settle them, or that every pair is settled."""
    found, equal = open_neighbours(posiciones)
    if not found and not equal:
        return _("Every pair of neighbouring places is separated at 95%.")
    if not found:
        return _("Every pair of neighbouring places is separated at 95% or shown equal ({pairs}).").format(
            pairs=named(equal)
        )
    need = estimate(found)
    if not need:
        return _(
            "Not separated yet: {pairs}; the partidos cannot yet tell how many more would settle them."
        ).format(pairs=named(found))
    return n_(
        "Not separated yet: {pairs}; about {need} more partido in all would settle them (separated or "
        "shown equal).",
        "Not separated yet: {pairs}; about {need} more partidos in all would settle them (separated or "
        "shown equal).",
        need,
    ).format(pairs=named(found, needs=True), need=need)
