"""Measuring a player's strength fairly: the pieces a strength harness is built from.

* the **reference field**: the sample heuristics and random play a subject meets at each
  table size (:func:`reference_field`);
* the **duplicate schedule**: every deal played once in every seat rotation, so each entrant
  meets the same cards from every seat (:func:`duplicate_schedule`);
* **manos lost per 100 manos dealt**, with a 95% Wilson interval (:func:`lost_per_100`);
* a **bootstrap over deals** (:func:`bootstrap`), and the **gap closed** between random play
  and an omniscient bound (:func:`gap_closed`, :func:`gap_closed_interval`).

Pure functions: no players, no processes. ``benchmarks/experiments/strength.py`` and ``arena check
--strength`` play the partidos and call these.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from arena.results.standings import wilson

FIELD: tuple[str, ...] = ("a_mas", "a_menos", "random_legal")
"""The reference opponents, in the order they are seated (sample player folders)."""

SIZES: tuple[int, ...] = (3, 4, 5, 6)

T = TypeVar("T")


def reference_field(size: int) -> tuple[str, ...]:
    """The ``size - 1`` opponents of a subject at a table of ``size``: :data:`FIELD` cycled
    (3: a_mas, a_menos; 4: + random_legal; 5: + a_mas; 6: + a_mas, a_menos)."""
    if size < 3:
        raise ValueError(f"a table of {size} is no Tute Cabrero table")  # not shown: a caller's mistake
    return tuple(FIELD[i % len(FIELD)] for i in range(size - 1))


def table(subject: str, size: int) -> tuple[str, ...]:
    """The entrants of one table: the subject first, then its reference field."""
    return (subject, *reference_field(size))


class Game(NamedTuple):
    """One partido of a duplicate schedule: a deal seed and a seat rotation."""

    deal: int
    rotation: int


def seating(entrants: Sequence[str], rotation: int) -> tuple[str, ...]:
    """The entrants by seat in ``rotation``: rotation k seats entrant k first."""
    k = rotation % len(entrants)
    return (*entrants[k:], *entrants[:k])


def subject_seat(size: int, rotation: int) -> int:
    """The seat of the first entrant (the subject) in ``rotation`` of a table of ``size``."""
    return (size - rotation % size) % size


def duplicate_schedule(size: int, deals: int, first_deal: int = 1) -> list[Game]:
    """Every deal seed of ``first_deal .. first_deal + deals - 1`` in each of the ``size``
    seat rotations, deal by deal."""
    return [Game(d, k) for d in range(first_deal, first_deal + deals) for k in range(size)]


class Rate(NamedTuple):
    """Manos lost per 100 manos dealt, with its 95% interval."""

    value: float
    lo: float
    hi: float
    lost: int
    manos: int

    def __str__(self) -> str:
        return f"{self.value:.1f} [{self.lo:.1f}, {self.hi:.1f}]"


def lost_per_100(lost: int, manos: int) -> Rate:
    """Manos lost per 100 manos dealt, with a 95% Wilson interval (NaN without manos).

    The interval treats manos as independent trials, which they are only roughly
    (the manos of one partido share players, rotations share deals): :func:`bootstrap`
    over deals is the sounder interval for comparisons.
    """
    if manos <= 0:
        return Rate(math.nan, math.nan, math.nan, lost, manos)
    lo, hi = wilson(lost, manos)
    return Rate(100 * lost / manos, 100 * lo, 100 * hi, lost, manos)


def bootstrap(
    samples: Sequence[T],
    statistic: Callable[[Sequence[T]], float],
    draws: int = 2000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float]:
    """The percentile bootstrap interval of ``statistic`` over ``samples`` (one per deal):
    ``draws`` resamples with replacement, reproducible given ``seed``. NaN results are left out."""
    if not samples:
        return math.nan, math.nan
    rng = random.Random(seed)
    n = len(samples)
    values = []
    for _ in range(draws):
        v = statistic([samples[rng.randrange(n)] for _ in range(n)])
        if not math.isnan(v):
            values.append(v)
    if not values:
        return math.nan, math.nan
    values.sort()
    tail = (1 - level) / 2
    lo = values[min(len(values) - 1, int(tail * len(values)))]
    hi = values[min(len(values) - 1, int((1 - tail) * len(values)))]
    return lo, hi


def gap_closed(random_rate: float, subject_rate: float, omniscient_rate: float) -> float:
    """The fraction of the distance from random play to the omniscient bound that the subject
    closes: (random - subject) / (random - omniscient); 0 = random, 1 = omniscient (NaN when
    the bound is no better than random)."""
    gap = random_rate - omniscient_rate
    if gap <= 0:
        return math.nan
    return (random_rate - subject_rate) / gap


class DealResult(NamedTuple):
    """The manos lost and dealt at the subject's seat over one deal's rotations, for the random
    player, the subject and the omniscient bound in that same seat."""

    random_lost: int
    random_manos: int
    subject_lost: int
    subject_manos: int
    omniscient_lost: int
    omniscient_manos: int


def _closed(deals: Sequence[DealResult]) -> float:
    def rate(lost: int, manos: int) -> float:
        return lost / manos if manos else math.nan

    r = rate(sum(d.random_lost for d in deals), sum(d.random_manos for d in deals))
    s = rate(sum(d.subject_lost for d in deals), sum(d.subject_manos for d in deals))
    o = rate(sum(d.omniscient_lost for d in deals), sum(d.omniscient_manos for d in deals))
    return gap_closed(r, s, o)


def gap_closed_interval(
    deals: Sequence[DealResult], draws: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """The gap closed over all ``deals`` and its 95% bootstrap interval over deals: (x, lo, hi)."""
    return (_closed(deals), *bootstrap(deals, _closed, draws, seed))
