"""The root of every error arena raises on purpose.

``str(error)`` is one line (or a few) for the user, naming the file, player or
field; the command line prints it as it is and exits with status 1. Catch
``ArenaError`` to catch them all; each keeps its older base too (``ValueError``
for bad input, ``RuntimeError`` for the machine), so existing handlers still work.
"""

from __future__ import annotations


class ArenaError(Exception):
    """An error arena reports to its user in one line."""


class RulesError(ArenaError, ValueError):
    """A ruleset, variant, policy or table size that does not exist."""


class FaultError(Exception):
    """A player's fault: ``reason`` is one of the game's rule faults
    (:attr:`arena.games.gamespec.GameSpec.rule_faults`) or a program's, ``evidence`` its replay fields."""

    def __init__(self, reason: str, detail: str, **evidence: object) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.evidence = evidence
