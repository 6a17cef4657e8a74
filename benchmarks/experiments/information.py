"""What the hidden hands are worth to maestro, and how much of them its inference finds.

Two measurements at a table of four (maestro:N and the reference field a_mas, a_menos,
random_legal; every deal of ``--deals`` in every seat rotation, in-process):

* **Reveal** (``--reveal``): maestro:N searches deals in which the true hands of some opponents
  are known cards, for some bazas of each mano only (``benchmarks/experiments/omniscient.py``'s sink keeps
  the truth). Each item is ``WHO`` or ``WHO@FROM-UNTIL``: WHO is ``none``, ``all`` or opponents'
  names joined by ``+``; FROM and UNTIL the bazas (``all@4-``: from the fourth baza on). Prints
  manos lost per 100 for each: ``none`` is maestro:N itself, ``all`` its omniscient version, and
  the others say where in the mano, and whose, the hidden cards cost it its manos.
* **Posterior** (``--posterior``): at every move of maestro:N, the share of the hidden cards
  its weighted pool of deals puts in their true holder's hand (weighted as the search draws
  them, and unweighted: what the rules' certainties alone give), by baza, and from the fourth
  baza on by opponent.

    python benchmarks/experiments/information.py --deals 40 --reveal none,all,all@2-,all@4-,all@1-1,all@1-3
    python benchmarks/experiments/information.py --deals 6 --posterior

``--check`` checks the instrument instead (about a second; tests/benchmarks/test_information_benchmark.py runs
it): reveal items parse as whose hands in which bazas, and in one partido of maestro:4 told
``all``, ``a_mas@3-`` or ``random_legal@1-2``, every deal it draws holds the true hands of the
seats told in the bazas told, and the other hidden cards are dealt, not told. Its last line is
``check: maestro told some true hands is told exactly those, in the bazas asked``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

SIZE = 4


class Reveal(NamedTuple):
    """Whose true hands maestro is told (``None``: every opponent's), in which bazas."""

    names: frozenset[str] | None
    first: int
    last: int

    @classmethod
    def parse(cls, text: str) -> Reveal:
        """``WHO`` or ``WHO@FROM-UNTIL`` (see the module's docstring)."""
        who, _, bazas = text.partition("@")
        first, _, last = bazas.partition("-")
        names = None if who == "all" else frozenset() if who == "none" else frozenset(who.split("+"))
        return cls(names, int(first or 1), int(last or 99))

    def seats(self, names: tuple[str, ...], me: int) -> set[int]:
        return {s for s, n in enumerate(names) if s != me and (self.names is None or n in self.names)}


def told(base: type[Any], truth: Any, seats: set[int], first: int, last: int) -> type[Any]:
    """A subclass of maestro whose deals hold the true hands of ``seats`` in bazas ``first..last``
    (the other hidden cards dealt and weighted as maestro does)."""
    from arena.cards import cards_of
    from arena.games.cabrero.inference import Knowledge

    class Told(base):  # type: ignore[misc,valid-type]
        strict = True

        def sample(self, rng: Any, know: Knowledge) -> dict[int, int]:
            baza = len(self.view.played) // len(self.view.order) + 1
            if seats and first <= baza <= last:
                known = dict(know.known)
                for s in seats:
                    known.update(dict.fromkeys(cards_of(truth.hands[s]), s))
                know = Knowledge(know.me, know.order, know.counts, know.unseen, known, know.forbidden)
            return super().sample(rng, know)  # type: ignore[no-any-return]

    return Told


def subject(sims: int) -> str:
    """How the output names maestro at ``sims`` deals a move (0: its budget)."""
    return f"maestro:{sims}" if sims else "maestro (its budget)"


def reveal_job(args: tuple[str, int, int, int]) -> tuple[str, int, int]:
    """One partido: (the reveal, manos lost and dealt at maestro's seat)."""
    from benchmarks.experiments.omniscient import Truth
    from benchmarks.experiments.strength import gap_players, gap_seats, play_counted, search_player

    spec, deal, rotation, sims = args
    reveal = Reveal.parse(spec)
    truth = Truth()
    names, me = gap_seats(SIZE, rotation)
    cls = told(type(search_player("maestro:1", 1)), truth, reveal.seats(names, me), reveal.first, reveal.last)
    players = gap_players(names, me, cls(seed=2002, simulations=sims or None), 2002)
    result, stats = play_counted(players, names, deal, f"gap-{SIZE}-{deal}-{rotation}", (truth,))
    if result.faults:
        raise RuntimeError(f"faults in {args}: {result.faults}")
    return spec, stats[me]["manos_perdidas"], stats[me]["manos"]


def reveal_main(args: argparse.Namespace) -> None:
    from arena.results.strength import lost_per_100

    specs = [x.strip() for x in args.reveal.split(",") if x.strip()]
    for spec in specs:
        Reveal.parse(spec)  # a bad item fails here, before any partido
    jobs = [
        (spec, d, k, args.simulations)
        for spec in specs
        for d in range(1, args.deals + 1)
        for k in range(SIZE)
    ]
    got = {spec: [0, 0] for spec in specs}
    who = subject(args.simulations)
    print(f"reveal: {who}, {args.deals} deals x {SIZE} rotations, {len(jobs)} partidos")
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (spec, lost, manos) in enumerate(pool.map(reveal_job, jobs, chunksize=4), 1):
            got[spec][0] += lost
            got[spec][1] += manos
            if i % 100 == 0:
                print(f"  {i}/{len(jobs)} partidos", flush=True)
    for spec in specs:
        lost, manos = got[spec]
        print(f"  {spec:<24} lost/100 {lost_per_100(lost, manos)!s:<20} manos {manos:>5}")


def posterior_job(args: tuple[int, int, int]) -> dict[str, list[float]]:
    """One partido's sums: by row label, [weighted share, unweighted share, moves]."""
    from benchmarks.experiments.omniscient import Truth
    from benchmarks.experiments.strength import gap_players, gap_seats, play_counted, search_player

    deal, rotation, sims = args
    truth = Truth()
    names, me_seat = gap_seats(SIZE, rotation)
    me = search_player(f"maestro:{sims}" if sims else "maestro", 2002)
    me.keep_pool = True  # the pool and its weights, read after each search
    sums: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    search = me.search

    def add(
        label: str, pool: list[Any], weights: list[float], seats: list[int], real: dict[int, int]
    ) -> None:
        n = sum(real[s].bit_count() for s in seats)
        if not n:
            return
        total = sum(weights)
        row = sums[label]
        for (hands, _w, _rows), w in zip(pool, weights, strict=True):
            share = sum((hands[s] & real[s]).bit_count() for s in seats) / n
            row[0] += w * share / total
            row[1] += share / len(pool)
        row[2] += 1

    def measured(request: Any, candidates: Any, start: float) -> Any:
        out = search(request, candidates, start)
        pool, weights = me.last_stats["pool"], me.last_stats["weights"]
        seats = list(pool[0][0])
        real = {s: truth.hands[s] for s in seats}
        baza = len(me.view.played) // SIZE + 1
        add(f"baza {min(baza, 7)}{'+' if baza >= 7 else ''}", pool, weights, seats, real)
        if baza >= 4:
            for s in seats:
                add(f"baza 4+, {names[s]}'s hand", pool, weights, [s], real)
        return out

    me.search = measured
    players = gap_players(names, me_seat, me, 2002)
    play_counted(players, names, deal, f"gap-{SIZE}-{deal}-{rotation}", (truth,))
    return dict(sums)


def posterior_main(args: argparse.Namespace) -> None:
    jobs = [(d, k, args.simulations) for d in range(1, args.deals + 1) for k in range(SIZE)]
    sums: dict[str, list[float]] = collections.defaultdict(lambda: [0.0, 0.0, 0])
    with ProcessPoolExecutor(args.workers) as pool:
        for part in pool.map(posterior_job, jobs):
            for label, row in part.items():
                acc = sums[label]
                for i, x in enumerate(row):
                    acc[i] += x
    who = subject(args.simulations)
    print(f"posterior: {who}, {args.deals} deals x {SIZE} rotations;")
    print("  share of the hidden cards in their true holder's hand: weighted / unweighted (moves)")
    for label in sorted(sums):
        w, u, n = sums[label]
        print(f"  {label:<30} {w / n:.3f} / {u / n:.3f} ({n:.0f})")


def expect(ok: bool, what: str) -> None:
    """One claim of ``--check``: stop with ``what`` when it does not hold."""
    if not ok:
        raise SystemExit(f"check failed: {what}")


def check_told(item: str) -> dict[str, int]:
    """One partido of maestro:4 told ``item``: the hands its deals were told, and the others."""
    from benchmarks.experiments.omniscient import Truth
    from benchmarks.experiments.strength import play_counted, search_player

    reveal = Reveal.parse(item)
    truth = Truth()
    names = ("subject", "a_mas", "a_menos", "random_legal")
    seats = reveal.seats(names, 0)
    base = told(type(search_player("maestro:1", 1)), truth, seats, reveal.first, reveal.last)
    seen = {"told": 0, "free": 0, "other_true": 0}

    class Watched(base):  # type: ignore[misc,valid-type]
        def sample(self, rng: Any, know: Any) -> dict[int, int]:
            hands: dict[int, int] = super().sample(rng, know)
            baza = len(self.view.played) // 4 + 1
            for s, h in hands.items():
                if s in seats and reveal.first <= baza <= reveal.last:
                    expect(h == truth.hands[s], f"{item}: baza {baza}, seat {s} not told its hand")
                    seen["told"] += 1
                else:
                    seen["free"] += 1
                    seen["other_true"] += h == truth.hands[s]
            return hands

    players = [Watched(seed=2002, simulations=4), *(search_player(n, 2002) for n in names[1:])]
    result, _stats = play_counted(players, names, 3, "info-test", (truth,))
    expect(not result.faults, f"{item}: faults {result.faults}")
    return seen


def check() -> None:
    """The ``--check`` mode (see the module's docstring)."""
    expect(Reveal.parse("none") == Reveal(frozenset(), 1, 99), "none")
    expect(Reveal.parse("all") == Reveal(None, 1, 99), "all")
    both = Reveal(frozenset({"a_mas", "random_legal"}), 4, 99)
    expect(Reveal.parse("a_mas+random_legal@4-") == both, "a_mas+random_legal@4-")
    expect(Reveal.parse("all@1-3") == Reveal(None, 1, 3), "all@1-3")
    table = ("random_legal", "subject", "a_mas", "a_menos")
    expect(Reveal.parse("all").seats(table, 1) == {0, 2, 3}, "all's seats")
    expect(Reveal.parse("a_menos").seats(table, 1) == {3}, "a_menos's seats")
    expect(Reveal.parse("none").seats(table, 1) == set(), "none's seats")
    print("check: reveal items parse as whose hands in which bazas")
    for item in ("all", "a_mas@3-", "random_legal@1-2"):
        seen = check_told(item)
        expect(seen["told"] > 0, f"{item}: no hand told")
        if item == "all":  # every opponent in every baza: the omniscient bound
            expect(seen["free"] == 0, "all: a hand dealt, not told")
        else:
            expect(seen["other_true"] < seen["free"], f"{item}: the rest is told, not dealt")
        print(f"check: {item}: {seen['told']} hands told, {seen['free']} dealt")
    print("check: maestro told some true hands is told exactly those, in the bazas asked")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=40, help="deal seeds 1..N, each in every rotation")
    ap.add_argument(
        "--simulations", type=int, default=50, help="maestro's deals per move (0: its own 300 ms budget)"
    )
    ap.add_argument("--reveal", default=None, help="comma list of WHO[@FROM-UNTIL] (see the docstring)")
    ap.add_argument("--posterior", action="store_true", help="the pool's share of the truth, by baza")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--check", action="store_true", help="check the instrument (see the docstring)")
    args = ap.parse_args()
    if args.check:
        check()
        return
    if not args.reveal and not args.posterior:
        ap.error("give --reveal ITEMS, --posterior or --check")
    if args.reveal:
        reveal_main(args)
    if args.posterior:
        posterior_main(args)


if __name__ == "__main__":
    main()
