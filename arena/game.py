"""The game behind the referee: what it needs of a partido, whatever the card game.

The referee (:mod:`arena.referee.table`) drives a partido only through
:class:`Game` and creates one only through :func:`new_partido`, so every game fits
behind the same judge: its package (``arena.games.<game>``) provides a class with these
members and registers a :class:`arena.games.gamespec.GameSpec` (:mod:`arena.games`), and the
referee's fault handling, the replay, the store and the results side stay as they are.
These functions are the house's door to the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, cast

from arena import games
from arena.games.common.tute import RulesError
from arena.games.gamespec import GameSpec, choices
from arena.i18n import _
from arena.protocol import DEFAULT_GAME, PROCESS_FAULTS
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

    def request(self) -> Mapping[str, Any]:
        """What the seat to move may see: the protocol's play request (the game's ``wire`` types)."""
        ...

    def legal_actions(self) -> list[Any]:
        """Every decision the seat to move may take now (the game's own values, as its
        :attr:`~arena.games.gamespec.GameSpec.read_reply` reads them): what a random legal player
        picks from, and what the conformance library (:mod:`arena.games.conformance`) plays."""
        ...

    def view(self, event: Event, seat: int) -> Event:
        """``event`` (one of :attr:`events`) as the player at ``seat`` may see it."""
        ...

    def act(self, decision: Any) -> None:
        """The seat to move takes ``decision`` (read from its reply by the game's ``read_reply``); a
        :class:`arena.errors.FaultError` (the game's rule fault) if the rules forbid it."""

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Record ``seat``'s fault (disqualify or penalize); False when it no longer plays."""
        ...

    def ranking(self) -> list[list[int]]:
        """Seats in groups, best first; a group is a tie."""
        ...


GameFactory = Callable[..., Game]


def game_name(name: str) -> str:
    """The full name of ``name`` (``parejas`` -> ``tute-parejas``); ValueError when no game has it."""
    return games.spec(name).name


def spec_of(name: str) -> GameSpec:
    """The spec of game ``name`` (full or short); ValueError (one line) when no game has it."""
    return games.spec(name)


def teams(game: str) -> tuple[tuple[int, ...], ...] | None:
    """The seats of each team of ``game``, or None when it has no teams."""
    return games.spec(game).teams


def seat_sides(sides: tuple[tuple[int, ...], ...]) -> list[int]:
    """The team of each seat, in seat order (``((0, 2), (1, 3))`` -> ``[0, 1, 0, 1]``)."""
    out = [0] * sum(len(t) for t in sides)
    for index, seats in enumerate(sides):
        for seat in seats:
            out[seat] = index
    return out


def rules_of(game: str, rules: Any) -> Any:
    """``rules`` (a rule set, its dict or None) as ``game``'s rule-set object, checked."""
    return games.spec(game).rules_of(rules)


def rulesets(game: str) -> tuple[str, ...]:
    """The rulesets of ``game``, its default first."""
    return games.spec(game).rulesets


def make_rules(
    game: str,
    ruleset: str | None = None,
    variants: Iterable[str] = (),
    renuncio: str = "disqualify",
    juegos: int | None = None,
) -> Any:
    """``game``'s rule set from the command line's values; RulesError (one line) for a wrong one.

    ``ruleset`` None is the game's default; ``variants``, ``renuncio`` and ``juegos`` must be
    ones the game has (:class:`arena.games.gamespec.GameSpec`).
    """
    spec = games.spec(game)
    chosen = tuple(variants)
    if ruleset is not None and ruleset not in spec.rulesets:
        raise RulesError(
            _("{game} has no ruleset {name}; its rulesets: {known}").format(
                game=spec.name, name=repr(ruleset), known=", ".join(spec.rulesets)
            )
        )
    for variant in chosen:
        if variant not in spec.variants:
            raise RulesError(
                _("{game} has no variant {name}; its variants: {known}").format(
                    game=spec.name, name=repr(variant), known=", ".join(spec.variants) or _("none")
                )
            )
    if renuncio not in spec.renuncio_policies:
        raise RulesError(
            _("{game} has no renuncio policy {name}; its policies: {known}").format(
                game=spec.name, name=repr(renuncio), known=", ".join(spec.renuncio_policies)
            )
        )
    if juegos is not None and "juegos" not in spec.options:
        raise RulesError(
            _("{game} is not played to juegos: drop --juegos").format(game=spec.name)
        )
    return spec.make_rules(ruleset, chosen, renuncio, juegos)


def fault_reasons() -> tuple[str, ...]:
    """Every fault any game records, each once: the games' rule faults, then a program's."""
    return tuple(choices([*(s.rule_faults for s in games.specs()), PROCESS_FAULTS]))


def new_partido(
    n: int, seed: Seed, rules: Any = None, *, game: str = DEFAULT_GAME, deal: bool = True
) -> Game:
    """A new partido of ``game`` for ``n`` seats, dealt from ``seed``, under ``rules``."""
    return cast(Game, games.spec(game).new_partido(n, seed, rules, deal=deal))
