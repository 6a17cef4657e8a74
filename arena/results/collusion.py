"""Collusion and soft play: ordered pairs of entrants where one seems to play for the other.

A statistic for the instructor to look at, never an accusation. Two students may agree that
bot B (the *servant*) plays for bot A (the *master*): it feeds A points, steers who is
eliminated, never competes with A. Whatever B does for A shows in how A finishes against the
*third parties* C at their table, measured against the standings' Plackett–Luce model
(:mod:`arena.results.ranking`).

**The model's expectation.** With strengths ``w = exp θ`` the chance that j finishes ahead of
i at the same table is ``π_ji = w_j / (w_i + w_j)``, whoever else sits there; so i's expected
place is ``1 + Σ_j π_ji`` over the others at the table. A tied group took its places in some
order (the fit's marginal likelihood): i counts as ahead of a tied j with the model's chance
given the observed ranking (the group's orders weighted by their probability; ½ for equal
strengths), so that the residual ``1[i ahead of j] − π_ij`` has mean zero under the model, ties
or not. The observed place shown is the standings' (a tied group's mean place).

**A's edge** in a partido is the mean of those residuals over its third parties (every other
seat but B; without B, every other seat): one number per partido, which respects the
correlation of one partido's pairs. ``ventaja_a`` is A's mean edge with B at the table minus
without; ``ventaja_b`` the same for B with and without A.

**A's edge in manos** reads the same partidos finer: places come from a few eliminations, manos
lost are counted by the tens in a partido. Each seat's share of its manos lost (the game's
``loss_count`` per mano dealt in); A's edge in manos is the third parties' mean share minus A's;
``ventaja_manos_a`` is its mean with B minus without. No model is needed for it to be fair: the
same comparison, with and without B, over A's partidos. Where the manos are not counted (a game
without a loss count, or a partido without stats) the measure is NaN and the places alone test.

**The test** of the ordered pair (A, B): ``p_lugares`` and ``p_manos`` are the one-sided Welch t
tests (Welch–Satterthwaite degrees of freedom) that A gains from B at all, in places and in manos;
``p`` is the smaller doubled (Bonferroni over the :data:`MEASURES` measures, whatever their
correlation). The p-values are Holm-corrected over every ordered pair tested (family-wise level
:data:`FAMILY_ALPHA` against pairs that do not interact); a pair is flagged (``sospecha``) when
its corrected p-value is below it and, in the measure that gave ``p``, A gains more than B does
(the direction: master and servant) and at least the least gain (:data:`MIN_EDGE` in places,
:data:`MIN_MANOS_EDGE` in manos). The least gain is a bar on the estimate, not a shifted null: a
mild genuine interaction (a style that happens to suit another's) is never flagged, however many
partidos make it significant, while a servant's gain is tested at full power (issue 50: the null
shifted by the least gain missed, at 750 partidos, a pair that gave its master +0.12 in manos).
Beside it, ``p_ab`` tests that A gains more than B in places (the partidos together paired) and
``p_b`` that B gives itself up (``ventaja_b < −MIN_EDGE``): evidence, not conditions.

Why A's gain and not also B's loss: a servant need not lose. In Tute Cabrero a mano lost by a
third party is one the servant does not lose, so helping the master and staying safe go
together; a servant that searches for its master's good gains itself (+0.04 to +0.19 in
``benchmarks/audits/collusion.py``), less than the master (+0.16 to +0.3). Why only third parties:
"A beats B more than the model says" (A exploits B's style, or B yields) looks on places
exactly like honest strategic interaction; the gain against the others is what B's help buys.

**Explaining away.** A colluding pair moves other pairs' figures: a servant that gives itself
up lifts every third party at its master's table, and the strengths fitted to all partidos
(the servant's too low, the master's too high) make the others' residuals lean wherever the
pair is, or is not. So the pair that stands out most — flagged, or B giving itself up to A
(``p_b`` below ``FAMILY_ALPHA`` Bonferroni-corrected), by the smaller corrected p-value — has
the partidos in which it sat together set aside from every other pair's figures, the strengths
refitted to the rest; then again with the next, until none stands out (at most
:data:`ROUNDS`). ``apartados`` counts the partidos set aside for a row's figures.

A pair is tested only with :data:`MIN_PARTIDOS` partidos in each of A with B, A without B
and B without A; else its ``p`` is NaN. Forfeits are no partidos (no records) and do not count;
entrants without partidos do not appear.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from arena import games
from arena.referee.stats import finishing_places
from arena.results.ranking import Outcome, fit

FAMILY_ALPHA = 0.01
"""Family-wise error rate of the flags over every ordered pair of a torneo (Holm)."""

MIN_EDGE = 0.05
"""The least gain flagged in places: A's edge over third parties with B minus without, in chances
of finishing ahead of one (0.05: one more third party beaten in twenty). Between the sample
players the gains measure up to about 0.05 (torneos of 3,000 partidos); a servant that searches
for its master gives 0.12–0.3 (``benchmarks/audits/collusion.py``)."""

MIN_MANOS_EDGE = 0.07
"""The least gain flagged in manos: A's edge in manos (third parties' share of their manos lost
minus A's) with B minus without (0.07: seven manos in a hundred). Between the sample players, in
8 honest torneos of 3,000 partidos (200 ordered pairs), the largest measured 0.063 (standard
error 0.019); a servant that searches for its master gives 0.12–0.29 at 750 partidos
(``benchmarks/audits/collusion.py --partidos 750 --save DIR``)."""

MEASURES = 2
"""The test reads two measures of A's gain (places and manos): each p-value is doubled (Bonferroni)."""

