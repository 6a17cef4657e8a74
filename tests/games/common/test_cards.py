"""The deck: names, strength order, points, card sets (rules.md "Cards")."""

from __future__ import annotations

import pytest

from arena import cards

SUITS = ("oro", "copa", "espada", "basto")
RANKS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
# rules.md: strength inside a suit, highest first: 1, 3, 12, 11, 10, 7, 6, 5, 4, 2
STRONGEST_FIRST = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)
POINTS_BY_RANK = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2, 2: 0, 4: 0, 5: 0, 6: 0, 7: 0}


def test_deck_has_forty_distinct_named_cards():
    names = {f"{r}-{s}" for r in RANKS for s in SUITS}
    assert len(names) == 40
    assert set(cards.NAMES) == names
    assert len(set(cards.NAMES)) == 40


@pytest.mark.parametrize("name", [f"{r}-{s}" for r in RANKS for s in SUITS])
def test_parse_and_names_round_trip(name):
    c = cards.parse(name)
    assert 0 <= c < 40
    assert cards.NAMES[c] == name
    assert cards.name(c) == name


def test_card_id_layout_suit_times_ten_plus_strength():
    # strength 0 is the 2 (weakest), 9 the as (strongest); suits in natural order
    assert cards.parse("2-oro") == 0
    assert cards.parse("1-oro") == 9
    assert cards.parse("2-copa") == 10
    assert cards.parse("12-basto") == 3 * 10 + 7
    assert cards.parse("1-basto") == 39
    for s, suit in enumerate(SUITS):
        for r in RANKS:
            assert cards.parse(f"{r}-{suit}") // 10 == s
            assert cards.suit_of(cards.parse(f"{r}-{suit}")) == s


@pytest.mark.parametrize("suit", SUITS)
def test_strength_order_inside_a_suit(suit):
    ids = [cards.parse(f"{r}-{suit}") for r in STRONGEST_FIRST]
    assert ids == sorted(ids, reverse=True)
    # the as beats the 3, the 3 beats the rey, and the 7 beats every lower plain card
    assert cards.parse(f"1-{suit}") > cards.parse(f"3-{suit}") > cards.parse(f"12-{suit}")
    assert cards.parse(f"7-{suit}") > cards.parse(f"6-{suit}") > cards.parse(f"2-{suit}")
    assert cards.parse(f"10-{suit}") > cards.parse(f"7-{suit}")


@pytest.mark.parametrize("rank,points", sorted(POINTS_BY_RANK.items()))
def test_points_of_each_rank(rank, points):
    for suit in SUITS:
        assert cards.POINTS[cards.parse(f"{rank}-{suit}")] == points


def test_deck_holds_120_points_and_130_with_the_last_baza():
    assert sum(cards.POINTS) == 4 * (11 + 10 + 4 + 3 + 2) == 120
    assert cards.points_of(cards.FULL_DECK) == 120
    assert cards.points_of(cards.FULL_DECK) + 10 == 130


def test_card_constructor_by_rank_and_suit():
    assert cards.card(12, "basto") == cards.parse("12-basto")
    assert cards.card(1, 0) == cards.parse("1-oro")
    assert cards.card(7, "copa") == cards.parse("7-copa")
    for s, suit in enumerate(SUITS):
        for r in RANKS:
            assert cards.card(r, suit) == cards.card(r, s) == cards.parse(f"{r}-{suit}")


@pytest.mark.parametrize(
    "bad",
    [
        "13-oro",
        "8-copa",
        "9-espada",
        "0-basto",
        "1-oros",
        "1-Oro",
        "1 oro",
        "oro",
        "1-",
        "-oro",
        "",
        "1-oro ",
    ],
)
def test_parse_rejects_unknown_names(bad):
    with pytest.raises(cards.CardError):
        cards.parse(bad)


@pytest.mark.parametrize("bad", [None, 5, 1.0, ("1", "oro")])
def test_parse_rejects_non_strings(bad):
    with pytest.raises(cards.CardError):
        cards.parse(bad)


def test_card_error_is_a_value_error():
    assert issubclass(cards.CardError, ValueError)
    with pytest.raises(ValueError, match="carta desconocida"):
        cards.parse("15-oro")


def test_parse_mask_and_names_of_round_trip():
    names = ["1-basto", "2-oro", "12-copa", "3-copa", "7-espada"]
    m = cards.parse_mask(names)
    assert m == sum(1 << cards.parse(n) for n in names)
    assert m.bit_count() == 5
    # suit order, weakest first inside a suit
    assert cards.names_of(m) == ["2-oro", "12-copa", "3-copa", "7-espada", "1-basto"]
    assert cards.cards_of(m) == sorted(cards.parse(n) for n in names)


def test_parse_mask_rejects_unknown_card():
    with pytest.raises(cards.CardError):
        cards.parse_mask(["1-oro", "11-bastos"])


def test_empty_and_full_masks():
    assert cards.parse_mask([]) == 0
    assert cards.names_of(0) == []
    assert len(cards.names_of(cards.FULL_DECK)) == 40
    assert cards.names_of(cards.FULL_DECK) == [cards.NAMES[c] for c in range(40)]


def test_suit_masks_partition_the_deck():
    total = 0
    for s, suit in enumerate(SUITS):
        m = cards.SUIT_MASK[s]
        assert m.bit_count() == 10
        assert all(n.endswith("-" + suit) for n in cards.names_of(m))
        assert total & m == 0
        total |= m
    assert total == cards.FULL_DECK
