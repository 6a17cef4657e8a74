"""Who plays next in a ladder: pure functions over plain values (no Django here).

- **Who enters**: each student's chosen clean version, else their last clean one
  (:func:`active_versions`): one version per student, so two versions of one student never sit
  at one table (where they could share their hands).
- **Who sits**: first the entrants behind the others (a new version first of all: fewest
  partidos), then, of those less than :data:`SLACK` partidos ahead, the ones whose place is least
  certain (:func:`uncertainty`) and who met least, so everyone plays about equally often, meets
  everyone, and the partidos go where they inform the standings most (:func:`choose_table`).
- **How many**: 4 when the game allows it, else its only size; fewer when fewer entrants are
  active, as long as the game allows the size (:func:`table_size`).
- **Where**: the seats are assigned so that each entrant's positions stay balanced and, for each
  pair, A plays right after B about as often as B after A (:func:`seat_order`).

In a game of teams an entrant is a side: a table is the sides in order (side 0 first), and its
ranking ranks sides, as the torneo counts them (:mod:`arena.tournament.sides`).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

PREFERRED_SIZE = 4
"""The table size a ladder plays when its game allows it."""

SLACK = 2
"""How many partidos ahead of the others an entrant may get for being uncertain."""

POOL = 2
"""Of the most uncertain entrants, how many per seat to fill :func:`choose_table` weighs (the
ones who met least sit): C(2k, k) subsets at most, 70 at a table of 4."""

PRIOR_VARIANCE = 1 / 12
"""The variance of a score drawn at random in [0, 1], added to each entrant's as one partido's
worth: a new entrant's spread is not taken for zero after a partido or two."""

Table = Sequence[int]
"""A partido's versions in seat order (by side in a game of teams)."""
Outcome = tuple[Table, Sequence[Sequence[int]]]
"""A done partido: its table and its ranking (groups of seats, best first; a group is a tie)."""


@dataclass(frozen=True)
class Candidate:
    """A version as :func:`active_versions` sees it."""

    id: int
    student: int
    number: int
    clean: bool
    chosen: bool = False


@dataclass(frozen=True)
class Entrant:
    """An active version as the matchmaking sees it: its partidos, the seats it sat in, how
    uncertain its place is."""

    id: int
    partidos: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    """How many times it sat in each position (0 = the first seat)."""
    uncertainty: float = math.inf
    """About how many other entrants its order with is in doubt (see :func:`uncertainty`)."""


@dataclass(frozen=True)
class Score:
    """An entrant's results as :func:`uncertainty` sees them: partidos with a ranking, and the sum
    and sum of squares of its scores (1 first, 0 last, ties in between)."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.5

    @property
    def error(self) -> float:
        """The standard error of :attr:`mean` (infinite before any result)."""
        if not self.n:
            return math.inf
        spread = max(self.squares - self.n * self.mean**2, 0.0)
        return math.sqrt((spread + PRIOR_VARIANCE) / self.n / self.n)


def active_versions(candidates: Iterable[Candidate]) -> list[int]:
    """The ids of the versions that play: each student's chosen clean one, else their last clean one."""
    best: dict[int, Candidate] = {}
    for c in candidates:
        if not c.clean:
            continue
        held = best.get(c.student)
        if held is None or (c.chosen, c.number) > (held.chosen, held.number):
            best[c.student] = c
    return sorted(c.id for c in best.values())


def table_size(sizes: Sequence[int], active: int) -> int | None:
    """The seats of the next partido with ``active`` entrants, of a game that seats ``sizes``;
    None when too few entrants are active for any of them."""
    preferred = PREFERRED_SIZE if PREFERRED_SIZE in sizes else min(sizes)
    if preferred <= active:
        return preferred
    fits = [s for s in sizes if s <= active]
    return max(fits) if fits else None


def scores(outcomes: Iterable[Outcome]) -> dict[int, Score]:
    """Each version's :class:`Score` over the done partidos' rankings: at a table of ``k`` a place
    ``p`` (1 = first; ties share the average) scores ``(k - p) / (k - 1)``."""
    sums: dict[int, list[float]] = {}
    for table, ranking in outcomes:
        k = len(table)
        if k < 2:
            continue
        place = 1.0
        for group in ranking:
            score = (k - place - (len(group) - 1) / 2) / (k - 1)
            for seat in group:
                held = sums.get(table[seat])
                if held is None:
                    sums[table[seat]] = [1, score, score * score]
                else:
                    held[0] += 1
                    held[1] += score
                    held[2] += score * score
            place += len(group)
    return {v: Score(int(n), total, squares) for v, (n, total, squares) in sums.items()}


