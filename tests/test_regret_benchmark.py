"""benchmarks/regret.py: variants read as maestro's settings, the judge rates every candidate, and the
regret of a choice is its loss rate above the picked best's."""

from __future__ import annotations

from typing import Any

import pytest

from arena.referee.table import play_partido
from benchmarks.regret import Variant, loss_rates, regret
from benchmarks.strength import search_player


def test_a_variant_reads_as_deals_a_move_and_settings() -> None:
    assert Variant.parse("maestro") == Variant("maestro", {"simulations": None})
    assert Variant.parse("maestro:50+prune_z=3.5").settings == {"simulations": 50, "prune_z": 3.5}
    with pytest.raises(SystemExit, match="fuerte:50"):
        Variant.parse("fuerte:50")


def test_a_variant_searches_with_its_settings_on_a_copy() -> None:
    player = search_player("maestro", 2002)
    player.budget_ms = 300.0
    twin = Variant.parse("maestro:8+prune_z=3+budget_ms=600").apply(player)
    assert (twin.simulations, twin.prune_z, twin.budget_ms) == (8, 3.0, 600.0)
    assert (player.simulations, player.prune_z, player.budget_ms) == (None, 2.5, 300.0)
    assert isinstance(twin.prune_z, float)
    with pytest.raises(SystemExit, match="no setting 'depth'"):
        Variant.parse("maestro+depth=2").apply(player)


def test_the_regret_of_a_choice_is_its_rate_above_the_picked_best() -> None:
    picker = {"a": 0.30, "b": 0.20, "c": 0.25}
    rates = {"a": 0.28, "b": 0.24, "c": 0.21}
    assert regret("b", picker, rates) == 0.0
    assert regret("a", picker, rates) == pytest.approx(0.04)
    assert regret("c", picker, rates) == pytest.approx(-0.03)  # the judge's noise: it may be negative


def test_the_judge_rates_every_candidate_from_real_positions() -> None:
    me = search_player("maestro:4", 2002)
    me.strict = True
    search = me.search
    judged: list[tuple[list[Any], dict[Any, float]]] = []

    def watched(request: Any, candidates: list[Any], start: float) -> Any:
        if len(judged) < 6:
            judged.append((candidates, loss_rates(me, request, candidates, 20, 11)))
        return search(request, candidates, start)

    me.search = watched
    players = [me, search_player("a_mas", 1), search_player("a_menos", 1), search_player("random_legal", 1)]
    result = play_partido(players, 3, names=["m", "x", "y", "r"], partido_id="regret-test")
    assert result.faults == [] and len(judged) == 6
    for candidates, rates in judged:
        assert set(rates) == set(candidates)
        assert all(0.0 <= r <= 1.0 and r * 20 == pytest.approx(round(r * 20)) for r in rates.values())
    assert me.simulations == 4 and me.prune  # judging searched a copy
