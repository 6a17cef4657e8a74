"""How balanced the schedule seats entrants: by seat position, and by who plays right after whom.

In Tute Cabrero play goes from seat ``s`` to seat ``s + 1`` (mod K): an entrant plays right after
its right-hand neighbour and leads into its left. For several field and table sizes this builds
the torneo's schedule (:func:`arena.tournament.schedule.make_schedule`, as ``arena tournament``
does, no partido played) and counts:

* **position imbalance**: for each entrant, its most-used seat minus its least-used one;
  the largest over entrants;
* **neighbour imbalance** (the old measure): for each ordered pair (A, B) of entrants that meet,
  how often B sat immediately after A in play order; the largest difference between the two
  directions of a pair (|A→B − B→A|), and the range over all ordered pairs (min to max, the figure
  issue 28 quotes: 66 to 145 for 5 entrants at tables of 4 over 500 partidos);
* **distance from the share** (the new measure, issue 50): each ordered pair's count against its
  share, the partidos the two play together / (K − 1) (at a table of K an entrant is followed by
  one of the K − 1 others: in a round robin the share is the mean over the ordered pairs); the
  largest |count − share|, and whether every ordered pair is within ±1 of its share.

It prints two lines per case, ``old`` (the schedule of ``--old REV``, default d399081: the one
before issue 50's search, read with ``git show``; a20c34c is the one before neighbours were
balanced at all) and ``new`` (this checkout's), each ending ``max position imbalance: X; max
neighbour imbalance: Y (A right after B: LO to HI partidos over the ordered pairs); within ±1 of
the share: every pair | P pairs beyond (largest distance D) [T s]`` (T: the time to build it).
Among the cases, issue 50's: 6 entrants at tables of 4 over 4 rounds (60 partidos; before, "B
right after A" ranged from 4 to 12, the share being 8), with ``--duplicate``, and 6 entrants at
tables of 3, 5 and 6. Not every design can reach ±1: a round robin's blocks of K passes (and
``--duplicate``'s rotations) count a pair K partidos at a time, so their share must be within 1 of
a multiple of K (5 entrants at tables of 3 over 3 rounds: 4.5, so 3 or 6); a single table (6
entrants at tables of 6) has few orders to choose from; and the search of the other tables is
bounded (docs/tournament.md, "Neighbours").

    python benchmarks/experiments/seating.py
    python benchmarks/experiments/seating.py --seed 7 --old a20c34c
    python benchmarks/experiments/seating.py --big     # also the biggest draws' build time
    python benchmarks/experiments/seating.py --check   # issue 50's case within ±1, several keys

``--check`` builds issue 50's case (and its ``--duplicate``) under five seeds and exits 1 unless every
ordered pair is within ±1 of its share with every seat exactly balanced; it prints one line.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.tournament.schedule import SeatingBalance, make_schedule, seating_balance  # noqa: E402

CASES = (
    # (entrants, table size, rounds, partidos, duplicate)
    (6, 4, 4, None, False),  # issue 50's case
    (6, 4, 4, None, True),
    (6, 3, 4, None, False),
    (6, 5, 4, None, False),
    (6, 6, 4, None, False),
    (6, 3, 4, None, True),
    (6, 5, 4, None, True),
    (5, 4, 20, None, False),
    (5, 4, 1, 500, False),
    (6, 3, 5, None, False),
    (7, 4, 3, None, False),
    (7, 4, 1, None, False),
    (8, 4, 4, None, False),
    (8, 5, 1, None, False),
    (9, 6, 1, None, False),
    (12, 4, None, 600, False),
    (30, 4, None, 2000, False),
    (5, 4, 4, None, True),
    (6, 3, 2, None, True),
)
BIG = (
    # the biggest draws, for the build time: a round robin of 775,200 partidos (60 entrants at tables
    # of 5 over 50 rounds is 273 million, far past the limit of a million), and a draw of developments
    (20, 5, 50, None, False),
    (60, 5, None, 500_000, False),
)
CHECK_SEEDS = range(5)


def old_make_schedule(rev: str) -> Callable[..., list[Any]]:
    """``make_schedule`` as revision ``rev`` of this repository had it."""
    source = subprocess.run(
        ["git", "show", f"{rev}:arena/tournament/schedule.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("old_schedule")
    module.__dict__["__name__"] = "old_schedule"
    sys.modules["old_schedule"] = module
    exec(compile(source, f"{rev}:schedule.py", "exec"), module.__dict__)
    return module.make_schedule


def measured(
    make: Callable[..., list[Any]], case: tuple[int, int, int | None, int | None, bool], seed: int
) -> tuple[SeatingBalance, int, float]:
    """The balance of ``case``'s schedule, its partidos and how long it took to build."""
    n, k, rounds, partidos, duplicate = case
    start = time.perf_counter()
    schedule = make(n, k, rounds=rounds or 1, seed=seed, duplicate=duplicate, partidos=partidos)
    took = time.perf_counter() - start
    return seating_balance(n, k, [p.seats for p in schedule]), len(schedule), took


def line(
    label: str, case: tuple[int, int, int | None, int | None, bool], b: SeatingBalance, size: int, took: float
) -> str:
    """One printed line: the case, both measures and the build time."""
    n, k, _rounds, _partidos, duplicate = case
    what = f"{n} entrants, tables of {k}, {size} partidos{' (duplicate)' if duplicate else ''}"
    share = "every pair" if not b.beyond else f"{b.beyond} pairs beyond"
    return (
        f"{label} {what:48} max position imbalance: {b.position}; max neighbour imbalance: {b.neighbours}"
        f" (A right after B: {b.fewest} to {b.most} partidos over the ordered pairs);"
        f" within ±1 of the share: {share} (largest distance {b.spread:.2f}) [{took:.2f} s]"
    )


def check() -> int:
    """Issue 50's case and its --duplicate under :data:`CHECK_SEEDS`: 0 when every ordered pair is within
    ±1 of its share and every seat exactly balanced, else 1."""
    worst = 0.0
    for seed in CHECK_SEEDS:
        for duplicate in (False, True):
            b, _size, _took = measured(make_schedule, (6, 4, 4, None, duplicate), seed)
            worst = max(worst, b.spread)
            if b.spread > 1 or b.position:
                print(f"check failed: seed {seed}{', duplicate' if duplicate else ''}: {b}")
                return 1
    n = len(CHECK_SEEDS)
    print(
        f"check: 6 entrants at tables of 4 over 4 rounds, with and without --duplicate, {n} seeds each: every"
        f" ordered pair within ±1 of its share (largest distance {worst:.2f}), every seat exactly balanced"
    )
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=2002, help="the schedule's seed (default 2002)")
    parser.add_argument("--old", default="d399081", help="the revision to compare with (default d399081)")
    parser.add_argument("--big", action="store_true", help="also the biggest draws (their build time)")
    parser.add_argument(
        "--check", action="store_true", help="only check issue 50's case (exit 1 if it fails)"
    )
    args = parser.parse_args()
    if args.check:
        sys.exit(check())
    cases = CASES + (BIG if args.big else ())
    for label, make in (("old", old_make_schedule(args.old)), ("new", make_schedule)):
        for case in cases:
            b, size, took = measured(make, case, args.seed)
            print(line(label, case, b, size, took), flush=True)


if __name__ == "__main__":
    main()
