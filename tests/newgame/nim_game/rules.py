"""The rules of Nim de montones as the house records them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.errors import ArenaError

RULESETS = ("corto", "largo")
"""``corto``: the first to win 2 manos wins the partido; ``largo``: the first to win 3."""
TO_WIN = {"corto": 2, "largo": 3}
MAX_MANOS = 12
"""A partido ends after this many manos whatever the points (ranked by points)."""


class NimRulesError(ArenaError, ValueError):
    """A rule set that is not one of Nim's (one line)."""


@dataclass(frozen=True)
class NimRules:
    """A partido's rules: its ruleset (how many manos win it)."""

    ruleset: str = RULESETS[0]

    def __post_init__(self) -> None:
        if self.ruleset not in RULESETS:
            raise NimRulesError(f"nim has no ruleset {self.ruleset!r}; its rulesets: {', '.join(RULESETS)}")

    @property
    def to_win(self) -> int:
        return TO_WIN[self.ruleset]

    def to_dict(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "to_win": self.to_win, "renuncio": "disqualify"}

    @classmethod
    def from_dict(cls, value: dict[str, Any]) -> NimRules:
        return cls(str(value.get("ruleset", RULESETS[0])))
