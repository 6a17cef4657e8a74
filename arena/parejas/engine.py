"""Tute por parejas' engine (``docs/rules-parejas.md``): the public names of
:mod:`arena.games.parejas.engine`, re-exported for players and scripts.
"""

from arena.games.common.juegos import (
    PLAY_PHASE,
)
from arena.games.common.tute import (
    IllegalMove,
)
from arena.games.parejas.engine import (
    FAULT_REASONS,
    SING_PHASE,
    TIRAR_PHASE,
    ParejasPartido,
    stack_hands,
)

__all__ = [
    "FAULT_REASONS",
    "PLAY_PHASE",
    "SING_PHASE",
    "TIRAR_PHASE",
    "IllegalMove",
    "ParejasPartido",
    "stack_hands",
]
