"""Tournament throughput: partidos per second with 1 and 2 workers, and a full round robin.

Entrants are copies of ``sample_players/random_legal`` (``azar01``, ``azar02``...)
in a temporary folder, each partido in its own player processes under the
containment ``auto`` picks (bubblewrap where it works), exactly as ``arena
tournament`` runs them.

1. The same schedule (``--partidos`` partidos of one table of 4) with W = 1 and
   W = 2: partidos/s over the run (workers already started), the best of
   ``--repeat`` alternating runs each (the machine may be shared), and the ratio.
2. The wall time of a full round robin of 12 entrants at tables of 4 (495
   partidos) with W = 2, start to end (workers, entrant check, every partido).
3. How much of a partido is process start-up: starting, greeting and stopping
   4 players, against the mean partido time (W = 1); and where a partido's time
   goes in the best W = 1 run: starting and greeting the players, playing,
   stopping them (in the worker), committing it (in the coordinator).

4. The same W = 1 schedule with ``--cold-start`` (every player process started from
   scratch: sandbox, interpreter, imports) against the default warm starts
   (:mod:`arena.containment.warm`), and the split of each.

Prints, as its last lines, ``round robin 12 entrants K=4 (495 partidos): <seconds> s``,
``partidos/s warm W=1: <x>, cold W=1: <y>, ratio: <z>`` and ``speedup W=2/W=1: <s>`` (warm).

``--profile N`` instead plays N partidos of 4 players in this process with warm starts under
cProfile and prints where the referee's time goes (the players' own time is theirs, in their
processes).

``--duplicate`` instead measures what never playing two partidos of one deal at once costs
(:mod:`arena.tournament.dispatch`): ``--partidos`` partidos of the 4 players with W = 2, as
``--duplicate`` groups (a deal under its 4 rotations) and as plain partidos (a deal each),
alternately, the best of ``--repeat`` runs each, from the deals of ``--seed`` (the same partidos
in every run and every checkout). Besides partidos/s, how busy the workers were: the partidos'
time in the workers over W × the run's time, which the machine's load moves much less (on a shared
machine partidos/s can move by half from one run to the next). Its last lines:
``workers busy W=2: plain <a>%, --duplicate <b>%, ratio: <b/a>`` and
``partidos/s W=2: plain <x>, --duplicate <y>, ratio: <y/x>``. Run from another checkout's
``benchmarks/`` folder it measures that checkout's ``arena`` (the old scheduler, say).

    python benchmarks/performance/tournament.py --partidos 60
    python benchmarks/performance/tournament.py --profile 40
    python benchmarks/performance/tournament.py --duplicate --partidos 80 --repeat 3
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment.sandbox import resolve  # noqa: E402
from arena.referee.connection import Limits, SubprocessConnection  # noqa: E402
from arena.seeds import new_key  # noqa: E402
from arena.tournament import coordinator as t  # noqa: E402
from arena.tournament.entrants import collect_entrants  # noqa: E402
from arena.tournament.store import Store  # noqa: E402


def entrants(folder: Path, n: int) -> list[Path]:
    """``n`` copies of the random sample player, named azar01, azar02..."""
    out = []
    for i in range(1, n + 1):
        dest = folder / f"azar{i:02d}"
        shutil.copytree(ROOT / "sample_players" / "random_legal", dest)
        out.append(dest)
    return out


def tournament(
    out: Path, folders: list[Path], workers: int, warm: bool = True, **options: object
) -> tuple[t.RunStats, float]:
    """Run one torneo; returns its stats (``seconds``: the partidos only) and the wall time."""
    specs = collect_entrants(folders)
    config = t.Config(
        table_size=4, init_ms=10_000, move_ms=2_000, sandbox=resolve("auto"), key=new_key(), **options
    )
    start = time.monotonic()
    stats = t.execute(out, specs, config, workers, None, t.plan(config, len(specs)), warm=warm)
    return stats, time.monotonic() - start


def partido_ms(folder: Path) -> float:
    """Mean partido time in a torneo folder (the workers' start-to-finish stamps)."""
    with Store.open(folder) as store:
        times = [
            (dt.datetime.fromisoformat(r.finished) - dt.datetime.fromisoformat(r.started)).total_seconds()
            for r in store.results()
        ]
    return 1000 * statistics.mean(times)


def startup_ms(folders: list[Path], repeats: int = 10, warm: bool = True) -> float:
    """Median time to start and greet one table's players, then stop them, as the referee does
    (every process started, then every one greeted; every bye, then every stop): a partido's
    process cost, without playing."""
    specs = collect_entrants(folders)
    mechanism = resolve("auto")
    times = []
    for _i in range(repeats):
        start = time.monotonic()
        limits = Limits(10_000, 2_000)
        conns = [
            SubprocessConnection(s, limits, mechanism=mechanism, greet=False, warm_start=warm) for s in specs
        ]
        for c in conns:
            c.greet()
        for c in conns:
            c.say_bye()
        for c in conns:
            c.close()
        times.append(time.monotonic() - start)
    return 1000 * statistics.median(times)


def split_line(stats: t.RunStats, label: str = "") -> str:
    """Where a partido's time goes, per partido: in the worker and in the coordinator."""
    per = {part: 1000 * seconds / max(1, stats.committed) for part, seconds in stats.split.items()}
    parts = ", ".join(f"{part} {per.get(part, 0.0):.1f} ms" for part in ("start", "play", "stop", "commit"))
    return f"time per partido ({label}W=1): {parts}"


def profile(folders: list[Path], partidos: int) -> None:
    """Play ``partidos`` partidos of these 4 players here, warm, under cProfile; print the top."""
    import cProfile
    import pstats

    from arena.referee.table import play_folders

    specs = collect_entrants(folders)
    limits = Limits(10_000, 2_000)
    play_folders(specs, new_key(), limits=limits)  # the warm-start server, started once
    profiler = cProfile.Profile()
    totals: dict[str, float] = {}
    start = time.monotonic()
    for _i in range(partidos):
        timings: dict[str, float] = {}
        profiler.enable()
        play_folders(specs, new_key(), limits=limits, timings=timings)
        profiler.disable()
        for part, seconds in timings.items():
            totals[part] = totals.get(part, 0.0) + seconds
    wall = time.monotonic() - start
    per = ", ".join(f"{k} {1000 * v / partidos:.1f} ms" for k, v in totals.items())
    each = f"{1000 * wall / partidos:.1f} ms each ({per})"
    print(f"{partidos} warm partidos in this process, under cProfile: {each}")
    stats = pstats.Stats(profiler)
    stats.sort_stats("tottime").print_stats(18)


def busy(folder: Path, workers: int, seconds: float) -> float:
    """The share of ``workers`` × ``seconds`` the torneo's partidos took in the workers."""
    with Store.open(folder) as store:
        spent = sum(
            (dt.datetime.fromisoformat(r.finished) - dt.datetime.fromisoformat(r.started)).total_seconds()
            for r in store.results()
        )
    return spent / (workers * seconds)


def duplicate_cost(folders: list[Path], partidos: int, repeat: int, seed: int) -> None:
    """Partidos/s with W = 2 of ``partidos`` duplicate partidos and as many plain ones, and how busy the
    workers were; prints the ratios."""
    rates: dict[str, float] = {}
    shares: dict[str, list[float]] = {}
    kinds: dict[str, dict[str, object]] = {
        "plain": {"rounds": partidos, "seed": seed},
        "--duplicate": {"duplicate": True, "partidos": partidos, "seed": seed},
    }
    with tempfile.TemporaryDirectory(prefix="bench-duplicate-") as tmp:
        for attempt in range(repeat):  # alternate the two; keep each one's best
            for label, options in kinds.items():
                out = Path(tmp) / f"{label.strip('-')}-{attempt}"
                stats, _ = tournament(out, folders, 2, **options)
                rate = stats.committed / stats.seconds
                rates[label] = max(rates.get(label, 0.0), rate)
                share = busy(out, 2, stats.seconds)
                shares.setdefault(label, []).append(share)
                print(
                    f"{label} W=2: {stats.committed} partidos in {stats.seconds:.2f} s: {rate:.2f}/s, "
                    f"workers busy {100 * share:.1f}%"
                )
    a, b = (statistics.median(shares[k]) for k in ("plain", "--duplicate"))
    print(f"workers busy W=2: plain {100 * a:.1f}%, --duplicate {100 * b:.1f}%, ratio: {b / a:.3f} (medians)")
    plain, dup = rates["plain"], rates["--duplicate"]
    print(f"partidos/s W=2: plain {plain:.2f}, --duplicate {dup:.2f}, ratio: {dup / plain:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partidos", type=int, default=60, help="Partidos of the W=1 / W=2 runs.")
    parser.add_argument("--round-robin", type=int, default=12, help="Entrants of the full round robin.")
    parser.add_argument("--repeat", type=int, default=2, help="Runs of each W (the best counts).")
    parser.add_argument("--profile", type=int, metavar="N", help="Profile N warm partidos instead.")
    parser.add_argument(
        "--duplicate", action="store_true", help="Measure --duplicate against plain partidos instead (W=2)."
    )
    parser.add_argument("--seed", type=int, default=48, help="The deals of the --duplicate measure.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-torneo-") as tmp:
        tmp_path = Path(tmp)
        players = entrants(tmp_path / "players", max(4, args.round_robin))
        four = players[:4]
        if args.profile:
            profile(four, args.profile)
            return
        if args.duplicate:
            duplicate_cost(four, args.partidos, args.repeat, args.seed)
            return
        rates: dict[str, float] = {}
        best: dict[str, t.RunStats] = {}
        runs = (("warm", 1, True), ("warm", 2, True), ("cold", 1, False))
        for attempt in range(args.repeat):  # alternate the runs; keep each one's best
            for start_kind, w, warm in runs:
                label = f"{start_kind} W={w}"
                out = tmp_path / f"{start_kind}-w{w}-{attempt}"
                stats, _ = tournament(out, four, w, warm=warm, rounds=args.partidos)
                rate = stats.committed / stats.seconds
                if rate > rates.get(label, 0.0):
                    best[label] = stats
                rates[label] = max(rates.get(label, 0.0), rate)
                print(
                    f"{label}: {stats.committed} partidos (4 players) in {stats.seconds:.2f} s: {rate:.2f}/s"
                )
        for kind in ("warm", "cold"):
            print(split_line(best[f"{kind} W=1"], f"{kind} "))
            mean = partido_ms(tmp_path / f"{kind}-w1-0")
            start = startup_ms(four, warm=kind == "warm")
            share = f"{start:.0f} ms of {mean:.0f} ms per partido ({100 * start / mean:.0f}%)"
            print(
                f"process start-up ({kind}): starting, greeting and stopping 4 players takes {share}"
                + (" — process start-up dominates" if start > mean / 2 else "")
            )
        n = args.round_robin
        stats, wall = tournament(tmp_path / "rr", players[:n], 2)
        print(f"round robin {n} entrants K=4 ({stats.committed} partidos): {wall:.1f} s")
        warm1, cold1 = rates["warm W=1"], rates["cold W=1"]
        print(f"partidos/s warm W=1: {warm1:.2f}, cold W=1: {cold1:.2f}, ratio: {warm1 / cold1:.2f}")
        print(f"speedup W=2/W=1: {rates['warm W=2'] / warm1:.2f}")


if __name__ == "__main__":
    main()
