"""Strength of the strong sample player (``sample_players/fuerte``), measured fairly.

Duplicate seating: every table plays the same deal seeds once in every seat
rotation, so each entrant meets the same cards from every seat. Tables:

* ``4``: fuerte, a_mas, a_menos, random_legal (4 players);
* ``3h``: fuerte, a_mas, a_menos (3 players);
* ``3r``: fuerte, random_legal, random_legal (3 players).

For each entrant: partidos survived (among the winners) and manos lost per 100
manos dealt in, each with a 95% Wilson interval; time per move (median, p95,
max) and moves over the referee's limit; every fault. The intervals treat the
partidos and the manos as independent trials, which they are only roughly
(manos of one partido share players; rotations share deals).

Partidos run in this process's children with :func:`arena.referee.table.play_partido`.
``--simulations N`` (default 50) gives the strong player a fixed number of deals
per move: reproducible, and the table is the same on any machine.
``--budget-ms B`` gives it a wall-clock budget per move instead.

    PYTHONPATH=. python3 benchmarks/strength.py --partidos 200 --simulations 50 --workers 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.results.standings import wilson  # the standings' 95% interval

ROOT = Path(__file__).resolve().parent.parent
TABLES: dict[str, tuple[str, ...]] = {
    "4": ("fuerte", "a_mas", "a_menos", "random_legal"),
    "3h": ("fuerte", "a_mas", "a_menos"),
    "3r": ("fuerte", "random_legal", "random_legal"),
}
HEURISTICS = ("a_mas", "a_menos")

_classes: dict[str, Any] = {}


@dataclass
class Job:
    table: str
    seed: int
    rotation: int
    simulations: int | None
    budget_ms: float | None
    player_seed: int


@dataclass
class Tally:
    """One entrant's figures at one table."""

    partidos: int = 0
    survived: int = 0
    manos: int = 0
    lost: int = 0
    move_ms: list[float] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.partidos += other.partidos
        self.survived += other.survived
        self.manos += other.manos
        self.lost += other.lost
        self.move_ms += other.move_ms
        self.faults += other.faults


def make_player(name: str, job: Job) -> Any:
    from arena.loader import load_player_class

    if name not in _classes:
        _classes[name] = load_player_class(ROOT / "sample_players" / name)
    cls = _classes[name]
    if name == "fuerte":
        return cls(seed=job.player_seed, budget_ms=job.budget_ms, simulations=job.simulations)
    return cls()


