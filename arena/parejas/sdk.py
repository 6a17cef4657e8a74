"""Tute por parejas' student API: subclass :class:`ParejasPlayer`, write :meth:`ParejasPlayer.play`.

The public, typed names a pair's player imports (``from arena.parejas.sdk import Move,
ParejasPlayer, ParejasRequest``), re-exported from :mod:`arena.games.parejas.sdk`. The rules as
functions are in :mod:`arena.parejas.rules`, the cards in :mod:`arena.cards`.
"""

from arena.games.parejas.sdk import (
    Move,
    ParejasPlayer,
    ParejasRequest,
    ParejasView,
)

__all__ = [
    "Move",
    "ParejasPlayer",
    "ParejasRequest",
    "ParejasView",
]
