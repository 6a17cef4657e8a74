"""The collusion flags (``arena/results/collusion.py``) on synthetic Plackett–Luce torneos.

Rankings are drawn by Gumbel-max from known strengths (an exact Plackett–Luce draw, as in
``benchmarks/experiments/ranking.py``), some with the two best tied; the strengths the flags use are the
standings' fit of those rankings. A colluding pair: whenever A and B share a table, A plays
with a boost against everybody and B is then put last.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from arena.results import collusion, ranking, standings
from tests.paths import ROOT


def seeds(count: int, fast: int = 3) -> list[Any]:
    """``range(count)``: the fast tier draws the first ``fast`` seeds' torneos, the full run all of them
    (the others are ``slow``)."""
    return [seed if seed < fast else pytest.param(seed, marks=pytest.mark.slow) for seed in range(count)]


HONEST_SEEDS = seeds(12)
COLLUDING_SEEDS = seeds(6)


def draw(
    seed: int,
    n: int = 6,
    k: int = 4,
    partidos: int = 600,
    ties: float = 0.2,
    pair: tuple[int, int] | None = None,
    boost: float = 1.5,
    last: bool = True,
    spare: float = 0.0,
) -> tuple[list[dict[str, Any]], list[str], list[float]]:
    """A synthetic torneo: records, entrant names and the fitted strengths. Entrant 0 (the master
    when ``pair`` is given) has true strength 0, the rest N(0, 0.7²); ``ties``: the share of
    partidos whose two best are tied; ``last``: the servant is put last. The porotos are noise;
    with ``spare``, each seat loses each of its 10 manos with chance 0.3, the master with the
    servant at the table ``0.3 − spare``."""
    rng = np.random.default_rng(seed)
    names = [f"e{i}" for i in range(n)]
    true = np.concatenate([[0.0], rng.normal(0, 0.7, n - 1)])
    records = []
    for p in range(partidos):
        seats = rng.permutation(n)[:k]
        t = true[seats]
        together = pair is not None and pair[0] in seats and pair[1] in seats
        if together:
            t = t + boost * (seats == pair[0])
        order = [int(s) for s in np.argsort(-(t + rng.gumbel(size=k)))]
        if together and last:
            servant = int(np.flatnonzero(seats == pair[1])[0])
            order = [s for s in order if s != servant] + [servant]
        groups = [(s,) for s in order]
        if rng.random() < ties:
            groups = [groups[0] + groups[1], *groups[2:]]
        chance = 0.3 - spare * (seats == (pair or (-1,))[0]) * together
        lost = rng.binomial(10, chance) if spare else rng.integers(0, 5, size=k)
        stats = [{"porotos_perdidos": int(x), "manos": 10} for x in lost]
        records.append(
            {
                "partido": f"p{p:04d}",
                "players": [names[s] for s in seats],
                "ranking": tuple(groups),
                "faults": [],
                "stats": stats,
            }
        )
    fit = ranking.places(standings.outcomes(records, [], names), n, resamples=0)
    return records, names, fit.theta


def check_p_values(df: Any) -> None:
    """Corrected p-values: at least the raw ones, at most 1, non-decreasing down the table."""
    tested = df[~df["p"].isna()]
    assert (tested["p_corregida"] >= tested["p"] - 1e-12).all()
    assert (tested["p_corregida"] <= 1).all()
    assert (np.diff(tested["p_corregida"].to_numpy()) >= 0).all()
    assert df["p_corregida"].isna().equals(df["p"].isna())


# ---------------------------------------------------------------- the model's expectation


def test_expected_place_matches_simulation() -> None:
    theta = np.array([0.8, 0.0, -0.5, 0.3, -1.2])
    rng = np.random.default_rng(7)
    draws = 40_000
    order = np.argsort(-(theta + rng.gumbel(size=(draws, len(theta)))), axis=1)
    place = np.empty_like(order)
    np.put_along_axis(place, order, np.arange(1, len(theta) + 1)[None, :].repeat(draws, 0), axis=1)
    for seat in range(len(theta)):
        # the standard error of a mean place is below 1.5 / sqrt(draws) < 0.008
        assert place[:, seat].mean() == pytest.approx(collusion.expected_place(theta, seat), abs=0.03)


def test_expected_place_of_equals_is_the_middle() -> None:
    assert collusion.expected_place([0.3] * 4, 2) == pytest.approx(2.5)
    assert collusion.expected_place([5.0, 0.0, 0.0], 0) == pytest.approx(1 + 2 / (1 + math.exp(5)))


def test_ahead_given_a_strict_ranking() -> None:
    q = collusion.ahead_given_ranking(((2,), (0,), (1,)), [0.0, 1.0, -1.0])
    assert q.tolist() == [[0, 1, 0], [0, 0, 0], [1, 1, 0]]


def test_ahead_given_ties() -> None:
    theta = [0.0, 0.0, 1.0, -0.5]
    q = collusion.ahead_given_ranking(((0, 1), (2, 3)), theta)
    assert q[0, 1] == pytest.approx(0.5)  # equal strengths: either order
    assert q[2, 3] == pytest.approx(math.exp(1) / (math.exp(1) + math.exp(-0.5)))  # nobody below
    assert q[0, 2] == 1 and q[3, 1] == 0
    off = ~np.eye(4, dtype=bool)
    assert np.allclose((q + q.T)[off], 1)
    # a tie above others: the orders weighted by their probability (w = 1, 2 above w = 4)
    q = collusion.ahead_given_ranking(((0, 1), (2,)), [0.0, math.log(2), math.log(4)])
    first, second = 1 / 7 * 2 / 6, 2 / 7 * 1 / 5  # 0 then 1, 1 then 0
    assert q[0, 1] == pytest.approx(first / (first + second))


def test_seats_left_out_of_the_ranking_rank_last_tied() -> None:
    q = collusion.ahead_given_ranking(((1,),), [0.0, 0.0, 0.0])
    assert q[1, 0] == 1 and q[1, 2] == 1
    assert q[0, 2] == pytest.approx(0.5)


def test_the_residual_has_mean_zero_with_ties() -> None:
    """Rankings drawn strict and then coarsened (the two best tied, the two worst tied): the
    chance of being ahead given the ranking averages to the model's chance; counting a tie as a
    half would not (a strong and a weak entrant often tie at the top)."""
    theta = np.array([2.0, 0.5, -0.5, 0.0, -2.0])
    w = np.exp(theta)
    pi = w[:, None] / (w[:, None] + w[None, :])
    rng = np.random.default_rng(3)
    given, half = np.zeros((5, 5)), np.zeros((5, 5))
    draws = 6000
    for _ in range(draws):
        order = [int(s) for s in np.argsort(-(theta + rng.gumbel(size=5)))]
        groups = (tuple(order[:2]), (order[2],), tuple(order[3:]))
        given += collusion.ahead_given_ranking(groups, theta)
        place = np.array([1.5, 1.5, 3.0, 4.5, 4.5])[np.argsort(order)]
        half += (place[:, None] < place[None, :]) + 0.5 * (place[:, None] == place[None, :])
    off = ~np.eye(5, dtype=bool)
    # each entry is a mean of draws in [0, 1]: standard error below 0.5 / sqrt(draws) < 0.007
    assert np.abs(given / draws - pi)[off].max() < 0.025
    assert np.abs(half / draws - pi)[off].max() > 0.08


# ---------------------------------------------------------------- Holm


def test_holm() -> None:
    p = [0.01, 0.04, 0.03, math.nan, 0.005]
    out = collusion.holm(p)
    assert math.isnan(out[3])
    assert out[[0, 1, 2, 4]].tolist() == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert collusion.holm([0.6, 0.9]).tolist() == [1.0, 1.0]
    assert collusion.holm([]).shape == (0,)


# ---------------------------------------------------------------- the flags


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("seed", HONEST_SEEDS)
def test_honest_torneos_raise_no_flag(seed: int, k: int) -> None:
    records, names, theta = draw(seed, k=k, partidos=800)
    df = collusion.suspicions(records, names, theta)
    assert len(df) == 30  # every ordered pair of six entrants met
    assert not df["sospecha"].any(), df.head(3).to_string()
    check_p_values(df)


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("seed", COLLUDING_SEEDS)
def test_the_colluding_pair_is_flagged_and_only_it(seed: int, k: int) -> None:
    records, names, theta = draw(seed, k=k, partidos=1200, pair=(0, 1))
    df = collusion.suspicions(records, names, theta)
    flagged = df[df["sospecha"]]
    assert list(zip(flagged["a"], flagged["b"], strict=True)) == [("e0", "e1")], df.head(5).to_string()
    top = df.iloc[0]
    assert top["ventaja_a"] > collusion.MIN_EDGE and top["ventaja_b"] < 0
    assert top["lugar_b"] > top["lugar_esperado_b"]  # put last: worse than the model expects
    assert top["lugar_a"] < top["lugar_esperado_a"]
    reverse = df[(df["a"] == "e1") & (df["b"] == "e0")].iloc[0]
    assert not reverse["sospecha"] and reverse["ventaja_a"] < 0
    check_p_values(df)


def test_a_mild_interaction_is_not_flagged_however_many_partidos() -> None:
    """B's presence lifts A a little (a gain below MIN_EDGE), honestly (B is not put last): in a
    big torneo that is significant, but not flagged."""
    records, names, theta = draw(0, k=4, partidos=20_000, pair=(0, 1), boost=0.15, last=False)
    df = collusion.suspicions(records, names, theta)
    row = df[(df["a"] == "e0") & (df["b"] == "e1")].iloc[0]
    assert 0 < row["ventaja_a"] < collusion.MIN_EDGE
    assert not df["sospecha"].any()
    without_margin = collusion.suspicions(records, names, theta, min_edge=0.0)
    assert without_margin.iloc[0][["a", "b", "sospecha"]].tolist() == ["e0", "e1", True]


def test_a_servant_seen_only_in_the_manos_is_flagged() -> None:
    """B spares A manos (A loses 0.12 fewer of its manos with B at the table) without moving the
    places: the places measure sees nothing, the manos measure flags the pair, and only it."""
    records, names, theta = draw(0, k=4, partidos=750, pair=(0, 1), boost=0.0, last=False, spare=0.12)
    df = collusion.suspicions(records, names, theta)
    flagged = df[df["sospecha"]]
    assert list(zip(flagged["a"], flagged["b"], strict=True)) == [("e0", "e1")], df.head(3).to_string()
    row = flagged.iloc[0]
    assert row["p_manos"] < 1e-4 < row["p_lugares"]
    assert row["p"] == pytest.approx(collusion.MEASURES * row["p_manos"])  # both measures read: Bonferroni
    assert row["ventaja_manos_a"] == pytest.approx(0.12, abs=0.04)
    check_p_values(df)


def test_a_mild_gain_in_manos_is_not_flagged_however_many_partidos() -> None:
    """A gain in manos below MIN_MANOS_EDGE is significant in a big torneo, but not flagged."""
    records, names, theta = draw(1, k=4, partidos=12_000, pair=(0, 1), boost=0.0, last=False, spare=0.04)
    df = collusion.suspicions(records, names, theta)
    row = df[(df["a"] == "e0") & (df["b"] == "e1")].iloc[0]
    assert row["p_manos"] < 1e-6 and 0 < row["ventaja_manos_a"] < collusion.MIN_MANOS_EDGE
    assert not df["sospecha"].any()
    without_margin = collusion.suspicions(records, names, theta, min_manos_edge=0.0)
    assert without_margin.iloc[0][["a", "b", "sospecha"]].tolist() == ["e0", "e1", True]


def test_rows_are_the_ordered_pairs_that_met() -> None:
    records, names, theta = draw(1, n=5, k=3, partidos=200)
    names = [*names, "ausente"]  # an entrant without partidos: no strength, no row
    theta = [*theta, math.nan]
    records += [{"players": ["e0", "e1", "e2"], "ranking": ((0,), (1,), (2,)), "stats": records[0]["stats"]}]
    df = collusion.suspicions(records, names, theta)
    assert list(df.columns) == list(collusion.COLUMNS)
    met = {(a, b) for r in records for a in r["players"] for b in r["players"] if a != b}
    assert set(zip(df["a"], df["b"], strict=True)) == met
    assert len(df) == 20
    assert "ausente" not in set(df["a"]) | set(df["b"])
    row = df[(df["a"] == "e0") & (df["b"] == "e1")].iloc[0]
    together = sum({"e0", "e1"} <= set(r["players"]) for r in records)
    assert row["juntos"] == together
    assert row["partidos_a_sin_b"] == sum("e0" in r["players"] for r in records) - together


def test_few_partidos_are_not_tested() -> None:
    records, names, theta = draw(2, n=6, k=3, partidos=12)
    df = collusion.suspicions(records, names, theta)
    assert df["p"].isna().any() and not df["sospecha"].any()
    assert df.loc[df["p"].isna(), "p_corregida"].isna().all()


def test_no_records() -> None:
    df = collusion.suspicions([], ["a", "b", "c"], [math.nan] * 3)
    assert df.empty and list(df.columns) == list(collusion.COLUMNS)


def test_a_seated_entrant_needs_a_strength() -> None:
    records, names, theta = draw(3, n=4, k=3, partidos=20)
    with pytest.raises(ValueError):
        collusion.suspicions(records, names, [math.nan, *theta[1:]])


def test_porotos_with_and_without() -> None:
    """A loses one poroto in 10 manos with B, three without: -20 per 100 manos."""
    names = ["a", "b", "c", "d"]
    records = []
    for p in range(8):
        players = ["a", "b", "c"] if p % 2 else ["a", "c", "d"]
        lost = {"a": 1 if p % 2 else 3, "b": 2, "c": 2, "d": 2}
        stats = [{"porotos_perdidos": lost[x], "manos": 10} for x in players]
        records.append({"players": players, "ranking": ((0,), (1,), (2,)), "stats": stats})
    df = collusion.suspicions(records, names, [0.0, 0.0, 0.0, 0.0])
    row = df[(df["a"] == "a") & (df["b"] == "b")].iloc[0]
    assert row["porotos_a"] == pytest.approx(-20.0)
    assert row["lugar_a"] == 1 and row["lugar_esperado_a"] == pytest.approx(2.0)


# ---------------------------------------------------------------- the benchmark's bots


@pytest.mark.parametrize("servant", ["escudero", "criado"])
def test_the_servants_play_legally(servant: str) -> None:
    from arena.player.loader import load_player_class
    from arena.referee.table import play_partido

    bots = ROOT / "benchmarks" / "audits" / "collusion_bots"
    classes = {
        "maestro": load_player_class(bots / "maestro"),
        servant: load_player_class(bots / servant),
        "a_menos": load_player_class(ROOT / "sample_players" / "a_menos"),
        "random_legal": load_player_class(ROOT / "sample_players" / "random_legal"),
    }
    for seed, names in enumerate([list(classes), list(classes)[1:], ["maestro", servant, "a_menos"]]):
        result = play_partido([classes[n]() for n in names], seed, names=names)
        assert not result.faults
