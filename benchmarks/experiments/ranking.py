"""The order of the standings, validated on fields of known strength.

Synthetic torneos, no processes and no referee: each entrant ``i`` of a field
gets a true strength ``θ*_i`` drawn from a normal distribution of standard
deviation ``--spread`` (default 1.0: an entrant at +1 wins e/(e+3) ≈ 48% of
its partidos against three at 0, ≈ 71% against three at −1). In a field of 8
neighbours are ~0.37 apart on average, about one standard error of the
difference of two fitted strengths after 35 partidos each (≈ 0.27 each,
measured): hard but not impossible to separate. In fields of 30 and 100 they
are ~0.14 and ~0.05 apart, and only the farther pairs can be told apart.

Each partido seats ``--table`` entrants, the ones with the fewest partidos so
far (random among equals), until each has played about ``--per-player``
partidos; its ranking is drawn by Gumbel-max (``θ* + Gumbel`` noise, sorted:
an exact Plackett–Luce draw). A share ``--ties`` of the partidos (default
10%) has its two best tied at first place, so ties are exercised (the marginal
likelihood of :mod:`arena.results.ranking` models exactly this). ``--fields`` random
fields per size (one number, or one per size).

Two methods, on the same partidos:

* ``new``: :func:`arena.results.ranking.places` (maximum likelihood, bootstrap over
  partidos with ``--resamples`` resamples; ``--method``: ``bootstrap`` refits each
  resample, ``normal`` draws them from the bootstrap's normal approximation, ``auto``
  does as the standings do — refits below ``ranking.NORMAL_FROM`` (2,000) partidos,
  draws from there on);
* ``old``: the online rating the standings used before (openskill's
  Plackett–Luce, updated partido by partido in schedule order, a tied partido
  rated as the average of its strict orders with each tie group rotated,
  sorted by μ−3σ). Its place intervals are built as they could have been then,
  from μ ± 1.96σ: ``low = 1 + #{j: μ_j − 1.96σ_j > μ_i + 1.96σ_i}`` and
  ``high = n − #{j: μ_j + 1.96σ_j < μ_i − 1.96σ_i}`` (the places of the
  entrants whose μ intervals overlap its own).

Per size and method:

* ``order recovered``: the share of the field's pairs of entrants that the
  order puts the right way round (Kendall-type concordance: 100% = exact,
  50% = random), averaged over the fields; ``exact order``: the share of
  fields whose whole order is right;
* ``place interval coverage``: the share of entrants whose true place (1 =
  the largest ``θ*``) lies in its 95% place interval (should be ≈ 95% for
  ``new``; places are whole numbers, so an interval holds at least 95% of the
  bootstrap's places — ~99% in fields of 8 — and small fields over-cover);
* ``mean interval width``: the mean number of places an interval spans
  (``high − low + 1``; 1 = a single place, n = no information);
* ``separated`` / ``sep. right``: the share of adjacent pairs of the order
  declared separated (the pairwise verdict, ≥ 97.5%, for new; non-overlapping
  μ ± 1.96σ for old) and, of those, the share in the true order (should be ≥ 95%);
* ``separated pairs`` (new method, the last lines): the share of *all* pairs of the
  fields that the pairwise verdicts separate (one stronger in ≥ 97.5% of the
  resamples), the share of those in the true order, and how many of the fields'
  identical twins (``--twins`` pairs per field, default 1: entrants 2t and 2t + 1
  get the same ``θ*``) were separated — it should be none;
* ``s per field``, ``cpu s``: the method's time per field, wall clock and CPU, in
  a worker process (on a loaded machine the wall clock is the larger).

Fields run in ``--workers`` processes (default 2). A size whose
``ranking.places`` takes more than ``--slow`` CPU seconds a field (default 10)
is reported as too slow. The default fields have at most 875 partidos, so ``auto``
refits them: ~1 CPU minute (measured: 0.36, 0.54 and 1.21 CPU s a field of 8, 30
and 100 entrants), about a minute on 2 cores at load 3; ``--method normal``: 6 s.
The switch itself, 200 entrants with 2,000 partidos, is checked with
``--sizes 200 --per-player 40 --fields 8``, once with ``--method bootstrap`` (3.2
CPU s a field) and once without (drawn: 0.06 CPU s a field).

The last three lines are the new method's ``order recovered: X%`` and ``place
interval coverage: Y%`` and ``old online rating — order recovered: X%, place
interval coverage: Y%``, each the mean over the sizes (every size weighs the same).

    python benchmarks/experiments/ranking.py                      # 8, 30, 100 entrants
    python benchmarks/experiments/ranking.py --sizes 8,30 --fields 10 --resamples 200
    python benchmarks/experiments/ranking.py --sizes 200 --per-player 40 --fields 8 --method bootstrap
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.results import ranking  # noqa: E402

Z95 = 1.959963984540054
METHODS = ("new", "old")


@dataclass(frozen=True)
class Job:
    """One field to simulate."""

    size: int
    field: int
    seed: int
    table: int
    per_player: int
    ties: float
    spread: float
    resamples: int
    method: ranking.Method
    twins: int = 0


@dataclass(frozen=True)
class Result:
    """One method's figures on one field."""

    size: int
    method: str
    concordance: float
    exact: bool
    covered: int
    width: float
    separated: int
    separated_right: int
    adjacent: int
    seconds: float
    cpu: float
    pairs_separated: int = 0
    pairs_right: int = 0
    twins_separated: int = 0
    twins: int = 0


