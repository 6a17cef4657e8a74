"""Nim de montones: the proof game of the seam (``docs/games.md``), a game with no cards, no bazas and
a string move (``"2:3"``: take three from heap 2), registered from outside ``arena/`` through the
entry-point group ``arena.games`` (``tests/newgame/pyproject.toml``)."""
