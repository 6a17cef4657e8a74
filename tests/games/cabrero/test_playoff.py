"""Rule 25.3 as a Tute Cabrero variant (``--variant hasta-un-ganador``): when two players are left
they play tute de a dos until one wins, and the partido has one winner (docs/rules.md)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import games
from arena.cli.torneo import tournament
from arena.games.cabrero.engine import Partido
from arena.games.cabrero.playoff import PLAYOFF, PLAYOFF_GAME, playoff_seed
from arena.games.dos.sdk import DosPlayer, DosRequest
from arena.referee.players import load_player_class
from arena.referee.table import play_partido
from arena.sdk import Move
from arena.tournament.store import Store
from tests.paths import ROOT

VARIANT = games.spec("cabrero").checked_rules(None, (PLAYOFF,))


def _random(n: int, seed: int, rules: Any = VARIANT) -> Partido:
    p = games.spec("tute-cabrero").new_partido(n, seed, rules)
    rng = random.Random(seed)
    while not p.over:
        p.play(*rng.choice(p.moves()))
    assert isinstance(p, Partido)
    return p


def _playoff_events(p: Partido) -> list[dict[str, Any]]:
    return [e["event"] for e in p.events if e["type"] == "playoff"]


@given(n=st.integers(3, 6), seed=st.integers(0, 2**31))
@settings(max_examples=40)
def test_the_last_two_play_tute_de_a_dos_and_the_partido_has_one_winner(n: int, seed: int) -> None:
    p = _random(n, seed)
    kinds = [e["type"] for e in p.events]
    assert kinds[-1] == "partido_end" and len(p.winners) <= 1
    if "playoff_start" not in kinds:  # nobody, or one alone, was left: no tie to break
        assert len(p.winners) <= 1
        return
    start = next(e for e in p.events if e["type"] == "playoff_start")
    assert start["game"] == PLAYOFF_GAME and start["seats"] == sorted(start["seats"])
    assert kinds.index("playoff_start") > max(i for i, k in enumerate(kinds) if k == "mano_end")
    inner = _playoff_events(p)
    assert inner[-1]["type"] == "partido_end" and len(p.winners) == 1
    (winner,) = p.winners
    assert winner == start["seats"][inner[-1]["winners"][0]]
    loser = next(s for s in start["seats"] if s != winner)
    assert p.ranking()[:2] == [[winner], [loser]], "the playoff's loser ranks second"
    assert p.events[-1]["ranking"] == p.ranking()


def test_without_the_variant_two_can_still_win_together() -> None:
    plain = games.spec("cabrero").checked_rules()
    assert any(len(_random(3, seed, plain).winners) == 2 for seed in range(40))
    kinds = {e["type"] for seed in range(10) for e in _random(3, seed, plain).events}
    assert "playoff_start" not in kinds and "playoff" not in kinds


def test_the_playoff_deals_from_the_partido_s_seed() -> None:
    key = "ab" * 32
    assert playoff_seed(key) != key and playoff_seed(key) == playoff_seed(key)
    assert playoff_seed(7) == playoff_seed(7) != 7
    first, again = _random(3, 11), _random(3, 11)
    assert _playoff_events(first) == _playoff_events(again)


def test_only_the_two_see_their_hands_and_an_observer_sees_neither() -> None:
    played = (_random(4, s) for s in range(40))
    p = next(q for q in played if "playoff_start" in {e["type"] for e in q.events})
    start = next(e for e in p.events if e["type"] == "playoff_start")
    a, b = start["seats"]
    observer = next(s for s in range(4) if s not in (a, b))
    deal = next(e for e in p.events if e["type"] == "playoff" and e["event"]["type"] == "mano_start")
    hands = deal["event"]["hands"]
    assert p.view(deal, a)["event"]["hand"] == hands[0]
    assert p.view(deal, b)["event"]["hand"] == hands[1]
    seen = p.view(deal, observer)["event"]
    assert seen.get("hand") is None and "hands" not in seen and "monte" not in seen
    drawn = [e for e in p.events if e["type"] == "playoff" and e["event"]["type"] == "drew"]
    assert all(p.view(e, observer)["event"]["card"] is None for e in drawn if not e["event"].get("face_up"))


def _at_playoff(seed: int) -> Partido:
    """A three-player partido under the variant, driven to its playoff's first request."""
    for s in range(seed, seed + 100):
        p = games.spec("tute-cabrero").new_partido(3, s, VARIANT)
        rng = random.Random(s)
        while not p.over and p.playoff is None:
            p.play(*rng.choice(p.moves()))
        if p.playoff is not None and not p.over:
            assert isinstance(p, Partido)
            return p
    raise AssertionError("no playoff reached")


