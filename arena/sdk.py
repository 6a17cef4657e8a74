"""Tute Cabrero's student API: subclass :class:`Player`, write :meth:`Player.play`.

The public, typed names a Tute Cabrero player imports (``from arena.sdk import Move, Player,
PlayRequest``); they live in :mod:`arena.games.cabrero.sdk` and :mod:`arena.games.common.player`,
and this module re-exports them, so that mypy and an editor see them. The other games have
their own: :mod:`arena.parejas.sdk` (Tute por parejas) and :mod:`arena.dos.sdk` (Tute de a dos).
The cards are in :mod:`arena.cards`, the rules as functions in :mod:`arena.rules`, the engine
(for simulation) in :mod:`arena.engine`.
"""

from arena.games.cabrero.sdk import Player, PlayRequest, ReviewRequest, TableView
from arena.games.common.player import Move, WrongGame

__all__ = ["Move", "PlayRequest", "Player", "ReviewRequest", "TableView", "WrongGame"]
