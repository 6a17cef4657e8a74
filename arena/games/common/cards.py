"""The Spanish 40-card deck: suits, ranks, strength, points and card names.

A card is an ``int`` in ``0..39``: ``suit * 10 + strength``, where strength 0 is
the weakest rank of the suit (the 2) and 9 the strongest (the as). So two cards
of one suit compare by plain ``<``, and ``card // 10`` is its suit. Outside the
engine cards are written ``"<rank>-<suit>"``: ``"1-oro"``, ``"12-basto"``.

Sets of cards (hands, masks) are ints used as 40-bit sets: bit ``c`` is card ``c``.
"""

from __future__ import annotations

from collections.abc import Iterable

from arena.errors import ArenaError
from arena.i18n import _

SUITS: tuple[str, ...] = ("oro", "copa", "espada", "basto")
"""Suits in their natural order; a suit is its index here."""

RANKS_BY_STRENGTH: tuple[int, ...] = (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)
"""Ranks from weakest to strongest inside a suit [rule 5]."""

RANK_POINTS: dict[int, int] = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
"""Points of a card by rank; every other rank is worth 0."""

RANK_NAMES: dict[int, str] = {1: "as", 10: "sota", 11: "caballo", 12: "rey"}

DECK_SIZE = 40
FULL_DECK = (1 << DECK_SIZE) - 1

RANK: tuple[int, ...] = tuple(RANKS_BY_STRENGTH[c % 10] for c in range(DECK_SIZE))
"""Rank of each card id."""
POINTS: tuple[int, ...] = tuple(RANK_POINTS.get(r, 0) for r in RANK)
"""Points of each card id."""
NAMES: tuple[str, ...] = tuple(f"{RANK[c]}-{SUITS[c // 10]}" for c in range(DECK_SIZE))
"""The written name of each card id."""
_BY_NAME: dict[str, int] = {name: c for c, name in enumerate(NAMES)}

SUIT_MASK: tuple[int, ...] = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))
"""The set of all cards of each suit."""
ABOVE: tuple[int, ...] = tuple(SUIT_MASK[c // 10] & ~((1 << (c + 1)) - 1) for c in range(DECK_SIZE))
"""For each card, the set of cards of its suit that are stronger."""


def _subsets(base: int) -> tuple[tuple[int, ...], ...]:
    """For each 10-bit mask m, the tuple of ``base + i`` for the bits i of m (built by doubling)."""
    table: list[tuple[int, ...]] = [()]
    for i in range(10):
        table += [(*t, base + i) for t in table]
    return tuple(table)


# For each suit, each 10-bit chunk of a card set as the tuple of its card ids.
_O, _C, _E, _B = (_subsets(10 * s) for s in range(4))


class CardError(ArenaError, ValueError):
    """A card name or card set that is not valid."""


def card(rank: int, suit: str | int) -> int:
    """The card of ``rank`` (1-7, 10-12) and ``suit`` (name or index)."""
    s = SUITS.index(suit) if isinstance(suit, str) else suit
    return s * 10 + RANKS_BY_STRENGTH.index(rank)


def parse(name: str) -> int:
    """The card written ``name`` (``"12-basto"``); a clear error otherwise."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise CardError(
            _("unknown card {name}: write <rank>-<suit>, rank 1-7 or 10-12, suit one of {suits}").format(
                name=repr(name), suits=", ".join(SUITS)
            )
        ) from None


def card_id(c: object) -> int:
    """The card id of a name or id; -1 when it is no card at all (a player's reply, say)."""
    if isinstance(c, str):
        try:
            return parse(c)
        except ValueError:
            return -1
    return c if type(c) is int and 0 <= c < DECK_SIZE else -1


def name(c: int) -> str:
    """The written name of card ``c``."""
    return NAMES[c]


def suit_of(c: int) -> int:
    return c // 10


def mask(cards: Iterable[int]) -> int:
    """The set holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_mask(names: Iterable[str]) -> int:
    """The set of the written cards ``names``."""
    m = 0
    by_name = _BY_NAME
    for n in names:
        c = by_name.get(n, -1) if type(n) is str else -1
        m |= 1 << (c if c >= 0 else parse(n))
    return m


def cards_of(m: int) -> list[int]:
    """The cards of set ``m``, in suit order, weakest first inside a suit."""
    return [*_O[m & 1023], *_C[m >> 10 & 1023], *_E[m >> 20 & 1023], *_B[m >> 30 & 1023]]


def names_of(m: int) -> list[str]:
    """The written names of the cards of set ``m`` (see :func:`cards_of`)."""
    return [NAMES[c] for c in cards_of(m)]


def points_of(m: int) -> int:
    """Total points of the cards of set ``m``."""
    return sum(POINTS[c] for c in cards_of(m))
