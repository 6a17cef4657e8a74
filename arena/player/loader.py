"""Import a Python player's class from its folder (light: the runner uses it).

Its messages come from :mod:`arena.i18n`, imported only when a folder fails:
a player that loads starts without it.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from arena.errors import ArenaError
from arena.games.common.player import BasePlayer as Player


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
        from arena.i18n import _

        raise PlayerLoadError(_("{folder}: no player.py in this folder").format(folder=path))
    module_name = f"arena_player_{abs(hash(path))}"  # not shown
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        from arena.i18n import _

        raise PlayerLoadError(_("{file}: cannot be imported").format(file=file))
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, path)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        from arena.i18n import _

        raise PlayerLoadError(
            _("{file}: import failed: {error}: {message}").format(
                file=file, error=type(exc).__name__, message=_first_line(exc)
            )
        ) from None
    finally:
        if sys.path and sys.path[0] == path:
            sys.path.pop(0)
    chosen = getattr(module, "player_class", None)
    if chosen is not None:
        if not (isinstance(chosen, type) and issubclass(chosen, Player)):
            from arena.i18n import _

            raise PlayerLoadError(
                _("{file}: player_class is not a game's player class (arena.sdk.Player, …)").format(
                    file=file
                )
            )
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
        from arena.i18n import _

        raise PlayerLoadError(
            _("{file}: no player class (a subclass of arena.sdk.Player, …) defined here").format(file=file)
        )
    if len(found) > 1:
        from arena.i18n import _

        names = ", ".join(c.__name__ for c in found)
        raise PlayerLoadError(
            _("{file}: several player classes ({names}); set player_class = <the one>").format(
                file=file, names=names
            )
        )
    return found[0]


def _first_line(exc: BaseException) -> str:
    from arena.i18n import _

    text = str(exc).strip()
    return text.splitlines()[0] if text else _("(no message)")
