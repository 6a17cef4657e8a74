"""Every registered game, through the seam only (its GameSpec and the Game protocol), by random legal
play, as OpenSpiel's random simulation test does for its games: a new game gets these for free.

For each game and each rule set, many partidos of random legal moves (:meth:`Game.moves`) check that
- every request is answerable (some move is legal) and the partido ends;
- no view a seat receives shows a card hidden from it;
- the replay re-checks: the same seed and the same decisions give the same events, byte for byte;
- the statistics add up (:func:`arena.referee.stats.partido_stats`), and the account narrates it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import games
from arena.game import Game, make_rules
from arena.games.gamespec import GameSpec
from arena.referee.narrate import narrate
from arena.referee.stats import partido_stats

CARD = re.compile(r"^(1|2|3|4|5|6|7|10|11|12)-(oro|copa|espada|basto)$")
MAX_STEPS = 20_000
Decision = tuple[str | None, str | None]


def _cases() -> Iterator[tuple[GameSpec, str, int]]:
    """Every game's rulesets at every table size, and each variant (``ruleset+variant``) with its
    first ruleset at its smallest and largest tables."""
    for spec in games.specs():
        for ruleset in spec.rulesets:
            for n in spec.table_sizes:
                yield spec, ruleset, n
        for variant in spec.variants:
            for n in sorted({min(spec.table_sizes), max(spec.table_sizes)}):
                yield spec, f"{spec.rulesets[0]}+{variant}", n


CASES = list(_cases())
IDS = [f"{spec.short}-{ruleset}-{n}" for spec, ruleset, n in CASES]


def _rules(spec: GameSpec, ruleset: str) -> object:
    name, _plus, variant = ruleset.partition("+")
    return make_rules(spec.name, name, (variant,) if variant else ())


def _random_partido(spec: GameSpec, ruleset: str, n: int, seed: int) -> tuple[Game, list[Decision]]:
    """A partido of random legal moves; the decisions made, in order."""
    rules = _rules(spec, ruleset)
    p: Game = spec.new_partido(n, seed, rules)
    rng = random.Random(seed)
    decisions: list[Decision] = []
    for _step in range(MAX_STEPS):
        if p.over:
            return p, decisions
        moves = p.moves()
        assert moves, f"{spec.name}: a request with no legal answer: {p.request()}"
        move = rng.choice(moves)
        p.play(*move)
        decisions.append(move)
    raise AssertionError(f"{spec.name} {ruleset} {n}: not over after {MAX_STEPS} decisions")


def _cards(value: Any) -> set[str]:
    """Every card name anywhere in ``value``."""
    if isinstance(value, str):
        return {value} if CARD.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(_cards(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_cards(v) for v in value)) if value else set()
    return set()


def _known(events: list[dict[str, Any]], seat: int) -> list[set[str]]:
    """For each event, the cards ``seat`` may know by then in its mano: its own (dealt, drawn, taken)
    and the public ones (played, shown, out of play, given in an exchange, the later manos' swaps).
    A hosted game's events (a ``playoff``) count with the seat's place in it, none for an observer."""
    out: list[set[str]] = []
    known: set[str] = set()
    for e in events:
        if e["type"] == "playoff":
            seats = e["seats"]
            known = _fold(known, e["event"], seats.index(seat) if seat in seats else -1)
        else:
            known = _fold(known, e, seat)
        out.append(set(known))
    return out


def _fold(known: set[str], e: dict[str, Any], seat: int) -> set[str]:
    """``known`` after event ``e`` (see :func:`_known`)."""
    kind = e["type"]
    if kind == "mano_start":
        hands = e.get("hands") or []
        known = set(hands[seat] or []) if 0 <= seat < len(hands) else set()
        known |= _cards([e.get("shown"), e.get("out_of_play")])
        for sw in e.get("swaps", []):
            known |= _cards(sw.get("gave"))
            if e.get("mano") != 1 or sw.get("seat") == seat:
                known |= _cards(sw.get("took"))
    elif kind in ("played", "trick_end"):
        known |= _cards(e.get("card")) | _cards(e.get("cards"))
    elif kind == "drew" and (e.get("seat") == seat or e.get("face_up") is True):
        known |= _cards(e.get("card"))
    elif kind == "exchanged":
        known |= _cards([e.get("gave"), e.get("took")])
    return known


@pytest.mark.parametrize(("spec", "ruleset", "n"), CASES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30)
def test_random_legal_play_ends_and_its_views_hide_what_they_must(
    spec: GameSpec, ruleset: str, n: int, seed: int
) -> None:
    p, _decisions = _random_partido(spec, ruleset, n, seed)
    assert p.winners or p.ranking(), f"{spec.name}: a partido over with no result"
    for seat in range(n):
        known = _known(p.events, seat)
        for e, seen in zip(p.events, known, strict=True):
            leaked = _cards(p.view(e, seat)) - seen
            assert not leaked, f"{spec.name}: seat {seat} sees {sorted(leaked)} in {e['type']}: {e}"


@pytest.mark.parametrize(("spec", "ruleset", "n"), CASES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30)
def test_the_replay_rechecks_from_its_seed_and_decisions(
    spec: GameSpec, ruleset: str, n: int, seed: int
) -> None:
    p, decisions = _random_partido(spec, ruleset, n, seed)
    again: Game = spec.new_partido(n, seed, _rules(spec, ruleset))
    for move in decisions:
        again.play(*move)
    assert again.over
    same = [json.dumps(e, sort_keys=True) for e in again.events]
    assert same == [json.dumps(e, sort_keys=True) for e in p.events], f"{spec.name}: not deterministic"
    assert again.ranking() == p.ranking() and again.winners == p.winners


@pytest.mark.parametrize(("spec", "ruleset", "n"), CASES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30)
def test_the_statistics_add_up_and_the_account_tells_it(
    spec: GameSpec, ruleset: str, n: int, seed: int
) -> None:
    p, _decisions = _random_partido(spec, ruleset, n, seed)
    start = {
        "type": "partido_start",
        "partido": "conformance",
        "seed": seed,
        "game": spec.name,
        **({"teams": [list(t) for t in spec.teams]} if spec.teams else {}),
        "rules": p.rules.to_dict(),
        "players": [{"seat": s, "name": f"p{s}", "source": "test"} for s in range(n)],
    }
    events = [start, *p.events]
    stats = partido_stats(events)
    assert [s for s in range(n) if stats[s]["won"]] == sorted(p.winners)
    assert sorted(st["place"] for st in stats) == pytest.approx(sorted(_places(p.ranking())))
    for row in stats:
        assert 0 <= row["manos_perdidas"] <= row["manos"] <= p.mano_number
        assert row["porotos_perdidos"] >= 0 and row["faults"] == []
    lines = list(narrate(events))
    unformatted = [line for line in lines if "{" in line and "}" in line]
    assert lines and not unformatted, f"narration lines left unformatted: {unformatted}"


def _places(ranking: list[list[int]]) -> list[float]:
    out, start = [], 1
    for group in ranking:
        out += [start + (len(group) - 1) / 2] * len(group)
        start += len(group)
    return out


def test_every_game_is_reachable_by_its_names() -> None:
    for spec in games.specs():
        assert games.spec(spec.short) is games.spec(spec.name) is spec
        assert spec.table_sizes and spec.rulesets and spec.check_opponents and spec.check_tables
        assert set(spec.check_tables) <= set(spec.table_sizes)
