"""Who plays next in a ladder: pure functions over plain values (no Django here).

- **Who enters**: each student's chosen clean version, else their last clean one
  (:func:`active_versions`).
- **Who sits**: the entrant with the fewest partidos first (a new version first of all), then the
  others by fewest partidos; among equals the newest version (:func:`choose_table`).
- **How many**: 4 when the game allows it, else its only size; fewer when fewer entrants are
  active, as long as the game allows the size (:func:`table_size`).
- **Where**: the seats are assigned so that each entrant's positions stay balanced: the
  assignment that puts everyone where they have sat least (:func:`seat_order`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

PREFERRED_SIZE = 4
"""The table size a ladder plays when its game allows it."""


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
    """An active version as the matchmaking sees it: its partidos and the seats it sat in."""

    id: int
    partidos: int = 0
    seats: dict[int, int] = field(default_factory=dict)
    """How many times it sat in each position (0 = the first seat)."""


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


def seat_order(entrants: Sequence[Entrant]) -> list[int]:
    """``entrants``' ids in seat order: the assignment where they have sat least in total
    (ties: the one whose worst seat is least used, then the first in order)."""
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for perm in itertools.permutations(range(len(entrants))):
        uses = [entrants[e].seats.get(pos, 0) for pos, e in enumerate(perm)]
        key = (sum(uses), max(uses, default=0))
        if best is None or key < best[0]:
            best = (key, perm)
    assert best is not None
    return [entrants[e].id for e in best[1]]


def choose_table(entrants: Sequence[Entrant], size: int) -> list[int]:
    """The next table: ``size`` entrants, fewest partidos first (the newest among equals), seated
    so their positions stay balanced. Empty when fewer than ``size`` entrants are given."""
    if size < 1 or len(entrants) < size:
        return []
    ranked = sorted(entrants, key=lambda e: (e.partidos, -e.id))
    return seat_order(ranked[:size])


def entrants_of(active: Sequence[int], tables: Iterable[Sequence[int]]) -> list[Entrant]:
    """The active versions' partidos and seats, counted from the tables played (or being played)."""
    partidos = dict.fromkeys(active, 0)
    seats: dict[int, dict[int, int]] = {v: {} for v in active}
    for table in tables:
        for pos, v in enumerate(table):
            if v in partidos:
                partidos[v] += 1
                seats[v][pos] = seats[v].get(pos, 0) + 1
    return [Entrant(v, partidos[v], seats[v]) for v in active]


def next_table(active: Sequence[int], tables: Iterable[Sequence[int]], sizes: Sequence[int]) -> list[int]:
    """The next partido's versions in seat order, from the active versions and the tables so far;
    empty when too few versions are active."""
    size = table_size(sizes, len(active))
    if size is None:
        return []
    return choose_table(entrants_of(active, tables), size)