MIN_PARTIDOS = 5
"""The fewest partidos in each group a pair's tests compare (A with B, A without B, B without A)."""

ROUNDS = 20
"""At most this many pairs stand out (their partidos set aside for the other pairs' tests)."""

FLOOR = -300.0
"""``exp(θ − max θ)`` is taken at least ``e^FLOOR`` (as in :mod:`arena.results.ranking`)."""

COLUMNS = (
    "a",
    "b",
    "juntos",
    "partidos_a_sin_b",
    "partidos_b_sin_a",
    "apartados",
    "lugar_esperado_a",
    "lugar_a",
    "lugar_esperado_b",
    "lugar_b",
    "ventaja_a",
    "ventaja_b",
    "ventaja_manos_a",
    "ventaja_manos_b",
    "porotos_a",
    "porotos_b",
    "p_b",
    "p_ab",
    "p_lugares",
    "p_manos",
    "p",
    "p_corregida",
    "sospecha",
)
"""The columns of :func:`suspicions`: see there."""


def expected_place(theta: Sequence[float] | np.ndarray, seat: int) -> float:
    """The Plackett–Luce expected place (1 = first) of ``seat`` at a table of strengths ``theta``."""
    w = _weights(np.asarray(theta, dtype=float))
    return float(1 + sum(w[j] / (w[seat] + w[j]) for j in range(len(w)) if j != seat))


def ahead_given_ranking(ranking: Sequence[Sequence[int]], theta: Sequence[float] | np.ndarray) -> np.ndarray:
    """``q[i, j]``: the chance that seat i finished ahead of seat j given the observed ranking,
    under Plackett–Luce with the seats' strengths ``theta``: 1 or 0 between groups; within a
    tied group, the share of its orders (weighted by their probability) that put i before j.
    Seats the ranking leaves out rank last, tied."""
    w = _weights(np.asarray(theta, dtype=float))
    k = len(w)
    q = np.zeros((k, k))
    groups = [list(g) for g in ranking]
    ranked = {s for g in groups for s in g}
    if missing := [s for s in range(k) if s not in ranked]:
        groups.append(missing)
    below = [s for g in groups for s in g]
    for g in groups:
        below = below[len(g) :]
        for s in g:
            q[s, below] = 1.0
        if len(g) > 1:
            q[np.ix_(g, g)] = _within(w[g], float(w[below].sum()))
    return q


