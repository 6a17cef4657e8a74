"""How balanced the schedule seats entrants: by seat position, and by who plays right after whom.

In Tute Cabrero play goes from seat ``s`` to seat ``s + 1`` (mod K): an entrant plays right after
its right-hand neighbour and leads into its left. For several field and table sizes this builds
the torneo's schedule (:func:`arena.tournament.schedule.make_schedule`, as ``arena tournament``
does, no partido played) and counts:

* **position imbalance**: for each entrant, its most-used seat minus its least-used one;
  the largest over entrants;
* **neighbour imbalance**: for each ordered pair (A, B) of entrants that meet, how often A sat
  immediately before B in play order; the largest difference between the two directions of a
  pair (|A→B − B→A|), and the range over all ordered pairs (max − min, the figure issue 28
  quotes: 66 to 145 for 5 entrants at tables of 4 over 500 partidos).

It prints two lines per case, ``old`` (the schedule of ``--old REV``, default a20c34c: the one
before neighbours were balanced, read with ``git show``) and ``new`` (this checkout's), each
ending ``max position imbalance: X; max neighbour imbalance: Y`` (counts: Y is the largest
|A→B − B→A|), then the range over the ordered pairs.

    python benchmarks/experiments/seating.py
    python benchmarks/experiments/seating.py --seed 7 --old HEAD~1
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.tournament.schedule import make_schedule, seating_balance  # noqa: E402

CASES = (
    # (entrants, table size, rounds, partidos, duplicate)
    (5, 4, 20, None, False),
    (5, 4, 1, 500, False),
    (6, 3, 5, None, False),
    (7, 4, 3, None, False),
    (8, 5, 1, None, False),
    (9, 6, 1, None, False),
    (12, 4, None, 600, False),
    (30, 4, None, 2000, False),
    (5, 4, 4, None, True),
    (6, 3, 2, None, True),
)


def imbalance(entrants: int, table_size: int, seats: list[tuple[int, ...]]) -> tuple[int, int, int, int]:
    """(position imbalance, largest |A→B − B→A|, min and max over ordered pairs that met)."""
    b = seating_balance(entrants, table_size, seats)
    return b.position, b.neighbours, b.fewest, b.most


def old_make_schedule(rev: str) -> Callable[..., list]:  # type: ignore[type-arg]
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
    return module.make_schedule  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed", type=int, default=2002, help="the schedule's seed (default 2002)")
    parser.add_argument("--old", default="a20c34c", help="the revision to compare with (default a20c34c)")
    args = parser.parse_args()
    for label, make in (("old", old_make_schedule(args.old)), ("new", make_schedule)):
        for n, k, rounds, partidos, duplicate in CASES:
            schedule = make(n, k, rounds=rounds or 1, seed=args.seed, duplicate=duplicate, partidos=partidos)
            position, directions, low, high = imbalance(n, k, [p.seats for p in schedule])
            what = (
                f"{n} entrants, tables of {k}, {len(schedule)} partidos{' (duplicate)' if duplicate else ''}"
            )
            print(
                f"{label} {what:48} max position imbalance: {position}; max neighbour imbalance: {directions}"
                f" (A right after B: {low} to {high} partidos over the ordered pairs)"
            )


if __name__ == "__main__":
    main()
