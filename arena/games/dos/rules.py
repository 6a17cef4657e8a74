"""The rules of Tute de a dos (Tute habanero) as pure functions: the file to read to learn the game.

Everything here follows ``docs/rules-dos.md`` (rules D1–D28 and the readings B1–B22
point into it). Cards are ints and card sets are bit masks, as in
:mod:`arena.games.common.cards`; nothing here keeps state or does I/O, and the
functions that "change" a hand or the monte return new values. What the game shares
with the other tutes (strength, beating, the canto masks) comes from
:mod:`arena.games.common.tute`.

Seats are ``0`` and ``1`` (D4). The **monte** is a tuple of cards in the order they
are drawn; its last card is the one face up under it (the turned-up triunfo, or the
card a cambio put there), drawn last (D8, D11). A mano goes:

1. :func:`deal` (the order from :func:`arena.games.common.deal.deal_order`, the mano
   from D6: drawn from the seed in the first mano, then :func:`next_mano`);
2. for each of the :data:`BAZAS` bazas: the leader plays any card, the other a card of
   :func:`legal_mask`; :func:`baza_winner` takes it;
3. if :func:`has_moment`: the winner may make one cambio (:func:`may_cambio`,
   :func:`cambio`), then sing one canto (:func:`valid_cantos`, :func:`is_valid_canto`);
   a ``tute`` ends the mano, won by the singer (D20);
4. :func:`draw` (nothing happens once the monte is empty);
5. after the last baza: :func:`tantos`, :func:`mano_winner`, then :func:`add_juegos`
   and :func:`partido_winner`.

The API:

- :class:`DosRules` ``(ruleset="habanero", juegos=None, renuncio="disqualify")``:
  the rule set, with ``to_dict()`` / ``from_dict(d)``;
- the table: ``other(seat) -> int``, ``next_mano(mano) -> int``, ``dealer_of(mano) -> int``;
- the deal: ``deal(order, mano) -> Deal`` (``hands``, ``monte``, ``trump``),
  ``turned_up(monte) -> int``, ``draw(hands, monte, winner) -> (hands, monte)``;
- a baza: ``phase(monte_left) -> int``, ``legal_mask(hand, led, trump, monte_left) -> int``,
  ``beats(c, winning, trump) -> bool``, ``baza_winner(leader, led, answer, trump) -> int``;
- the moment: ``has_moment(bazas_played) -> bool``;
- the cambio: ``cambio_card(turned) -> int``, ``may_cambio(hand, monte) -> bool``,
  ``cambio(hand, monte) -> (hand, monte)``;
- cantos: ``valid_cantos(hand, trump, sung_suits) -> list[str]``,
  ``is_valid_canto(canto, hand, trump, sung_suits) -> bool``, ``is_canto_name(canto) -> bool``,
  ``canto_suit(canto, trump) -> int``, ``canto_points(canto, trump) -> int``,
  ``sing(sung_suits, canto, trump) -> int``;
- scoring: ``tantos(card_points, last_baza, cantos) -> list[int]``,
  ``mano_winner(tantos, last_baza) -> int``;
- the partido: ``add_juegos(juegos, seat, n) -> tuple[int, int]``,
  ``partido_winner(juegos, rules) -> int | None``, ``partido_over(juegos, rules) -> bool``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from arena.games.common.cards import ABOVE, RANK, SUIT_MASK, card
from arena.games.common.tute import (
    CANTO_NAMES,
    CUARENTA,
    CUARENTA_POINTS,
    LAST_BAZA_BONUS,
    PAIR_MASK,
    TUTE,
    VEINTE_POINTS,
    JuegosRules,
    RulesError,
    beats,
    has_tute,
)
from arena.games.common.tute import canto_suit as _canto_suit

RULESETS: tuple[str, ...] = ("habanero",)
"""The one ruleset, named after 001's *Tute Habanero* (D4, B1)."""
DEFAULT_RULESET = RULESETS[0]
DEFAULT_JUEGOS: dict[str, int] = {"habanero": 2}
"""N, the juegos that win the partido, when none is given: a best of three manos (D27, B19)."""
RENUNCIO_POLICIES: tuple[str, ...] = ("disqualify", "penalize")
"""What a renuncio costs (D28); ``accuse`` is Tute Cabrero's only (B21)."""