def _within(w: np.ndarray, rest: float) -> np.ndarray:
    """For a tied group of strengths ``w`` followed by a total strength ``rest``: the chance that
    member i precedes member j, over the group's orders weighted by their probability."""
    out = np.zeros((len(w), len(w)))
    for order in itertools.permutations(range(len(w))):
        left, prob = float(w.sum()) + rest, 1.0
        for i in order:
            prob *= w[i] / left
            left -= w[i]
        for a, i in enumerate(order):
            out[i, list(order[a + 1 :])] += prob
    return out / (out + out.T + np.eye(len(w)))


def _weights(theta: np.ndarray) -> np.ndarray:
    return np.exp(np.maximum(theta - theta.max(), FLOOR))


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm's step-down adjusted p-values (a NaN stays NaN and is no test)."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    idx = np.flatnonzero(~np.isnan(p))
    order = idx[np.argsort(p[idx], kind="stable")]
    m = len(order)
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


@dataclass(frozen=True)
class _Block:
    """The partidos of one table size, as arrays by partido and seat."""

    seated: np.ndarray
    """(P, k): the entrant in each seat."""
    edge: np.ndarray
    """(P, k): each seat's mean residual over every other seat."""
    third: np.ndarray
    """(P, k, k): [p, s, o]: seat s's mean residual over the seats other than s and o."""
    edge_manos: np.ndarray
    """(P, k): each seat's edge in manos: the other seats' mean share of manos lost minus its own."""
    third_manos: np.ndarray
    """(P, k, k): [p, s, o]: that edge over the seats other than s and o."""
    rated: np.ndarray
    """(P,): 1 where every seat played a mano and its loss is counted (the manos measures read), else 0."""
    expected: np.ndarray
    place: np.ndarray
    porotos: np.ndarray
    manos: np.ndarray


def _lost(rec: dict[str, Any], loss: str) -> list[tuple[float, float]]:
    """What each seat gave up (the game's count ``loss``, its spec's ``loss_count``) and its manos:
    from ``losses`` (the store's, for a big torneo) or the seats' ``stats``. Without either, or for a
    game that counts no loss, 0 manos: the loss figures are then NaN."""
    k = len(rec["players"])
    if "losses" in rec:
        return [(float(x), float(m)) for x, m in rec["losses"]]
    stats = rec.get("stats") or [{}] * k
    if not loss:
        return [(0.0, 0.0)] * k
    return [(float(st.get(loss, 0)), float(st.get("manos", 0))) for st in stats]


def _blocks(records: Sequence[dict[str, Any]], entrants: Sequence[str], theta: np.ndarray) -> list[_Block]:
    """The records' residuals, by table size (tables of fewer than three have no third party)."""
    index = {name: i for i, name in enumerate(entrants)}
    rows: dict[int, list[tuple[Any, ...]]] = {}
    for rec in records:
        seated = [index[name] for name in rec["players"]]
        k = len(seated)
        if k < 3:
            continue
        t = theta[seated]
        if np.isnan(t).any():
            raise ValueError("a seated entrant without a strength")  # not shown: a caller's bug
        w = _weights(t)
        pi = w[:, None] / (w[:, None] + w[None, :])  # pi[i, j]: i ahead of j
        e = ahead_given_ranking(rec["ranking"], t) - pi
        np.fill_diagonal(e, 0.0)
        total = e.sum(axis=1)
        third = (total[:, None] - e) / (k - 2)
        np.fill_diagonal(third, 0.0)
        places = finishing_places(rec["ranking"])
        lost = rec["_lost"]
        rated = all(m > 0 for _x, m in lost)
        share = np.array([x / m if m > 0 else 0.0 for x, m in lost])
        behind = share[None, :] - share[:, None]  # [s, c]: c's share of manos lost minus s's
        manos_total = behind.sum(axis=1)
        manos_third = (manos_total[:, None] - behind) / (k - 2)
        np.fill_diagonal(manos_third, 0.0)
        rows.setdefault(k, []).append(
            (
                seated,
                total / (k - 1),
                third,
                manos_total / (k - 1),
                manos_third,
                float(rated),
                0.5 + (1 - pi).sum(axis=1),  # 1 + Σ_{j≠i} π_ji: the diagonal's 1 − π_ii is ½
                [places.get(s, float(k)) for s in range(k)],
                [x for x, _m in lost],
                [m for _x, m in lost],
            )
        )
    out = []
    for k in sorted(rows):
        cols = list(zip(*rows[k], strict=True))
        arrays = [np.array(c, dtype=np.intp if i == 0 else float) for i, c in enumerate(cols)]
        out.append(_Block(*arrays))
    return out


