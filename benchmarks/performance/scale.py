"""The results side at course scale: schedule, store commits and standings of a big torneo.

No player processes: synthetic data of the shape a real torneo stores.

1. **Schedule**: ``make_schedule`` for ``--schedule-entrants`` (500) entrants at tables
   of 4 with ``--schedule-partidos`` (200,000) partidos, under a secret key.
2. **Store commits**: ``Store.commit`` of ``--commits`` (2,000) finished partidos, each
   with its replay file (a real replay's size) moved into place, as the coordinator
   commits them: partidos per second.
3. **Standings**: a synthetic store of ``--entrants`` (200) entrants and ``--partidos``
   (100,000) partidos of 4, each entrant with a true strength (Plackett–Luce draws),
   each seat with its reply times (about 110 moves, wall and CPU) and counts, written
   straight into the store's tables (the rows ``Store.commit`` makes); then
   ``arena standings DIR --csv`` in a new process (bootstrap, workbook and CSVs
   included): its wall time and its peak memory (maximum resident set size).

Prints, as its last line, ``standings <N> partidos: <T> s, peak <M> MiB``.

    python benchmarks/performance/scale.py          # the issue's sizes
    python benchmarks/performance/scale.py --partidos 10000  # quicker
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.seeds import new_key  # noqa: E402
from arena.tournament.schedule import ScheduledPartido, make_schedule  # noqa: E402
from arena.tournament.store import (  # noqa: E402
    INSERT_PARTIDO,
    INSERT_SEAT,
    TIMES_DTYPE,
    TIMES_PER_MS,
    Entrant,
    Store,
    now,
    partido_rows,
)

MOVES = 110
"""Replies per seat in a partido of sample bots (about 9 manos)."""


def _entrants(n: int) -> list[Entrant]:
    return [Entrant(i, f"e{i:03d}", f"/players/e{i:03d}", "python", None, (), "0" * 64) for i in range(n)]


def bench_schedule(entrants: int, partidos: int) -> float:
    started = time.perf_counter()
    schedule = make_schedule(entrants, 4, 1, new_key(), partidos=partidos)
    seconds = time.perf_counter() - started
    assert len(schedule) == partidos
    print(f"schedule {entrants} entrants, {partidos} partidos: {seconds:.2f} s")
    return seconds


def _replay(path: Path, players: list[str], rng: random.Random) -> None:
    """A replay file of a real one's size (about 100 KB): its last line is the partido_end."""
    lines = [json.dumps({"type": "partido_start", "players": players})]
    lines += [
        json.dumps({"type": "played", "seat": s % 4, "card": "1-oros", "ms": rng.random()})
        for s in range(440)
    ]
    lines.append(json.dumps({"type": "partido_end", "winners": [0, 1], "ranking": [[0, 1], [2], [3]]}))
    path.write_text("\n".join(lines) + "\n")


def _result(players: list[str], rng: random.Random) -> dict:
    stats = [_seat_stats(rng, won=s < 2, place=(1.5 if s < 2 else s + 1.0)) for s in range(4)]
    return {
        "players": players,
        "winners": [0, 1],
        "ranking": [[0, 1], [2], [3]],
        "manos": 9,
        "scores": [1, 2, 5, 5],
        "faults": [],
        "reply_ms": [s.pop("reply_ms") for s in stats],
        "stats": stats,
    }


def _seat_stats(rng: random.Random, won: bool, place: float, moves: int = MOVES) -> dict:
    return {
        "manos": 9,
        "manos_perdidas": rng.randint(1, 6),
        "porotos_perdidos": rng.randint(1, 6),
        "capotes": 0,
        "tutes": 0,
        "cantos": rng.randint(0, 4),
        "faults": [],
        "reply_ms": [round(rng.lognormvariate(-1.5, 1.0), 3) for _i in range(moves)],
        "reply_cpu_ms": [round(rng.lognormvariate(-3.0, 0.5), 3) for _i in range(moves)],
        "won": won,
        "place": place,
    }


def bench_commits(folder: Path, commits: int) -> float:
    rng = random.Random(1)
    entrants = _entrants(8)
    schedule = make_schedule(8, 4, 1, new_key(), partidos=commits)
    store = Store.create(folder, {"table_size": 4}, entrants, schedule)
    outcomes = []
    for p in schedule:
        players = [entrants[e].name for e in p.seats]
        temp = store.temp_replay(p.id, "bench")
        _replay(temp, players, rng)
        stamp = now()
        outcome = {"replay": str(temp), "result": _result(players, rng), "incidents": {}, "logs": None}
        outcome.update(worker="bench", started=stamp, finished=stamp)
        outcomes.append((p, outcome))
    started = time.perf_counter()
    for p, outcome in outcomes:
        store.commit(p, outcome)
    seconds = time.perf_counter() - started
    store.close()
    rate = commits / seconds
    print(f"store commits: {commits} partidos in {seconds:.2f} s: {rate:.0f} partidos/s")
    return rate


