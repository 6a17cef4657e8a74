"""The games, each a package of its own, registered behind one seam.

A game is a package ``arena.games.<game>`` whose ``spec`` module defines ``SPEC``, a
:class:`arena.games.gamespec.GameSpec`; :data:`REGISTERED` lists those modules. The rest of the
house asks :func:`spec` (by full or short name) or :func:`specs`, and never names a game.

This module imports nothing at import time: a player process importing its game's SDK
(``arena.games.<game>.sdk``) does not load the registry.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from arena.games.gamespec import GameSpec

REGISTERED: tuple[str, ...] = (
    "arena.games.cabrero.spec",
    "arena.games.parejas.spec",
    "arena.games.dos.spec",
)
"""The games' spec modules, the default game first: adding a game adds its line here."""


@cache
def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, the default game first."""
    return tuple(importlib.import_module(module).SPEC for module in REGISTERED)


def names() -> tuple[str, ...]:
    """The full names of the games (``tute-cabrero``, …)."""
    return tuple(s.name for s in specs())


def default() -> GameSpec:
    """The game a message, a torneo or a command is about when it names none."""
    return specs()[0]


def spec(name: str) -> GameSpec:
    """The spec of the game called ``name`` (full or short); ValueError (one line) when none is."""
    for s in specs():
        if name in (s.name, s.short):
            return s
    from arena.i18n import _

    known = ", ".join([*(s.short for s in specs()), *names()])
    raise ValueError(_("unknown game {name}; known: {known}").format(name=repr(name), known=known))


def hint_for(name: str) -> str:
    """What a player of game ``name`` subclasses, for a ``hello`` of the wrong game ("" if unknown)."""
    try:
        return spec(name).player_hint
    except ValueError:
        return ""
