"""Golden tests of Tute por parejas: a change in how deals are derived, or in how a partido plays
out, cannot pass unnoticed.

For each ruleset a fixed explicit seed gives a partido played by one deterministic policy at every
seat (the first legal card, the first canto offered, never *tirar las cartas*); the sha256 of its
events is pinned, with a few facts a reader can check. After a *deliberate* change, and only then,
paste the digest the failure prints over the old one and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from arena.parejas.engine import ParejasPartido
from arena.parejas.rules import ParejasRules

GOLDEN: dict[str, tuple[int, str]] = {
    "ludoteka": (11, "3290400e9ec41a88be20eb20c1dadc419b1f7c7414a0da2dd4c1253a15f2e2bc"),
    "espanol": (3, "5c9fa8bd075fb6678c9ee5b5a0944ec37111f2ae06743e21d9bd22cf9ba18e9a"),
}
"""By ruleset: the seed and the sha256 of the partido's events (see :func:`canonical`)."""

FACTS: dict[str, dict[str, Any]] = {
    "ludoteka": {"manos": 5, "juegos": [3, 5], "winners": [1, 3]},
    "espanol": {"manos": 11, "juegos": [7, 9], "winners": [1, 3]},
}


def first_choice(p: ParejasPartido) -> None:
    """Play ``p`` to its end: every seat plays its first legal card and sings the first canto offered."""
    while not p.over:
        r = p.request()
        if r["legal"]:
            p.play(r["legal"][0])
        else:
            p.play(None, r["may_sing"][0] if r["may_sing"] else None)


def canonical(events: list[dict[str, Any]]) -> str:
    """Events as sorted-key compact JSON lines."""
    return "\n".join(json.dumps(e, sort_keys=True, separators=(",", ":")) for e in events)


@pytest.mark.parametrize("ruleset", sorted(GOLDEN))
def test_golden_partido(ruleset: str) -> None:
    seed, pinned = GOLDEN[ruleset]
    p = ParejasPartido(4, seed, ParejasRules(ruleset))
    first_choice(p)
    facts = {"manos": p.mano_number, "juegos": p.juegos, "winners": p.winners}
    assert facts == FACTS[ruleset]
    assert p.porotos == [p.juegos[s % 2] for s in range(4)]
    assert p.ranking() == [p.winners, [s for s in range(4) if s not in p.winners]]
    assert sum(e["type"] == "sang" for e in p.events) > 0, "the pinned partido sings"
    digest = hashlib.sha256(canonical(p.events).encode()).hexdigest()
    if digest != pinned:
        pytest.fail(
            f"golden partido {ruleset} (seed {seed}) changed: the deals or the play did.\n"
            "Only if the change is deliberate, paste the new digest into "
            "tests/games/parejas/test_parejas_golden.py:\n"
            f'    "{ruleset}": ({seed}, "{digest}"),',
            pytrace=False,
        )
