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

    PYTHONPATH=. python3 benchmarks/experiments/strength.py --partidos 200 --simulations 50 --workers 2

**Gap mode** (``--gap``): how much of the distance from random play to perfect information
a subject closes. For each table size (``--sizes``, default 3,4,5,6) every subject sits with
the reference field of :func:`arena.results.strength.reference_field` — 3: subject, a_mas, a_menos;
4: + random_legal; 5: + a_mas; 6: + a_mas, a_menos (the six-player dealer sits each mano out) —
over the same ``--deals`` deal seeds in every seat rotation. The same seat in the same deals is
then played by ``random_legal`` and by the **omniscient bound** (``--omniscient``, default
``fuerte:50``): that search given the TRUE hands (``benchmarks/experiments/omniscient.py``, in-process
through the referee's event sink). Each subject prints its manos lost per 100 with a 95% Wilson
interval and ``closes X% [lo, hi] of random → omniscient``, X = (random - subject) /
(random - omniscient), with a bootstrap over deals for [lo, hi]. A subject ``name:N`` is a
search player with N deals per move (reproducible); plain ``name`` uses its own time budget;
``name:N+attr=value+...`` sets a class setting of the player (to compare variants, e.g.
``maestro:50+explore=1.0``). ``--field alto,bajo,mixto`` seats other opponents
(``benchmarks/experiments/strength_bots``, which the samples were never built against) instead of the
reference field. ``--cache FILE`` keeps every finished partido, so a rerun (or a run with
another subject) plays only what is missing.

**Duel mode** (``--duel A,B``): A and B at one table with the reference field (the first of
``--sizes``), every deal in every rotation: each one's manos lost per 100 and partidos won, and
A − B with a bootstrap over deals.

    PYTHONPATH=. python3 benchmarks/experiments/strength.py --duel maestro:50,fuerte:50 --deals 40 --sizes 4

    PYTHONPATH=. python3 benchmarks/experiments/strength.py --gap --deals 40 --sizes 4 \
        --subjects random_legal,fuerte:50,maestro:50 --omniscient fuerte:50 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
STRANGER_BOTS = Path(__file__).resolve().parent / "strength_bots"


def wilson(k: int, n: int) -> tuple[float, float]:
    """The standings' 95% interval, imported when first used (the results side loads scipy: a
    second that a run checking its arguments, or a test of a script, need not spend)."""
    from arena.results.standings import wilson as interval

    return interval(k, n)


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
    from arena.player.loader import load_player_class

    if name not in _classes:
        folder = ROOT / "sample_players" / name
        if not folder.is_dir():
            folder = STRANGER_BOTS / name  # opponents the samples never saw
        _classes[name] = load_player_class(folder)
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
        t.move_ms += result.reply_ms[seat]
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


# ---------------------------------------------------------------- gap mode


@dataclass
class GapJob:
    size: int
    subject: str
    """A sample player's folder name, ``name:N`` for N deals per move, or ``omniscient``."""
    deal: int
    rotation: int
    omniscient: str
    player_seed: int
    field: tuple[str, ...] = ()
    """The opponents, cycled to fill the table (empty: the reference field)."""


def search_player(spec: str, seed: int, truth: Any = None) -> Any:
    """``name`` or ``name:N`` (N deals per move) of a sample player; with ``truth``, its
    omniscient version (see benchmarks/experiments/omniscient.py)."""
    from arena.player.loader import load_player_class

    head, *options = spec.split("+")
    name, _, sims = head.partition(":")
    if name not in _classes:
        folder = ROOT / "sample_players" / name
        if not folder.is_dir():
            folder = STRANGER_BOTS / name  # opponents the samples never saw
        _classes[name] = load_player_class(folder)
    cls = _classes[name]
    if truth is not None:
        from benchmarks.experiments.omniscient import omniscient

        cls = omniscient(cls, truth)
    if name in ("random_legal", "a_mas", "a_menos", *STRANGERS):
        return cls()
    player = cls(seed=seed, simulations=int(sims) if sims else None)
    apply_settings(player, spec, parse_settings(options))  # name:N+attr=value, to compare variants
    return player


def parse_settings(options: Sequence[str]) -> dict[str, float]:
    """A spec's ``attr=value`` parts (``name:N+attr=value``) as class settings."""
    out = {}
    for option in options:
        attr, _, value = option.partition("=")
        out[attr] = float(value)
    return out


def apply_settings(player: Any, spec: str, values: Mapping[str, float]) -> None:
    """Set each of ``values`` on ``player``, as the type its setting has; an unknown one stops the run."""
    for attr, value in values.items():
        if not hasattr(player, attr):
            name = spec.split("+")[0].partition(":")[0]
            raise SystemExit(f"{spec}: {name} has no setting {attr!r}")
        setattr(player, attr, type(getattr(player, attr))(value))


def play_counted(
    players: list[Any], names: tuple[str, ...], deal: int, partido_id: str, sinks: tuple[Any, ...] = ()
) -> tuple[Any, list[dict[str, Any]]]:
    """Play one in-process partido (seat names ``name#seat``): its result and its per-seat stats."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_partido

    events: list[dict[str, Any]] = []
    result = play_partido(
        players,
        deal,
        names=[f"{n}#{s}" for s, n in enumerate(names)],
        sinks=[*sinks, events.append],
        partido_id=partido_id,
    )
    return result, partido_stats(events)


def gap_seats(size: int, rotation: int, field: tuple[str, ...] = ()) -> tuple[tuple[str, ...], int]:
    """A gap table's seat names in ``rotation`` (the subject's seat is ``subject``; the reference
    field, or ``field`` cycled) and the subject's seat."""
    from arena.results.strength import seating, subject_seat, table

    entrants = ("subject", *opponents(size, field)) if field else table("subject", size)
    return seating(entrants, rotation), subject_seat(size, rotation)


