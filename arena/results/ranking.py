"""Order of the standings: a Plackett–Luce model fitted to every partido's full ranking.

Each entrant ``i`` has a strength ``θ_i``; in a partido, the first place goes to
``i`` with probability ``exp θ_i / Σ exp θ_j`` over the entrants at the table,
the second place likewise among the rest, and so on. The estimate maximises the
likelihood of all the partidos at once, so it does not depend on the order they
were played in (unlike an online rating updated partido by partido).

Ties (two winners; players eliminated after the same mano; the survivors of a
forfeit) are handled by the marginal likelihood: a tied group's probability is
the sum of the probabilities of every order of its members, i.e. "they took
these places in some order". A forfeit — a partido an entrant could not play
because ``--max-faults`` withdrew it — ranks the withdrawn entrant(s) last under
the others tied, which says exactly "it lost to each of them" and nothing about
the others among themselves.

A weak Gaussian prior (variance ``1/ALPHA`` on each θ, as choix's ``alpha``)
keeps the estimate finite for an entrant that won or lost everything; for strict
rankings the estimate is choix's ``opt_rankings`` (a test compares them). The fit
itself is vectorised here (choix has neither ties nor weights, and the bootstrap
refits a thousand times).

:func:`places` adds how sure the order is: a bootstrap over partidos gives each
entrant a 95% interval of its place and the probability that it is stronger than
the entrant just below; adjacent entrants not separated at 95% share a group letter.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import string
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize
from threadpoolctl import threadpool_limits

ALPHA = 0.01
"""Strength of the prior on θ (precision): negligible against a few partidos of data."""

RESAMPLES = 1000
"""Bootstrap resamples of :func:`places`."""

SEPARATED = 0.95
"""An entrant is separated from the next one when it is stronger in this share of resamples."""

Z_ONE_SIDED = 1.6448536269514722
"""The normal quantile of SEPARATED (for the estimate of the partidos still needed)."""

NEEDED_CAP = 20
"""More partidos than this many times those played are not suggested: the gap is too small to chase."""

TIE_TOLERANCE = 1e-4
"""Strengths closer than this are equal (the optimiser's precision is far finer)."""

Groups = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Outcome:
    """One partido for the ranking: entrant indices in groups, best first; a group is a tie."""

    groups: Groups
    key: str = ""
    """A stable name (the partido id) that fixes the order the bootstrap sees the partidos in."""


class _Data:
    """Every strict order each partido's ranking allows, padded into arrays."""

    def __init__(self, outcomes: Sequence[Outcome], n: int) -> None:
        self.n = n
        orders: list[tuple[int, ...]] = []
        starts = [0]
        for outcome in outcomes:
            for order in _strict_orders(outcome.groups):
                orders.append(order)
            starts.append(len(orders))
        width = max((len(o) for o in orders), default=1)
        self.index = np.full((len(orders), width), n, dtype=np.intp)  # n: padding (θ = -inf)
        for row, order in enumerate(orders):
            self.index[row, : len(order)] = order
        self.valid = self.index < n
        self.starts = np.array(starts[:-1], dtype=np.intp)
        self.partido = np.repeat(np.arange(len(outcomes)), np.diff(starts))
        self.size = len(outcomes)

    def objective(self, theta: np.ndarray, weights: np.ndarray, alpha: float) -> tuple[float, np.ndarray]:
        """The negative penalised log-likelihood and its gradient."""
        if self.size == 0:
            return 0.5 * alpha * float(theta @ theta), alpha * theta
        ext = np.append(theta, -np.inf)
        t = ext[self.index]  # θ by place, per order
        # Running sums over at most six places: a loop over columns beats logaddexp.accumulate
        # on rows this short (the bootstrap calls this some 20,000 times).
        m = t.max(axis=1, keepdims=True)
        e = np.exp(t - m)  # 0 at the padding
        width = t.shape[1]
        c = np.empty_like(e)  # Σ exp(θ − m) over places ≥ s
        c[:, width - 1] = e[:, width - 1]
        for s in range(width - 2, -1, -1):
            c[:, s] = c[:, s + 1] + e[:, s]
        with np.errstate(divide="ignore", invalid="ignore"):
            rest = np.log(c) + m  # log Σ exp θ over places ≥ s
            stage = np.where(self.valid, t - rest, 0.0)
        order_ll = stage.sum(axis=1)
        # log of the sum over the orders of each partido (the ties' marginal likelihood)
        top = np.maximum.reduceat(order_ll, self.starts)
        partido_ll = top + np.log(np.add.reduceat(np.exp(order_ll - top[self.partido]), self.starts))
        posterior = np.exp(order_ll - partido_ll[self.partido]) * weights[self.partido]
        with np.errstate(divide="ignore"):
            inv = np.where(self.valid, 1.0 / c, 0.0)
        acc = np.zeros(len(t))
        spent = np.empty_like(e)  # Σ over places s ≤ p of P(place s goes to the one at p)
        for s in range(width):
            acc = acc + inv[:, s]
            spent[:, s] = e[:, s] * acc
        coef = np.where(self.valid, 1.0 - spent, 0.0) * posterior[:, None]
        grad = -np.bincount(self.index[self.valid], weights=coef[self.valid], minlength=self.n + 1)[: self.n]
        value = -float(weights @ partido_ll) + 0.5 * alpha * float(theta @ theta)
        return value, grad + alpha * theta


def _strict_orders(groups: Groups) -> list[tuple[int, ...]]:
    """Every strict order consistent with ``groups`` (each tie group in every order)."""
    perms = [list(itertools.permutations(g)) for g in groups if g]
    return [tuple(i for part in combo for i in part) for combo in itertools.product(*perms)]


def _fit(
    data: _Data, weights: np.ndarray, start: np.ndarray, alpha: float, precise: bool = True
) -> np.ndarray:
    """L-BFGS from ``start``; the bootstrap's refits stop earlier (the same intervals, measured)."""
    tolerances = {"gtol": 1e-8, "ftol": 1e-12} if precise else {"gtol": 1e-5, "ftol": 1e-9}
    result = minimize(
        data.objective,
        start,
        args=(weights, alpha),
        jac=True,
        method="L-BFGS-B",
        options={**tolerances, "maxiter": 500},
    )
    return np.asarray(result.x)


def fit(
    outcomes: Sequence[Outcome],
    n: int,
    weights: Sequence[float] | None = None,
    alpha: float = ALPHA,
) -> np.ndarray:
    """The strengths θ of entrants ``0..n-1`` (MAP, Plackett–Luce with tied groups).

    ``weights`` counts each partido (the bootstrap's multiplicities); None: once.
    """
    data = _Data(outcomes, n)
    w = np.ones(len(outcomes)) if weights is None else np.asarray(weights, dtype=float)
    return _fit(data, w, np.zeros(n), alpha)


@dataclass(frozen=True)
class Places:
    """The order of the standings and how sure it is, per entrant index."""

    theta: list[float]
    """Strength (NaN for an entrant without any partido)."""
    order: list[int]
    """Entrant indices, best first (entrants without partidos last, by index)."""
    low: list[int]
    high: list[int]
    """The 95% bootstrap interval of each entrant's place (1 = first; 0 when without partidos)."""
    ahead: list[float]
    """The share of resamples in which the entrant is stronger than the one placed just below
    it (NaN for the last one and for entrants without partidos)."""
    group: list[str]
    """A letter per entrant: consecutive entrants not separated at 95% share it."""
    needed: list[int | None]
    """For an entrant not separated from the next one: about how many more partidos each of the
    two would have to play to separate them, if their difference is what it seems (None: separated,
    last, or no difference to find)."""
    resamples: int


def _seed(outcomes: Sequence[Outcome]) -> int:
    """The bootstrap's seed, from the partidos themselves: the same data, the same intervals."""
    h = hashlib.blake2b(digest_size=8)
    for o in outcomes:
        h.update(repr((o.key, o.groups)).encode())
    return int.from_bytes(h.digest(), "big")


def _letters(k: int) -> str:
    """A, B, …, Z, AA, AB, …"""
    letters = string.ascii_uppercase
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = letters[r] + out
    return out


def places(outcomes: Sequence[Outcome], n: int, resamples: int = RESAMPLES, alpha: float = ALPHA) -> Places:
    """Fit, order and bootstrap: see :class:`Places`. Invariant under any order of ``outcomes``."""
    # One BLAS thread: the fits are tiny, and OpenBLAS's threads spinning on them made a
    # thousand refits ten times slower on a loaded machine (measured).
    with threadpool_limits(1):
        return _places(outcomes, n, resamples, alpha)


def _places(outcomes: Sequence[Outcome], n: int, resamples: int, alpha: float) -> Places:
    ordered = sorted(outcomes, key=lambda o: (o.key, o.groups))  # the order given must not matter
    played = np.zeros(n, dtype=bool)
    appearances = np.zeros(n)
    for o in ordered:
        for g in o.groups:
            played[list(g)] = True
            appearances[list(g)] += 1
    data = _Data(ordered, n)
    theta = _fit(data, np.ones(len(ordered)), np.zeros(n), alpha)
    ranked = sorted((i for i in range(n) if played[i]), key=lambda i: (-theta[i], i))
    order = ranked + [i for i in range(n) if not played[i]]
    k = len(ranked)
    rng = np.random.default_rng(_seed(ordered))
    best_place = np.zeros((resamples, n), dtype=np.intp)  # a tie spans places: best and worst of it
    worst_place = np.zeros((resamples, n), dtype=np.intp)
    boot_theta = np.zeros((resamples, n))
    if k and resamples:
        for r in range(resamples):
            w = np.bincount(rng.integers(0, len(ordered), len(ordered)), minlength=len(ordered)).astype(float)
            th = _fit(data, w, theta, alpha, precise=False)
            boot_theta[r] = th
            sub = th[ranked]
            above = (sub[None, :] > sub[:, None] + TIE_TOLERANCE).sum(axis=1)  # strictly stronger
            level = (sub[None, :] >= sub[:, None] - TIE_TOLERANCE).sum(axis=1)  # stronger or equal
            best_place[r, ranked] = 1 + above
            worst_place[r, ranked] = level
    low = [0] * n
    high = [0] * n
    for i in ranked if resamples else []:  # no resamples: no intervals (and no separation)
        low[i] = int(np.floor(np.quantile(best_place[:, i], 0.025, method="inverted_cdf")))
        high[i] = int(np.ceil(np.quantile(worst_place[:, i], 0.975, method="inverted_cdf")))
    ahead = [math.nan] * n
    needed: list[int | None] = [None] * n
    group = [""] * n
    letter = 0
    for pos, i in enumerate(ranked):
        group[i] = _letters(letter)
        if pos + 1 == k:
            break
        j = ranked[pos + 1]
        if not resamples:
            continue
        diff = boot_theta[:, i] - boot_theta[:, j]
        ahead[i] = float(np.mean(diff > TIE_TOLERANCE))  # equal strengths (a tie in the data) are no lead
        if ahead[i] >= SEPARATED:
            letter += 1
            continue
        gap, spread = theta[i] - theta[j], float(np.std(diff))
        if gap > 1e-6 and spread > 0:
            z = gap / spread
            each = min(appearances[i], appearances[j])
            more = math.ceil(each * ((Z_ONE_SIDED / z) ** 2 - 1))
            needed[i] = max(1, more) if more <= NEEDED_CAP * max(each, 1) else None  # else: no gap to find
    return Places(
        theta=[float(theta[i]) if played[i] else math.nan for i in range(n)],
        order=order,
        low=low,
        high=high,
        ahead=ahead,
        group=group,
        needed=needed,
        resamples=resamples,
    )