class _Tally:
    """Sums over the partidos, by entrant (n) and by ordered pair of entrants (n², a·n + b)."""

    def __init__(self, blocks: Sequence[_Block], n: int) -> None:
        nn = n * n
        z = np.zeros
        self.n1, self.s1, self.ss1 = z(n), z(n), z(n)  # each entrant's edge over all, every partido
        self.por1, self.man1 = z(n), z(n)
        self.n1m, self.s1m, self.ss1m = z(n), z(n), z(n)  # the same in manos, partidos rated
        names = ("cnt", "y", "yy", "x", "xx", "d", "dd", "exp", "place", "por", "man")
        self.pair = {name: z(nn) for name in (*names, "cm", "ym", "yym", "xm", "xxm")}
        for b in blocks:
            seated, x = b.seated, b.edge
            k = seated.shape[1]
            flat = seated.ravel()
            r = b.rated[:, None]
            xm = b.edge_manos * r
            for arr, w in ((self.n1, None), (self.s1, x), (self.ss1, x * x)):
                arr += np.bincount(flat, weights=None if w is None else w.ravel(), minlength=n)
            for arr, w in ((self.n1m, np.broadcast_to(r, x.shape)), (self.s1m, xm), (self.ss1m, xm * xm)):
                arr += np.bincount(flat, weights=w.ravel(), minlength=n)
            self.por1 += np.bincount(flat, weights=b.porotos.ravel(), minlength=n)
            self.man1 += np.bincount(flat, weights=b.manos.ravel(), minlength=n)
            third, expected, place, porotos, manos = b.third, b.expected, b.place, b.porotos, b.manos
            for s, o in itertools.permutations(range(k), 2):
                ids = seated[:, s] * n + seated[:, o]
                y, d = third[:, s, o], third[:, s, o] - third[:, o, s]
                ym = b.third_manos[:, s, o] * b.rated
                for name, w in (
                    ("cm", b.rated),
                    ("ym", ym),
                    ("yym", ym * ym),
                    ("xm", xm[:, s]),
                    ("xxm", xm[:, s] ** 2),
                    ("cnt", None),
                    ("y", y),
                    ("yy", y * y),
                    ("x", x[:, s]),
                    ("xx", x[:, s] ** 2),
                    ("d", d),
                    ("dd", d * d),
                    ("exp", expected[:, s]),
                    ("place", place[:, s]),
                    ("por", porotos[:, s]),
                    ("man", manos[:, s]),
                ):
                    self.pair[name] += np.bincount(ids, weights=w, minlength=nn)


def _var(n: np.ndarray, s: np.ndarray, ss: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n > 1, np.maximum(0.0, ss - s * s / n) / (n - 1), np.nan)


def _welch(groups: Sequence[tuple[float, np.ndarray, np.ndarray, np.ndarray]], shift: float) -> np.ndarray:
    """One-sided p-values that ``Σ coef × mean`` over independent groups exceeds ``shift``, by Welch's
    t with Welch–Satterthwaite degrees of freedom; a group is (coef, count, Σx, Σx²). NaN where a
    group has fewer than :data:`MIN_PARTIDOS` or nothing varies."""
    with np.errstate(invalid="ignore", divide="ignore"):
        est = sum(c * s / n for c, n, s, _ss in groups)
        parts = [c * c * _var(n, s, ss) / n for c, n, s, ss in groups]
        v = sum(parts)
        tails = [np.where(q > 0, q * q / (g[1] - 1), 0.0) for q, g in zip(parts, groups, strict=True)]
        df = v * v / sum(tails)
        t = (est - shift) / np.sqrt(v)
        p = sps.t.sf(t, df)
    few = np.logical_or.reduce([n < MIN_PARTIDOS for _c, n, _s, _ss in groups])
    return np.where(few | ~(v > 0), np.nan, p)


