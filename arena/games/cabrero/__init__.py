"""Tute Cabrero, the course's game: 3 to 6 players, each for himself (``docs/rules.md``).

:mod:`~arena.games.cabrero.rules` (pure functions), :mod:`~arena.games.cabrero.engine`
(the partido), :mod:`~arena.games.cabrero.sdk` (the student's side, also ``arena.sdk``),
:mod:`~arena.games.cabrero.account` (figures and narration) and
:mod:`~arena.games.cabrero.spec` (what the house is told). Importing the package loads none.
"""
