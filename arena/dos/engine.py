"""Tute de a dos' engine (``docs/rules-dos.md``): the public names of :mod:`arena.games.dos.engine`,
re-exported for players and scripts.
"""

from arena.games.common.juegos import (
    PLAY_PHASE,
)
from arena.games.common.tute import (
    IllegalMove,
)
from arena.games.dos.engine import (
    FAULT_REASONS,
    MOMENT_PHASE,
    DosPartido,
)

__all__ = [
    "FAULT_REASONS",
    "MOMENT_PHASE",
    "PLAY_PHASE",
    "DosPartido",
    "IllegalMove",
]
