"""Import a Python player's class from its folder (light: the runner uses it)."""

from __future__ import annotations

import importlib.util
import os
import sys

from arena.errors import ArenaError
from arena.sdk import Player


class PlayerLoadError(ArenaError, ValueError):
    """A player folder that cannot be used; the message is one line naming the folder."""


def load_player_class(folder: str | os.PathLike[str]) -> type[Player]:
    """Import ``player.py`` from ``folder`` and return its player class.

    The class is the one subclass of :class:`Player` defined in that file (or the
    one named ``player_class`` there). Any failure is a one-line PlayerLoadError.
    """
    path = os.path.realpath(folder)
    file = os.path.join(path, "player.py")
    if not os.path.isfile(file):
        raise PlayerLoadError(f"{path}: no player.py in this folder")
    module_name = f"arena_player_{abs(hash(path))}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise PlayerLoadError(f"{file}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, path)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise PlayerLoadError(f"{file}: import failed: {type(exc).__name__}: {_first_line(exc)}") from None
    finally:
        if sys.path and sys.path[0] == path:
            sys.path.pop(0)
    chosen = getattr(module, "player_class", None)
    if chosen is not None:
        if not (isinstance(chosen, type) and issubclass(chosen, Player)):
            raise PlayerLoadError(f"{file}: player_class is not a subclass of arena.sdk.Player")
        return chosen
    found = [
        obj
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, Player)
        and obj is not Player
        and obj.__module__ == module_name
    ]
    if not found:
        raise PlayerLoadError(f"{file}: no player class (a subclass of arena.sdk.Player) defined here")
    if len(found) > 1:
        names = ", ".join(c.__name__ for c in found)
        raise PlayerLoadError(f"{file}: several player classes ({names}); set player_class = <the one>")
    return found[0]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "(no message)"
