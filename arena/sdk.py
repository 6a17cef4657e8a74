"""The old name of :mod:`arena.games.cabrero.sdk`, kept for the players and scripts that import it:
the same module object."""

import sys

from arena.games.cabrero import sdk as _moved

sys.modules[__name__] = _moved
