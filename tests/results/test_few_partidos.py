"""Too few partidos for the bootstrap: no verdict, every place possible, and one line that says why.

A bootstrap over k partidos has at most C(2k−1, k) distinct resamples: one partido resampled is
that partido every time, so it showed two winners "equal" and certain places. Below
``ranking.SEPARATE_FROM`` partidos an entrant is neither separated from nor shown equal to anyone,
its place interval is every place, and ``--until-separated`` keeps its pairs open.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import i18n
from arena.cli import separation
from arena.results import ranking, separate
from arena.results.ranking import Outcome, places
from arena.results.standings import pairs_of, separation_lines, standings

NAMES = ["mio", "tuyo", "a_mas", "a_menos"]


def _record(pid: str, players: list[str], ranking_: list[list[int]]) -> dict[str, Any]:
    at = {s: k for k, g in enumerate(ranking_) for s in g}
    stats = [
        {
            "manos": 5,
            "manos_perdidas": 1,
            "porotos_perdidos": 1,
            "capotes": 0,
            "tutes": 0,
            "cantos": 0,
            "faults": [],
            "reply_ms": [1.0],
            "won": at[s] == 0,
            "place": float(at[s] + 1),
        }
        for s in range(len(players))
    ]
    return {
        "partido": pid,
        "seed": 1,
        "players": players,
        "winners": list(ranking_[0]),
        "ranking": ranking_,
        "manos": 5,
        "faults": [],
        "replay": f"replays/{pid}.jsonl",
        "stats": stats,
    }


ONE = [_record("p0001", NAMES, [[0, 1], [3], [2]])]
"""The new user's torneo: two bots and two samples, one partido of four, two winners."""


def test_one_partido_of_four_shows_no_equal_no_certain_place_and_says_why() -> None:
    df = standings(ONE, NAMES)
    assert list(df["grupo"]) == ["a"] * 4
    assert list(df["puestos_95"]) == ["1–4"] * 4  # anyone could be anywhere
    assert all(math.isnan(x) for x in df["faltan"])  # no estimate from one partido
    with i18n.speaking("es"):
        lines = separation_lines(df)
    assert lines == [
        "Los partidos separan 0 de 6 pares de jugadores con 1 partido cada uno.",
        "Pocos partidos para separar: 1; hacen falta al menos 6 por jugador.",
        "1.º–4.º no están separados entre sí.",
    ]
    assert not any("iguales" in x or "Harían falta" in x or "Haría falta" in x for x in lines)
    with i18n.speaking("en"):
        assert separation_lines(df)[1] == "Too few partidos to separate: 1; at least 6 per player are needed."
    pairs = pairs_of(df)
    assert pairs is not None
    for i, j in itertools.permutations(range(4), 2):
        assert pairs.few(i, j) and not pairs.equal(i, j) and not pairs.separated(i, j)
        assert pairs.stronger[i, j] == 0.5  # the resamples say nothing: a toss, as P(ahead of next)


def test_one_partido_keeps_until_separated_playing() -> None:
    df = standings(ONE, NAMES)
    found = separate.gaps(df)
    assert [(g.upper, g.lower) for g in found][:3] == [(1, 2), (2, 3), (3, 4)]  # neighbours first
    assert len(found) == 6 and separate.weakest(df) is not None
    still, equal = separation.open_neighbours(df)
    assert [(n.upper, n.lower, n.needed) for n in still] == [(1, 2, None), (2, 3, None), (3, 4, None)]
    assert equal == []
    budget, _line = separation.choose(still, 1, 4, 4)
    assert budget == separation.cap(1, 4, 4) > 0  # the partidos cannot yet tell: the most allowed
    with i18n.speaking("en"):
        assert separation.final_line(df).startswith("Not separated yet: #1/#2, #2/#3, #3/#4;")


def _field(n: int, per: int, table: int, seed: int, true: np.ndarray | None = None) -> list[Outcome]:
    """Partidos in which each of ``n`` entrants plays about ``per`` times, at tables of ``table``."""
    rng = np.random.default_rng(seed)
    true = np.zeros(n) if true is None else true
    out: list[Outcome] = []
    for k in range(math.ceil(n * per / table)):
        seats = rng.choice(n, table, replace=False)
        order = seats[np.argsort(-(rng.gumbel(size=table) + true[seats]))]
        out.append(Outcome(tuple((int(i),) for i in order), f"p{k:04d}"))
    return out


