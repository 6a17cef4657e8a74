"""Every registered game passes the conformance library (:mod:`arena.check.conformance`: random legal
play through the seam, the replay re-checks, the figures add up, the account tells it), and the Tute
games' views hide every card a seat may not know (their own secret, which the library cannot know).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import games
from arena.check import conformance
from arena.games.common.account import VIEWER as TUTE_VIEWER
from arena.games.gamespec import Game, GameSpec

CARD = re.compile(r"^(1|2|3|4|5|6|7|10|11|12)-(oro|copa|espada|basto)$")


CASES = [(spec, ruleset, n) for spec in games.specs() for ruleset, n in conformance.cases(spec)]
IDS = [f"{spec.short}-{ruleset}-{n}" for spec, ruleset, n in CASES]
TUTE = [case for case in CASES if case[0].viewer == TUTE_VIEWER]
TUTE_IDS = [f"{spec.short}-{ruleset}-{n}" for spec, ruleset, n in TUTE]


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


@pytest.mark.parametrize(("spec", "ruleset", "n"), TUTE, ids=TUTE_IDS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30)
def test_random_legal_play_ends_and_its_views_hide_the_cards_they_must(
    spec: GameSpec, ruleset: str, n: int, seed: int
) -> None:
    p, _decisions = conformance.random_partido(spec, ruleset, n, seed)
    assert p.winners or p.ranking(), f"{spec.name}: a partido over with no result"
    for seat in range(n):
        known = _known(p.events, seat)
        for e, seen in zip(p.events, known, strict=True):
            leaked = _cards(p.view(e, seat)) - seen
            assert not leaked, f"{spec.name}: seat {seat} sees {sorted(leaked)} in {e['type']}: {e}"


@pytest.mark.parametrize(("spec", "ruleset", "n"), CASES, ids=IDS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=30)
def test_every_game_passes_the_conformance_library(spec: GameSpec, ruleset: str, n: int, seed: int) -> None:
    conformance.check_partido(spec, ruleset, n, seed)


def test_the_library_catches_a_game_whose_replay_does_not_recheck() -> None:
    """A game that deals from something else than its seed is named by the library."""
    import dataclasses
    import itertools

    spec = games.default()
    counter = itertools.count()

    def unseeded(n: int, seed: object, rules: object = None, *, deal: bool = True) -> Game:
        return spec.new_partido(n, next(counter), rules, deal=deal)  # a new deal every time

    broken = dataclasses.replace(spec, new_partido=unseeded)
    with pytest.raises(conformance.ConformanceError, match=r"same events|not legal"):
        conformance.check_partido(broken, spec.rulesets[0], 3, 1)


def test_every_game_is_reachable_by_its_names() -> None:
    for spec in games.specs():
        assert games.spec(spec.short) is games.spec(spec.name) is spec
        assert spec.table_sizes and spec.rulesets and spec.check_opponents and spec.check_tables
        assert set(spec.check_tables) <= set(spec.table_sizes)
