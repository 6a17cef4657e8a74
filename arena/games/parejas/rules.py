"""The rules of Tute por parejas as pure functions: the file to read to learn the game.

Everything here follows ``docs/rules-parejas.md`` (rule numbers P1–P30 and the
readings A1–A26 point into it). Cards are ints and card sets are bit masks, as in
:mod:`arena.games.common.cards`; nothing here keeps state or does I/O. What the game
shares with the other Tute games (strength, who takes a baza, the canto masks) is imported
from :mod:`arena.games.common.tute`.

Seats are ``0..3``; pair ``0`` (A) is seats 0 and 2, pair ``1`` (B) seats 1 and 3
(P4, A1).
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.common import tute as common
from arena.games.common.cards import ABOVE, SUIT_MASK, points_of
from arena.games.common.tute import (
    CANTO_NAMES,
    CUARENTA,
    CUARENTA_POINTS,
    LAST_BAZA_BONUS,
    PAIR_MASK,
    TUTE,
    VEINTE_POINTS,
    JuegosRules,
    has_tute,
)
from arena.i18n import N_

RENUNCIO_POLICIES: tuple[str, ...] = ("disqualify", "penalize")
"""What a renuncio costs (``--renuncio``); ``accuse`` is Tute Cabrero's only."""
RULESETS: tuple[str, ...] = ("ludoteka", "espanol")
"""``ludoteka``: source 001; ``espanol``: source 003 (see the page's first table)."""
DEFAULT_RULESET = RULESETS[0]
DEFAULT_JUEGOS: dict[str, int] = {"ludoteka": 4, "espanol": 8}
"""N, the juegos a pair needs to win the partido, when ``--juegos`` is not given (P30)."""
CANTO_LIMIT: dict[str, int] = {"ludoteka": 2, "espanol": 1}
"""Cantos a pair may sing after one baza it wins (P18)."""

PLAYERS = 4
BAZAS = 10
"""Bazas in a mano: 40 cards among four (P10)."""
PAIRS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
TIRAR = "tirar"
"""What a player "sings" to give up the mano (``espanol``'s *tirar las cartas*, P28)."""
CANTOS_NEEDED = 30
"""``espanol``: a pair counts its cantos only with this many card points plus últimas (P24)."""
TIRAR_MAX_POINTS = 10
"""``espanol``: the most a hand may be worth for its player to give up (P28, A22)."""
TUTE_JUEGOS = 2
TIRAR_JUEGOS = 2
PENALTY_JUEGOS = 2
"""Juegos the other pair wins on a penalized renuncio (003's table rule; A26)."""
TUTE_WINS_PARTIDO_BELOW = 5
"""``ludoteka``: with N below this, a tute wins the partido at once (P21, A24)."""


class ParejasRules(JuegosRules):
    """The rule set of a partido of Tute por parejas; recorded with every result.

    ``ruleset`` is ``ludoteka`` or ``espanol``; ``juegos`` is N, the juegos that
    win the partido (default 4 or 8 by ruleset, P30); ``renuncio`` is the policy
    of ``docs/rules.md``, "Faults": ``disqualify`` or ``penalize``. Immutable and
    hashable, like :class:`arena.rules.RuleSet`.
    """

    __slots__ = ()
    RULESETS = RULESETS
    DEFAULT_JUEGOS = DEFAULT_JUEGOS
    RENUNCIO_POLICIES = RENUNCIO_POLICIES
    ACCUSE_REFUSED = N_("the accuse policy is Tute Cabrero's; Tute por parejas takes disqualify or penalize")

    def __init__(
        self, ruleset: str = DEFAULT_RULESET, juegos: int | None = None, renuncio: str = "disqualify"
    ) -> None:
        super().__init__(ruleset, juegos, renuncio)

    @property
    def canto_limit(self) -> int:
        """Cantos a pair may sing after one baza it wins (P18)."""
        return CANTO_LIMIT[self.ruleset]

    @property
    def may_concede(self) -> bool:
        """Whether *tirar las cartas* exists (P28: ``espanol`` only)."""
        return self.ruleset == "espanol"

    @property
    def tute_wins_partido(self) -> bool:
        """Whether a tute wins the partido at once (P21: ``ludoteka`` with N < 5)."""
        return self.ruleset == "ludoteka" and self.juegos < TUTE_WINS_PARTIDO_BELOW


# ---------------------------------------------------------------- the table (P4, P5)


def pair_of(seat: int) -> int:
    """The pair of ``seat``: 0 for seats 0 and 2, 1 for seats 1 and 3 (P4)."""
    return seat % 2


def partner(seat: int) -> int:
    """The seat opposite ``seat``: its partner (P4, A1)."""
    return (seat + 2) % PLAYERS


