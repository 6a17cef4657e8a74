"""The Spanish 40-card deck, shared by every game: the public names of
:mod:`arena.games.common.cards`, re-exported for players and scripts.

A card is an ``int`` in ``0..39`` (``suit * 10 + strength``); outside the engine it is written
``"<rank>-<suit>"`` (``"1-oro"``). :func:`parse` and :func:`name` convert; sets of cards are ints
used as 40-bit masks (:func:`parse_mask`, :func:`cards_of`, :func:`names_of`).
"""

from arena.games.common.cards import (
    ABOVE,
    DECK_SIZE,
    FULL_DECK,
    NAMES,
    POINTS,
    RANK,
    RANK_NAMES,
    RANK_POINTS,
    RANKS_BY_STRENGTH,
    SUIT_MASK,
    SUITS,
    CardError,
    card,
    card_id,
    cards_of,
    mask,
    name,
    names_of,
    parse,
    parse_mask,
    points_of,
    suit_of,
)

__all__ = [
    "ABOVE",
    "DECK_SIZE",
    "FULL_DECK",
    "NAMES",
    "POINTS",
    "RANK",
    "RANKS_BY_STRENGTH",
    "RANK_NAMES",
    "RANK_POINTS",
    "SUITS",
    "SUIT_MASK",
    "CardError",
    "card",
    "card_id",
    "cards_of",
    "mask",
    "name",
    "names_of",
    "parse",
    "parse_mask",
    "points_of",
    "suit_of",
]
