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
is Newton's method on the exact gradient and Hessian, vectorised here (choix has
neither ties nor weights, and the bootstrap refits a thousand times).

:func:`places` adds how sure the order is: a bootstrap over partidos gives each
entrant a 95% interval of its place, and every pair the probability that one is
stronger than the other and a 95% interval of their difference. Two entrants are
*separated* when one is stronger in at least 97.5% of the resamples; the letters
(a compact letter display, :func:`letters`) give entrants that are not separated a
letter in common and separated ones none.
From :data:`NORMAL_FROM` partidos on, the resamples' strengths are drawn from the
bootstrap's large-sample limit instead of refitted (see :func:`_normal_draws`).
"""

from __future__ import annotations

import hashlib
import itertools
import math
import string
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve, eigh
from scipy.stats import norm
from threadpoolctl import threadpool_limits

ALPHA = 0.01
"""Strength of the prior on θ (precision): negligible against a few partidos of data."""

RESAMPLES = 1000
"""Bootstrap resamples of :func:`places`."""

NORMAL_FROM = 2000
"""From this many partidos on, :func:`places` draws the resamples' strengths from the normal
approximation of the bootstrap instead of refitting each resample (the refits cost time in
proportion to the partidos; the approximation gets better with them)."""

SEPARATED = 0.975
"""Two entrants are separated when one is stronger in at least this share of the resamples (so
the other in at most 2.5%): a two-sided test at 95%."""

FAMILY_ERROR = 0.05
"""The chance, in a whole field, of separating any two entrants that are in fact equal: each
pair's difference must stay beyond chance after Holm's correction for the number of pairs."""

SEPARATE_FROM = 6
"""The fewest partidos an entrant must have for the bootstrap to say anything of it: below them it
is separated from nobody, shown equal to nobody (its pairs stay open: ``Pairs.few``) and its place
interval is every place (:func:`_intervals`). With 5, one finishing ahead of the other in every one
has a chance of 1/32 > 2.5% between equals; and a bootstrap over k partidos has at most
C(2k−1, k) distinct resamples (1 of 1 partido, 10 of 3, 126 of 5): its percentiles say nothing
(one partido resampled gives the same strengths every time, hence "equal" and certain places)."""

Z_SEPARATED = 1.959963984540054
"""The normal quantile of SEPARATED (for the estimate of the partidos still needed)."""

EQUAL_BAND = 0.2
"""Two entrants *are equal* (for all a course needs) when the 95% interval of the difference of
their strengths lies within ±EQUAL_BAND: one finishes ahead of the other in at most
e^0.2/(1 + e^0.2) ≈ 55% of the partidos they play together. ``--until-separated`` stops
chasing such a pair."""

NEEDED_CAP = 4
"""More partidos than this many times those played are not suggested: no difference shows (the
verdict says the two look equal)."""

TIE_TOLERANCE = 1e-4
"""Strengths closer than this are equal (the optimiser's precision is far finer)."""

FLOOR = -300.0
"""``exp(θ − max θ)`` is taken at least ``e^FLOOR``: strengths more apart than 300 (a chance of
e⁻³⁰⁰) count as 300 apart, so that no sum of them underflows to zero."""

QUADRATIC = 1e-3
"""A Newton step whose squared decrement is below this is taken without testing the value."""

FIT_XTOL = 1e-6
"""The fit stops at a Newton step this small (taken: the error left is some 1e-12)."""

REFIT_XTOL = 3e-3
"""A resample's refit stops at a Newton step this small: the step taken, the error is some 1e-5
(measured: at most 7e-6 against refits to 1e-10), far below the strengths' differences."""

Groups = tuple[tuple[int, ...], ...]
Method = Literal["auto", "bootstrap", "normal"]


@dataclass(frozen=True)
class Outcome:
    """One partido for the ranking: entrant indices in groups, best first; a group is a tie."""

    groups: Groups
    key: str = ""
    """A stable name (the partido id) that fixes the order the bootstrap sees the partidos in."""


@dataclass(frozen=True)
class _Block:
    """The partidos of one shape (the sizes of their groups, best first) and its strict orders."""

    entrants: np.ndarray
    """(partidos, k): each partido's entrants, its groups in the order given (the partido's slots)."""
    perms: np.ndarray
    """(m, k): the slot at each place of each strict order the shape allows (a tie: several)."""
    partido: np.ndarray
    """(partidos,): each partido's position among all the outcomes (for its weight)."""
    pairs: np.ndarray
    """(partidos, k²): the cell of the n×n Hessian of each pair of slots."""


@dataclass(frozen=True)
class _Terms:
    """The negative penalised log-likelihood at θ, and what was asked of its derivatives."""

    value: float
    grad: np.ndarray | None = None
    hess: np.ndarray | None = None
    outer: np.ndarray | None = None
    """Σ over partidos of weight × score scoreᵀ (a score: the partido's log-likelihood gradient)."""


@dataclass(frozen=True)
class _Local:
    """One block's per-partido log-likelihood and derivatives, in the partido's slots."""

    value: np.ndarray
    grad: np.ndarray | None
    hess: np.ndarray | None
    """(partidos, k, k): minus the Hessian."""


class _Data:
    """The partidos in blocks of one shape, each with every strict order its ranking allows."""

    def __init__(self, outcomes: Sequence[Outcome], n: int) -> None:
        self.n = n
        self.size = len(outcomes)
        shapes: dict[tuple[int, ...], tuple[list[int], list[tuple[int, ...]]]] = {}
        for pos, outcome in enumerate(outcomes):  # a plain loop: 10⁵ partidos in a tenth of a second
            groups = outcome.groups
            entry = shapes.get(shape := tuple(map(len, groups)))
            if entry is None:
                entry = shapes[shape] = ([], [])
            entry[0].append(pos)
            entry[1].append(sum(groups, ()))
        self.appearances = np.zeros(n, dtype=np.intp)
        self.blocks = []
        for shape in sorted(shapes):
            ids, rows = shapes[shape]
            entrants = np.array(rows, dtype=np.intp).reshape(len(rows), sum(shape))
            self.appearances += np.bincount(entrants.ravel(), minlength=n)[:n]
            if sum(shape) > 1:  # one entrant alone: no information
                self.blocks.append(_block(tuple(g for g in shape if g), ids, entrants, n))

    def appearances_in(self, weights: np.ndarray) -> np.ndarray:
        """How many partidos (counted by ``weights``) each entrant ranked with others has."""
        out = np.zeros(self.n)
        for b in self.blocks:
            k = b.entrants.shape[1]
            out += np.bincount(b.entrants.ravel(), np.repeat(weights[b.partido], k), minlength=self.n)[
                : self.n
            ]
        return out

    def local(self, theta: np.ndarray, order: int) -> list[_Local]:
        """Each block's per-partido log-likelihood and derivatives up to ``order`` (no weights yet)."""
        e = _exps(theta)
        return [_local(b, e, order) for b in self.blocks]

    def terms(
        self, theta: np.ndarray, weights: np.ndarray, alpha: float, order: int = 1, outer: bool = False
    ) -> _Terms:
        """The value and, up to ``order`` (0, 1, 2), its gradient and Hessian; ``outer``: Σ w s sᵀ."""
        return self.combine(self.local(theta, max(order, int(outer))), theta, weights, alpha, order, outer)

    def combine(
        self,
        locals_: list[_Local],
        theta: np.ndarray,
        weights: np.ndarray,
        alpha: float,
        order: int = 1,
        outer: bool = False,
    ) -> _Terms:
        """:meth:`terms` from the blocks' ``locals_`` at ``theta`` (which are linear in the weights)."""
        n = self.n
        value = 0.5 * alpha * float(theta @ theta)
        grad = alpha * theta if order >= 1 else None
        hess = alpha * np.eye(n) if order >= 2 else None
        total_outer = np.zeros((n, n)) if outer else None
        for b, local in zip(self.blocks, locals_, strict=True):
            w = weights[b.partido]
            value -= float(w @ local.value)
            if grad is not None and local.grad is not None:
                grad = grad - np.bincount(b.entrants.ravel(), (w[:, None] * local.grad).ravel(), minlength=n)
            if hess is not None and local.hess is not None:
                hess = hess + _scatter(b.pairs, w[:, None, None] * local.hess, n)
            if total_outer is not None and local.grad is not None:
                g = local.grad
                total_outer += _scatter(b.pairs, w[:, None, None] * g[:, :, None] * g[:, None, :], n)
        return _Terms(value, grad, hess, total_outer)

    def objective(self, theta: np.ndarray, weights: np.ndarray, alpha: float) -> tuple[float, np.ndarray]:
        """The negative penalised log-likelihood and its gradient."""
        t = self.terms(theta, weights, alpha, order=1)
        assert t.grad is not None
        return t.value, t.grad


def _block(shape: tuple[int, ...], ids: list[int], entrants: np.ndarray, n: int) -> _Block:
    """The partidos ``ids`` of one ``shape``, with their ``entrants`` (groups in order)."""
    cuts = np.cumsum((0, *shape))
    perms = _strict_orders(tuple(tuple(range(a, b)) for a, b in itertools.pairwise(cuts)))
    k = entrants.shape[1]
    return _Block(
        entrants=entrants,
        perms=np.array(perms, dtype=np.intp),
        partido=np.array(ids, dtype=np.intp),
        pairs=(entrants[:, :, None] * n + entrants[:, None, :]).reshape(-1, k * k),
    )


def _exps(theta: np.ndarray) -> np.ndarray:
    """``exp(θ − max θ)``, floored (see :data:`FLOOR`)."""
    if not len(theta):
        return theta
    return np.exp(np.maximum(theta - theta.max(), FLOOR))


def _scatter(pairs: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    """The n×n sum of per-partido k×k ``values`` at their ``pairs`` cells."""
    return np.bincount(pairs.ravel(), values.ravel(), minlength=n * n).reshape(n, n)


def _local(b: _Block, e: np.ndarray, order: int) -> _Local:
    """Per partido: the log-likelihood and, up to ``order``, its gradient and minus its Hessian.

    For a strict order with ``C_s`` the sum of ``exp θ`` over places ≥ s, the gradient at place
    ``a`` is ``1 − E_a Σ_{s≤a} 1/C_s`` and minus the Hessian ``δ_ab E_a Σ_{s≤a} 1/C_s −
    E_a E_b Σ_{s≤min(a,b)} 1/C_s²`` (the last stage, one entrant left, adds nothing). A tied
    partido mixes its orders by their posterior shares ``q``: gradient ḡ = Σ q g, minus Hessian
    Σ q (M − g gᵀ) + ḡ ḡᵀ.
    """
    tied = len(b.perms) > 1
    E = e[b.entrants][:, b.perms] if tied else e[b.entrants][:, None, :]  # (partidos, m, k) by place
    inv = 1.0 / np.cumsum(E[..., ::-1], axis=2)[..., :0:-1]  # 1/C_s for the stages s < k−1
    order_ll = np.log(E[..., :-1] * inv).sum(axis=2)
    top = order_ll.max(axis=1) if tied else order_ll[:, 0]
    value = top + np.log(np.exp(order_ll - top[:, None]).sum(axis=1)) if tied else top
    if order < 1:
        return _Local(value, None, None)
    acc = np.cumsum(inv, axis=2)
    g = -E * np.concatenate((acc, acc[..., -1:]), axis=2)
    g[..., :-1] += 1.0
    m = _minus_hessian(E, inv, acc) if order >= 2 else None
    if not tied:
        return _Local(value, g[:, 0], None if m is None else m[:, 0])
    return _mix(b, np.exp(order_ll - value[:, None]), g, m, value)


def _minus_hessian(E: np.ndarray, inv: np.ndarray, acc: np.ndarray) -> np.ndarray:
    """Minus the Hessian of each strict order's log-likelihood, by place: (partidos, m, k, k)."""
    k = E.shape[-1]
    acc2 = np.cumsum(inv * inv, axis=2)
    acc2 = np.concatenate((acc2, acc2[..., -1:]), axis=2)  # nondecreasing: at min(a, b) is the min
    m = np.minimum(acc2[..., :, None], acc2[..., None, :])
    m *= E[..., :, None]
    m *= -E[..., None, :]
    flat = m.reshape(*m.shape[:-2], k * k)  # a view: its every (k+1)-th cell is the diagonal
    flat[..., :: k + 1] += E * np.concatenate((acc, acc[..., -1:]), axis=2)
    return m


def _mix(b: _Block, q: np.ndarray, g: np.ndarray, m: np.ndarray | None, value: np.ndarray) -> _Local:
    """A tied block's orders, moved from places to slots and mixed by their posterior shares ``q``."""
    back = np.argsort(b.perms, axis=1)  # the place of each slot, per order
    orders = np.arange(len(b.perms))
    g = g[:, orders[:, None], back]
    grad = np.einsum("po,pok->pk", q, g)
    if m is None:
        return _Local(value, grad, None)
    m = m[:, orders[:, None, None], back[:, :, None], back[:, None, :]]
    hess = grad[:, :, None] * grad[:, None, :]
    for o in orders:  # a few orders (a loop beats einsum's temporaries here, measured)
        hess += q[:, o, None, None] * (m[:, o] - g[:, o, :, None] * g[:, o, None, :])
    return _Local(value, grad, hess)


def _strict_orders(groups: Groups) -> list[tuple[int, ...]]:
    """Every strict order consistent with ``groups`` (each tie group in every order)."""
    perms = [list(itertools.permutations(g)) for g in groups if g]
    return [tuple(i for part in combo for i in part) for combo in itertools.product(*perms)]


def _solve(hess: np.ndarray, grad: np.ndarray) -> np.ndarray:
    """``H⁻¹ g`` by Cholesky; a ridge is added while H is not positive definite."""
    ridge = 0.0
    scale = max(1e-12, float(np.abs(np.diag(hess)).max(initial=0.0)))
    while True:
        try:
            return np.asarray(cho_solve(cho_factor(hess + ridge * np.eye(len(hess))), grad))
        except LinAlgError:
            ridge = max(2 * ridge, 1e-10 * scale)


def _newton(
    data: _Data,
    weights: np.ndarray,
    start: np.ndarray,
    alpha: float,
    xtol: float,
    here: _Terms | None = None,
    maxiter: int = 50,
) -> np.ndarray:
    """Newton's method from ``start`` (``here``: its terms if known) until a step is below
    ``xtol`` everywhere, returned taken.

    Far from the optimum a step is halved until it decreases the value enough; near it (the
    step's predicted decrease below ``QUADRATIC``) it is taken whole — each one squares the
    error there, and comparing values that differ by rounding would stall the search.
    """
    theta = start.copy()
    if here is None:
        here = data.terms(theta, weights, alpha, order=2)
    for _ in range(maxiter):
        assert here.grad is not None and here.hess is not None
        step = _solve(here.hess, here.grad)
        if not np.all(np.isfinite(step)):
            return theta
        slope = float(here.grad @ step)  # the squared Newton decrement: twice the predicted decrease
        if np.max(np.abs(step), initial=0.0) <= xtol:
            return theta - step
        size = 1.0
        while slope > QUADRATIC:
            trial = data.terms(theta - size * step, weights, alpha, order=2)
            if trial.value <= here.value - 1e-4 * size * slope:
                break
            size /= 2
            if size < 1e-10:  # no decrease left at this precision
                return theta
        else:
            trial = data.terms(theta - step, weights, alpha, order=2)
        theta, here = theta - size * step, trial
    return theta


def fit(
    outcomes: Sequence[Outcome],
    n: int,
    weights: Sequence[float] | None = None,
    alpha: float = ALPHA,
) -> np.ndarray:
    """The strengths θ of entrants ``0..n-1`` (MAP, Plackett–Luce with tied groups).

    ``weights`` counts each partido (the bootstrap's multiplicities); None: once. ``alpha`` must
    be positive: without the prior, θ is defined only up to a constant (and not at all for an
    entrant that won or lost everything).
    """
    data = _Data(outcomes, n)
    w = np.ones(len(outcomes)) if weights is None else np.asarray(weights, dtype=float)
    return _newton(data, w, np.zeros(n), alpha, FIT_XTOL)


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
    """The entrant's letters (``a``, ``ab``, …): two entrants are separated exactly when they
    share no letter ("" without partidos)."""
    needed: list[int | None]
    """For an entrant not separated from the next one: about how many more partidos each of the
    two would have to play to separate them, if their difference is what it seems (None: separated,
    last, or no difference to find)."""
    resamples: int
    pairs: Pairs | None = None
    """Every pair's verdict (None without resamples)."""


@dataclass(frozen=True, eq=False)
class Pairs:
    """Pairwise verdicts, as n×n arrays by entrant index (NaN on the diagonal and for an entrant
    without partidos)."""

    stronger: np.ndarray
    """The share of resamples in which row i is stronger than column j (equal strengths: half)."""
    low: np.ndarray
    high: np.ndarray
    """The 95% bootstrap interval of θ_i − θ_j."""
    needed: np.ndarray
    """About how many more partidos each would have to play to separate them if their difference
    is what it seems; NaN when separated, equal, or when no difference shows (over
    :data:`NEEDED_CAP` times the partidos played)."""
    apart: np.ndarray
    """1 where the partidos separate the two (see :func:`_pairs`), else 0."""
    partidos: np.ndarray | None = None
    """The partidos of the one of the two with fewer (None: not known, as in standings kept by an
    older version)."""

    def separated(self, i: int, j: int) -> bool:
        """Whether the partidos establish the order of ``i`` and ``j``."""
        return bool(self.apart[i, j] == 1)

    def few(self, i: int, j: int) -> bool:
        """Whether one of ``i`` and ``j`` has too few partidos (:data:`SEPARATE_FROM`) for any
        verdict: the pair is open, neither separated nor shown equal, with no estimate."""
        return self.partidos is not None and bool(self.partidos[i, j] < SEPARATE_FROM)

    def equal(self, i: int, j: int) -> bool:
        """Whether ``i`` and ``j`` are established as equal (see :data:`EQUAL_BAND`)."""
        return not self.few(i, j) and bool(self.low[i, j] >= -EQUAL_BAND and self.high[i, j] <= EQUAL_BAND)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Pairs):
            return NotImplemented
        return all(
            a is b or (a is not None and b is not None and np.array_equal(a, b, equal_nan=True))
            for a, b in zip(
                (self.stronger, self.low, self.high, self.needed, self.apart, self.partidos),
                (other.stronger, other.low, other.high, other.needed, other.apart, other.partidos),
                strict=True,
            )
        )

    __hash__ = None  # type: ignore[assignment]


def _seed(outcomes: Sequence[Outcome]) -> int:
    """The bootstrap's seed, from the partidos themselves: the same data, the same intervals."""
    h = hashlib.blake2b(digest_size=8)
    for o in outcomes:
        h.update(repr((o.key, o.groups)).encode())
    return int.from_bytes(h.digest(), "big")


ALPHABET = string.ascii_lowercase + string.ascii_uppercase
"""The letters of :func:`letters`, in order (past them: ``[53]``, ``[54]``, …)."""


def _letter(k: int) -> str:
    """The ``k``-th letter (0-based)."""
    return ALPHABET[k] if k < len(ALPHABET) else f"[{k + 1}]"


def letters(order: Sequence[int], separated: Callable[[int, int], bool]) -> dict[int, str]:
    """A compact letter display of the entrants ``order`` (best first): each gets one or more
    letters, and two share a letter exactly when they are not ``separated``.

    Piepho's insert-and-absorb (2004): one letter for everyone; for every separated pair, each
    letter held by both is split in two (one without each of them), and a letter held only by
    entrants that all share another one is absorbed. Letters are named after their best entrant.
    """
    columns = [(1 << len(order)) - 1]
    for a, b in itertools.combinations(range(len(order)), 2):
        both = (1 << a) | (1 << b)
        if not any(c & both == both for c in columns) or not separated(order[a], order[b]):
            continue
        kept = [c for c in columns if c & both != both]
        split = {c & ~bit for c in columns if c & both == both for bit in (1 << a, 1 << b)}
        # a split letter inside another letter is absorbed (the kept ones are maximal already)
        columns = kept + [c for c in split if not any(c & o == c and o != c for o in (*kept, *split))]
    columns.sort(key=lambda c: ((c & -c).bit_length(), -c.bit_count(), c))
    return {
        e: "".join(_letter(k) for k, c in enumerate(columns) if c >> pos & 1) for pos, e in enumerate(order)
    }


def places(
    outcomes: Sequence[Outcome],
    n: int,
    resamples: int = RESAMPLES,
    alpha: float = ALPHA,
    method: Method = "auto",
    among: Collection[int] | None = None,
) -> Places:
    """Fit, order and bootstrap: see :class:`Places`. Invariant under any order of ``outcomes``.

    ``method``: ``bootstrap`` refits every resample, ``normal`` draws from the bootstrap's normal
    approximation, ``auto`` refits below :data:`NORMAL_FROM` partidos and draws from there on.
    ``among``: the entrants placed (all by default); the others' partidos still inform the fit
    (the strength of those they played), but they take no place, interval or letter, and come last
    in ``order`` — a ladder's retired versions, whose places would push the shown ones' beyond the
    rows shown.
    """
    if method not in ("auto", "bootstrap", "normal"):
        raise ValueError(f"method: auto, bootstrap or normal, not {method!r}")  # not shown: a caller's bug
    # One BLAS thread: the fits are small, and OpenBLAS's threads spinning on them made a
    # thousand refits ten times slower on a loaded machine (measured).
    with threadpool_limits(1):
        return _places(outcomes, n, resamples, alpha, method, among)


def _refits(
    data: _Data,
    theta: np.ndarray,
    alpha: float,
    resamples: int,
    rng: np.random.Generator,
    present: np.ndarray | None = None,
) -> np.ndarray:
    """The strengths refitted on ``resamples`` resamples of the partidos (drawn with replacement);
    ``present`` (resamples × n, if given) is set to whether each entrant has a partido in each."""
    at_fit = data.local(theta, order=2)  # a resample's first Newton step needs only these, reweighted
    out = np.empty((resamples, data.n))
    for r in range(resamples):
        w = np.bincount(rng.integers(0, data.size, data.size), minlength=data.size).astype(float)
        start = data.combine(at_fit, theta, w, alpha, order=2)
        out[r] = _newton(data, w, theta, alpha, REFIT_XTOL, start)
        if present is not None:
            present[r] = data.appearances_in(w) > 0
    return out


def _normal_draws(
    data: _Data, theta: np.ndarray, alpha: float, draws: int, rng: np.random.Generator
) -> np.ndarray:
    """Strengths drawn from N(θ̂, H⁻¹ J H⁻¹): what the bootstrap's refits tend to with many partidos.

    H is the Hessian of the fit at θ̂ (the Fisher information plus the prior) and J the spread of
    the partidos' scores (the covariance of a resample's gradient at θ̂), so the draws keep what
    the refits show beyond the model's own H⁻¹ — e.g. two entrants always tied stay equal.
    """
    t = data.terms(theta, np.ones(data.size), alpha, order=2, outer=True)
    assert t.grad is not None and t.hess is not None and t.outer is not None
    total = alpha * theta - t.grad  # Σ of the scores (≈ αθ̂ at the optimum)
    spread = t.outer - np.outer(total, total) / max(data.size, 1)
    values, vectors = eigh(spread)
    root = vectors * np.sqrt(np.clip(values, 0.0, None))
    factor = _solve(t.hess, root)  # H⁻¹ J^½
    return theta + rng.standard_normal((draws, data.n)) @ factor.T


def _span(strengths: np.ndarray, ranked: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Each resample's best and worst place of each ranked entrant (a tie spans places)."""
    best = np.zeros((len(strengths), len(ranked)), dtype=np.intp)
    worst = np.zeros_like(best)
    k = len(ranked)
    for r, row in enumerate(strengths[:, ranked]):
        ascending = np.sort(row)
        best[r] = 1 + k - np.searchsorted(ascending, row + TIE_TOLERANCE, side="right")  # 1 + stronger
        worst[r] = k - np.searchsorted(ascending, row - TIE_TOLERANCE, side="left")  # stronger or equal
    return best, worst


def _places(
    outcomes: Sequence[Outcome],
    n: int,
    resamples: int,
    alpha: float,
    method: Method,
    among: Collection[int] | None = None,
) -> Places:
    ordered = sorted(outcomes, key=lambda o: (o.key, o.groups))  # the order given must not matter
    data = _Data(ordered, n)
    played = data.appearances > 0
    theta = _newton(data, np.ones(len(ordered)), np.zeros(n), alpha, FIT_XTOL)
    placed = set(range(n) if among is None else among)
    ranked = sorted((i for i in range(n) if played[i] and i in placed), key=lambda i: (-theta[i], i))
    strengths = None  # no resamples: no intervals (and no separation)
    if ranked and resamples:
        normal = method == "normal" or (method == "auto" and len(ordered) >= NORMAL_FROM)
        rng = np.random.default_rng(_seed(ordered))
        present = np.ones((resamples, n), dtype=bool)
        if normal:
            strengths = _normal_draws(data, theta, alpha, resamples, rng)
        else:
            strengths = _refits(data, theta, alpha, resamples, rng, present)
    low, high = _intervals(strengths, ranked, n, data.appearances)
    pairs = _pairs(strengths, present, theta, ranked, data.appearances) if strengths is not None else None
    ahead, needed = _adjacent(pairs, ranked, n)
    group = [""] * n
    if pairs is not None:
        group = _fill(letters(ranked, pairs.separated), n)
    else:
        group = _fill(dict.fromkeys(ranked, _letter(0)), n)
    return Places(
        theta=[float(theta[i]) if played[i] else math.nan for i in range(n)],
        order=ranked + sorted(set(range(n)) - set(ranked)),
        low=low,
        high=high,
        ahead=ahead,
        group=group,
        needed=needed,
        resamples=resamples,
        pairs=pairs,
    )


def _intervals(
    strengths: np.ndarray | None, ranked: list[int], n: int, appearances: np.ndarray
) -> tuple[list[int], list[int]]:
    """Each entrant's 95% interval of its place over the resamples (0, 0: none).

    An entrant with fewer than :data:`SEPARATE_FROM` partidos could be anywhere: its interval is
    every place, and each other entrant's is its interval among the rest widened by one place
    down for each such entrant (which may stand above it)."""
    low, high = [0] * n, [0] * n
    if strengths is not None:
        few = [i for i in ranked if appearances[i] < SEPARATE_FROM]
        known = [i for i in ranked if appearances[i] >= SEPARATE_FROM]
        for i in few:
            low[i], high[i] = 1, len(ranked)
        if known:
            best, worst = _span(strengths, known)
            lows = np.floor(np.quantile(best, 0.025, axis=0, method="inverted_cdf"))
            highs = np.ceil(np.quantile(worst, 0.975, axis=0, method="inverted_cdf"))
            for pos, i in enumerate(known):
                low[i], high[i] = int(lows[pos]), int(highs[pos]) + len(few)
    return low, high


def _fill(found: dict[int, str], n: int) -> list[str]:
    """``found`` by entrant index as a list of ``n`` ("" for the others)."""
    return [found.get(i, "") for i in range(n)]


def _pairs(
    strengths: np.ndarray, present: np.ndarray, theta: np.ndarray, ranked: list[int], appearances: np.ndarray
) -> Pairs:
    """Every pair's verdict from the resamples' ``strengths`` (see :class:`Pairs`).

    A resample in which one of the two has no partido says nothing of their order: it counts as
    a toss (half). A pair is separated when one is stronger in :data:`SEPARATED` of the
    resamples, both have :data:`SEPARATE_FROM` partidos, and its difference is still beyond
    chance once corrected for the number of pairs compared (Holm's step-down at
    :data:`FAMILY_ERROR`, on each difference's normal approximation: its fitted value over
    the resamples' spread). A pair one of whose entrants has fewer partidos than that gets no
    verdict at all: P = 1/2 (as a resample that says nothing), no interval of the difference
    (NaN: never shown equal), no estimate."""
    n = len(theta)
    stronger, low, high, spread = (np.full((n, n), math.nan) for _k in range(4))
    for i in ranked:
        others = [j for j in ranked if j != i]
        if not others:
            continue
        diff = strengths[:, [i]] - strengths[:, others]
        both = present[:, [i]] & present[:, others]
        wins = np.where(both, (diff > TIE_TOLERANCE) + 0.5 * (np.abs(diff) <= TIE_TOLERANCE), 0.5)
        stronger[i, others] = np.mean(wins, axis=0)
        low[i, others], high[i, others] = np.quantile(diff, [0.025, 0.975], axis=0)
        spread[i, others] = np.std(diff, axis=0)
    gap = np.abs(theta[:, None] - theta[None, :])
    each = np.minimum(appearances[:, None], appearances[None, :]).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(spread > 0, gap / spread, np.where(gap > TIE_TOLERANCE, np.inf, 0.0))
    few = each < SEPARATE_FROM  # the resamples of so few partidos say nothing (see SEPARATE_FROM)
    np.fill_diagonal(few, False)
    upper = [(i, j) for a, i in enumerate(ranked) for j in ranked[a + 1 :]]
    beyond = _holm({pair: 2 * float(norm.sf(z[pair])) for pair in upper if not few[pair]})  # no test
    apart = np.zeros((n, n), dtype=bool)
    for i, j in upper:
        p = stronger[i, j]
        apart[i, j] = apart[j, i] = bool(
            (p >= SEPARATED or p <= 1 - SEPARATED) and each[i, j] >= SEPARATE_FROM and (i, j) in beyond
        )
    equal = (low >= -EQUAL_BAND) & (high <= EQUAL_BAND)
    left = max(1, len(upper) - sum(apart[pair] for pair in upper))  # Holm's next divisor
    z_needed = max(Z_SEPARATED, float(norm.isf(FAMILY_ERROR / (2 * left))))
    with np.errstate(divide="ignore", invalid="ignore"):
        more = np.ceil(each * ((z_needed / z) ** 2 - 1))
    chase = ~apart & ~equal & (gap > 1e-6) & (spread > 0) & (more <= NEEDED_CAP * np.maximum(each, 1))
    needed = np.where(chase, np.maximum(1.0, more), math.nan)
    np.fill_diagonal(needed, math.nan)
    stronger[few & ~np.isnan(stronger)] = 0.5
    low[few], high[few], needed[few] = math.nan, math.nan, math.nan
    partidos = each.copy()
    np.fill_diagonal(partidos, math.nan)
    return Pairs(stronger, low, high, needed, apart.astype(float), partidos)


def _holm(p: dict[tuple[int, int], float]) -> set[tuple[int, int]]:
    """The pairs whose p-values Holm's step-down rejects at :data:`FAMILY_ERROR`."""
    out: set[tuple[int, int]] = set()
    for k, (pair, value) in enumerate(sorted(p.items(), key=lambda item: (item[1], item[0]))):
        if value > FAMILY_ERROR / (len(p) - k):
            break
        out.add(pair)
    return out


def _adjacent(pairs: Pairs | None, ranked: list[int], n: int) -> tuple[list[float], list[int | None]]:
    """Per entrant: the share of resamples ahead of the next, and the partidos needed to separate them."""
    ahead = [math.nan] * n
    needed: list[int | None] = [None] * n
    if pairs is None:
        return ahead, needed
    for i, j in itertools.pairwise(ranked):
        ahead[i] = float(pairs.stronger[i, j])
        more = pairs.needed[i, j]
        needed[i] = None if math.isnan(more) else int(more)
    return ahead, needed
