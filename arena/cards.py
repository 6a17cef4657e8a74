"""The old name of :mod:`arena.games.common.cards`, kept for the players and scripts that import it:
the same module object."""

import sys

from arena.games.common import cards as _moved

sys.modules[__name__] = _moved
