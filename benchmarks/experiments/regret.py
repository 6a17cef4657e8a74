"""What maestro's limited search costs it, within its own model of the table: the search regret.

At every move maestro makes (maestro at its budget against the reference field, every deal of
``--deals`` in every seat rotation, in-process), each variant of ``--variants`` searches the same
position, and two long searches (``--reference`` deals each, nothing pruned, other seeds) judge
the choices: the first picks the best candidate, the second gives every candidate's loss rate, so
that the noise of the judge does not flatter it. A variant's **regret** at a move is the loss rate
of its choice minus the best's; summed over a partido's moves and divided by its manos, it is the
manos per 100 the variant loses to its search alone, if maestro's model of the table were right.

It does not measure the model (the styles, the inference): strength.py --gap does, against the
omniscient bound. It measures whether more or other search would pay, with far less noise than
playing the manos out: a variant is ``maestro``, ``maestro:N`` (N deals a move) or either with
``+setting=value`` (a class setting, as in strength.py: ``maestro+budget_ms=600``,
``maestro+prune_z=3.5``).

    python benchmarks/experiments/regret.py --deals 6 --variants maestro,maestro+budget_ms=600

``--check`` checks the instrument instead (a second; tests/benchmarks/test_regret_benchmark.py runs it):
variants read as maestro's settings and search on a copy, the regret of a choice is its loss rate
above the picked best's, and the judge rates every candidate of six real positions. Its last line
is ``check: variants, regret and the judge hold``.
"""

from __future__ import annotations

import argparse
import collections
import copy
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))


class Variant(NamedTuple):
    """A way of searching: maestro with some settings (``simulations`` among them)."""

    spec: str
    settings: dict[str, Any]

    @classmethod
    def parse(cls, spec: str) -> Variant:
        """``maestro[:N][+setting=value...]`` (see the module's docstring)."""
        from benchmarks.experiments.strength import parse_settings

        head, *options = spec.split("+")
        name, _, sims = head.partition(":")
        if name != "maestro":
            raise SystemExit(f"{spec}: a variant is a search of maestro's (maestro[:N][+setting=value])")
        return cls(spec, {"simulations": int(sims) if sims else None, **parse_settings(options)})

    def apply(self, player: Any) -> Any:
        """A copy of ``player`` (its beliefs and view) searching this way."""
        from benchmarks.experiments.strength import apply_settings

        twin = copy.copy(player)
        settings = dict(self.settings)
        twin.simulations = settings.pop("simulations")
        apply_settings(twin, self.spec, settings)
        return twin


def loss_rates(player: Any, request: Any, candidates: list[Any], deals: int, seed: int) -> dict[Any, float]:
    """Each candidate's loss rate over ``deals`` deals, nothing pruned (the judge)."""
    judge = copy.copy(player)
    judge.seed, judge.simulations, judge.prune = seed, deals, False
    type(player).search(judge, request, candidates, time.perf_counter())
    stats = judge.last_stats
    return {c: lost / stats["sims"] for c, lost in zip(stats["candidates"], stats["lost"], strict=True)}


def regret(choice: Any, picker: dict[Any, float], rates: dict[Any, float]) -> float:
    """The loss rate of ``choice`` minus that of the best by ``picker``, both from ``rates``
    (a judge that picks and rates with the same deals would flatter the best)."""
    best = min(picker, key=picker.__getitem__)
    return rates[choice] - rates[best]


def regret_job(args: tuple[int, int, int, int, tuple[str, ...]]) -> tuple[int, int, dict[str, float]]:
    """One partido: (its deal, manos dealt at maestro's seat, regret summed by variant)."""
    from arena.referee.table import play_partido
    from benchmarks.experiments.strength import gap_players, gap_seats, search_player

    size, deal, rotation, reference, specs = args
    variants = [Variant.parse(s) for s in specs]
    names, me_seat = gap_seats(size, rotation)
    me = search_player("maestro", 2002)
    me.strict = True
    search = me.search
    sums: dict[str, float] = dict.fromkeys(specs, 0.0)

    def judged(request: Any, candidates: list[Any], start: float) -> Any:
        out = search(request, candidates, start)
        choices = {
            v.spec: type(me).search(v.apply(me), request, candidates, time.perf_counter()) for v in variants
        }
        picker = loss_rates(me, request, candidates, reference, 11)
        rates = loss_rates(me, request, candidates, reference, 13)
        for spec, choice in choices.items():
            sums[spec] += regret(choice, picker, rates)
        return out

    me.search = judged
    players = gap_players(names, me_seat, me, 2002)
    result = play_partido(players, deal, names=list(names), partido_id=f"regret-{size}-{deal}-{rotation}")
    if result.faults:
        raise RuntimeError(f"faults in {args[:3]}: {result.faults}")
    return deal, result.manos, sums


def expect(ok: bool, what: str) -> None:
    """One claim of ``--check``: stop with ``what`` when it does not hold."""
    if not ok:
        raise SystemExit(f"check failed: {what}")


