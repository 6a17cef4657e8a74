"""The order of the standings: Plackett–Luce by maximum likelihood, forfeits, penalties, intervals."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import choix
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import check_grad

from arena import i18n
from arena.results import ranking
from arena.results.ranking import Outcome, fit, places
from arena.results.standings import separation_lines, standings


def _draw(n: int, partidos: int, table: int = 4, seed: int = 1) -> tuple[np.ndarray, list[tuple[int, ...]]]:
    """Strict rankings drawn from a Plackett–Luce model (Gumbel-max) with strengths 0, -0.5, -1, …"""
    rng = np.random.default_rng(seed)
    true = -0.5 * np.arange(n)
    out = []
    for _ in range(partidos):
        seats = rng.choice(n, table, replace=False)
        noise = rng.gumbel(size=table) + true[seats]
        out.append(tuple(int(x) for x in seats[np.argsort(-noise)]))
    return true, out


def _record(pid: str, players: list[str], ranking_: list[list[int]], faults: Any = ()) -> dict[str, Any]:
    n = len(players)
    places = {s: k for k, g in enumerate(ranking_) for s in g}
    stats = [
        {
            "manos": 3,
            "manos_perdidas": 1,
            "porotos_perdidos": 1,
            "capotes": 0,
            "tutes": 0,
            "cantos": 0,
            "faults": [],
            "reply_ms": [1.0],
            "won": places[s] == 0,
            "place": float(places[s] + 1),
        }
        for s in range(n)
    ]
    return {
        "partido": pid,
        "seed": 1,
        "players": players,
        "winners": list(ranking_[0]),
        "ranking": ranking_,
        "manos": 3,
        "faults": list(faults),
        "replay": f"replays/{pid}.jsonl",
        "stats": stats,
    }


def _tables(data: st.DataObject, n: int) -> list[Outcome]:
    """Partidos of up to six of ``n`` entrants, each cut into tied groups at random."""
    outcomes = []
    for _ in range(data.draw(st.integers(1, 6))):
        table = data.draw(st.permutations(range(n)).map(lambda p: p[: min(len(p), 6)]))
        cuts = sorted(data.draw(st.sets(st.integers(1, len(table) - 1), max_size=len(table) - 1)))
        bounds = [0, *cuts, len(table)]
        outcomes.append(Outcome(tuple(tuple(table[a:b]) for a, b in itertools.pairwise(bounds))))
    return outcomes


def test_strict_rankings_give_choix_s_maximum_likelihood() -> None:
    _, data = _draw(8, 200)
    theta = fit([Outcome(tuple((i,) for i in r)) for r in data], 8, alpha=0.01)
    reference = choix.opt_rankings(8, data, alpha=0.01)
    assert np.allclose(theta - theta.mean(), reference - reference.mean(), atol=2e-3)


@pytest.mark.fast_examples(20)
@given(st.data())
def test_the_gradient_of_the_tied_likelihood_is_exact(data: st.DataObject) -> None:
    n = data.draw(st.integers(3, 7))
    outcomes = _tables(data, n)
    model = ranking._Data(outcomes, n)
    weights = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(outcomes), max_size=len(outcomes))))
    theta = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)))
    error = check_grad(
        lambda t: model.objective(t, weights, 0.01)[0], lambda t: model.objective(t, weights, 0.01)[1], theta
    )
    assert error < 1e-4 * max(1.0, float(np.abs(model.objective(theta, weights, 0.01)[1]).max()))


def test_the_order_of_the_partidos_does_not_matter() -> None:
    names = [f"e{i}" for i in range(6)]
    _, data = _draw(6, 40, table=3, seed=4)
    records = [_record(f"p{k:03d}", [names[i] for i in r], [[0], [1], [2]]) for k, r in enumerate(data)]
    records[3]["ranking"] = [[0, 1], [2]]  # a tie too
    shuffled = records[:]
    random.Random(9).shuffle(shuffled)
    a = standings(records, names, resamples=200)
    b = standings(shuffled, names, resamples=200)
    assert a.equals(b)


def test_a_clear_field_is_ordered_and_separated_and_a_field_of_equals_is_not() -> None:
    _, data = _draw(5, 400, table=4, seed=2)
    clear = places([Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)], 5, resamples=300)
    assert clear.order == [0, 1, 2, 3, 4]
    assert clear.group == ["a", "b", "c", "d", "e"]  # 400 partidos, strengths 0.5 apart
    assert all(p >= ranking.SEPARATED for p in clear.ahead[:4])
    assert [(lo, hi) for lo, hi in zip(clear.low, clear.high, strict=True)] == [(i, i) for i in range(1, 6)]
    # each of four entrants takes each place equally often: equals, however many partidos
    equals = [Outcome(tuple(((k + j) % 4,) for j in range(4)), str(k)) for k in range(40)]
    same = places(equals, 4, resamples=300)
    assert set(same.group) == {"a"}
    assert all(lo < hi for lo, hi in zip(same.low, same.high, strict=True))


def test_among_places_only_the_entrants_shown_and_keeps_the_others_in_the_fit() -> None:
    """A ladder's retired version still informs the strengths, but takes no place: the shown
    entrants' places and intervals stay within the rows shown (a retired best entrant once made the
    standings say 3–5 with 4 rows)."""
    _, data = _draw(5, 400, table=4, seed=2)
    outcomes = [Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)]
    everyone = places(outcomes, 5, resamples=300)
    shown = places(outcomes, 5, resamples=300, among=[1, 2, 3, 4])  # entrant 0, the best, retired
    assert shown.theta == everyone.theta  # the same fit
    assert shown.order == [1, 2, 3, 4, 0]
    assert [(shown.low[i], shown.high[i]) for i in (1, 2, 3, 4)] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert (shown.low[0], shown.high[0], shown.group[0]) == (0, 0, "")
    assert [shown.group[i] for i in (1, 2, 3, 4)] == ["a", "b", "c", "d"]
    assert max(shown.high) <= 4


def test_the_bootstrap_is_deterministic() -> None:
    _, data = _draw(6, 30, seed=5)
    outcomes = [Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)]
    assert places(outcomes, 6, resamples=100) == places(outcomes, 6, resamples=100)


def test_a_disqualification_is_a_last_place_and_a_forfeit_too() -> None:
    names = ["ana", "beto", "caro", "dani"]
    dq = {"mano": 1, "seat": 2, "reason": "timeout", "penalized": False, "detail": "", "incident": ""}
    records = [
        _record("p1", ["ana", "beto", "dani"], [[0], [1], [2]], [{**dq, "seat": 2}]),
        _record("p2", ["beto", "caro", "dani"], [[0], [1], [2]], [{**dq, "seat": 2}]),
    ]
    forfeits = [
        {"partido": f"p{k}", "players": ["ana", "caro", "dani"], "withdrawn": ["dani"]} for k in (3, 4, 5)
    ]
    df = standings(records, names, forfeits, resamples=100)
    dani = df[df["entrant"] == "dani"].iloc[0]
    assert dani["puesto"] == 4  # withdrawn after two disqualifications and no win: last, never above
    assert (dani["partidos"], dani["retiradas"], dani["ganados"], dani["pct_ganados"]) == (2, 3, 0, 0.0)
    assert dani["lugar_medio"] == 3.0  # last in each partido it played and in each it forfeited
    assert dani["dq_timeout"] == 2


def test_penalties_are_counted_apart_from_disqualifications() -> None:
    pen = {"mano": 2, "seat": 0, "reason": "renuncio", "penalized": True, "detail": "", "incident": ""}
    records = [_record("p1", ["ana", "beto", "caro"], [[0, 1], [2]], [pen, {**pen, "mano": 3}])]
    df = standings(records, ["ana", "beto", "caro"], resamples=20)
    ana = df[df["entrant"] == "ana"].iloc[0]
    assert (ana["pen_renuncio"], ana["dq_renuncio"]) == (2, 0)


def test_the_verdict_says_who_is_ahead_of_whom_and_what_more_would_settle() -> None:
    names = [f"e{i}" for i in range(4)]
    _, data = _draw(4, 40, table=4, seed=6)
    records = [_record(f"p{k}", [names[i] for i in r], [[0], [1], [2], [3]]) for k, r in enumerate(data)]
    df = standings(records, names, resamples=200)
    letters = list(df["grupo"])
    with i18n.speaking("es"):
        lines = separation_lines(df)
    apart = sum(not set(a) & set(b) for a, b in itertools.combinations(letters, 2))
    assert lines[0] == f"Los partidos separan {apart} de 6 pares de jugadores con 40 partidos cada uno."
    assert 0 < apart < 6  # strengths 0.5 apart, 40 partidos: the ends apart, neighbours not
    assert any(x.endswith("no están separados entre sí.") for x in lines)
    assert any(x.startswith("Harían falta unos ") for x in lines)
    with i18n.speaking("en"):
        assert separation_lines(df)[0].startswith("The partidos separate ")


def test_the_verdict_of_a_field_with_a_clear_first_and_a_chain_below() -> None:
    names = ["fuerte", "b", "c", "d", "e"]
    rng = np.random.default_rng(3)
    true = np.array([2.0, 0.15, 0.0, -0.15, -0.3])
    records = []
    for k in range(500):
        seats = rng.choice(5, 4, replace=False)
        order = np.argsort(-(rng.gumbel(size=4) + true[seats]))
        records.append(_record(f"p{k}", [names[i] for i in seats], [[int(o)] for o in order]))
    df = standings(records, names, resamples=300)
    with i18n.speaking("en"):
        lines = separation_lines(df)
    assert df["entrant"].iloc[0] == "fuerte" and df["grupo"].iloc[0] == "a"
    assert "#1 fuerte is ahead of everyone." in lines
    assert "#3–#5 are not separated from each other." in lines  # 0.15 apart: a chain
    equal = (
        "#4–#5 look equal, each to the next (not yet shown equal): no difference between neighbours shows "
        "in 403 partidos"
    )
    assert f"{equal} per player." in lines
    more = [int(x.split()[1]) for x in lines if x.startswith("About ")]
    assert more and all(m <= ranking.NEEDED_CAP * 403 for m in more)  # never an endless estimate


@pytest.mark.parametrize("groups", [((0, 1), (2,)), ((2,), (0, 1)), ((0, 1, 2),)])
def test_a_tie_is_the_sum_over_its_orders(groups: ranking.Groups) -> None:
    theta = np.array([0.3, -0.2, 0.5])
    model = ranking._Data([Outcome(groups)], 3)
    value, _ = model.objective(theta, np.ones(1), 0.0)
    total = 0.0
    for order in ranking._strict_orders(groups):
        p, left = 1.0, list(order)
        for i in order:
            p *= np.exp(theta[i]) / np.exp(theta[left]).sum()
            left.remove(i)
        total += p
    assert value == pytest.approx(-np.log(total))


def test_entrants_always_tied_share_the_span_of_their_places() -> None:
    tied = [Outcome(((0, 1), (2,)), str(k)) for k in range(20)]  # 0 and 1 win together, always
    p = places(tied, 3, resamples=100)
    assert (p.low[0], p.high[0], p.low[1], p.high[1]) == (1, 2, 1, 2)
    assert (p.low[2], p.high[2]) == (3, 3)
    assert p.group[0] == p.group[1] != p.group[2]


def test_without_resamples_there_is_an_order_but_no_interval() -> None:
    _, data = _draw(4, 40, seed=8)
    p = places([Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)], 4, resamples=0)
    assert sorted(p.order) == [0, 1, 2, 3] and p.low == p.high == [0, 0, 0, 0]
    assert set(p.group) == {"a"} and all(math.isnan(a) for a in p.ahead)


@pytest.mark.fast_examples(20)
@given(st.data())
def test_the_hessian_of_the_tied_likelihood_is_exact(data: st.DataObject) -> None:
    n = data.draw(st.integers(3, 7))
    outcomes = _tables(data, n)
    model = ranking._Data(outcomes, n)
    weights = np.array(data.draw(st.lists(st.integers(0, 3), min_size=len(outcomes), max_size=len(outcomes))))
    theta = np.array(data.draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)))
    hess = model.terms(theta, weights, 0.01, order=2).hess
    assert hess is not None
    eps = 1e-6

    def gradient(t: np.ndarray) -> np.ndarray:
        return model.objective(t, weights, 0.01)[1]

    numeric = np.array([(gradient(theta + d) - gradient(theta - d)) / (2 * eps) for d in eps * np.eye(n)])
    assert np.allclose(hess, numeric, atol=1e-5 * max(1.0, float(np.abs(hess).max())))
    assert np.allclose(hess, hess.T)


def test_a_refit_is_as_precise_as_a_full_fit() -> None:
    _, data = _draw(12, 150, seed=11)
    outcomes = [Outcome(((r[0], r[1]), *((i,) for i in r[2:])) if k % 3 else tuple((i,) for i in r), str(k))
                for k, r in enumerate(data)]  # fmt: skip
    model = ranking._Data(outcomes, 12)
    theta = fit(outcomes, 12)
    refits = ranking._refits(model, theta, ranking.ALPHA, 20, np.random.default_rng(5))
    rng = np.random.default_rng(5)  # the same resamples again, each fitted as closely as it goes
    for row in refits:
        w = np.bincount(rng.integers(0, len(outcomes), len(outcomes)), minlength=len(outcomes)).astype(float)
        exact = ranking._newton(model, w, np.zeros(12), ranking.ALPHA, 1e-12)
        assert np.abs(row - exact).max() < ranking.TIE_TOLERANCE / 10


def _clear_field() -> list[Outcome]:
    _, data = _draw(5, 400, table=4, seed=2)
    return [Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)]


def test_the_normal_draws_find_what_the_refits_find_on_a_clear_field() -> None:
    normal = places(_clear_field(), 5, resamples=300, method="normal")
    refits = places(_clear_field(), 5, resamples=300, method="bootstrap")
    assert normal.order == refits.order == [0, 1, 2, 3, 4]
    assert normal.group == refits.group == ["a", "b", "c", "d", "e"]
    assert (normal.low, normal.high) == (refits.low, refits.high)
    assert normal.theta == refits.theta
    assert all(abs(a - b) < 0.02 for a, b in zip(normal.ahead[:4], refits.ahead[:4], strict=True))


def test_the_normal_draws_are_deterministic_and_keep_entrants_always_tied_together() -> None:
    tied = [Outcome(((0, 1), (2,), (3,)) if k % 2 else ((0, 1), (3,), (2,)), str(k)) for k in range(30)]
    p = places(tied, 4, resamples=200, method="normal")
    assert p == places(list(reversed(tied)), 4, resamples=200, method="normal")
    assert (p.low[0], p.high[0], p.low[1], p.high[1]) == (1, 2, 1, 2)  # equal in every draw, as refitted
    assert p.group[0] == p.group[1] != p.group[2]


def test_from_normal_from_partidos_on_the_resamples_are_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    _, data = _draw(6, 40, seed=3)
    outcomes = [Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)]
    monkeypatch.setattr(ranking, "NORMAL_FROM", 40)
    auto = places(outcomes, 6, resamples=100)
    assert auto == places(outcomes, 6, resamples=100, method="normal")
    assert auto != places(outcomes, 6, resamples=100, method="bootstrap")
    fewer = outcomes[:39]
    assert places(fewer, 6, resamples=100) == places(fewer, 6, resamples=100, method="bootstrap")
    with pytest.raises(ValueError, match="method"):
        places(outcomes, 6, method="laplace")  # type: ignore[arg-type]


@given(st.data())
def test_letters_are_shared_exactly_by_entrants_not_separated(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 9))
    pairs = list(itertools.combinations(range(n), 2))
    apart = {p for p in pairs if data.draw(st.booleans())}
    order = data.draw(st.permutations(range(n)))
    shown = ranking.letters(order, lambda i, j: (min(i, j), max(i, j)) in apart)
    assert set(shown) == set(range(n)) and all(shown.values())
    for i, j in pairs:
        assert bool(set(shown[i]) & set(shown[j])) == ((i, j) not in apart)
    assert shown[order[0]].startswith("a")  # letters named after their best entrant


def test_letters_of_a_chain_say_first_and_last_are_separated() -> None:
    # 0–1, 1–2, 2–3 close; 0 and 2, 0 and 3, 1 and 3 separated: a chain, not one group
    apart = {(0, 2), (0, 3), (1, 3)}
    shown = ranking.letters([0, 1, 2, 3], lambda i, j: (min(i, j), max(i, j)) in apart)
    assert [shown[i] for i in range(4)] == ["a", "ab", "bc", "c"]


def test_pairwise_verdicts_separate_first_and_last_of_a_chain() -> None:
    _, data = _draw(5, 120, table=4, seed=7)  # strengths 0.5 apart: neighbours close, ends far
    p = places([Outcome(tuple((i,) for i in r), str(k)) for k, r in enumerate(data)], 5, resamples=300)
    assert p.pairs is not None
    first, last = p.order[0], p.order[-1]
    assert p.pairs.separated(first, last) and p.pairs.stronger[first, last] >= ranking.SEPARATED
    assert not set(p.group[first]) & set(p.group[last])
    for i, j in itertools.permutations(range(5), 2):  # P(i over j) + P(j over i) = 1
        assert p.pairs.stronger[i, j] + p.pairs.stronger[j, i] == pytest.approx(1.0)
        assert p.pairs.low[i, j] == pytest.approx(-p.pairs.high[j, i])


def test_twins_look_equal_and_are_never_given_an_endless_estimate() -> None:
    # two entrants always tied with each other: equal in every resample, P = 1/2, no estimate
    tied = [Outcome(((0, 1), (2,)) if k % 3 else ((2,), (0, 1)), str(k)) for k in range(60)]
    p = places(tied, 3, resamples=200)
    assert p.pairs is not None
    assert p.pairs.stronger[0, 1] == 0.5 and p.pairs.equal(0, 1) and not p.pairs.separated(0, 1)
    assert math.isnan(p.pairs.needed[0, 1]) and p.group[0] == p.group[1]