def gap_players(names: Sequence[str], me: int, subject: Any, seed: int) -> list[Any]:
    """The players of a gap table: ``subject`` at seat ``me``, the named player at every other."""
    return [subject if s == me else search_player(name, seed) for s, name in enumerate(names)]


def run_gap_job(job: GapJob) -> tuple[GapJob, int, int, list[float]]:
    """One partido: (the job, manos lost and dealt at the subject's seat, its move times)."""
    from benchmarks.experiments.omniscient import Truth

    truth = Truth()
    names, me = gap_seats(job.size, job.rotation, job.field)
    if job.subject == "omniscient":
        subject = search_player(job.omniscient, job.player_seed, truth)
    else:
        subject = search_player(job.subject, job.player_seed)
    players = gap_players(names, me, subject, job.player_seed)
    partido_id = f"gap-{job.size}-{job.deal}-{job.rotation}"
    result, stats = play_counted(players, names, job.deal, partido_id, (truth,))
    if result.faults:
        raise RuntimeError(f"faults in {job}: {result.faults}")
    return job, stats[me]["manos_perdidas"], stats[me]["manos"], result.reply_ms[me]


def gap_report(
    size: int,
    deals: list[int],
    subjects: list[str],
    omniscient: str,
    got: dict[tuple[str, int], list[int]],
    field: tuple[str, ...] = (),
) -> list[str]:
    """The lines of one table size: lost/100 for random, each subject and the bound; the gap closed."""
    from arena.results.strength import DealResult, gap_closed_interval, lost_per_100, reference_field

    lines = [
        f"table of {size}: subject + {', '.join(opponents(size, field) if field else reference_field(size))};"
        f" {len(deals)} deals x {size} rotations (deals {deals[0]}..{deals[-1]})"
    ]
    everyone = dict.fromkeys(["random_legal", *subjects, "omniscient"])
    for name in everyone:
        lost = sum(got[name, d][0] for d in deals)
        manos = sum(got[name, d][1] for d in deals)
        ms = [x for d in deals for x in got[name, d][2:]]
        label = f"omniscient {omniscient}" if name == "omniscient" else name
        line = f"  {label:<24} lost/100 {lost_per_100(lost, manos)!s:<20} manos {manos:>5}"
        if ms:
            line += f"  ms/move med {statistics.median(ms):.0f} p95 {p95(ms):.0f}"
        if name not in ("random_legal", "omniscient"):
            rows = [
                DealResult(*got["random_legal", d][:2], *got[name, d][:2], *got["omniscient", d][:2])
                for d in deals
            ]
            x, lo, hi = gap_closed_interval(rows)
            closes = f"closes {100 * x:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] of random → omniscient"
            line += f"\n  {'':<24} {closes}"
        lines.append(line)
    return lines


def cache_key(job: GapJob) -> str:
    """What makes a gap partido's result: the omniscient row depends on the bound, the others not."""
    bound = job.omniscient if job.subject == "omniscient" else ""
    key = f"{job.size}/{job.subject}/{bound}/{job.deal}/{job.rotation}/{job.player_seed}"
    return key + (f"/{','.join(job.field)}" if job.field else "")