def test_a_fault_in_the_playoff_disqualifies_and_the_other_wins() -> None:
    p = _at_playoff(0)
    assert p.playoff is not None
    seat = p.to_move
    assert seat is not None and seat in p.playoff.seats
    request = p.request()
    assert request["game"] == PLAYOFF_GAME
    assert p.fault(seat, "timeout", "no reply")
    other = next(s for s in p.playoff.seats if s != seat)
    assert p.over and p.winners == [other] and seat in p.disqualified
    assert p.ranking()[0] == [other] and p.ranking()[-1] == [seat]


def test_no_accusation_in_the_playoff_and_accuse_becomes_disqualify() -> None:
    p = _at_playoff(3)
    with pytest.raises(Exception, match="tute de a dos"):
        p.play(None, None, 0)
    accuse = games.spec("cabrero").checked_rules(None, (PLAYOFF,), "accuse")
    q = _random(3, 5, accuse)
    start = next((e for e in q.events if e["type"] == "playoff_start"), None)
    assert start is None or start["rules"]["renuncio"] == "disqualify"


class Sings(DosPlayer):
    """A playoff player of one's own: it records that it was asked."""

    asked = 0

    def play(self, request: DosRequest) -> Move | str | None:
        Sings.asked += 1
        return request.legal[0] if request.kind == "card" else None


def test_python_players_play_the_playoff_with_their_own_class_or_the_plain_one() -> None:
    classes = [load_player_class(ROOT / "sample_players" / n) for n in ("a_mas", "a_menos", "random_legal")]
    for seed in range(12):  # the plain player of tute de a dos (SimplePlayer) for every one
        result = play_partido([cls() for cls in classes], seed, ruleset=VARIANT)
        assert not result.faults and len(result.winners) == 1
    Sings.asked = 0
    for seed in range(12):  # a class of one's own (Player.playoff)
        players = [cls() for cls in classes]
        for player in players:
            player.playoff = Sings
        result = play_partido(players, seed, ruleset=VARIANT)
        assert not result.faults and len(result.winners) == 1
    assert Sings.asked > 0


@pytest.mark.sandbox
def test_a_torneo_under_the_variant_has_one_winner_a_partido_and_writes_its_workbook(tmp_path: Path) -> None:
    out = tmp_path / "torneo"
    samples = [ROOT / "sample_players" / n for n in ("a_mas", "a_menos", "random_legal")]
    args = [*map(str, samples), "--table-size", "3", "--rounds", "2", "--variant", PLAYOFF]
    run = CliRunner().invoke(tournament, [*args, "--seed", "4", "--workers", "2", "--out", str(out)])
    assert run.exit_code == 0, run.output
    assert (out / "standings.xlsx").is_file()
    with Store.open(out) as store:
        results = store.results()
    assert len(results) == 2
    for r in results:
        assert not r.faults and len(r.winners) == 1
        kinds = [json.loads(line)["type"] for line in (out / r.replay).read_text().splitlines()]
        assert kinds.count("playoff_start") == 1 and kinds[-1] == "partido_end"