def run_job(job: Job) -> tuple[str, dict[str, Tally], int]:
    """Play one partido; returns the table, the tallies by entrant and the manos played."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_partido

    entrants = TABLES[job.table]
    k = job.rotation
    seating = entrants[k:] + entrants[:k]
    players = [make_player(name, job) for name in seating]
    events: list[dict[str, Any]] = []
    result = play_partido(
        players,
        job.seed,
        names=[f"{name}#{s}" for s, name in enumerate(seating)],
        sinks=[events.append],
        partido_id=f"strength-{job.table}-{job.seed}-{k}",
    )
    stats = partido_stats(events)
    out: dict[str, Tally] = {}
    for seat, name in enumerate(seating):
        t = out.setdefault(name, Tally())
        t.partidos += 1
        t.survived += seat in result.winners
        t.manos += stats[seat]["manos"]
        t.lost += stats[seat]["manos_perdidas"]
        t.move_ms += result.move_ms[seat]
        t.faults += [f"{f.reason} (seed {job.seed}, mano {f.mano})" for f in result.faults if f.seat == seat]
    return job.table, out, result.manos


def p95(values: list[float]) -> float:
    if len(values) < 2:
        return values[0] if values else math.nan
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def report(table: str, tallies: dict[str, Tally], partidos: int, manos: int, limit_ms: int) -> list[str]:
    entrants = TABLES[table]
    deals = partidos // len(entrants)
    lines = [
        f"table {table}: {len(entrants)} players — {', '.join(entrants)}",
        f"  {deals} deals x {len(entrants)} rotations = {partidos} partidos, {manos} manos",
        f"  {'entrant':<13}{'seats':>6}{'survived':>10}{'95% CI':>16}{'manos':>7}"
        f"{'lost/100':>10}{'95% CI':>14}{'moves':>8}{'ms med':>8}{'p95':>8}{'max':>8}{'>limit':>7}  faults",
    ]
    rows: dict[str, tuple[float, float, float]] = {}
    for name in dict.fromkeys(entrants):
        t = tallies[name]
        s_lo, s_hi = wilson(t.survived, t.partidos)
        l_lo, l_hi = wilson(t.lost, t.manos)
        rate = 100 * t.lost / t.manos if t.manos else math.nan
        rows[name] = (rate, 100 * l_lo, 100 * l_hi)
        ms = t.move_ms
        slow = sum(x > limit_ms for x in ms)
        lines.append(
            f"  {name:<13}{t.partidos:>6}{t.survived / t.partidos:>10.3f}"
            f"{f'[{s_lo:.3f}, {s_hi:.3f}]':>16}{t.manos:>7}{rate:>10.1f}"
            f"{f'[{100 * l_lo:.1f}, {100 * l_hi:.1f}]':>14}{len(ms):>8}"
            f"{statistics.median(ms) if ms else math.nan:>8.1f}{p95(ms):>8.1f}"
            f"{max(ms, default=math.nan):>8.1f}{slow:>7}  {'; '.join(t.faults) or 'none'}"
        )
    others = [n for n in rows if n != "fuerte"]
    heur = [n for n in others if n in HEURISTICS]
    best = min(heur or others, key=lambda n: rows[n][0])
    below = rows["fuerte"][2] < rows[best][1]
    lines.append(
        f"  fuerte's lost/100 interval entirely below the best {'heuristic' if heur else 'opponent'}'s"
        f" ({best}): {'yes' if below else 'NO'}"
    )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partidos", type=int, default=200, help="per table (rounded up to whole rotations)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--simulations", type=int, default=None, help="deals per move (default 50)")
    how.add_argument("--budget-ms", type=float, default=None, help="time per move instead of --simulations")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--tables", default=",".join(TABLES), help=f"comma-separated, of {', '.join(TABLES)}")
    ap.add_argument("--first-seed", type=int, default=1, help="the first deal seed")
    ap.add_argument("--player-seed", type=int, default=2002, help="the strong player's own seed")
    args = ap.parse_args()
    from arena.referee.connection import Limits

    if args.budget_ms is None and args.simulations is None:
        args.simulations = 50
    tables = [t.strip() for t in args.tables.split(",") if t.strip()]
    for t in tables:
        if t not in TABLES:
            ap.error(f"unknown table {t!r}; known: {', '.join(TABLES)}")
    jobs = []
    for t in tables:
        k = len(TABLES[t])
        deals = -(-args.partidos // k)
        for seed in range(args.first_seed, args.first_seed + deals):
            for rotation in range(k):
                jobs.append(Job(t, seed, rotation, args.simulations, args.budget_ms, args.player_seed))
    how = f"simulations={args.simulations}" if args.simulations else f"budget_ms={args.budget_ms}"
    print(f"fuerte: {how}, seed={args.player_seed}; workers={args.workers}; {len(jobs)} partidos")
    start = time.perf_counter()
    tallies: dict[str, dict[str, Tally]] = {t: {} for t in tables}
    partidos = dict.fromkeys(tables, 0)
    manos = dict.fromkeys(tables, 0)
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = list(pool.imap_unordered(run_job, jobs, chunksize=1))
    else:
        results = [run_job(j) for j in jobs]
    for table, out, n_manos in results:
        partidos[table] += 1
        manos[table] += n_manos
        for name, t in out.items():
            tallies[table].setdefault(name, Tally()).add(t)
    elapsed = time.perf_counter() - start
    limit = Limits().move_ms
    for t in tables:
        print()
        print("\n".join(report(t, tallies[t], partidos[t], manos[t], limit)))
    total_partidos, total_manos = sum(partidos.values()), sum(manos.values())
    print()
    print(
        f"played {total_partidos} partidos, {total_manos} manos in {elapsed:.0f} s"
        f" (move limit {limit} ms; lost/100 = manos lost per 100 manos dealt in)"
    )


if __name__ == "__main__":
    main()