def _evaluate(tally: _Tally, n: int, min_edge: float, min_manos_edge: float) -> dict[str, np.ndarray]:
    """Every ordered pair's figures and p-values (arrays of n², a·n + b)."""
    q = tally.pair
    back = np.arange(n * n).reshape(n, n).T.ravel()  # (a, b) -> (b, a)
    a_of = np.repeat(np.arange(n), n)
    b_of = np.tile(np.arange(n), n)
    cnt = q["cnt"]
    # A without B: A's partidos less those with B (its edge over all, summed there as x)
    wo_n, wo_s, wo_ss = tally.n1[a_of] - cnt, tally.s1[a_of] - q["x"], tally.ss1[a_of] - q["xx"]
    bw_n, bw_s, bw_ss = wo_n[back], wo_s[back], wo_ss[back]  # B without A
    cm = q["cm"]  # the same in manos, over the partidos rated
    wo_nm, wo_sm, wo_ssm = tally.n1m[a_of] - cm, tally.s1m[a_of] - q["xm"], tally.ss1m[a_of] - q["xxm"]
    with np.errstate(invalid="ignore", divide="ignore"):
        gain = np.where(wo_n > 0, q["y"] / cnt - wo_s / wo_n, np.nan)
        gain_manos = np.where((wo_nm > 0) & (cm > 0), q["ym"] / cm - wo_sm / wo_nm, np.nan)
        rate = 100 * q["por"] / q["man"]
        rest = 100 * (tally.por1[a_of] - q["por"]) / (tally.man1[a_of] - q["man"])
        out = {
            "juntos": cnt,
            "partidos_a_sin_b": wo_n,
            "partidos_b_sin_a": bw_n,
            "lugar_esperado_a": q["exp"] / cnt,
            "lugar_a": q["place"] / cnt,
            "ventaja_a": gain,
            "ventaja_manos_a": gain_manos,
            "porotos_a": np.where((q["man"] > 0) & (tally.man1[a_of] > q["man"]), rate - rest, np.nan),
        }
    out["lugar_esperado_b"] = out["lugar_esperado_a"][back]
    out["lugar_b"] = out["lugar_a"][back]
    out["ventaja_b"] = gain[back]
    out["ventaja_manos_b"] = gain_manos[back]
    out["porotos_b"] = out["porotos_a"][back]
    p_a = _welch([(1.0, cnt, q["y"], q["yy"]), (-1.0, wo_n, wo_s, wo_ss)], 0.0)
    out["p_b"] = _welch([(-1.0, cnt, q["y"], q["yy"]), (1.0, wo_n, wo_s, wo_ss)], min_edge)[back]
    diff = [(1.0, cnt, q["d"], q["dd"]), (-1.0, wo_n, wo_s, wo_ss), (1.0, bw_n, bw_s, bw_ss)]
    out["p_ab"] = _welch(diff, 0.0)
    p_m = _welch([(1.0, cm, q["ym"], q["yym"]), (-1.0, wo_nm, wo_sm, wo_ssm)], 0.0)
    mine = a_of == b_of
    out["p_lugares"] = np.where(mine, np.nan, p_a)
    out["p_manos"] = np.where(mine, np.nan, p_m)
    out["p"] = np.minimum(1.0, MEASURES * np.fmin(out["p_lugares"], out["p_manos"]))
    by_manos = ~(out["p_lugares"] < out["p_manos"])  # the measure that gives p (manos on a tie or NaN)
    out["ayuda"] = np.where(  # in that measure: A gains more than B, and at least the least gain
        by_manos,
        (gain_manos > out["ventaja_manos_b"]) & (gain_manos >= min_manos_edge),
        (gain > out["ventaja_b"]) & (gain >= min_edge),
    )
    return out


