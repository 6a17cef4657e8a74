"""Start-up cost of containment: time from starting a player to its ``ready``.

For each mechanism (none, rlimits, bwrap when it works), starts the random sample
player ``--runs`` times and prints the median start-to-ready time, then the
extra cost of each contained mechanism over ``none``.

    python benchmarks/performance/sandbox.py --runs 30
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from arena.containment import sandbox
from arena.referee.connection import Limits, SubprocessConnection
from arena.referee.players import find_player

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py


def start_to_ready(mechanism: str, runs: int) -> list[float]:
    spec = find_player(ROOT / "sample_players" / "random_legal")
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        conn = SubprocessConnection(spec, Limits(), None, mechanism)
        times.append((time.perf_counter() - start) * 1000)
        assert conn.failed is None, conn.failed
        conn.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    mechanisms = ["none"] + (["rlimits"] if sandbox.rlimits_problem() is None else [])
    mechanisms += ["bwrap"] if sandbox.bwrap_works() else []
    medians = {}
    for _ in range(2):  # interleave, so that machine noise hits every mechanism alike
        for m in mechanisms:
            medians.setdefault(m, []).extend(start_to_ready(m, args.runs // 2))
    base = statistics.median(medians["none"])
    for m in mechanisms:
        med = statistics.median(medians[m])
        print(f"{m:8} start-to-ready median: {med:6.1f} ms  (+{med - base:5.1f} ms over none)")
    if "bwrap" in medians:
        print(f"bwrap extra start-up: {statistics.median(medians['bwrap']) - base:.1f} ms")


if __name__ == "__main__":
    main()
