"""Tute de a dos' student API: subclass :class:`DosPlayer`, write :meth:`DosPlayer.play`.

The public, typed names a Tute de a dos player imports (``from arena.dos.sdk import DosPlayer,
DosRequest, Move``), re-exported from :mod:`arena.games.dos.sdk`. :class:`SimplePlayer` is the
player that plays a playoff for a Cabrero player that brings none. The rules as functions are in
:mod:`arena.dos.rules`, the cards in :mod:`arena.cards`.
"""

from arena.games.dos.sdk import (
    CAMBIO,
    DosPlayer,
    DosRequest,
    DosView,
    Move,
    SimplePlayer,
)

__all__ = [
    "CAMBIO",
    "DosPlayer",
    "DosRequest",
    "DosView",
    "Move",
    "SimplePlayer",
]
