"""Tute por parejas: four players in two pairs, judged behind the referee's :class:`arena.game.Game`.

:mod:`arena.parejas.rules` holds the rules as pure functions (``docs/rules-parejas.md``)
and :class:`ParejasRules`; :mod:`arena.parejas.engine` the partido, :class:`ParejasPartido`.
"""

from __future__ import annotations

from arena.parejas.engine import ParejasPartido, stack_hands
from arena.parejas.rules import ParejasRules

__all__ = ["ParejasPartido", "ParejasRules", "stack_hands"]
