"""The game behind the referee: one factory, one interface, Tute Cabrero registered."""

from __future__ import annotations

import pytest

from arena import games
from arena.engine import Partido
from arena.games import names, specs
from arena.protocol import DEFAULT_GAME


def test_the_referee_s_factory_makes_an_undealt_tute_cabrero_partido() -> None:
    p = games.spec("tute-cabrero").new_partido(4, 7, deal=False)
    assert isinstance(p, Partido) and DEFAULT_GAME in names()
    assert p.events == [] and p.mano_number == 0  # hello faults come before the first deal
    p.start()
    assert p.mano_number == 1 and p.to_move is not None
    assert p.request()["type"] == "play"


def test_the_same_seed_deals_the_same_through_the_factory_and_the_engine() -> None:
    assert games.spec("tute-cabrero").new_partido(5, 11).events == Partido(5, 11).events


def test_an_unknown_game_is_named_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"juego desconocido .mus.; los que hay: cabrero, parejas, ") as info:
        games.spec("mus").new_partido(4, 1)
    assert all(f"{s.short}," in str(info.value) and s.name in str(info.value) for s in specs())