STRANGERS = tuple(sorted(p.name for p in STRANGER_BOTS.iterdir() if p.is_dir()))
"""The opponents of benchmarks/experiments/strength_bots (every folder there), which no sample player
was built against."""


def opponents(size: int, field: tuple[str, ...]) -> tuple[str, ...]:
    """The ``size - 1`` opponents: ``field`` cycled (``--field``)."""
    return tuple(field[i % len(field)] for i in range(size - 1))


def load_cache(path: str | None) -> dict[str, list[Any]]:
    """The partidos a ``--cache`` file already holds (a JSON line each), by :func:`cache_key`."""
    if not path or not os.path.exists(path):
        return {}
    out: dict[str, list[Any]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                item = json.loads(line)
                out[item["key"]] = item["row"]
    return out


def gap_main(args: argparse.Namespace) -> None:
    from arena.results.strength import duplicate_schedule

    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    field = tuple(x.strip() for x in args.field.split(",") if x.strip()) if args.field else ()
    subjects = [x.strip() for x in args.subjects.split(",") if x.strip() and x.strip() != "random_legal"]
    jobs = [
        GapJob(size, subject, g.deal, g.rotation, args.omniscient, args.player_seed, field)
        for size in sizes
        for subject in ["random_legal", *subjects, "omniscient"]
        for g in duplicate_schedule(size, args.deals, args.first_seed)
    ]
    jobs.sort(key=lambda j: j.subject == "random_legal")  # the slow ones first
    print(
        f"gap mode: sizes {sizes}, subjects {['random_legal', *subjects]}, omniscient {args.omniscient},"
        f" {args.deals} deals from seed {args.first_seed}, player seed {args.player_seed};"
        f" workers={args.workers}; {len(jobs)} partidos",
        flush=True,
    )
    start = time.perf_counter()
    got: dict[tuple[int, str, int], list[Any]] = {}
    done = 0
    cached = load_cache(args.cache)
    todo = [j for j in jobs if cache_key(j) not in cached]
    if args.cache:
        print(f"  {len(jobs) - len(todo)} partidos from {args.cache}", flush=True)

    def add(job: GapJob, lost: int, manos: int, ms: list[float]) -> None:
        row = got.setdefault((job.size, job.subject, job.deal), [0, 0])
        row[0] += lost
        row[1] += manos
        row += ms

    for j in jobs:
        if cache_key(j) in cached:
            add(j, *cached[cache_key(j)])
    with multiprocessing.Pool(args.workers) as pool:
        for job, lost, manos, ms in pool.imap_unordered(run_gap_job, todo, chunksize=1):
            add(job, lost, manos, ms)
            if args.cache:
                with open(args.cache, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"key": cache_key(job), "row": [lost, manos, ms]}) + "\n")
            done += 1
            if done % 100 == 0:
                print(f"  {done}/{len(todo)} partidos, {time.perf_counter() - start:.0f} s", flush=True)
    deals = list(range(args.first_seed, args.first_seed + args.deals))
    for size in sizes:
        print()
        by = {(name, d): got[size, name, d] for (sz, name, d) in got if sz == size}
        print("\n".join(gap_report(size, deals, subjects, args.omniscient, by, field)))
    print(f"\nplayed {len(jobs)} partidos in {time.perf_counter() - start:.0f} s")


@dataclass
class DuelJob:
    size: int
    entrants: tuple[str, ...]
    deal: int
    rotation: int
    player_seed: int


def run_duel_job(job: DuelJob) -> tuple[DuelJob, dict[str, tuple[int, int, bool]]]:
    """One partido of the duel table: by entrant, (manos lost, manos dealt, among the winners)."""
    from arena.results.strength import seating

    names = seating(job.entrants, job.rotation)
    players = [search_player(name, job.player_seed + seat) for seat, name in enumerate(names)]
    result, stats = play_counted(players, names, job.deal, f"duel-{job.size}-{job.deal}-{job.rotation}")
    if result.faults:
        raise RuntimeError(f"faults in {job}: {result.faults}")
    out = {}
    for seat, name in enumerate(names):
        if seat < 2 or name not in out:
            out[name] = (stats[seat]["manos_perdidas"], stats[seat]["manos"], seat in result.winners)
    return job, out