def stops(spec: str, said: str, player: Any = None) -> bool:
    """Whether reading (and, given a player, applying) ``spec`` stops with a message holding ``said``."""
    try:
        variant = Variant.parse(spec)
        if player is not None:
            variant.apply(player)
    except SystemExit as stop:
        return said in str(stop)
    return False


def check() -> None:
    """The ``--check`` mode (see the module's docstring)."""
    from arena.referee.table import play_partido
    from benchmarks.experiments.strength import search_player

    expect(Variant.parse("maestro") == Variant("maestro", {"simulations": None}), "maestro")
    got = Variant.parse("maestro:50+prune_z=3.5").settings
    expect(got == {"simulations": 50, "prune_z": 3.5}, f"maestro:50+prune_z=3.5 reads as {got}")
    expect(stops("fuerte:50", "fuerte:50"), "fuerte:50 is not a variant")
    player = search_player("maestro", 2002)
    player.budget_ms = 300.0
    twin = Variant.parse("maestro:8+prune_z=3+budget_ms=600").apply(player)
    expect((twin.simulations, twin.prune_z, twin.budget_ms) == (8, 3.0, 600.0), "the twin's settings")
    expect(isinstance(twin.prune_z, float), "a setting keeps its type")
    expect((player.simulations, player.prune_z, player.budget_ms) == (None, 2.5, 300.0), "the original")
    expect(stops("maestro+depth=2", "no setting 'depth'", player), "maestro has no setting 'depth'")
    print("check: variants read as maestro's settings and search on a copy")
    picker, rates = {"a": 0.30, "b": 0.20, "c": 0.25}, {"a": 0.28, "b": 0.24, "c": 0.21}
    expect(regret("b", picker, rates) == 0.0, "the picked best has no regret")
    expect(abs(regret("a", picker, rates) - 0.04) < 1e-9, "a: 0.28 - 0.24")
    expect(abs(regret("c", picker, rates) + 0.03) < 1e-9, "c: the judge's noise, negative")
    print("check: the regret of a choice is its rate above the picked best's")
    me = search_player("maestro:4", 2002)
    me.strict = True
    search = me.search
    judged: list[tuple[list[Any], dict[Any, float]]] = []

    def watched(request: Any, candidates: list[Any], start: float) -> Any:
        if len(judged) < 6:
            judged.append((candidates, loss_rates(me, request, candidates, 20, 11)))
        return search(request, candidates, start)

    me.search = watched
    players = [me, *(search_player(n, 1) for n in ("a_mas", "a_menos", "random_legal"))]
    result = play_partido(players, 3, names=["m", "x", "y", "r"], partido_id="regret-check")
    expect(result.faults == [] and len(judged) == 6, f"six positions judged, no fault: {result.faults}")
    for candidates, rates in judged:
        expect(set(rates) == set(candidates), "every candidate rated")
        expect(all(0.0 <= r <= 1.0 and abs(r * 20 - round(r * 20)) < 1e-9 for r in rates.values()), "20ths")
    expect(me.simulations == 4 and me.prune, "judging searched a copy")
    print(f"check: the judge rated every candidate of {len(judged)} real positions")
    print("check: variants, regret and the judge hold")


def main() -> None:
    from arena.results.strength import bootstrap

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=4, help="players at the table (default 4)")
    ap.add_argument("--deals", type=int, default=6, help="deal seeds 1..N, each in every rotation")
    ap.add_argument("--first-seed", type=int, default=1, help="the first deal seed")
    ap.add_argument("--reference", type=int, default=2000, help="deals in each judging search")
    ap.add_argument("--variants", default="maestro", help="comma list of maestro[:N][+setting=value]")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--check", action="store_true", help="check the instrument (see the docstring)")
    args = ap.parse_args()
    if args.check:
        check()
        return
    specs = tuple(s.strip() for s in args.variants.split(",") if s.strip())
    for spec in specs:
        Variant.parse(spec)  # a bad item fails here, before any partido
    jobs = [
        (args.size, d, k, args.reference, specs)
        for d in range(args.first_seed, args.first_seed + args.deals)
        for k in range(args.size)
    ]
    print(
        f"regret: {len(specs)} variants, {args.deals} deals x {args.size} rotations,"
        f" judged by {args.reference} deals"
    )
    by_deal: dict[int, list[float]] = collections.defaultdict(lambda: [0.0] * (len(specs) + 1))
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (deal, manos, sums) in enumerate(pool.map(regret_job, jobs), 1):
            row = by_deal[deal]
            row[0] += manos
            for k, spec in enumerate(specs, 1):
                row[k] += sums[spec]
            print(f"  {i}/{len(jobs)} partidos", flush=True)
    deals = list(by_deal.values())
    manos = round(sum(r[0] for r in deals))
    for k, spec in enumerate(specs, 1):

        def per_100(rows: Any, k: int = k) -> float:
            return 100 * sum(r[k] for r in rows) / max(1, sum(r[0] for r in rows))

        lo, hi = bootstrap(deals, per_100)
        print(f"  {spec:<32} regret {per_100(deals):.2f} [{lo:.2f}, {hi:.2f}] manos per 100 ({manos} manos)")


if __name__ == "__main__":
    main()
