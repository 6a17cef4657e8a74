"""The game behind the referee: what it needs of a partido, whatever the card game.

The referee (:mod:`arena.referee.table`) drives a partido only through
:class:`Game` and creates one only through :func:`new_partido`, so a second game
(Tute por parejas) fits behind the same judge: it provides a class with these
members and an entry in :data:`GAMES`, and the referee's fault handling, the
replay, the store and the results side stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from arena.i18n import _
from arena.seeds import Seed

Event = dict[str, Any]


class Rules(Protocol):
    """A game's rule set, as the referee records it."""

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain values, for ``hello``, ``partido_start`` and the store."""
        ...


class Game(Protocol):
    """A partido in progress, as the referee drives it.

    Seats are ``0..n-1``. ``events`` is the omniscient record (the replay's lines
    after ``partido_start``), appended to as the partido goes.
    """

    n: int
    events: list[Event]
    porotos: list[int]
    winners: list[int]
    disqualified: list[int]
    mano_number: int
    over: bool

    @property
    def rules(self) -> Rules:
        """The partido's rule set."""
        ...

    @property
    def seed(self) -> Seed:
        """What the deals come from (shown in the replay once the torneo is over)."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to reply next, or None when the partido is over."""
        ...

    def start(self) -> None:
        """Deal the first mano (a partido is created undealt, so hello faults come first)."""

    def request(self) -> Event:
        """What the seat to move may see: the protocol's play request."""
        ...

    def play(self, card: str | int | None, sing: str | None = None) -> None:
        """The seat to move sings (optionally) and plays; IllegalMove if the rules forbid it."""

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Record ``seat``'s fault (disqualify or penalize); False when it no longer plays."""
        ...

    def ranking(self) -> list[list[int]]:
        """Seats in groups, best first; a group is a tie."""
        ...


GameFactory = Callable[..., Game]


def _tute_cabrero(n: int, seed: Seed, rules: Any = None, *, deal: bool = True) -> Game:
    from arena.engine import Partido

    return Partido(n, seed, rules, deal=deal)


def _tute_parejas(n: int, seed: Seed, rules: Any = None, *, deal: bool = True) -> Game:
    from arena.parejas.engine import ParejasPartido

    return ParejasPartido(n, seed, rules, deal=deal)


GAMES: dict[str, GameFactory] = {"tute-cabrero": _tute_cabrero, "tute-parejas": _tute_parejas}
"""Every game the referee can judge, by name."""

DEFAULT_GAME = "tute-cabrero"


def new_partido(
    n: int, seed: Seed, rules: Any = None, *, game: str = DEFAULT_GAME, deal: bool = True
) -> Game:
    """A new partido of ``game`` for ``n`` seats, dealt from ``seed``, under ``rules``."""
    try:
        factory = GAMES[game]
    except KeyError:
        raise ValueError(
            _("unknown game {name}; known: {known}").format(name=repr(game), known=", ".join(GAMES))
        ) from None
    return factory(n, seed, rules, deal=deal)