def duel_main(args: argparse.Namespace) -> None:
    """Two players at one table with the reference field, every deal in every rotation."""
    from arena.results.strength import bootstrap, duplicate_schedule, lost_per_100, reference_field

    a, b = (x.strip() for x in args.duel.split(","))
    size = int(args.sizes.split(",")[0])
    entrants = (a, b, *reference_field(size)[: size - 2])
    schedule = duplicate_schedule(size, args.deals, args.first_seed)
    jobs = [DuelJob(size, entrants, g.deal, g.rotation, args.player_seed) for g in schedule]
    table_line = f"duel: {', '.join(entrants)}; {args.deals} deals x {size} rotations: {len(jobs)} partidos"
    print(table_line, flush=True)
    by_deal: dict[int, dict[str, list[int]]] = {}
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, (job, out) in enumerate(pool.imap_unordered(run_duel_job, jobs, chunksize=1), 1):
            for name in (a, b):
                row = by_deal.setdefault(job.deal, {}).setdefault(name, [0, 0, 0, 0])
                lost, manos, won = out[name]
                row[0] += lost
                row[1] += manos
                row[2] += won
                row[3] += 1
            if done % 20 == 0:
                print(f"  {done}/{len(jobs)} partidos, {time.perf_counter() - start:.0f} s", flush=True)
    deals = sorted(by_deal)
    for name in (a, b):
        lost = sum(by_deal[d][name][0] for d in deals)
        manos = sum(by_deal[d][name][1] for d in deals)
        won = sum(by_deal[d][name][2] for d in deals)
        played = sum(by_deal[d][name][3] for d in deals)
        w_lo, w_hi = wilson(won, played)
        print(
            f"  {name:<14} lost/100 {lost_per_100(lost, manos)!s:<20} manos {manos:>5}"
            f"  partidos won {won}/{played} ({100 * won / played:.0f}% [{100 * w_lo:.0f}, {100 * w_hi:.0f}])"
        )

    def difference(sample: Any) -> float:
        la = sum(by_deal[d][a][0] for d in sample) / max(1, sum(by_deal[d][a][1] for d in sample))
        lb = sum(by_deal[d][b][0] for d in sample) / max(1, sum(by_deal[d][b][1] for d in sample))
        return 100 * (la - lb)

    lo, hi = bootstrap(deals, difference)
    gap = f"{difference(deals):+.1f} [{lo:+.1f}, {hi:+.1f}]"
    print(f"  {a} - {b}: {gap} manos lost per 100 (bootstrap over deals)")
    print(f"\nplayed {len(jobs)} partidos in {time.perf_counter() - start:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gap", action="store_true", help="gap mode: random -> omniscient (see the docstring)")
    ap.add_argument("--sizes", default="3,4,5,6", help="gap mode: table sizes")
    ap.add_argument("--deals", type=int, default=40, help="gap mode: deal seeds (each in every rotation)")
    ap.add_argument(
        "--subjects", default="random_legal,fuerte:50,maestro:50", help="gap mode: name or name:N, comma list"
    )
    ap.add_argument("--omniscient", default="fuerte:50", help="gap mode: the search given the true hands")
    ap.add_argument(
        "--duel",
        default=None,
        help="A,B: the two at one table with the reference field (the first of --sizes), every deal"
        " in every rotation: each one's manos lost per 100 and partidos won, and A - B with a bootstrap",
    )
    ap.add_argument(
        "--field",
        default=None,
        help="gap mode: other opponents, cycled to fill each table, e.g. alto,bajo,mixto"
        " (benchmarks/experiments/strength_bots: players no sample was built against)",
    )
    ap.add_argument(
        "--cache",
        default=None,
        help="gap mode: a file of finished partidos (JSON lines), read and appended: a rerun plays only"
        " the missing ones (clear it when the players' code changes)",
    )
    ap.add_argument("--partidos", type=int, default=200, help="per table (rounded up to whole rotations)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--simulations", type=int, default=None, help="deals per move (default 50)")
    how.add_argument("--budget-ms", type=float, default=None, help="time per move instead of --simulations")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--tables", default=",".join(TABLES), help=f"comma-separated, of {', '.join(TABLES)}")
    ap.add_argument("--first-seed", type=int, default=1, help="the first deal seed")
    ap.add_argument("--player-seed", type=int, default=2002, help="the strong player's own seed")
    args = ap.parse_args()
    if args.duel:
        duel_main(args)
        return
    if args.gap:
        gap_main(args)
        return
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
