"""Tute Cabrero's engine, to simulate with (``docs/engine.md``): the public names of
:mod:`arena.games.cabrero.engine`, re-exported for players and scripts.

:class:`Partido` checks every move and raises :class:`IllegalMove`; :class:`Mano` is the fast,
unchecked, cloneable state of one mano that a search plays forward. A partido's deals come from
its seed alone (:func:`deal_key`, :func:`deal_order`).
"""

from arena.games.cabrero.engine import (
    FAULT_REASONS,
    IllegalMove,
    Mano,
    Partido,
    deal_key,
    deal_order,
    deal_stream,
    stack_deck,
)

__all__ = [
    "FAULT_REASONS",
    "IllegalMove",
    "Mano",
    "Partido",
    "deal_key",
    "deal_order",
    "deal_stream",
    "stack_deck",
]
