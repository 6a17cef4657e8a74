"""The games, each a package of its own, registered behind one seam.

A game is a package whose ``spec`` module defines ``SPEC``, a :class:`arena.games.gamespec.GameSpec`:
the house's own games are listed in :data:`REGISTERED`; any other distribution adds its game through
the entry-point group ``arena.games`` (``mus = "mus_game.spec:SPEC"`` in its ``pyproject.toml``), with no
file of ``arena/`` changed. The rest of the house asks :func:`spec` (by full or short name) or
:func:`specs`, and never names a game.

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


ENTRY_POINTS = "arena.games"
"""The entry-point group through which other distributions register their games."""

_broken: dict[str, str] = {}
"""Entry points that did not load: name -> the error, said when the game is asked for."""


@cache
def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, the default game first, then the entry points' in name order.

    An entry point that fails to load (or is not a GameSpec) is left out, and named by :func:`spec`
    when its game is asked for: a broken plug-in never stops the house's own games."""
    from importlib.metadata import entry_points

    from arena.games.gamespec import GameSpec

    found = [importlib.import_module(module).SPEC for module in REGISTERED]
    for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda p: p.name):
        try:
            value = point.load()
        except Exception as exc:  # any error of another distribution's code
            _broken[point.name] = f"{type(exc).__name__}: {exc}"
            continue
        value = getattr(value, "SPEC", value)
        if not isinstance(value, GameSpec):
            _broken[point.name] = f"{point.value}: not a GameSpec"  # not shown: a detail of the error
        elif all(value.name != s.name and value.short != s.short for s in found):
            found.append(value)
    return tuple(found)


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
    if name in _broken:
        raise ValueError(
            _("the game {name} (entry point {group}) did not load: {error}").format(
                name=repr(name), group=ENTRY_POINTS, error=_broken[name]
            )
        )
    raise ValueError(_("unknown game {name}; known: {known}").format(name=repr(name), known=known))


def hint_for(name: str) -> str:
    """What a player of game ``name`` subclasses, for a ``hello`` of the wrong game ("" if unknown)."""
    try:
        return spec(name).player_hint
    except ValueError:
        return ""


def fault_reasons() -> tuple[str, ...]:
    """Every fault any game records, each once: the games' rule faults, then a program's."""
    from arena.games.gamespec import choices
    from arena.protocol import PROCESS_FAULTS

    return tuple(choices([*(s.rule_faults for s in specs()), PROCESS_FAULTS]))