def test_one_entrant_with_few_partidos_is_anywhere_and_widens_the_others_by_one() -> None:
    true = np.array([6.0, 3.0, 0.0, -3.0, 0.0])  # far apart: certain places among the four
    many = _field(4, 40, 4, seed=4, true=true[:4])  # 40 partidos each
    late = _field(5, 3, 4, seed=5)  # entrant 4 comes late: a few partidos
    late = [o for o in late if any(4 in g for g in o.groups)][:2]
    p = places(many + late, 5, resamples=300)
    assert p.pairs is not None
    alone = places(many, 4, resamples=300)  # the same field without the late entrant
    assert (p.low[4], p.high[4]) == (1, 5)
    assert [(alone.low[i], alone.high[i]) for i in range(4)] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    for i in range(4):
        assert (p.low[i], p.high[i]) == (i + 1, i + 2)  # the late one may stand above any of them
        assert p.pairs.few(i, 4) and not p.pairs.separated(i, 4) and not p.pairs.equal(i, 4)
        assert set(p.group[4]) & set(p.group[i])  # it shares a letter with everyone
    assert p.pairs.separated(0, 3) and not p.pairs.few(0, 3)  # the others keep their verdicts
    names = [f"e{i}" for i in range(5)]
    records = [
        _record(o.key, [names[g[0]] for g in o.groups], [[s] for s in range(len(o.groups))])
        for o in many + late
    ]
    df = standings(records, names, resamples=300)
    place = 1 + list(df["entrant"]).index("e4")
    with i18n.speaking("en"):
        lines = separation_lines(df)
    assert f"Too few partidos to separate #{place}: 2; at least 6 per player are needed." in lines


@pytest.mark.fast_examples(15)
@given(
    n=st.integers(2, 6),
    per=st.integers(1, ranking.SEPARATE_FROM - 1),
    table=st.integers(2, 4),
    seed=st.integers(0, 2**16),
    tied=st.booleans(),
)
def test_below_the_minimum_no_pair_is_separated_or_shown_equal(
    n: int, per: int, table: int, seed: int, tied: bool
) -> None:
    table = min(table, n)
    outcomes = _field(n, per, table, seed)
    outcomes = [o for o in outcomes if sum(len(g) for g in o.groups) == table]
    if tied:  # the first two at every table win together (what made "equal" from one partido)
        outcomes = [Outcome((o.groups[0] + o.groups[1], *o.groups[2:]), o.key) for o in outcomes]
    counts = np.bincount([i for o in outcomes for g in o.groups for i in g], minlength=n)
    if counts.max() >= ranking.SEPARATE_FROM:  # a random table drew someone too often: not this case
        return
    p = places(outcomes, n, resamples=100)
    assert p.pairs is not None
    ranked = [i for i in range(n) if counts[i]]
    for i, j in itertools.permutations(ranked, 2):
        assert not p.pairs.separated(i, j) and not p.pairs.equal(i, j) and p.pairs.few(i, j)
        assert math.isnan(p.pairs.needed[i, j])
    for i in ranked:
        assert (p.low[i], p.high[i]) == (1, len(ranked))
    assert len({p.group[i] for i in ranked}) <= 1


def test_from_the_minimum_on_the_bootstrap_speaks() -> None:
    true = np.array([4.0, 0.0, -4.0])
    p = places(_field(3, ranking.SEPARATE_FROM + 4, 3, seed=2, true=true), 3, resamples=300)
    assert p.pairs is not None and not p.pairs.few(0, 2)
    assert p.group[0] != p.group[2]  # clear strengths and enough partidos: separated
    assert (p.low[p.order[0]], p.high[p.order[0]]) != (1, 3)


def test_standings_kept_without_the_partidos_of_each_pair_are_still_read() -> None:
    df = standings(ONE, NAMES)
    df.attrs["pairs"] = {k: v for k, v in df.attrs["pairs"].items() if k != "partidos"}
    pairs = pairs_of(df)
    assert pairs is not None and pairs.partidos is None and not pairs.few(0, 1)


def test_a_neighbour_ahead_in_almost_every_resample_does_not_look_equal() -> None:
    # 25 partidos of four, one near-perfect: its resamples are skewed (some strengths blow up), so
    # the pair is not separated after Holm's correction and gets no estimate, yet P = 0.996
    n = 3
    stronger = np.array([[np.nan, 0.996, 1.0], [0.004, np.nan, 0.6], [0.0, 0.4, np.nan]])
    low = np.array([[np.nan, 0.35, 0.9], [-4.4, np.nan, -0.5], [-5.3, -0.9, np.nan]])
    high = -low.T
    needed = np.full((n, n), np.nan)
    apart = np.zeros((n, n))
    partidos = np.full((n, n), 25.0)
    df = standings(ONE[:0], ["a", "b", "c"], resamples=0)
    df["partidos"], df["grupo"] = 25, "a"
    df.attrs["pairs"] = {
        "stronger": stronger, "low": low, "high": high, "needed": needed, "apart": apart, "partidos": partidos
    }  # fmt: skip
    with i18n.speaking("en"):
        lines = separation_lines(df)
    look = (
        "#2–#3 look equal, each to the next (not yet shown equal): no difference between neighbours shows "
        "in 25 partidos"
    )
    assert f"{look} per player." in lines
    assert not any(x.startswith("#1–") and "look equal" in x for x in lines)
