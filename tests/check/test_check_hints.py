"""``arena check``'s hint for a rule fault is the game's own (issue 49): Tute de a dos allows any
card while the monte lasts, parejas ``espanol`` asks for any triunfo, Cabrero for beating with one."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from arena import games, i18n
from arena.check import checker


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with i18n.speaking("en"):
        yield


def _hint(game: str, reason: str) -> list[str]:
    conn = SimpleNamespace(game=game, stuck=[], spec=SimpleNamespace(kind="python"))
    return checker._hints(reason, "", conn)  # type: ignore[arg-type]


def test_each_game_gives_its_own_renuncio_hint() -> None:
    cabrero, parejas, dos = (_hint(g, "renuncio") for g in ("tute-cabrero", "parejas", "dos"))
    assert "triunfo and beat if you can" in cabrero[0]
    assert "monte" in dos[0] and "any card" in dos[0] and dos != cabrero
    assert "partner" in parejas[0] and "espanol" in parejas[0] and parejas != cabrero


def test_every_game_names_a_hint_for_each_rule_fault_it_has_or_the_plain_one() -> None:
    for spec in games.specs():
        for reason in spec.rule_faults:
            hint = _hint(spec.name, reason)
            assert hint and hint[0].strip(), (spec.name, reason)
        assert set(spec.fault_hints) <= set(spec.rule_faults), spec.name
