"""The rules every game of the Tute family shares, as pure functions: the baza, cantos, faults.

Cards are ints and card sets bit masks (:mod:`arena.games.common.cards`). A game's
own rules (``arena.games.<game>.rules``) re-export what it uses from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, TypeVar

from arena.errors import FaultError, RulesError
from arena.games.common.cards import SUITS, card
from arena.i18n import _

RULE_FAULTS: tuple[str, ...] = ("renuncio", "false_canto", "not_in_hand")
"""Faults against the rules of play; the faults of a player process are protocol.PROCESS_FAULTS."""

LAST_BAZA_BONUS = 10  # "las diez de última"
CUARENTA_POINTS, VEINTE_POINTS = 40, 20

TUTE = "tute"
CUARENTA = "cuarenta"


class IllegalMove(FaultError, ValueError):
    """A move the rules forbid (``reason`` is one of :data:`RULE_FAULTS`)."""


class FrozenRules:
    """An immutable rule set, equal to another of its kind with the same :meth:`_key`: shared, never
    copied (a deep copy of a partido keeps the same rule set)."""

    def _key(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")  # not shown

    def __copy__(self) -> FrozenRules:
        return self  # immutable: a copy is the same rule set

    def __deepcopy__(self, memo: dict[int, object]) -> FrozenRules:
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, type(self)) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


_R = TypeVar("_R", bound="JuegosRules")


class JuegosRules(FrozenRules):
    """The rule set of a game played to N juegos: ``(ruleset, juegos, renuncio)`` (Tute por parejas,
    Tute de a dos).

    ``ruleset`` is one of :attr:`RULESETS`; ``juegos`` is N, the juegos that win the partido
    (None: the ruleset's :attr:`DEFAULT_JUEGOS`); ``renuncio`` one of :attr:`RENUNCIO_POLICIES`.
    A game's subclass sets the class attributes and its own defaults in ``__init__``.
    """

    __slots__ = ("juegos", "renuncio", "ruleset")
    ruleset: str
    juegos: int
    renuncio: str

    RULESETS: ClassVar[tuple[str, ...]]
    """The game's rulesets, the default first."""
    DEFAULT_JUEGOS: ClassVar[Mapping[str, int]]
    """N by ruleset, when ``juegos`` is not given."""
    RENUNCIO_POLICIES: ClassVar[tuple[str, ...]] = ("disqualify", "penalize")
    ACCUSE_REFUSED: ClassVar[str | None] = None
    """The message (marked with ``N_``) refusing the ``accuse`` policy by name; None: it is an
    unknown policy like any other."""

    def __init__(self, ruleset: str, juegos: int | None, renuncio: str) -> None:
        if ruleset not in self.RULESETS:
            raise RulesError(
                _("unknown ruleset {name}; known: {known}").format(
                    name=repr(ruleset), known=", ".join(self.RULESETS)
                )
            )
        if juegos is None:
            juegos = self.DEFAULT_JUEGOS[ruleset]
        if type(juegos) is not int or juegos < 1:
            raise RulesError(_("juegos must be a whole number, 1 or more, not {value}").format(value=juegos))
        if renuncio == "accuse" and self.ACCUSE_REFUSED is not None:
            raise RulesError(_(self.ACCUSE_REFUSED))
        if renuncio not in self.RENUNCIO_POLICIES:
            raise RulesError(
                _("unknown renuncio policy {name}; known: {known}").format(
                    name=repr(renuncio), known=", ".join(self.RENUNCIO_POLICIES)
                )
            )
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "juegos", juegos)
        object.__setattr__(self, "renuncio", renuncio)

    def _key(self) -> tuple[str, int, str]:
        return (self.ruleset, self.juegos, self.renuncio)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.ruleset!r}, {self.juegos!r}, {self.renuncio!r})"

    def to_dict(self) -> dict[str, object]:
        """The ``rules`` object of the protocol and the replay."""
        return {"ruleset": self.ruleset, "juegos": self.juegos, "renuncio": self.renuncio}

    @classmethod
    def from_dict(cls: type[_R], d: Mapping[str, object]) -> _R:
        """The rule set :meth:`to_dict` gave; a missing ``juegos`` is the ruleset's default."""
        juegos = d.get("juegos")
        if juegos is not None and type(juegos) is not int:
            raise RulesError(_("juegos must be a whole number, 1 or more, not {value}").format(value=juegos))
        return cls(str(d.get("ruleset", cls.RULESETS[0])), juegos, str(d.get("renuncio", "disqualify")))


# ---------------------------------------------------------------- a baza


def beats(c: int, winning: int, trump: int) -> bool:
    """Whether card ``c`` beats the card ``winning`` the baza so far."""
    cs, ws = c // 10, winning // 10
    return (cs == ws and c > winning) or (cs == trump and ws != trump)


def baza_winner(cards: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that takes a baza given as (seat, card) in playing order."""
    seat, winning = cards[0]
    for s, c in cards[1:]:
        if beats(c, winning, trump):
            seat, winning = s, c
    return seat


# ---------------------------------------------------------------- cantos

KING = tuple(card(12, s) for s in range(4))
KNIGHT = tuple(card(11, s) for s in range(4))
PAIR_MASK = tuple((1 << KING[s]) | (1 << KNIGHT[s]) for s in range(4))
TUTE_MASKS = (sum(1 << k for k in KING), sum(1 << k for k in KNIGHT))
CANTO_NAMES: tuple[str, ...] = tuple(f"veinte-{s}" for s in SUITS)


def canto_name(suit: int, trump: int) -> str:
    """The name of the king-knight pair canto of ``suit``."""
    return CUARENTA if suit == trump else CANTO_NAMES[suit]


def canto_suit(canto: str, trump: int) -> int:
    """The suit of a pair canto name, or -1 for ``tute``; RulesError if unknown."""
    if canto == TUTE:
        return -1
    if canto == CUARENTA:
        return trump
    if canto in CANTO_NAMES:
        return CANTO_NAMES.index(canto)
    raise RulesError(
        _("unknown canto {canto}; known: tute, cuarenta, veinte-<suit>").format(canto=repr(canto))
    )


def canto_points(suit: int, trump: int) -> int:
    """What the pair canto of ``suit`` is worth: 40 in triunfo, else 20."""
    return CUARENTA_POINTS if suit == trump else VEINTE_POINTS


def has_tute(hand: int) -> bool:
    """Whether ``hand`` holds the four kings or the four knights."""
    return (hand & TUTE_MASKS[0]) == TUTE_MASKS[0] or (hand & TUTE_MASKS[1]) == TUTE_MASKS[1]


Decision = tuple[str | int | None, str | None, int | None]
"""A Tute decision as :func:`arena.games.common.replies.decision_of` reads it: (card, canto, accused seat)."""


class TuteActions:
    """The seam's two moves (:class:`arena.games.gamespec.Game`) for an engine with ``moves``, ``play``."""

    def moves(self) -> list[tuple[str | None, str | None]]:
        raise NotImplementedError

    def play(self, card: str | int | None, sing: str | None = None, accuse: int | None = None) -> None:
        raise NotImplementedError

    def legal_actions(self) -> list[Decision]:
        """Every decision the seat to move may take now (accusations aside)."""
        return [(card, sing, None) for card, sing in self.moves()]

    @property
    def scores(self) -> list[int]:
        """The score by seat: Tute Cabrero's porotos left, the juegos won in the games of juegos."""
        return list(self.porotos)  # type: ignore[attr-defined]

    def act(self, decision: Decision) -> None:
        """Apply a decision read from the reply: sing and play, or accuse; IllegalMove if forbidden."""
        self.play(*decision)
