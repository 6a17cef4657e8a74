"""The game behind the referee: what it needs of a partido, whatever the card game.

The referee (:mod:`arena.referee.table`) drives a partido only through
:class:`Game` and creates one only through :func:`new_partido`, so a second game
(Tute por parejas) fits behind the same judge: it provides a class with these
members and an entry in :data:`GAMES`, and the referee's fault handling, the
replay, the store and the results side stay as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from arena.i18n import _
from arena.protocol import DEFAULT_GAME
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

    def view(self, event: Event, seat: int) -> Event:
        """``event`` (one of :attr:`events`) as the player at ``seat`` may see it."""
        ...

    def play(self, card: str | int | None, sing: str | None = None, accuse: int | None = None) -> None:
        """The seat to move sings (optionally) and plays, or accuses seat ``accuse`` (the ``accuse``
        policy, or the ``review`` after a mano); IllegalMove if the rules forbid it."""

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

TEAMS: dict[str, tuple[tuple[int, ...], ...]] = {"tute-parejas": ((0, 2), (1, 3))}
"""The seats of each team, by game; a game not named here is every player for himself."""

SHORT_NAMES = {"cabrero": "tute-cabrero", "parejas": "tute-parejas"}
"""What ``--game`` accepts besides the full names."""


def game_name(name: str) -> str:
    """The full name of ``name`` (``parejas`` -> ``tute-parejas``); ValueError when no game has it."""
    full = SHORT_NAMES.get(name, name)
    if full not in GAMES:
        raise ValueError(
            _("unknown game {name}; known: {known}").format(
                name=repr(name), known=", ".join([*SHORT_NAMES, *GAMES])
            )
        )
    return full


def teams(game: str) -> tuple[tuple[int, ...], ...] | None:
    """The seats of each team of ``game``, or None when it has no teams."""
    return TEAMS.get(game)


def seat_sides(sides: tuple[tuple[int, ...], ...]) -> list[int]:
    """The team of each seat, in seat order (``((0, 2), (1, 3))`` -> ``[0, 1, 0, 1]``)."""
    out = [0] * sum(len(t) for t in sides)
    for index, seats in enumerate(sides):
        for seat in seats:
            out[seat] = index
    return out


def rules_of(game: str, rules: Any) -> Any:
    """``rules`` (a rule set, its dict or None) as ``game``'s rule-set object, checked."""
    if game_name(game) == "tute-parejas":
        from arena.parejas.rules import ParejasRules

        return rules if isinstance(rules, ParejasRules) else ParejasRules.from_dict(rules or {})
    from arena.rules import RuleSet

    return rules if isinstance(rules, RuleSet) else RuleSet.from_dict(rules or {})


def rulesets(game: str) -> tuple[str, ...]:
    """The rulesets of ``game``, its default first."""
    if game_name(game) == "tute-parejas":
        from arena.parejas.rules import RULESETS as PAREJAS

        return PAREJAS
    from arena.rules import RULESETS

    return RULESETS


def make_rules(
    game: str,
    ruleset: str | None = None,
    variants: Iterable[str] = (),
    renuncio: str = "disqualify",
    juegos: int | None = None,
) -> Any:
    """``game``'s rule set from the command line's values; RulesError (one line) for a wrong one.

    ``ruleset`` None is the game's default. ``variants`` are Tute Cabrero's; ``juegos``
    (the juegos that win a partido) is Tute por parejas'.
    """
    from arena.rules import RulesError

    full = game_name(game)
    if ruleset is not None and ruleset not in rulesets(full):
        raise RulesError(
            _("{game} has no ruleset {name}; its rulesets: {known}").format(
                game=full, name=repr(ruleset), known=", ".join(rulesets(full))
            )
        )
    if full == "tute-parejas":
        from arena.parejas.rules import DEFAULT_RULESET, ParejasRules

        if tuple(variants):
            raise RulesError(_("Tute por parejas has no variants (--variant is Tute Cabrero's)"))
        return ParejasRules(ruleset or DEFAULT_RULESET, juegos, renuncio)
    from arena.rules import DEFAULT_RULESET as CABRERO
    from arena.rules import RuleSet

    if juegos is not None:
        raise RulesError(_("--juegos is Tute por parejas' (with --game parejas)"))
    return RuleSet(ruleset or CABRERO, frozenset(variants), renuncio)


TABLE_SIZES = {"tute-parejas": 4}
"""The only table size of a game that has one; the others seat 3 to 6."""


def new_partido(
    n: int, seed: Seed, rules: Any = None, *, game: str = DEFAULT_GAME, deal: bool = True
) -> Game:
    """A new partido of ``game`` for ``n`` seats, dealt from ``seed``, under ``rules``."""
    return GAMES[game_name(game)](n, seed, rules, deal=deal)