def field(job: Job) -> tuple[np.ndarray, list[ranking.Outcome]]:
    """True strengths and the partidos of one synthetic torneo."""
    rng = np.random.default_rng([job.seed, job.size, job.field])
    n, k = job.size, job.table
    theta = rng.normal(0.0, job.spread, n)
    for t in range(min(job.twins, n // 2)):  # identical twins: entrants 2t and 2t + 1 equal
        theta[2 * t + 1] = theta[2 * t]
    played = np.zeros(n, dtype=int)
    outcomes = []
    for p in range(round(n * job.per_player / k)):
        seats = np.lexsort((rng.random(n), played))[:k]  # the fewest partidos, random among equals
        played[seats] += 1
        order = [int(i) for i in seats[np.argsort(-(theta[seats] + rng.gumbel(size=k)))]]
        if rng.random() < job.ties:
            groups = (tuple(order[:2]), *((i,) for i in order[2:]))
        else:
            groups = tuple((i,) for i in order)
        outcomes.append(ranking.Outcome(groups, f"{p:06d}"))
    return theta, outcomes


def _strict_orders(groups: ranking.Groups) -> list[list[int]]:
    """Strict orders, each tie group rotated cyclically (the old ``standings._strict_orders``)."""
    orders: list[list[int]] = [[]]
    for group in groups:
        rotations = [list(group[i:]) + list(group[:i]) for i in range(len(group))] or [[]]
        orders = [o + r for o in orders for r in rotations]
    return orders


def old_ratings(outcomes: Sequence[ranking.Outcome], n: int) -> tuple[np.ndarray, np.ndarray]:
    """(μ, σ) per entrant: openskill's Plackett–Luce updated partido by partido (the old ``ratings``)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = [model.rating() for _ in range(n)]
    for outcome in outcomes:
        orders = _strict_orders(outcome.groups)
        sums = {i: [0.0, 0.0] for i in orders[0]}
        for order in orders:
            rated = model.rate([[current[i]] for i in order], ranks=list(range(len(order))))
            for i, team in zip(order, rated, strict=True):
                sums[i][0] += team[0].mu
                sums[i][1] += team[0].sigma
        for i, (mu, sigma) in sums.items():
            current[i] = model.rating(mu=mu / len(orders), sigma=sigma / len(orders))
    return np.array([r.mu for r in current]), np.array([r.sigma for r in current])


Placing = tuple[list[int], list[int], list[int], list[bool]]
"""Order, low and high places, separation of each adjacent pair."""


def old_places(outcomes: Sequence[ranking.Outcome], n: int) -> Placing:
    """Order by μ−3σ, place intervals from overlapping μ ± 1.96σ, separation of adjacent entrants."""
    mu, sigma = old_ratings(outcomes, n)
    lo, hi = mu - Z95 * sigma, mu + Z95 * sigma
    order = sorted(range(n), key=lambda i: (-(mu[i] - 3 * sigma[i]), i))
    low = [1 + int(np.sum(lo > hi[i])) for i in range(n)]
    high = [n - int(np.sum(hi < lo[i])) for i in range(n)]
    separated = [bool(lo[a] > hi[b]) for a, b in itertools.pairwise(order)]
    return order, low, high, separated


def score(
    job: Job,
    method: str,
    theta: np.ndarray,
    order: list[int],
    low: list[int],
    high: list[int],
    separated: list[bool],
    seconds: tuple[float, float],
) -> Result:
    """Compare an order and its intervals with the truth."""
    n = job.size
    true_place = np.empty(n, dtype=int)
    true_place[np.argsort(-theta)] = np.arange(1, n + 1)
    placed = np.empty(n, dtype=int)
    placed[order] = np.arange(n)
    right = np.sign(theta[:, None] - theta[None, :]) == np.sign(placed[None, :] - placed[:, None])
    pairs = n * (n - 1) // 2
    concordant = (int(right.sum()) - n) // 2  # the diagonal agrees (0 == 0)
    lo, hi = np.array(low), np.array(high)
    adjacent = list(itertools.pairwise(order))
    return Result(
        size=n,
        method=method,
        concordance=concordant / pairs,
        exact=concordant == pairs,
        covered=int(np.sum((lo <= true_place) & (true_place <= hi))),
        width=float(np.mean(hi - lo + 1)),
        separated=sum(separated),
        separated_right=sum(s and theta[a] > theta[b] for s, (a, b) in zip(separated, adjacent, strict=True)),
        adjacent=n - 1,
        seconds=seconds[0],
        cpu=seconds[1],
    )


def run(job: Job) -> list[Result]:
    """Both methods on one field."""
    theta, outcomes = field(job)
    n = job.size
    start = time.perf_counter(), time.process_time()
    fit = ranking.places(outcomes, n, job.resamples, method=job.method)
    sep = [fit.pairs is not None and fit.pairs.separated(a, b) for a, b in itertools.pairwise(fit.order)]
    new = score(job, "new", theta, fit.order, fit.low, fit.high, sep, _since(start))
    if fit.pairs is not None:
        apart = [(a, b) for a, b in itertools.combinations(range(n), 2) if fit.pairs.separated(a, b)]
        right = sum((fit.pairs.stronger[a, b] > 0.5) == (theta[a] > theta[b]) for a, b in apart)
        twins = [(2 * t, 2 * t + 1) for t in range(min(job.twins, n // 2))]
        new = replace(
            new,
            pairs_separated=len(apart),
            pairs_right=int(right),
            twins_separated=sum(fit.pairs.separated(a, b) for a, b in twins),
            twins=len(twins),
        )
    start = time.perf_counter(), time.process_time()
    order, low, high, sep = old_places(outcomes, n)
    old = score(job, "old", theta, order, low, high, sep, _since(start))
    return [new, old]


def _since(start: tuple[float, float]) -> tuple[float, float]:
    """Wall-clock and CPU seconds since ``start``."""
    return time.perf_counter() - start[0], time.process_time() - start[1]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8,30,100", help="entrants per field, comma-separated")
    ap.add_argument("--fields", default="80,20,12", help="fields per size: one number, or one per size")
    ap.add_argument("--table", type=int, default=4, choices=range(3, 7), help="players per partido")
    ap.add_argument("--per-player", type=int, default=35, help="partidos per entrant (about)")
    ap.add_argument("--ties", type=float, default=0.1, help="share of partidos whose two best tie")
    ap.add_argument("--spread", type=float, default=1.0, help="standard deviation of the true strengths")
    ap.add_argument("--resamples", type=int, default=ranking.RESAMPLES)
    ap.add_argument(
        "--method",
        default="auto",
        choices=("auto", "bootstrap", "normal"),
        help="ranking.places' intervals: refits, normal draws, or by the number of partidos",
    )
    ap.add_argument("--twins", type=int, default=1, help="pairs of identical entrants per field")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument(
        "--slow", type=float, default=10.0, help="CPU seconds a field above which a size is too slow"
    )
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    counts = [int(f) for f in args.fields.split(",")]
    if len(counts) == 1:
        counts *= len(sizes)
    if len(counts) != len(sizes):
        ap.error("--fields: one number, or one per size")
    jobs = [
        Job(
            n,
            k,
            args.seed,
            args.table,
            args.per_player,
            args.ties,
            args.spread,
            args.resamples,
            args.method,
            args.twins,
        )
        for n, count in sorted(zip(sizes, counts, strict=True), reverse=True)  # the slow ones first
        for k in range(count)
    ]
    print(
        f"sizes {sizes}, fields {counts}, tables of {args.table}, ~{args.per_player} partidos each, "
        f"{_pct(args.ties)} tied winners, θ* ~ N(0, {args.spread}²), {args.resamples} resamples "
        f"({args.method}), "
        f"{args.workers} workers"
    )
    results: list[Result] = []
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for done, out in enumerate(pool.imap_unordered(run, jobs), 1):
            results.extend(out)
            if sys.stderr.isatty():
                elapsed = time.perf_counter() - start
                print(f"\r{done}/{len(jobs)} fields, {elapsed:.0f} s", end="", file=sys.stderr)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(f"total: {time.perf_counter() - start:.0f} s")
    header = (
        "size",
        "method",
        "order recovered",
        "exact order",
        "place interval coverage",
        "mean interval width",
        "separated",
        "sep. right",
        "pairs sep.",
        "s per field",
        "cpu s",
    )
    print(" | ".join(header))
    summary: dict[str, list[tuple[float, float]]] = {m: [] for m in METHODS}
    slow = []
    for n in sizes:
        for method in METHODS:
            rs = [r for r in results if r.size == n and r.method == method]
            concordance = statistics.fmean(r.concordance for r in rs)
            coverage = sum(r.covered for r in rs) / (n * len(rs))
            sep = sum(r.separated for r in rs)
            seconds = statistics.fmean(r.seconds for r in rs)
            cpu = statistics.fmean(r.cpu for r in rs)
            summary[method].append((concordance, coverage))
            cells = (
                str(n),
                method,
                _pct(concordance),
                _pct(sum(r.exact for r in rs) / len(rs)),
                _pct(coverage),
                f"{statistics.fmean(r.width for r in rs):.1f}",
                _pct(sep / sum(r.adjacent for r in rs)),
                _pct(sum(r.separated_right for r in rs) / sep) if sep else "-",
                _pct(sum(r.pairs_separated for r in rs) / (len(rs) * n * (n - 1) // 2))
                if method == "new"
                else "-",
                f"{seconds:.2f}",
                f"{cpu:.2f}",
            )
            print(
                " | ".join(
                    c.rjust(len(h)) if k > 1 else c.ljust(len(h))
                    for k, (c, h) in enumerate(zip(cells, header, strict=True))
                )
            )
            if method == "new" and cpu > args.slow:
                slow.append(f"{n} entrants: ranking.places takes {cpu:.2f} CPU s ({seconds:.1f} s) a field")
    for line in slow:
        print(f"too slow (over {args.slow:g} CPU s, {args.resamples} resamples): {line}")
    new = summary["new"]
    old = summary["old"]
    print(f"order recovered: {_pct(statistics.fmean(c for c, _ in new))}")
    print(f"place interval coverage: {_pct(statistics.fmean(v for _, v in new))}")
    mine = [r for r in results if r.method == "new"]
    apart = sum(r.pairs_separated for r in mine)
    total = sum(r.size * (r.size - 1) // 2 for r in mine)
    right = sum(r.pairs_right for r in mine)
    print(
        f"separated pairs: {_pct(apart / total)} of all pairs, "
        f"{_pct(right / apart) if apart else '-'} of them in the true order; "
        f"twins separated: {sum(r.twins_separated for r in mine)} of {sum(r.twins for r in mine)}"
    )
    print(
        f"old online rating — order recovered: {_pct(statistics.fmean(c for c, _ in old))}, "
        f"place interval coverage: {_pct(statistics.fmean(v for _, v in old))}"
    )


if __name__ == "__main__":
    main()