PLAYERS = 2
HAND_SIZE = 8
"""Cards dealt to each player, and held at the start of bazas 1-13 (D7, D11, B4)."""
MONTE_SIZE = 40 - PLAYERS * HAND_SIZE
"""Cards in the monte after the deal, the turned-up triunfo included: 24 (D8)."""
BAZAS = 20
"""Bazas in a mano: 40 cards between two (D9)."""
DRAW_BAZAS = MONTE_SIZE // PLAYERS
"""The bazas after which both players draw, the phase-1 bazas: 12 (D11, D12)."""
PHASE_1, PHASE_2 = 1, 2
NO_CARD = -1
"""No card: the ``led`` of a leader, the card face up under an empty monte, no cambio."""

CAMBIO_WITH_SEVEN: frozenset[int] = frozenset({10, 11, 12, 1, 3})
"""Ranks of a turned-up card the 7 of triunfo is given for (D16, B10)."""
CAMBIO_WITH_TWO: frozenset[int] = frozenset({5, 6, 7})
"""Ranks of a turned-up card the 2 of triunfo is given for; a 2 or a 4 is never exchanged (D16, B10)."""

JUEGOS_PER_MANO = 1
"""Juegos for a mano won, by tantos or by a tute (D26, B18)."""
PENALTY_JUEGOS = 2
"""Juegos the other player gets when a renuncio is penalized (D28, B21)."""


class DosRules(JuegosRules):
    """The rule set of a partido of Tute de a dos; recorded with every result.

    ``ruleset`` is ``habanero``; ``juegos`` is N, the juegos that win the partido
    (default 2, D27); ``renuncio`` is ``disqualify`` or ``penalize`` (D28; ``accuse``
    is an unknown policy here: Tute Cabrero's only, B21). Immutable and hashable, like
    the other games' rule sets.
    """

    __slots__ = ()
    RULESETS = RULESETS
    DEFAULT_JUEGOS = DEFAULT_JUEGOS
    RENUNCIO_POLICIES = RENUNCIO_POLICIES

    def __init__(
        self, ruleset: str = DEFAULT_RULESET, juegos: int | None = None, renuncio: str = "disqualify"
    ) -> None:
        super().__init__(ruleset, juegos, renuncio)


# ---------------------------------------------------------------- the table and the deal (D4-D8)


def other(seat: int) -> int:
    """The other player (D4)."""
    return 1 - seat


def next_mano(mano: int) -> int:
    """The mano of the next mano: the other player; the previous mano deals (D6)."""
    return 1 - mano


def dealer_of(mano: int) -> int:
    """The dealer of a mano whose mano is ``mano``: the other player (D6)."""
    return 1 - mano


class Deal(NamedTuple):
    """A mano as dealt: ``hands`` by seat, the ``monte`` in drawing order (the turned-up triunfo
    last) and the ``trump`` suit (D7, D8)."""

    hands: tuple[int, int]
    monte: tuple[int, ...]
    trump: int


