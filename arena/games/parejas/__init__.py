"""Tute por parejas: four players in two pairs (``docs/rules-parejas.md``).

:mod:`~arena.games.parejas.rules` holds the rules as pure functions and :class:`ParejasRules`;
:mod:`~arena.games.parejas.engine` the partido, :class:`ParejasPartido`;
:mod:`~arena.games.parejas.sdk` the student's side, :class:`ParejasPlayer` (also
``arena.parejas.sdk``); :mod:`~arena.games.parejas.spec` what the house is told.

The package imports none of them on its own: a player importing the SDK starts without the engine.
"""
