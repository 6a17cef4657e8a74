"""Engine speed: random-legal in-process manos under the full rules, on one core.

Plays whole partidos of random-legal players through ``arena.engine.Partido``
(every play checked, cantos sung whenever possible, scores, losers, porotos,
eliminations) for ``--seconds`` and prints, as its last line, ``manos/s: N``.

    python benchmarks/engine.py --players 4 --seconds 10
"""

from __future__ import annotations

import argparse
import os
import random
import time

from arena.cards import cards_of
from arena.engine import Partido
from arena.rules import RuleSet


def play_partido(n: int, seed: int, rng: random.Random, ruleset: RuleSet, record: bool) -> int:
    """Play one random-legal partido; returns its number of manos."""
    p = Partido(n, seed, ruleset, record=record)
    choice = rng.choice
    while not p.over:
        m = p.mano
        assert m is not None
        sing = None
        if m.may_sing:
            cantos = m.cantos()
            if cantos:
                sing = cantos[0]
                if sing == "tute":
                    p.play(None, sing)
                    continue
        p.play(choice(cards_of(m.legal())), sing)
    return p.mano_number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--record", action="store_true", help="also record every replay event")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(1)
    ruleset = RuleSet()
    manos = partidos = 0
    start = time.perf_counter()
    deadline = start + args.seconds
    while time.perf_counter() < deadline:
        manos += play_partido(args.players, partidos, rng, ruleset, args.record)
        partidos += 1
    elapsed = time.perf_counter() - start
    print(
        f"players: {args.players}  partidos: {partidos}  manos: {manos}  seconds: {elapsed:.2f}"
        f"  events: {'recorded' if args.record else 'off'}"
    )
    print(f"manos/s: {manos / elapsed:.0f}")


if __name__ == "__main__":
    main()