def deal(order: Sequence[int], mano: int) -> Deal:
    """Deal the 40 cards of ``order`` (a shuffled deck, first card first) with ``mano`` first (D7, D8).

    Cards 1-16 go one at a time to the mano and the dealer in turn; the 17th is turned up
    and sets trump; the other 23 lie face down on it, to be drawn in their order.
    """
    if sorted(order) != list(range(40)):
        raise RulesError("a deal takes the 40 cards, each once")  # not shown
    hands = [0, 0]
    for i, c in enumerate(order[: PLAYERS * HAND_SIZE]):
        hands[mano if i % 2 == 0 else 1 - mano] |= 1 << c
    turned = order[PLAYERS * HAND_SIZE]
    monte = (*order[PLAYERS * HAND_SIZE + 1 :], turned)
    return Deal((hands[0], hands[1]), monte, turned // 10)


def turned_up(monte: Sequence[int]) -> int:
    """The card face up under the monte, drawn last; :data:`NO_CARD` once it is empty (D8, D11)."""
    return monte[-1] if monte else NO_CARD


def draw(hands: Sequence[int], monte: Sequence[int], winner: int) -> tuple[tuple[int, int], tuple[int, ...]]:
    """Both players draw after a baza: the ``winner`` the top card, then the other (D11).

    Returns the new hands and the monte left. With the monte empty nothing changes. The
    monte always holds an even number of cards (24 after the deal), so both draw or none.
    """
    new = [hands[0], hands[1]]
    if len(monte) >= PLAYERS:
        new[winner] |= 1 << monte[0]
        new[1 - winner] |= 1 << monte[1]
        monte = monte[PLAYERS:]
    return (new[0], new[1]), tuple(monte)


# ---------------------------------------------------------------- a baza (D9-D14)


def phase(monte_left: int) -> int:
    """The phase of a baza led with ``monte_left`` cards in the monte: 1 while it has any, then 2 (D12)."""
    return PHASE_1 if monte_left > 0 else PHASE_2


def legal_mask(hand: int, led: int, trump: int, monte_left: int) -> int:
    """The cards of ``hand`` that may be played (D13, D14).

    ``led`` is the card the leader played, or :data:`NO_CARD` for the leader (anything
    goes); ``monte_left`` the cards in the monte when the baza was led. In phase 1 any
    card. In phase 2, Cabrero's rule with one card on the table: follow suit and beat the
    led card if possible, else follow suit; without the suit, any trump; else any card.
    """
    if led < 0 or monte_left > 0:
        return hand
    follow = hand & SUIT_MASK[led // 10]
    if follow:
        return (follow & ABOVE[led]) or follow
    return hand & SUIT_MASK[trump] or hand


def baza_winner(leader: int, led: int, answer: int, trump: int) -> int:
    """The seat that takes a baza: the other player if ``answer`` beats ``led``, else the ``leader`` (D10)."""
    return 1 - leader if beats(answer, led, trump) else leader


# ---------------------------------------------------------------- the moment and the cambio (D15-D17)


def has_moment(bazas_played: int) -> bool:
    """Whether the winner of the baza just played (the ``bazas_played``-th) has a moment to make a
    cambio and sing: after every baza but the last (D15)."""
    return 1 <= bazas_played < BAZAS


def cambio_card(turned: int) -> int:
    """The card of triunfo that may be given for the card ``turned`` face up under the monte: the 7
    for a card with points, the 2 for a 5, 6 or 7, :data:`NO_CARD` for a 2, a 4 or none (D16, B10)."""
    if turned < 0:
        return NO_CARD
    rank, suit = RANK[turned], turned // 10
    if rank in CAMBIO_WITH_SEVEN:
        return card(7, suit)
    if rank in CAMBIO_WITH_TWO:
        return card(2, suit)
    return NO_CARD


def may_cambio(hand: int, monte: Sequence[int]) -> bool:
    """Whether a player holding ``hand`` may make the cambio now, the moment being right (D15, D16):
    the monte has cards and the hand holds the card :func:`cambio_card` names.

    The caller checks the rest of D17: the player won the baza just played, and has not made a
    cambio at this moment.
    """
    given = cambio_card(turned_up(monte))
    return given >= 0 and bool(hand >> given & 1)


def cambio(hand: int, monte: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """Make the cambio (D16): the hand gives :func:`cambio_card` and takes the card face up, which
    the given card replaces under the monte. Returns the new hand and monte; RulesError if
    :func:`may_cambio` does not allow it (the engine checks first: a false cambio is a renuncio, D17).
    """
    if not may_cambio(hand, monte):
        raise RulesError("no cambio is allowed with this hand and monte")  # not shown
    turned = monte[-1]
    given = cambio_card(turned)
    return (hand & ~(1 << given)) | (1 << turned), (*monte[:-1], given)


# ---------------------------------------------------------------- cantos (D18-D21)


def is_canto_name(canto: object) -> bool:
    """Whether ``canto`` names a canto at all (valid now or not)."""
    return canto in (TUTE, CUARENTA) or canto in CANTO_NAMES


def canto_suit(canto: str, trump: int) -> int:
    """The suit of ``cuarenta`` or ``veinte-<suit>``, -1 for ``tute``; RulesError if unknown (D18)."""
    return _canto_suit(canto, trump)


def canto_points(canto: str, trump: int) -> int:
    """Tantos of a canto: 40 for the cuarenta, 20 for a veinte, 0 for tute (it wins the mano) (D18, D20)."""
    if canto == TUTE:
        return 0
    return CUARENTA_POINTS if canto_suit(canto, trump) == trump else VEINTE_POINTS


def valid_cantos(hand: int, trump: int, sung_suits: int) -> list[str]:
    """The cantos a player holding ``hand`` may sing now, the moment being right (D18, D20).

    ``sung_suits`` is the set (bits) of suits whose rey and caballo were sung this mano: a
    pair already sung is not offered again. Tute first, then the cuarenta, then the veintes
    in suit order; no order is imposed among them (B15).
    """
    out = [TUTE] if has_tute(hand) else []
    for s in range(4):
        if not sung_suits >> s & 1 and (hand & PAIR_MASK[s]) == PAIR_MASK[s]:
            out.append(CUARENTA if s == trump else CANTO_NAMES[s])
    return out


def is_valid_canto(canto: str, hand: int, trump: int, sung_suits: int) -> bool:
    """Whether ``canto`` may be sung from ``hand`` now, the moment being right (D18, D21).

    A veinte named in the trump suit is not valid: that pair is the cuarenta. The caller
    checks the rest of D21: the singer won the baza just played and has not sung at this
    moment.
    """
    return is_canto_name(canto) and canto in valid_cantos(hand, trump, sung_suits)


def sing(sung_suits: int, canto: str, trump: int) -> int:
    """The set of sung suits after ``canto`` (tute sings no suit) (D18)."""
    suit = canto_suit(canto, trump)
    return sung_suits if suit < 0 else sung_suits | 1 << suit


# ---------------------------------------------------------------- scoring and the partido (D22-D27)


def tantos(card_points: Sequence[int], last_baza: int, cantos: Sequence[int]) -> list[int]:
    """Each seat's tantos in a mano played out: card points + 10 de últimas to the seat that took
    the last baza + its cantos (D22)."""
    return [card_points[s] + (LAST_BAZA_BONUS if s == last_baza else 0) + cantos[s] for s in range(PLAYERS)]


def mano_winner(tantos: Sequence[int], last_baza: int) -> int:
    """The seat that wins a mano played out: more tantos; on a tie, the seat with the últimas (D23)."""
    if tantos[0] != tantos[1]:
        return 0 if tantos[0] > tantos[1] else 1
    return last_baza


def add_juegos(juegos: Sequence[int], seat: int, n: int = JUEGOS_PER_MANO) -> tuple[int, int]:
    """The partido's juegos after ``seat`` gets ``n`` more: 1 for a mano won (D26), or
    :data:`PENALTY_JUEGOS` when the other player's renuncio is penalized (D28)."""
    out = [juegos[0], juegos[1]]
    out[seat] += n
    return out[0], out[1]


def partido_winner(juegos: Sequence[int], rules: DosRules) -> int | None:
    """The seat that has won the partido (N juegos or more), or None while it goes on (D27).

    Juegos come to one seat at a time, so both cannot reach N together.
    """
    for s in range(PLAYERS):
        if juegos[s] >= rules.juegos:
            return s
    return None


def partido_over(juegos: Sequence[int], rules: DosRules) -> bool:
    """Whether the partido has ended by juegos (D27); a disqualification also ends it (D28)."""
    return partido_winner(juegos, rules) is not None
