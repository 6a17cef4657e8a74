"""Engine speed: random-legal in-process manos under the full rules, on one core.

Plays whole partidos of random-legal players through ``arena.engine.Partido``
(every play checked, cantos sung whenever possible, scores, losers, porotos,
eliminations) and, in the same run, manos of a bare playout loop of its own
(:func:`bare_mano`: a shuffled deck dealt as lists, follow suit and beat, trump and
overtrump, cantos, points; no checks, no partido). The two alternate in slices of
``--slice`` seconds for ``--seconds`` in all, so the machine's noise falls on both
alike. The last line is ``manos/s: N; bare loop: M; ratio: R×`` (R = N / M).

A third loop, timed in the same slices, plays the manos the way a search player's
playouts do (:func:`playout_mano`: a shuffled deal into an engine ``Mano``, then
``Mano.legal``, ``Mano.cantos``, ``Mano.sing`` and the unchecked ``Mano.play``); the line
before the last gives its rate and its ratio to the bare loop.

``--check`` instead checks the two playout loops (no timing): at 3 to 6 players, 200 manos each
share out every point (the 130 of a mano, plus the cantos, less a card left out of a deal of
three); its last line is ``check: both loops share out every point`` (exit status 1 otherwise).
(tests/benchmarks/test_engine_benchmark.py runs both modes as a subprocess.)

    python benchmarks/performance/engine.py --players 4 --seconds 10
    python benchmarks/performance/engine.py --check        # a second
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence

from arena.cards import cards_of, mask
from arena.engine import Mano, Partido
from arena.rules import RuleSet

BARE_POINTS = [(0, 0, 0, 0, 0, 2, 3, 4, 10, 11)[c % 10] for c in range(40)]
"""Points by card id (strength order 2 4 5 6 7 sota caballo rey 3 as), for the bare loop."""
BARE_SIZE = {3: 13, 4: 10, 5: 8, 6: 8}
"""Cards per hand by table size; six players deal five hands (the dealer sits out)."""
BARE_PAIRS = [(10 * s + 6, 10 * s + 7) for s in range(4)]
"""The caballo and rey of each suit: a canto."""


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


def playout_mano(rng: random.Random, n: int) -> list[int | None]:
    """One random-legal mano as a search's playout plays it: unchecked, on an engine ``Mano``."""
    deck = list(range(40))
    rng.shuffle(deck)
    k, size = min(n, 5), BARE_SIZE[n]
    hands = [mask(deck[i * size : (i + 1) * size]) for i in range(k)]
    m = Mano(1, deck[-1] // 10, range(k), hands)
    choice = rng.choice
    while not m.over:
        if m.may_sing:
            cantos = m.cantos()
            if cantos:
                m.sing(cantos[0])
                if m.over:
                    break
        m.play(choice(cards_of(m.legal())))
    return m.scores()


def bare_mano(rng: random.Random, n: int) -> list[int]:
    """One random-legal mano written as plainly as possible; returns the points by hand.

    The yardstick of the engine's speed: the work any playout must do (deal, the rule of
    play [6], the baza's winner, cantos, points) and nothing else.
    """
    deck = list(range(40))
    rng.shuffle(deck)
    k, size = min(n, 5), BARE_SIZE[n]
    hands = [deck[i * size : (i + 1) * size] for i in range(k)]
    trump = deck[-1] // 10
    points = [0] * k
    sung: set[int] = set()
    leader = 0
    for baza in range(size):
        hand = hands[leader]
        if baza:  # the leader of a baza after the first sings the pairs it holds
            if all(10 * s + 6 in hand for s in range(4)) or all(10 * s + 7 in hand for s in range(4)):
                break  # tute: the mano ends
            for s, (caballo, rey) in enumerate(BARE_PAIRS):
                if s not in sung and caballo in hand and rey in hand:
                    sung.add(s)
                    points[leader] += 40 if s == trump else 20
                    break
        c = rng.choice(hand)
        hand.remove(c)
        lead, winning, winner, won = c // 10, c, leader, BARE_POINTS[c]
        for i in range(1, k):
            seat = (leader + i) % k
            hand = hands[seat]
            options = [x for x in hand if x // 10 == lead]
            if options:
                if winning // 10 == lead:
                    options = [x for x in options if x > winning] or options
            else:
                options = [x for x in hand if x // 10 == trump]
                if options and winning // 10 == trump:
                    options = [x for x in options if x > winning]
                options = options or hand
            c = rng.choice(options)
            hand.remove(c)
            won += BARE_POINTS[c]
            if (c // 10 == winning // 10 and c > winning) or (c // 10 == trump and winning // 10 != trump):
                winning, winner = c, seat
        points[winner] += won + (10 if baza == size - 1 else 0)
        leader = winner
    return points


def timed_manos(
    play: Callable[[random.Random, int], object], rng: random.Random, n: int, slice_s: float
) -> tuple[int, float]:
    """Play manos with ``play`` for ``slice_s`` seconds, 20 at a time; how many, in how long."""
    perf = time.perf_counter
    start = perf()
    deadline, count = start + slice_s, 0
    while perf() < deadline:
        for _ in range(20):
            play(rng, n)
        count += 20
    return count, perf() - start


def shares_out_every_point(play: Callable[[random.Random, int], Sequence[int | None]], n: int) -> int:
    """Of 200 manos of ``play`` at ``n`` players, how many share out every point: 120 card points
    and the 10 de última, plus 20 or 40 a canto (at three players less the card left out of the
    deal); a tute stops a mano short, and is rare, so a few fall short."""
    rng = random.Random(n)
    left_out = (0, 2, 3, 4, 10, 11) if n == 3 else (0,)
    full = 0
    for _ in range(200):
        scores = [s for s in play(rng, n) if s is not None]
        if len(scores) != min(n, 5):
            return -1
        extra = sum(scores) - 130
        full += any(extra + p >= 0 and (extra + p) % 20 == 0 for p in left_out)
    return full


def check() -> None:
    """The ``--check`` mode: both playout loops play real manos (see the module's docstring)."""
    loops: dict[str, Callable[[random.Random, int], Sequence[int | None]]] = {
        "bare loop": bare_mano,
        "search playouts": playout_mano,
    }
    ok = True
    for name, play in loops.items():
        for n in (3, 4, 5, 6):
            full = shares_out_every_point(play, n)
            ok = ok and full > 180
            print(f"{name}, {n} players: every point shared out in {full} of 200 manos")
    if not ok:
        raise SystemExit("check: a loop loses points (fewer than 181 of 200 manos, or a score missing)")
    print("check: both loops share out every point")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=10.0, help="the three loops together")
    ap.add_argument("--slice", type=float, default=0.5, help="seconds of each turn of each loop")
    ap.add_argument("--record", action="store_true", help="also record every replay event")
    ap.add_argument("--check", action="store_true", help="check the playout loops instead of timing")
    args = ap.parse_args()
    if args.check:
        check()
        return
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng, bare_rng, playout_rng = random.Random(1), random.Random(2), random.Random(3)
    ruleset = RuleSet()
    manos = partidos = bare = playouts = 0
    engine_time = bare_time = playout_time = 0.0
    perf = time.perf_counter
    end = perf() + args.seconds
    while perf() < end:
        start = perf()
        deadline = start + args.slice
        while perf() < deadline:
            manos += play_partido(args.players, partidos, rng, ruleset, args.record)
            partidos += 1
        engine_time += perf() - start
        count, seconds = timed_manos(bare_mano, bare_rng, args.players, args.slice)
        bare, bare_time = bare + count, bare_time + seconds
        count, seconds = timed_manos(playout_mano, playout_rng, args.players, args.slice)
        playouts, playout_time = playouts + count, playout_time + seconds
    speed, bare_speed = manos / engine_time, bare / bare_time
    playout_speed = playouts / playout_time
    print(
        f"players: {args.players}  partidos: {partidos}  manos: {manos}  seconds: {engine_time:.2f}"
        f"  events: {'recorded' if args.record else 'off'}"
    )
    print(f"bare loop: manos: {bare}  seconds: {bare_time:.2f}")
    print(
        f"search playouts (Mano.play, unchecked): manos/s: {playout_speed:.0f};"
        f" ratio to the bare loop: {playout_speed / bare_speed:.2f}×"
    )
    print(f"manos/s: {speed:.0f}; bare loop: {bare_speed:.0f}; ratio: {speed / bare_speed:.2f}×")


if __name__ == "__main__":
    main()