def uncertainty(active: Sequence[int], results: dict[int, Score]) -> dict[int, float]:
    """For each active version, the sum over the other active ones of how much in doubt their order
    is (``erfc(|difference of mean scores| / (sqrt 2 * the difference's standard error))``: 1 for
    an even pair, near 0 for a clear one): about the width of its place's interval. A cheap stand-in for the
    standings' bootstrap: the mean score is not the Plackett–Luce strength, but it orders the
    entrants alike and its error shrinks as they play. Infinite for a version without results."""
    stats = [results.get(v, Score()) for v in active]
    means = [s.mean for s in stats]
    errors = [s.error**2 for s in stats]
    out: dict[int, float] = {}
    for i, v in enumerate(active):
        if math.isinf(errors[i]):
            out[v] = math.inf
            continue
        doubt = 0.0
        for j in range(len(active)):
            if j == i:
                continue
            spread = errors[i] + errors[j]
            doubt += (
                1.0 if math.isinf(spread) else math.erfc(abs(means[i] - means[j]) / math.sqrt(2 * spread))
            )
        out[v] = doubt
    return out


def seat_order(entrants: Sequence[Entrant], after: Counter[tuple[int, int]] | None = None) -> list[int]:
    """``entrants``' ids in seat order: the assignment with the least cost, where sitting at a
    position costs the times the entrant sat there already, and seating ``b`` right after ``a``
    (seat ``s + 1`` after seat ``s``, the first after the last) costs how many more partidos ``b``
    played right after ``a`` than ``a`` after ``b`` (``after[(a, b)]``: the partidos in which ``b``
    played right after ``a``); each term costs steeply more once it is more than one ahead of its
    balance (:func:`_excess`), so that a sum of small debts elsewhere never pays for one pair or
    seat running three or four ahead. Ties: the one whose worst seat is least used, then whose neighbours
    sat together least, then the first in order. Every assignment is tried (at most 6! of them)."""
    after = after or Counter()
    ids = [e.id for e in entrants]
    k = len(entrants)
    best: tuple[tuple[int, int, int], tuple[int, ...]] | None = None
    fewest = [min(e.seats.get(pos, 0) for pos in range(k)) for e in entrants]
    for perm in itertools.permutations(range(k)):
        uses = [entrants[e].seats.get(pos, 0) for pos, e in enumerate(perm)]
        cost = sum(_excess(u, u - fewest[e]) for u, e in zip(uses, perm, strict=True))
        met = 0
        if k > 2:  # at two seats each plays right after the other: nothing to balance
            for pos in range(k):
                a, b = ids[perm[pos]], ids[perm[(pos + 1) % k]]
                lead = after[(a, b)] - after[(b, a)]
                cost += _excess(lead, lead)
                met += after[(a, b)] + after[(b, a)]
        key = (cost, max(uses, default=0), met)
        if best is None or key < best[0]:
            best = (key, perm)
    assert best is not None
    return [ids[e] for e in best[1]]


def _excess(count: int, lead: int) -> int:
    """What one more of ``count`` costs when it is ``lead`` ahead of its balance: ``count``, and
    steeply more once the lead is past 1, so no pair or seat runs far ahead to even out others."""
    return count + 2 * max(lead - 1, 0) ** 2


