"""Where a finalist of the playoff [25.3] ranks when the playoff disqualifies it: last, with the
disqualified, below every eliminated player, as a disqualification anywhere in a Tute Cabrero
partido ranks (docs/rules.md, "Ranking"; docs/rules-dos.md, D5; docs/replay.md, "The playoff").
A finalist who loses the playoff otherwise — on tantos, or by a penalized renuncio — ranks second."""

from __future__ import annotations

import random
from typing import Any

from arena import games
from arena.games.cabrero.engine import Partido
from arena.games.cabrero.playoff import PLAYOFF
from arena.games.cabrero.sdk import Player, PlayRequest
from arena.games.dos.sdk import DosPlayer, DosRequest
from arena.referee.table import play_partido

CABRERO = games.spec("cabrero")
SEEDS = range(12)


class FirstLegal(Player):
    """Tute Cabrero: the first legal card, no canto."""

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]


class Renuncia(DosPlayer):
    """Tute de a dos: a card it holds but may not play whenever there is one (phase 2), a renuncio."""

    def play(self, request: DosRequest) -> str | None:
        if request.kind != "card":
            return None
        bad = [c for c in request.hand if c not in request.legal]
        return bad[0] if bad else request.legal[0]


def _eliminated(events: list[dict[str, Any]]) -> list[list[int]]:
    """The eliminated by porotos, as the ranking groups them: a later mano higher."""
    by_mano = [sorted(e["eliminated"]) for e in events if e["type"] == "mano_end" and e["eliminated"]]
    return by_mano[::-1]


def _play(seed: int, renuncio: str) -> tuple[list[dict[str, Any]], Any]:
    """Four players under the variant; seat 0's playoff player renuncia when it can."""
    players = [FirstLegal() for _ in range(4)]
    players[0].playoff = Renuncia
    events: list[dict[str, Any]] = []
    rules = CABRERO.make_rules(None, (PLAYOFF,), renuncio, None)
    result = play_partido(players, seed, ruleset=rules, sinks=[events.append])
    return events, result


def _finalists(events: list[dict[str, Any]]) -> list[int] | None:
    start = next((e for e in events if e["type"] == "playoff_start"), None)
    return None if start is None else list(start["seats"])


def test_a_finalist_disqualified_in_the_playoff_ranks_last_below_the_eliminated() -> None:
    checked = 0
    for seed in SEEDS:
        events, result = _play(seed, "disqualify")
        seats = _finalists(events)
        if seats is None or 0 not in seats:
            continue
        inner = [e["event"] for e in events if e["type"] == "playoff"]
        assert any(e["type"] == "disqualified" and e["seat"] == seats.index(0) for e in inner)
        (other,) = (s for s in seats if s != 0)
        end = events[-1]
        assert end["type"] == "partido_end" and end["winners"] == [other] == result.winners
        eliminated = _eliminated(events)
        assert eliminated, "four players: two were eliminated before the playoff"
        assert end["ranking"] == [[other], *eliminated, [0]] == result.ranking
        assert inner[-1]["type"] == "partido_end" and inner[-1]["ranking"][-1] == [seats.index(0)]
        checked += 1
    assert checked >= 3


def test_a_finalist_penalized_in_the_playoff_loses_it_and_ranks_second() -> None:
    checked = 0
    for seed in SEEDS:
        events, result = _play(seed, "penalize")
        seats = _finalists(events)
        if seats is None or 0 not in seats:
            continue
        inner = [e["event"] for e in events if e["type"] == "playoff"]
        if not any(e["type"] == "penalized" and e["seat"] == seats.index(0) for e in inner):
            continue
        assert not any(e["type"] == "disqualified" for e in inner)
        (other,) = (s for s in seats if s != 0)
        assert events[-1]["ranking"] == [[other], [0], *_eliminated(events)] == result.ranking
        checked += 1
    assert checked >= 3


def test_a_playoff_disqualification_ranks_above_an_earlier_one_as_in_cabrero() -> None:
    """Five players, one disqualified in mano 1; a finalist disqualified in the playoff ranks
    below the eliminated and above the earlier disqualification (a later one ranks higher)."""
    rules = CABRERO.make_rules(None, (PLAYOFF,), "disqualify", None)
    checked = 0
    for seed in range(40):
        p = CABRERO.new_partido(5, seed, rules)
        assert isinstance(p, Partido)
        rng = random.Random(seed)
        first = p.to_move
        assert first is not None and p.fault(first, "timeout", "no reply")
        while not p.over and p.playoff is None:
            p.play(*rng.choice(p.moves()))
        if p.playoff is None or p.over:
            continue
        seat = p.to_move
        assert seat is not None and p.fault(seat, "timeout", "no reply")
        (other,) = (s for s in p.playoff.seats if s != seat)
        assert p.winners == [other] and p.disqualified == [first, seat]
        assert p.events[-1]["ranking"] == [[other], *_eliminated(p.events), [seat], [first]] == p.ranking()
        checked += 1
    assert checked >= 3
