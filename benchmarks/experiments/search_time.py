"""Where maestro's move time goes: its search, Python's garbage collector, and the budget kept.

Plays maestro (each of ``--variants``, as in strength.py: ``maestro``, ``maestro:N``,
``+setting=value``) at the reference field, deals ``--first-seed`` … in every seat rotation,
in-process, the variants taking turns partido by partido so that the machine's noise falls on
all alike. For each variant it prints the moves searched, the time of a move (median, p95, max,
moves over the 300 ms budget by more than 10 ms), the share of the move time spent in the cyclic
garbage collector (``gc.callbacks``), and the rollouts per millisecond of search; then each
variant's rollouts per millisecond as a ratio to the first's, measured in the same run.

    python benchmarks/experiments/search_time.py --deals 3 --variants maestro,maestro+pause_gc=0
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

OVER_MS = 310.0
"""A move over the 300 ms budget by more than this much slack is counted."""


@dataclass
class Times:
    """What one variant's searched moves took."""

    move_ms: list[float] = field(default_factory=list)
    gc_ms: float = 0.0
    rollouts: int = 0
    search_ms: float = 0.0

    def line(self, name: str) -> str:
        ms = sorted(self.move_ms)
        if not ms:
            return f"{name}: no move searched"
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        over = sum(x > OVER_MS for x in ms)
        return (
            f"{name}: {len(ms)} moves searched; ms a move median {statistics.median(ms):.0f}, "
            f"p95 {p95:.0f}, max {ms[-1]:.0f}, over {OVER_MS:.0f}: {over}; "
            f"garbage collector {100 * self.gc_ms / sum(ms):.1f}% of the move time; "
            f"rollouts per ms of search {self.rate:.2f}"
        )

    @property
    def rate(self) -> float:
        return self.rollouts / self.search_ms if self.search_ms else 0.0


class Collector:
    """The time the cyclic garbage collector ran, from ``gc.callbacks``."""

    def __init__(self) -> None:
        self.total_ms = 0.0
        self._start = 0.0

    def __call__(self, phase: str, _info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.total_ms += (time.perf_counter() - self._start) * 1000


def timed(player: Any, times: Times, collector: Collector) -> None:
    """Record each of ``player``'s searched moves into ``times``."""
    play = player.play

    def watched(request: Any) -> Any:
        start = time.perf_counter()  # nothing the collector counts is made from here to the move
        before = collector.total_ms
        stats_before = player.last_stats
        move = play(request)
        if player.last_stats is not stats_before:  # it searched (not a forced move)
            times.move_ms.append((time.perf_counter() - start) * 1000)
            times.gc_ms += collector.total_ms - before
            times.rollouts += player.last_stats["rollouts"]
            times.search_ms += player.last_stats["search_ms"]
        return move

    player.play = watched


def run(
    variants: list[str], size: int, deals: list[int], seed: int, progress: bool = True
) -> dict[str, Times]:
    """Every variant over ``deals`` in every rotation, taking turns partido by partido."""
    from benchmarks.experiments.strength import gap_players, gap_seats, play_counted, search_player

    collector = Collector()
    gc.callbacks.append(collector)
    out = {v: Times() for v in variants}
    jobs = [(d, r) for d in deals for r in range(size)]
    try:
        for k, (deal, rotation) in enumerate(jobs, 1):
            for variant in variants:
                names, me = gap_seats(size, rotation)
                players = gap_players(names, me, search_player(variant, seed), seed)
                timed(players[me], out[variant], collector)
                play_counted(players, names, deal, f"gap-{size}-{deal}-{rotation}")
            if progress:
                print(f"  {k}/{len(jobs)} partidos per variant", file=sys.stderr, flush=True)
    finally:
        gc.callbacks.remove(collector)
    return out


def report(out: dict[str, Times]) -> list[str]:
    """A line per variant, then each one's rollouts per ms as a ratio to the first's."""
    lines = [times.line(name) for name, times in out.items()]
    first, *rest = out
    for name in rest:
        if out[first].rate:
            ratio = out[name].rate / out[first].rate
            lines.append(f"rollouts per ms of search, {name} / {first}: {ratio:.2f}×")
    return lines


def check(variants: list[str], seed: int) -> None:
    """Stop with a one-line error, before any partido, if a variant names no player or a bad setting."""
    from arena.errors import ArenaError
    from benchmarks.experiments.strength import search_player

    for variant in variants:
        try:
            search_player(variant, seed)
        except (ArenaError, ValueError) as exc:
            raise SystemExit(f"--variants: {variant}: {exc}") from None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="maestro,maestro+pause_gc=0")
    parser.add_argument("--size", type=int, default=4, help="players at the table (3-6)")
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=301)
    parser.add_argument("--player-seed", type=int, default=2002)
    args = parser.parse_args(argv)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    check(variants, args.player_seed)
    deals = list(range(args.first_seed, args.first_seed + args.deals))
    print(
        f"search time: {args.size} players, deals {deals[0]}-{deals[-1]} in every rotation, "
        f"variants {', '.join(variants)}"
    )
    print("\n".join(report(run(variants, args.size, deals, args.player_seed))))


if __name__ == "__main__":
    main()
