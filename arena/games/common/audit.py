"""What the Tute games' peek tests share (``arena audit``; each game's ``audit.py`` has the rest)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Decision:
    """One audited decision: the seat, the mano, how many legal cards, the excess, and whether it
    came in the second half of the mano (what a channel passes accrues over the mano)."""

    seat: int
    mano: int
    legal: int
    excess: float
    late: bool = False


def centred(values: Sequence[float]) -> list[float]:
    """Each value minus their mean: the cards' *advantages* from their values."""
    mean = sum(values) / len(values)
    return [v - mean for v in values]
