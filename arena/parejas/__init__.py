"""Tute por parejas: four players in two pairs, judged behind the referee's :class:`arena.game.Game`.

:mod:`arena.parejas.rules` holds the rules as pure functions (``docs/rules-parejas.md``)
and :class:`ParejasRules`; :mod:`arena.parejas.engine` the partido, :class:`ParejasPartido`;
:mod:`arena.parejas.sdk` the student's side, :class:`ParejasPlayer`.

The package imports neither on its own: a player importing :mod:`arena.parejas.sdk`
starts without the engine.
"""
