"""The old name of :mod:`arena.games.cabrero.engine`, kept for the players and scripts that import it:
the same module object."""

import sys

from arena.games.cabrero import engine as _moved

sys.modules[__name__] = _moved
