"""Rule 25.3 (``--variant hasta-un-ganador``): the last two players of a Tute Cabrero partido play
a partido of *tute de a dos* to one winner, inside the Cabrero partido (``docs/rules.md``).

The game played is looked up in the registry by name (:data:`PLAYOFF_GAME`), so Tute Cabrero
imports no other game. Its events enter the Cabrero partido's record wrapped, each as
``{"type": "playoff", "seats": [a, b], "event": …}`` with the hosted game's own seats (0 for
``a``, 1 for ``b``) inside, after a ``playoff_start``; its requests carry ``game``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from arena.seeds import Seed, derive, is_key

Event = dict[str, Any]

PLAYOFF = "hasta-un-ganador"
"""The variant's name."""
PLAYOFF_GAME = "tute-dos"
"""What the last two play [25.3]: «una variante del tute llamada "tute de a dos"»."""


def playoff_seed(seed: Seed) -> Seed:
    """The playoff's deals: a key derived from the partido's key, or a number from its number."""
    if isinstance(seed, str) and is_key(seed):
        return derive(seed, "playoff")
    return (int(seed) * 1_000_003 + 253) % (1 << 62)


def public(first: Event, second: Event) -> Event:
    """What both seats of the hosted game see of an event: an observer's view (no hand, no card
    only one of them sees; such fields are null)."""
    return {key: value if second.get(key) == value else None for key, value in first.items()}


class Playoff:
    """The hosted partido of the last two: seats ``seats`` (Cabrero's, lower first) play it."""

    def __init__(
        self, seats: Sequence[int], seed: Seed, renuncio: str, emit: Callable[[Event], None]
    ) -> None:
        from arena import games  # the registry, at run time: no game imports another

        self.spec = games.spec(PLAYOFF_GAME)
        self.seats = sorted(seats)
        policy = renuncio if renuncio in self.spec.renuncio_policies else "disqualify"  # accuse: Cabrero's
        self.rules = self.spec.make_rules(None, (), policy, None)
        self.game = self.spec.new_partido(2, playoff_seed(seed), self.rules)
        self._emit = emit
        self._sent = 0
        emit(
            {
                "type": "playoff_start",
                "game": self.spec.name,
                "seats": self.seats,
                "rules": self.rules.to_dict(),
            }
        )
        self._absorb()

    def _absorb(self) -> None:
        """Record the hosted game's new events, wrapped."""
        events = self.game.events
        for event in events[self._sent :]:
            self._emit({"type": "playoff", "seats": self.seats, "event": event})
        self._sent = len(events)

    @property
    def over(self) -> bool:
        return bool(self.game.over)

    @property
    def to_move(self) -> int | None:
        """The Cabrero seat to answer next, or None when the playoff is over."""
        seat = self.game.to_move
        return None if seat is None else self.seats[seat]

    @property
    def winners(self) -> list[int]:
        """The Cabrero seats that won the playoff (one, or none when both were disqualified)."""
        return [self.seats[s] for s in self.game.winners]

    @property
    def disqualified(self) -> list[int]:
        return [self.seats[s] for s in self.game.disqualified]

    def request(self) -> dict[str, Any]:
        """The hosted game's request, naming the game (a Cabrero player tells it from its own)."""
        return {**self.game.request(), "game": self.spec.name}

    def moves(self) -> list[tuple[str | None, str | None]]:
        return list(self.game.moves())

    def play(self, card: str | int | None, sing: str | None) -> None:
        """The seat to move decides; IllegalMove from the hosted game, changing nothing."""
        try:
            self.game.play(card, sing)
        finally:
            self._absorb()

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Judge Cabrero seat ``seat``'s fault in the hosted game."""
        judged = bool(self.game.fault(self.seats.index(seat), reason, detail, **evidence))
        self._absorb()
        return judged

    def view(self, event: Event, seat: int) -> Event:
        """A wrapped event as Cabrero seat ``seat`` sees it: a player of the playoff as its game shows
        it, any other seat as both would (an observer)."""
        inner = event["event"]
        if seat in self.seats:
            shown = self.game.view(inner, self.seats.index(seat))
        else:
            shown = public(self.game.view(inner, 0), self.game.view(inner, 1))
        return {"type": "playoff", "seats": self.seats, "event": shown}