def synthetic_store(folder: Path, entrants: int, partidos: int, seed: int = 7) -> None:
    """A torneo store of ``partidos`` committed partidos of 4 (no replay files: the stats are stored).

    Its rows are the store's own (:func:`arena.tournament.store.partido_rows`); the reply times,
    drawn with NumPy, are packed as the store packs them (``TIMES_DTYPE``, ``TIMES_PER_MS``).
    """
    import sqlite3

    import numpy as np

    rng = random.Random(seed)
    times = np.random.default_rng(seed)
    people = _entrants(entrants)
    strength = [rng.gauss(0.0, 1.0) for _e in people]
    schedule = make_schedule(entrants, 4, 1, seed, partidos=partidos)
    config = {"table_size": 4, "rounds": 1, "seed": seed, "duplicate": False, "partidos": partidos}
    Store.create(folder, config, people, schedule).close()
    db = sqlite3.connect(folder / "torneo.sqlite")
    stamp = now()
    for start in range(0, len(schedule), 5000):
        batch = schedule[start : start + 5000]
        wall = np.round(times.lognormal(-1.5, 1.0, (len(batch), 4, MOVES)) * TIMES_PER_MS).astype(TIMES_DTYPE)
        cpu = np.round(times.lognormal(-3.0, 0.5, (len(batch), 4, MOVES)) * TIMES_PER_MS).astype(TIMES_DTYPE)
        rows, seats = [], []
        for k, p in enumerate(batch):
            row, figures = _rows(p, people, strength, rng, stamp)
            rows.append(row)
            seats += [(*f[:-2], wall[k, s].tobytes(), cpu[k, s].tobytes()) for s, f in enumerate(figures)]
        db.executemany(INSERT_PARTIDO, rows)
        db.executemany(INSERT_SEAT, seats)
    db.execute(
        "INSERT INTO runs (started, ended, workers, arena_version, status) VALUES (?, ?, 1, '0', 'finished')",
        (stamp, stamp),
    )
    db.commit()
    db.close()


def _rows(
    p: ScheduledPartido, people: list[Entrant], strength: list[float], rng: random.Random, stamp: str
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """A partido's rows, its places drawn from the strengths (Plackett–Luce: Gumbel noise), its
    reply times left empty."""
    noisy = sorted(range(4), key=lambda s: -(strength[p.seats[s]] + -math.log(-math.log(rng.random()))))
    ranking = [[noisy[0], noisy[1]], [noisy[2]], [noisy[3]]]
    places = {noisy[0]: 1.5, noisy[1]: 1.5, noisy[2]: 3.0, noisy[3]: 4.0}
    stats = [_seat_stats(rng, won=places[s] < 2, place=places[s], moves=0) for s in range(4)]
    result = {
        "players": [people[e].name for e in p.seats],
        "winners": ranking[0],
        "ranking": ranking,
        "manos": 9,
        "scores": [s["porotos_perdidos"] for s in stats],
        "reply_ms": [s.pop("reply_ms") for s in stats],
        "stats": stats,
    }
    return partido_rows(p, result, f"replays/{p.id}.jsonl", None, "bench", stamp, stamp, stamp)


def bench_standings(folder: Path) -> tuple[float, float]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "arena", "standings", str(folder), "--csv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"arena standings failed:\n{done.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux
    return seconds, peak


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--entrants", type=int, default=200)
    ap.add_argument("--partidos", type=int, default=100_000)
    ap.add_argument("--commits", type=int, default=2000)
    ap.add_argument("--schedule-entrants", type=int, default=500)
    ap.add_argument("--schedule-partidos", type=int, default=200_000)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores")
    bench_schedule(args.schedule_entrants, args.schedule_partidos)
    with tempfile.TemporaryDirectory(prefix="arena-scale-") as tmp:
        bench_commits(Path(tmp) / "commits", args.commits)
        folder = Path(tmp) / "big"
        started = time.perf_counter()
        synthetic_store(folder, args.entrants, args.partidos)
        size = (folder / "torneo.sqlite").stat().st_size / 2**20
        print(f"synthetic store: {args.entrants} entrants, {args.partidos} partidos, {size:.0f} MiB, "
              f"made in {time.perf_counter() - started:.1f} s")  # fmt: skip
        seconds, peak = bench_standings(folder)
    print(f"standings {args.partidos} partidos: {seconds:.1f} s, peak {math.ceil(peak)} MiB")


if __name__ == "__main__":
    main()