def choose_table(
    entrants: Sequence[Entrant],
    size: int,
    after: Counter[tuple[int, int]] | None = None,
    met: Counter[tuple[int, int]] | None = None,
) -> list[int]:
    """The next table: ``size`` entrants, seated by :func:`seat_order`. Empty when fewer than
    ``size`` entrants are given.

    Let ``c`` be the partidos of the ``size``-th entrant by fewest partidos. The entrants with
    fewer than ``c`` sit first (fewest first: a new version plays at once and catches up); the
    other seats go to those with fewer than ``c + SLACK`` partidos, the most uncertain first (then
    the fewest partidos, then the newest). Nobody gets more than ``SLACK`` partidos ahead of
    ``c``, and whoever falls behind it sits next, so the partidos per entrant stay within a few.

    So that everyone meets everyone (and the standings compare them all), the seats left are
    filled from the :data:`POOL` times as many most uncertain ones: the subset whose pairs have
    met more often than the typical pair least, and that brings most pairs who never met together
    (:func:`_meeting`; ``met[(a, b)]``, ``a < b``: the partidos in which they sat at one table;
    typical: the mean over the entrants' pairs, rounded down), the most uncertain among equals."""
    if size < 1 or len(entrants) < size:
        return []
    met = met or Counter()
    pairs = len(entrants) * (len(entrants) - 1) // 2
    typical = sum(met[_pair(a.id, b.id)] for a, b in itertools.combinations(entrants, 2)) // max(pairs, 1)
    cut = sorted(e.partidos for e in entrants)[size - 1]
    behind = sorted((e for e in entrants if e.partidos < cut), key=lambda e: (e.partidos, -e.id))[:size]
    window = [e for e in entrants if cut <= e.partidos < cut + SLACK]
    window.sort(key=lambda e: (-e.uncertainty, e.partidos, -e.id))
    left = size - len(behind)
    pool = window[: POOL * left]
    best: tuple[tuple[int, tuple[int, ...]], tuple[Entrant, ...]] | None = None
    for pick in itertools.combinations(range(len(pool)), left):
        chosen = [*behind, *(pool[i] for i in pick)]
        cost = sum(_meeting(met[_pair(a.id, b.id)], typical) for a, b in itertools.combinations(chosen, 2))
        key = (cost, pick)  # among equals the most uncertain: the first in the pool
        if best is None or key < best[0]:
            best = (key, tuple(chosen))
    assert best is not None
    return seat_order(best[1], after)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _meeting(met: int, typical: int) -> int:
    """What seating a pair that met ``met`` times together costs: each meeting more than the
    typical pair's; a pair that never met gains (``-2``), so the new pairs meet soon."""
    return -2 if met == 0 else max(met - typical, 0)


@dataclass
class History:
    """What :func:`next_table` counts from the partidos so far."""

    entrants: list[Entrant]
    after: Counter[tuple[int, int]]
    """``after[(a, b)]``: the partidos in which ``b`` played right after ``a``."""
    met: Counter[tuple[int, int]]
    """``met[(a, b)]``, ``a < b``: the partidos in which ``a`` and ``b`` sat at one table."""


def history(active: Sequence[int], tables: Iterable[Table], outcomes: Iterable[Outcome] = ()) -> History:
    """The active versions' partidos, seats and uncertainty, and who played right after whom,
    counted from the tables played (or being played) and the rankings of the done ones."""
    partidos = dict.fromkeys(active, 0)
    seats: dict[int, dict[int, int]] = {v: {} for v in active}
    after: Counter[tuple[int, int]] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    for table in tables:
        k = len(table)
        for pos, v in enumerate(table):
            if v in partidos:
                partidos[v] += 1
                seat = seats[v]
                seat[pos] = seat.get(pos, 0) + 1
            after[(v, table[(pos + 1) % k])] += 1
        for a, b in itertools.combinations(table, 2):
            pair = (a, b) if a < b else (b, a)
            met[pair] = met.get(pair, 0) + 1
    doubt = uncertainty(active, scores(outcomes))
    entrants = [Entrant(v, partidos[v], seats[v], doubt[v]) for v in active]
    return History(entrants, after, met)


def entrants_of(
    active: Sequence[int], tables: Iterable[Table], outcomes: Iterable[Outcome] = ()
) -> list[Entrant]:
    """The active versions' partidos, seats and uncertainty (see :func:`history`)."""
    return history(active, tables, outcomes).entrants


def next_table(
    active: Sequence[int], tables: Iterable[Table], sizes: Sequence[int], outcomes: Iterable[Outcome] = ()
) -> list[int]:
    """The next partido's versions in seat order, from the active versions, the tables so far
    (queued, playing or done) and the done ones' rankings; empty when too few versions are active."""
    size = table_size(sizes, len(active))
    if size is None:
        return []
    seen = history(active, tables, outcomes)
    return choose_table(seen.entrants, size, seen.after, seen.met)