def right(seat: int) -> int:
    """The seat to the right of ``seat``: the next to deal to and to play (P5)."""
    return (seat + 1) % PLAYERS


def left(seat: int) -> int:
    """The seat to the left of ``seat`` (P5)."""
    return (seat - 1) % PLAYERS


# ---------------------------------------------------------------- a baza (P11-P14)


beats = common.beats
"""Whether card ``c`` beats the card ``winning`` the baza so far (P12)."""

baza_winner = common.baza_winner
"""The seat that takes a baza given as (seat, card) in playing order (P14)."""


def legal_mask(hand: int, lead: int, winning: int, trump: int, ruleset: str) -> int:
    """The cards of ``hand`` that may be played (P13).

    ``lead`` is the led suit (-1 when leading: anything goes, P11) and ``winning``
    the card winning the baza so far. Follow suit, beating if possible; without
    the suit, a trump that beats; else ``ludoteka`` allows any card and
    ``espanol`` any trump (A8) if the hand has one.
    """
    if lead < 0:
        return hand
    follow = hand & SUIT_MASK[lead]
    if follow:
        if winning // 10 == lead:
            return (follow & ABOVE[winning]) or follow
        return follow  # someone trumped: only follow suit (A7, achicarse)
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        if winning // 10 != trump:
            return trumps
        higher = trumps & ABOVE[winning]
        if higher:
            return higher
        if ruleset == "espanol":
            return trumps
    return hand


# ---------------------------------------------------------------- cantos (P15-P22)


def canto_points(canto: str, trump: int) -> int:
    """Tantos of a canto: 40 for the cuarenta, 20 for a veinte, 0 for tute (it scores juegos)."""
    if canto == TUTE:
        return 0
    return CUARENTA_POINTS if common.canto_suit(canto, trump) == trump else VEINTE_POINTS


def canto_suit(canto: str, trump: int) -> int:
    """The suit of ``cuarenta`` or ``veinte-<suit>``, -1 for ``tute``; RulesError if unknown."""
    return common.canto_suit(canto, trump)


def is_canto_name(canto: object) -> bool:
    """Whether ``canto`` names a canto at all (valid now or not)."""
    return canto in (TUTE, CUARENTA) or canto in CANTO_NAMES


def valid_cantos(hand: int, trump: int, sung_suits: int, has_sung: bool, ruleset: str) -> list[str]:
    """The cantos a player holding ``hand`` may sing now, the moment being right (P15-P21).

    ``sung_suits`` is the set (bits) of suits whose rey and caballo were sung this
    mano; ``has_sung`` whether this player sang earlier in the mano. Tute first,
    then the cuarenta, then the veintes in suit order. A player holding the
    cuarenta unsung may not sing a veinte (P19, A15); under ``ludoteka`` a player
    who has sung may not sing tute (P21, A16).
    """
    out = []
    if has_tute(hand) and not (ruleset == "ludoteka" and has_sung):
        out.append(TUTE)
    cuarenta = not sung_suits >> trump & 1 and (hand & PAIR_MASK[trump]) == PAIR_MASK[trump]
    if cuarenta:
        out.append(CUARENTA)
        return out
    for s in range(4):
        if s != trump and not sung_suits >> s & 1 and (hand & PAIR_MASK[s]) == PAIR_MASK[s]:
            out.append(CANTO_NAMES[s])
    return out


def may_tirar(hand: int) -> bool:
    """Whether a hand is poor enough to give up the mano: 10 card points or less (P28, A22)."""
    return points_of(hand) <= TIRAR_MAX_POINTS


# ---------------------------------------------------------------- scoring (P23-P27)


def tantos(card_points: Sequence[int], last_pair: int, cantos: Sequence[int], ruleset: str) -> list[int]:
    """Each pair's tantos in a mano played out: card points + 10 de últimas + cantos (P23).

    Under ``espanol`` a pair whose card points plus últimas are under 30 does
    not count its cantos (P24, A18).
    """
    out = []
    for pair in (0, 1):
        base = card_points[pair] + (LAST_BAZA_BONUS if pair == last_pair else 0)
        counted = ruleset != "espanol" or base >= CANTOS_NEEDED
        out.append(base + (cantos[pair] if counted else 0))
    return out


def mano_winner(tantos: Sequence[int], last_pair: int) -> int:
    """The pair that wins a mano played out: more tantos; on a tie, the últimas (P25)."""
    if tantos[0] != tantos[1]:
        return 0 if tantos[0] > tantos[1] else 1
    return last_pair


def juegos_for(winner_tantos: int) -> int:
    """Juegos the winning pair gets: 2 with more than 100 tantos, else 1 (P26, A19)."""
    return 2 if winner_tantos > 100 else 1
