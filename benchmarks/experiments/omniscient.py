"""The omniscient bound of a search player: the same search, given the TRUE hidden hands.

A benchmark-only cheat, never a sample player: it runs in the referee's process, where
an event sink (:class:`Truth`) sees the omniscient replay lines (every ``mano_start``
holds every hand) and follows every card played. :func:`omniscient` derives, from a
search player's class, one whose every "imagined" deal is the real one:

* ``maestro`` deals through its ``sample`` method: overridden to return the truth;
* ``fuerte`` deals through its module's ``sample_hands``: swapped for the truth while
  its own ``search`` runs (one process, one search at a time), so the search is the
  very same code.
"""

from __future__ import annotations

import random
from typing import Any

from arena.cards import parse, parse_mask


class Truth:
    """A referee event sink that keeps every seat's true hand (card masks) during the mano."""

    def __init__(self) -> None:
        self.hands: list[int] = []

    def __call__(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "mano_start":
            self.hands = [parse_mask(h) if h else 0 for h in event["hands"]]
        elif kind == "played" and self.hands:
            self.hands[event["seat"]] &= ~(1 << parse(event["card"]))

    def others(self, seats: Any) -> dict[int, int]:
        """The true hands of ``seats`` (seat -> mask)."""
        return {s: self.hands[s] for s in seats}


def omniscient(base: type[Any], truth: Truth) -> type[Any]:
    """A subclass of the search player ``base`` that searches the true deal only."""

    def check(player: Any, request: Any) -> None:
        if truth.hands[player.view.seat] != parse_mask(request.hand):
            raise RuntimeError("the truth sink is out of step with the partido")

    if hasattr(base, "sample"):

        class OmniscientSampler(base):  # type: ignore[misc,valid-type]
            strict = True

            def sample(self, rng: random.Random, know: Any) -> dict[int, int]:
                return truth.others(know.counts)

            def search(self, request: Any, candidates: Any, start: float) -> Any:
                check(self, request)
                return super().search(request, candidates, start)

        return OmniscientSampler

    class OmniscientSearch(base):  # type: ignore[misc,valid-type]
        strict = True

        def search(self, request: Any, candidates: Any, start: float) -> Any:
            check(self, request)
            module = base.search.__globals__
            saved = module["sample_hands"]
            module["sample_hands"] = lambda rng, know, tries=20: truth.others(know.counts)
            try:
                return super().search(request, candidates, start)
            finally:
                module["sample_hands"] = saved

    return OmniscientSearch