FIGURES = (
    "juntos",
    "partidos_a_sin_b",
    "partidos_b_sin_a",
    "lugar_esperado_a",
    "lugar_a",
    "lugar_esperado_b",
    "lugar_b",
    "ventaja_a",
    "ventaja_b",
    "ventaja_manos_a",
    "ventaja_manos_b",
    "porotos_a",
    "porotos_b",
    "p_b",
    "p_ab",
    "p_lugares",
    "p_manos",
    "p",
    "ayuda",
)


def suspicions(
    records: Sequence[dict[str, Any]],
    entrants: Sequence[str],
    theta: Sequence[float],
    alpha: float = FAMILY_ALPHA,
    min_edge: float = MIN_EDGE,
    loss: str | None = None,
    min_manos_edge: float = MIN_MANOS_EDGE,
) -> pd.DataFrame:
    """One row per ordered pair (A, B) of entrants that shared a partido, most suspicious first
    (by corrected p-value, then p-value, then A's gain). See the module's docstring.

    ``records``: partido records (:data:`arena.results.standings.RECORD_KEYS`: ``players``,
    ``ranking`` and ``stats`` are read; without ``stats`` the porotos are NaN); ``theta``: the
    standings' strengths by entrant index (:func:`arena.results.ranking.places`; NaN for
    entrants without partidos), refitted (:func:`arena.results.ranking.fit`) wherever partidos
    are set aside. Columns (:data:`COLUMNS`):

    * ``a``, ``b``: the entrants (A the one helped, B the one helping, if any);
    * ``juntos``: partidos together; ``partidos_a_sin_b``, ``partidos_b_sin_a``: without the other;
    * ``apartados``: partidos left out of this row's figures (where a pair that stands out sat
      together, unless it is this pair or its reverse); the figures are the rest's, with the
      strengths refitted to them;
    * ``lugar_esperado_a``, ``lugar_a``: A's mean expected (the model's) and observed place in
      the partidos together; ``lugar_esperado_b``, ``lugar_b``: the same for B;
    * ``ventaja_a``: A's mean edge over third parties with B minus without B (chances of
      finishing ahead of one, beyond the model's); ``ventaja_b``: B's, with A minus without A;
    * ``ventaja_manos_a``: A's mean edge in manos (third parties' share of manos lost minus A's)
      with B minus without; ``ventaja_manos_b``: B's, with A minus without A;
    * ``porotos_a``: A's porotos lost per 100 manos with B minus without B; ``porotos_b``: B's,
      with A minus without A;
    * ``p_b``: one-sided p-value of ``ventaja_b < -min_edge`` (B gives itself up); ``p_ab``: of
      ``ventaja_a > ventaja_b``; ``p_lugares``: of ``ventaja_a > 0``; ``p_manos``: of
      ``ventaja_manos_a > 0``; ``p``: the smaller doubled (the test);
      ``p_corregida``: Holm's, over every pair tested;
    * ``sospecha``: flagged: ``p_corregida`` below ``alpha`` and, in the measure that gave ``p``,
      A's gain above B's and at least ``min_edge`` (places) or ``min_manos_edge`` (manos).
    """
    n = len(entrants)
    loss = games.default().loss_count if loss is None else loss
    records = [{**rec, "_lost": _lost(rec, loss)} for rec in records]
    judge = _Judge(records, entrants, np.asarray(theta, dtype=float), (min_edge, min_manos_edge))
    shared, rows = judge(frozenset())
    m = max(1, int(np.count_nonzero(~np.isnan(rows["p"]))))
    standing: frozenset[int] = frozenset()
    for _round in range(ROUNDS):
        new = _standing_out(shared, rows, m, alpha, standing)
        if new is None:
            break
        standing |= {new}
        shared, rows = judge(standing)
    df = pd.DataFrame({"a": [entrants[x // n] for x in shared], "b": [entrants[x % n] for x in shared]})
    for key in COLUMNS[2:-2]:
        df[key] = rows[key]
    df["p_corregida"] = holm(rows["p"])
    df["sospecha"] = ((df["p_corregida"] < alpha) & (rows["ayuda"] > 0)).to_numpy(dtype=bool)
    for col in ("juntos", "partidos_a_sin_b", "partidos_b_sin_a", "apartados"):
        df[col] = df[col].astype(int)
    df = df.sort_values(["p_corregida", "p", "ventaja_a"], ascending=[True, True, False], na_position="last")
    return df.reset_index(drop=True)


def _standing_out(
    shared: np.ndarray, rows: dict[str, np.ndarray], m: int, alpha: float, standing: frozenset[int]
) -> int | None:
    """The pair that stands out most and is not yet in ``standing`` (None: none stands out): flagged
    (Holm over ``m`` tests), or B giving itself up to A (Bonferroni over ``m``), by the smaller
    of its two corrected p-values."""
    corrected = holm(rows["p"])
    flagged = (corrected < alpha) & (rows["ayuda"] > 0)
    given = np.minimum(1.0, rows["p_b"] * m)
    score = np.fmin(np.where(flagged, corrected, np.nan), np.where(given < alpha, given, np.nan))
    score[np.isin(shared, list(standing))] = np.nan
    if np.isnan(score).all():
        return None
    return int(shared[np.nanargmin(score)])


class _Judge:
    """Judges every pair on the partidos kept, its strengths refitted to them."""

    def __init__(
        self,
        records: Sequence[dict[str, Any]],
        entrants: Sequence[str],
        theta: np.ndarray,
        margins: tuple[float, float],
    ) -> None:
        self.records, self.entrants, self.margins = records, entrants, margins
        self.n = n = len(entrants)
        index = {name: i for i, name in enumerate(entrants)}
        self.seated = [[index[name] for name in rec["players"]] for rec in records]
        self.base = _evaluate(_Tally(_blocks(records, entrants, theta), n), n, *margins)
        self.shared = np.array(
            [x for x in np.flatnonzero(self.base["juntos"] > 0) if x // n != x % n], dtype=np.intp
        )
        self.cache: dict[frozenset[int], tuple[dict[str, np.ndarray], int]] = {frozenset(): (self.base, 0)}

    def __call__(self, standing: frozenset[int]) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Every pair that shared a partido (as ``a·n + b``) and its figures (by :data:`FIGURES`,
        and ``apartados``): each judged without the partidos where a pair of ``standing`` other
        than itself (or its reverse) sat together."""
        n, shared = self.n, self.shared
        rows = {key: np.full(len(shared), np.nan) for key in (*FIGURES, "apartados")}
        groups: dict[frozenset[int], list[int]] = {}
        for i, x in enumerate(shared):
            a, b = divmod(int(x), n)
            groups.setdefault(frozenset(y for y in standing if y not in (x, b * n + a)), []).append(i)
        for aside, members in groups.items():
            figures, dropped = self.figures(aside)
            at = shared[members]
            for key in FIGURES:
                rows[key][members] = figures[key][at]
            rows["apartados"][members] = dropped
        return shared, rows

    def figures(self, aside: frozenset[int]) -> tuple[dict[str, np.ndarray], int]:
        """Every pair's figures without the partidos where a pair of ``aside`` sat together, the
        strengths refitted to the rest; and how many partidos were left out."""
        if aside not in self.cache:
            pairs = [divmod(y, self.n) for y in aside]
            kept = [
                rec
                for rec, seated in zip(self.records, self.seated, strict=True)
                if not any(a in seated and b in seated for a, b in pairs)
            ]
            index = {name: i for i, name in enumerate(self.entrants)}
            outcomes = [
                Outcome(tuple(tuple(index[rec["players"][s]] for s in g) for g in rec["ranking"]))
                for rec in kept
            ]
            theta = fit(outcomes, self.n)
            tally = _Tally(_blocks(kept, self.entrants, theta), self.n)
            self.cache[aside] = _evaluate(tally, self.n, *self.margins), len(self.records) - len(kept)
        return self.cache[aside]
