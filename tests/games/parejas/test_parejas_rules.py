"""Tute por parejas against docs/rules-parejas.md: one test (or a few) per rule P1-P30, then faults,
the worked examples, the rule set and the game's registration.

Positions are built with stacked deals (``stack_hands``): mano 1 (trump oro, the ``2-oro``
holder is mano) or mano 2, reached by playing mano 1 out, where seat 0 is mano, seat 3 deals
and the last card of seat 3's hand is shown as trump. Expected values are worked out by hand
from the page.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from arena import cards, games
from arena.cards import SUITS, parse, parse_mask, points_of
from arena.engine import IllegalMove, Partido, deal_key, deal_order
from arena.games import names
from arena.parejas import rules as pr
from arena.parejas.engine import ParejasPartido, stack_hands
from arena.parejas.rules import ParejasRules
from arena.rules import RulesError
from tests.helpers import fill_hands

SEED = 7

LUDOTEKA = ParejasRules("ludoteka")
ESPANOL = ParejasRules("espanol")


# ===================================================================== helpers


def fill(specs: Sequence[Sequence[str]], allowed: Sequence[str | None] = (None,) * 4) -> list[list[str]]:
    """Complete partial hands by seat to 10 cards, lowest card id first, each seat only from the
    suits ``allowed`` names (space-separated; None: any suit)."""
    used = {c for h in specs for c in h}
    assert len(used) == sum(len(h) for h in specs), "a card is named twice"
    free = [n for n in cards.NAMES if n not in used]
    out = [list(h) for h in specs]
    for seat in sorted(range(4), key=lambda s: allowed[s] is None):  # the constrained seats first
        suits = allowed[seat]
        ok = [n for n in free if suits is None or n.split("-")[1] in suits.split()]
        take = ok[: 10 - len(out[seat])]
        out[seat] += take
        assert len(out[seat]) == 10, "cannot complete the hand from the allowed suits"
        free = [n for n in free if n not in take]
    assert not free
    return out


def first_mano(hands: Sequence[Sequence[str]], rules: ParejasRules = LUDOTEKA) -> ParejasPartido:
    """Mano 1 dealt as ``hands`` (by seat, complete)."""
    return ParejasPartido(4, SEED, rules, stacked={1: (0, stack_hands(hands, 0))})


def second_mano(
    hands: Sequence[Sequence[str]], shown: str, rules: ParejasRules = LUDOTEKA, *, offers: bool = False
) -> ParejasPartido:
    """A partido at the start of mano 2, dealt as ``hands`` (by seat, complete): seat 0 is mano,
    seat 3 deals and shows ``shown`` (moved to the end of its hand). Mano 1 (seat 3 holds the
    ``2-oro``) is played out with the first legal card and no canto. With ``offers`` false the
    offers of *tirar las cartas* of mano 2 are passed too."""
    assert shown in hands[3]
    hands = [list(h) for h in hands]
    hands[3] = [c for c in hands[3] if c != shown] + [shown]
    one = fill_hands([[], [], [], ["2-oro"]], 10)
    p = ParejasPartido(4, SEED, rules, stacked={1: (0, stack_hands(one, 0)), 2: (0, stack_hands(hands, 0))})
    while p.mano_number == 1:
        r = p.request()
        p.play(r["legal"][0] if r["legal"] else None)
    assert p.mano_number == 2 and not p.over
    if not offers:
        pass_offers(p)
    return p


def pass_offers(p: ParejasPartido) -> None:
    """Pass every canto or *tirar* offer until a card is awaited (or the partido ends)."""
    while not p.over and not p.request()["legal"]:
        p.play(None)


def play(p: ParejasPartido, *names: str) -> None:
    """Play ``names`` in turn, passing the offers in between."""
    for name in names:
        pass_offers(p)
        p.play(name)


def last(p: ParejasPartido, kind: str) -> dict[str, Any]:
    return [e for e in p.events if e["type"] == kind][-1]


def of_type(p: ParejasPartido, kind: str) -> list[dict[str, Any]]:
    return [e for e in p.events if e["type"] == kind]


def snapshot(p: ParejasPartido) -> tuple[Any, ...]:
    return (len(p.events), p.to_move, p.juegos[:], copy.deepcopy(vars(p.mano)), p.over)


def refused(p: ParejasPartido, card: str | int | None, sing: str | None = None) -> str:
    """Attempt a move the rules forbid; it changes nothing. Returns the fault's reason."""
    before = snapshot(p)
    with pytest.raises(IllegalMove) as info:
        p.play(card, sing)
    assert snapshot(p) == before, "a refused move changes nothing"
    return info.value.reason


def play_out(p: ParejasPartido, rng: random.Random | None = None, sing: bool = True) -> None:
    """Drive ``p`` to its end: random (or first) legal cards, the first canto offered, never tirar."""
    while not p.over:
        r = p.request()
        if r["legal"]:
            p.play(rng.choice(r["legal"]) if rng else r["legal"][0])
        else:
            p.play(None, r["may_sing"][0] if sing and r["may_sing"] else None)


# The hands of mano 1 with the first legal card: seat 0 is mano (holds 2-oro), everyone follows.
ORO_LEAD = fill([["2-oro", "1-oro", "12-oro"], ["4-oro"], ["5-oro"], ["6-oro"]])


# ===================================================================== cards


def test_p1_every_mano_deals_the_40_cards_10_to_each_seat() -> None:
    for rules in (LUDOTEKA, ESPANOL):
        p = ParejasPartido(4, 2024, rules)
        play_out(p, random.Random(1))
        starts = of_type(p, "mano_start")
        assert len(starts) == p.mano_number >= 1
        for e in starts:
            dealt = [c for h in e["hands"] for c in h]
            assert all(len(h) == 10 for h in e["hands"])
            assert sorted(dealt) == sorted(cards.NAMES)
            assert all(c.split("-")[1] in SUITS for c in dealt)


def test_p2_strength_inside_a_suit_then_trump_then_the_led_suit() -> None:
    order = [1, 3, 12, 11, 10, 7, 6, 5, 4, 2]  # strongest first
    trump = SUITS.index("oro")
    for suit in SUITS:
        for i, hi in enumerate(order):
            for lo in order[i + 1 :]:
                assert pr.beats(parse(f"{hi}-{suit}"), parse(f"{lo}-{suit}"), trump)
                assert not pr.beats(parse(f"{lo}-{suit}"), parse(f"{hi}-{suit}"), trump)
    assert pr.beats(parse("2-oro"), parse("1-copa"), trump)  # any trump beats the led suit
    assert not pr.beats(parse("1-espada"), parse("2-copa"), trump)  # another suit never beats
    # the same through a baza: 12-copa led; 2-espada (no copa) loses to it; 1-copa wins
    hands = fill(
        [["2-oro", "12-copa"], ["1-copa"], ["2-espada"], ["3-copa"]],
        [None, None, "espada basto", None],
    )
    p = first_mano(hands)
    play(p, "12-copa", "1-copa", "2-espada", "3-copa")
    assert last(p, "trick_end")["winner"] == 1


def test_p3_card_points_add_up_to_120() -> None:
    assert {cards.RANK[c]: cards.POINTS[c] for c in range(40)} == {
        1: 11,
        3: 10,
        12: 4,
        11: 3,
        10: 2,
        7: 0,
        6: 0,
        5: 0,
        4: 0,
        2: 0,
    }
    assert points_of(cards.FULL_DECK) == 120
    p = first_mano(ORO_LEAD)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    assert last(p, "trick_end")["points"] == 11


# ===================================================================== table and pairs


@pytest.mark.parametrize("n", [3, 5, 6])
def test_p4_exactly_four_players(n: int) -> None:
    with pytest.raises(ValueError, match=str(n)):
        ParejasPartido(n, 1)


def test_p4_partners_sit_opposite_and_score_together() -> None:
    assert [pr.pair_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [pr.partner(s) for s in range(4)] == [2, 3, 0, 1]
    p = ParejasPartido(4, 99)
    play_out(p, random.Random(3))
    assert p.porotos[0] == p.porotos[2] == p.juegos[0]
    assert p.porotos[1] == p.porotos[3] == p.juegos[1]
    assert sorted(p.winners) in ([0, 2], [1, 3])
    req_seats = []
    q = ParejasPartido(4, 99)
    while not q.over and len(req_seats) < 12:
        r = q.request()
        req_seats.append((q.to_move, r["partner"]))
        q.play(r["legal"][0] if r["legal"] else None)
    assert all(partner == (seat + 2) % 4 for seat, partner in req_seats)


def test_p5_play_goes_to_the_right() -> None:
    p = ParejasPartido(4, 5)
    play_out(p, random.Random(5))
    for e in of_type(p, "trick_end"):
        seats = [x["seat"] for x in e["cards"]]
        assert seats == [(seats[0] + i) % 4 for i in range(4)]
    assert pr.right(3) == 0 and pr.left(0) == 3


# ===================================================================== dealing


def test_p6_cards_are_dealt_one_at_a_time_from_the_mano_the_dealer_last() -> None:
    p = ParejasPartido(4, 31)
    play_out(p, random.Random(31))
    key = deal_key(31)
    for e in of_type(p, "mano_start")[1:]:
        _start, deck = deal_order(key, e["mano"], [0, 1, 2, 3])
        mano = e["mano_seat"]
        for i in range(4):
            assert e["hands"][(mano + i) % 4] == cards.names_of(cards.mask(deck[i::4]))
        assert e["shown"] == cards.NAMES[deck[39]] and e["shown"] in e["hands"][e["dealer"]]


def test_p6_the_seed_deals_mano_1_as_a_four_player_cabrero_partido() -> None:
    """The same machinery as Tute Cabrero: same seed, same first deal."""
    for seed in (3, "ab" * 32):
        assert ParejasPartido(4, seed).events[0]["hands"] == Partido(4, seed).events[0]["hands"]


def test_p7_the_first_mano_oro_is_trump_and_the_two_of_oro_is_mano() -> None:
    for seed in range(20):
        p = ParejasPartido(4, seed)
        e = p.events[0]
        assert e["mano"] == 1 and e["trump"] == "oro" and e["shown"] is None
        assert "2-oro" in e["hands"][e["mano_seat"]]
        assert e["dealer"] == (e["mano_seat"] - 1) % 4
        assert p.to_move == e["mano_seat"]
        assert p.request()["legal"] == e["hands"][e["mano_seat"]]


def test_p8_the_last_mano_deals_and_the_seat_to_its_right_is_mano() -> None:
    p = ParejasPartido(4, 8, ParejasRules("espanol", juegos=20))
    play_out(p, random.Random(8))
    starts = of_type(p, "mano_start")
    assert len(starts) > 3
    for before, after in itertools.pairwise(starts):
        assert after["dealer"] == before["mano_seat"]
        assert after["mano_seat"] == (before["mano_seat"] + 1) % 4


def test_p9_the_dealer_shows_its_last_card_and_keeps_it() -> None:
    hands = fill([[], [], [], ["7-espada"]])
    p = second_mano(hands, "7-espada")
    e = last(p, "mano_start")
    assert (e["mano_seat"], e["dealer"], e["trump"], e["shown"]) == (0, 3, "espada", "7-espada")
    assert "7-espada" in e["hands"][3]
    assert p.request()["trump"] == "espada"


# ===================================================================== bazas


def test_p10_ten_bazas_and_the_winner_of_each_leads_the_next() -> None:
    p = ParejasPartido(4, 10)
    while p.mano_number == 1:
        r = p.request()
        p.play(r["legal"][-1] if r["legal"] else None)
    bazas = [e for e in p.events if e["type"] == "trick_end"]
    assert [e["baza"] for e in bazas] == list(range(1, 11))
    assert bazas[0]["cards"][0]["seat"] == p.events[0]["mano_seat"]
    for prev, nxt in itertools.pairwise(bazas):
        assert nxt["cards"][0]["seat"] == prev["winner"]


def test_p11_the_leader_may_play_any_card_trumps_included() -> None:
    p = first_mano(ORO_LEAD)
    assert sorted(p.request()["legal"]) == sorted(ORO_LEAD[0])
    play(p, "1-oro")  # arrastre
    assert of_type(p, "played")[-1]["card"] == "1-oro"


def test_p12_after_a_trump_no_card_of_the_led_suit_beats_it() -> None:
    trump = SUITS.index("oro")
    hand = parse_mask(["1-copa", "5-copa", "4-espada"])
    # 5-copa led, 3-oro on it: any copa may follow (none beats the trump)
    assert pr.legal_mask(hand, SUITS.index("copa"), parse("3-oro"), trump, "ludoteka") == parse_mask(
        ["1-copa", "5-copa"]
    )


def _p13_position(rules: ParejasRules) -> ParejasPartido:
    """Mano 1, trump oro: seat 0 leads 12-copa, seat 1 (no copa) trumps with 1-oro.
    Seat 2 holds 1-copa as its only copa and 5-espada; seat 3 holds 4-oro as its only trump, no copa."""
    hands = fill(
        [
            ["2-oro", "12-copa"],
            ["1-oro"],
            ["1-copa", "5-espada"],
            ["4-oro"],
        ],
        ["copa", "oro espada basto", "espada basto", "espada basto"],
    )
    p = first_mano(hands, rules)
    play(p, "12-copa", "1-oro")
    return p


@pytest.mark.parametrize("rules", [LUDOTEKA, ESPANOL], ids=["ludoteka", "espanol"])
def test_p13_the_example_follow_suit_even_when_it_cannot_win(rules: ParejasRules) -> None:
    p = _p13_position(rules)
    assert p.request()["legal"] == ["1-copa"]
    assert refused(p, "5-espada") == "renuncio"
    play(p, "1-copa")
    legal = p.request()["legal"]
    if rules.ruleset == "ludoteka":  # case 3: any card
        assert legal == p.request()["hand"] and "4-oro" in legal and "5-basto" in legal
    else:  # case 3 under espanol: any trump (A8)
        assert legal == ["4-oro"]
        assert refused(p, "5-basto") == "renuncio"


def test_p13_case_1_follow_suit_and_beat_when_possible() -> None:
    hands = fill(
        [["2-oro", "10-copa"], ["2-copa", "12-copa", "4-espada"], ["1-copa"], []],
        [None, "espada basto", None, None],
    )
    p = first_mano(hands)
    play(p, "10-copa")
    assert p.request()["legal"] == ["12-copa"]  # must beat the sota
    assert refused(p, "2-copa") == "renuncio"  # not beating when able
    assert refused(p, "4-espada") == "renuncio"  # not following suit


def test_p13_case_1_trumping_while_holding_the_led_suit_is_a_renuncio() -> None:
    hands = fill([["2-oro", "10-copa"], ["2-copa", "3-oro"], [], []], [None, "oro espada basto", None, None])
    p = first_mano(hands)
    play(p, "10-copa")
    assert refused(p, "3-oro") == "renuncio"


def test_p13_case_2_void_in_the_led_suit_trump_and_overtrump() -> None:
    hands = fill(
        [["2-oro", "10-copa"], ["4-oro"], ["7-oro", "5-oro"], []],
        [None, "oro espada basto", "oro espada basto", None],
    )
    p = first_mano(hands)
    play(p, "10-copa")
    legal = p.request()["legal"]
    assert legal and all(c.endswith("-oro") for c in legal)  # must trump
    assert refused(p, "2-espada") == "renuncio"
    play(p, "4-oro")
    assert "5-oro" in p.request()["legal"] and all(
        pr.beats(parse(c), parse("4-oro"), 0) for c in p.request()["legal"]
    )  # must overtrump


def test_p13_case_4_neither_the_led_suit_nor_trump_any_card() -> None:
    hands = fill([["2-oro", "10-copa"], [], [], []], [None, "espada basto", None, None])
    p = first_mano(hands, ESPANOL)
    pass_offers(p)
    play(p, "10-copa")
    assert sorted(p.request()["legal"]) == sorted(hands[1])


def test_p13_no_exception_when_the_partner_is_winning() -> None:
    """A6: seat 2 must beat its partner's card too."""
    hands = fill(
        [["2-oro", "10-copa"], ["2-copa"], ["12-copa", "4-copa"], []],
        [None, "espada basto", "espada basto", None],
    )
    p = first_mano(hands)
    play(p, "10-copa", "2-copa")
    assert p.request()["legal"] == ["12-copa"]
    assert refused(p, "4-copa") == "renuncio"


def test_p14_the_highest_trump_takes_the_baza_else_the_highest_of_the_led_suit() -> None:
    hands = fill(
        [["2-oro", "10-copa"], ["4-oro"], ["1-copa"], ["5-oro"]],
        [None, "oro espada basto", None, "oro espada basto"],
    )
    p = first_mano(hands)
    play(p, "10-copa", "4-oro", "1-copa", "5-oro")
    e = last(p, "trick_end")
    assert e["winner"] == 3 and e["points"] == 2 + 11
    pass_offers(p)
    assert p.to_move == 3 and p.request()["table"] == []  # the winner leads


# ===================================================================== cantos

# Mano 1 (trump oro): seat 0 leads 1-oro and takes baza 1; it holds 12/11 of copa and espada.
SINGER = fill(
    [
        ["2-oro", "1-oro", "3-oro", "12-copa", "11-copa", "12-espada", "11-espada"],
        ["4-oro"],
        ["5-oro"],
        ["6-oro"],
    ],
    ["basto", None, None, None],
)


def test_p15_the_cantos_and_their_cards() -> None:
    assert pr.valid_cantos(parse_mask(["12-oro", "11-oro"]), 0, 0, False, "ludoteka") == ["cuarenta"]
    assert pr.valid_cantos(parse_mask(["12-copa", "11-copa"]), 0, 0, False, "ludoteka") == ["veinte-copa"]
    assert pr.valid_cantos(parse_mask(["12-copa", "10-copa"]), 0, 0, False, "ludoteka") == []
    kings = parse_mask([f"12-{s}" for s in SUITS])
    assert pr.valid_cantos(kings, 0, 0, False, "ludoteka") == ["tute"]
    assert pr.canto_points("cuarenta", 0) == 40 and pr.canto_points("veinte-copa", 0) == 20


def test_p15_a_canto_needs_its_cards_in_hand_and_they_stay_there() -> None:
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    r = p.request()
    assert p.to_move == 0 and r["legal"] == [] and r["may_sing"] == ["veinte-copa", "veinte-espada"]
    assert refused(p, None, "veinte-basto") == "false_canto"  # cards not in hand
    assert refused(p, None, "cuarenta") == "false_canto"
    p.play(None, "veinte-copa")
    assert last(p, "sang") == {"type": "sang", "seat": 0, "canto": "veinte-copa", "points": 20}
    assert "12-copa" in p.request()["hand"] and "11-copa" in p.request()["hand"]


def test_p15_each_canto_once_per_mano() -> None:
    copa = SUITS.index("copa")
    both = parse_mask(["12-copa", "11-copa", "12-espada", "11-espada"])
    assert pr.valid_cantos(both, 0, 1 << copa, True, "ludoteka") == ["veinte-espada"]
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None, "veinte-copa")
    assert p.request()["may_sing"] == ["veinte-espada"]
    assert refused(p, None, "veinte-copa") == "false_canto"  # sung already
    p.play(None)
    play(p, "3-oro")
    while len(of_type(p, "trick_end")) < 2:
        p.play(p.request()["legal"][0])
    assert last(p, "trick_end")["winner"] == 0  # the 3-oro is the highest trump left
    assert p.to_move == 0 and p.request()["may_sing"] == ["veinte-espada"]


def test_p16_no_canto_before_the_pair_s_first_baza() -> None:
    p = first_mano(SINGER)
    assert p.request()["may_sing"] == []
    assert refused(p, "1-oro", "veinte-copa") == "protocol"


def test_p16_only_the_pair_that_won_the_baza_is_offered_either_partner() -> None:
    # seat 1 wins baza 1 with 1-oro; seat 3 (its partner) holds a veinte; seat 0 holds one too
    hands = fill(
        [["2-oro", "12-copa", "11-copa"], ["1-oro"], ["4-oro"], ["12-basto", "11-basto", "5-oro"]],
    )
    p = first_mano(hands)
    play(p, "2-oro", "1-oro", "4-oro", "5-oro")
    assert last(p, "trick_end")["winner"] == 1
    assert p.to_move == 3 and p.request()["may_sing"] == ["veinte-basto"]  # seat 1 has none: skipped
    p.play(None, "veinte-basto")
    assert last(p, "sang")["seat"] == 3
    assert p.to_move == 1 and p.request()["legal"]  # the winner leads
    # seat 0's veinte is never offered for B's baza, and sung during its play it is false
    p.play(p.request()["legal"][0])
    pass_offers(p)
    assert p.to_move == 2
    p.play(p.request()["legal"][0])
    assert p.to_move == 3
    p.play(p.request()["legal"][0])
    assert p.to_move == 0
    assert refused(p, p.request()["legal"][0], "veinte-copa") == "protocol"


def test_p16_a_canto_may_wait_for_a_later_baza() -> None:
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None)  # passes veinte-copa and veinte-espada
    assert p.request()["legal"] and not of_type(p, "sang")
    play(p, "3-oro")
    while len(of_type(p, "trick_end")) < 2:
        p.play(p.request()["legal"][0])
    assert last(p, "trick_end")["winner"] == 0
    assert p.request()["may_sing"] == ["veinte-copa", "veinte-espada"]
    p.play(None, "veinte-espada")
    assert last(p, "sang")["canto"] == "veinte-espada"


def test_p17_singing_is_optional() -> None:
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None)
    assert p.to_move == 0 and p.request()["may_sing"] == [] and p.request()["legal"]


def test_p18_ludoteka_two_cantos_after_one_baza() -> None:
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None, "veinte-copa")
    assert p.request()["may_sing"] == ["veinte-espada"]
    p.play(None, "veinte-espada")
    assert p.request()["may_sing"] == [] and p.request()["legal"]


def test_p18_espanol_one_canto_after_one_baza() -> None:
    p = first_mano(SINGER, ESPANOL)
    pass_offers(p)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None, "veinte-copa")
    r = p.request()
    assert r["may_sing"] == [] and r["legal"]
    assert refused(p, r["legal"][0], "veinte-espada") == "protocol"  # over the limit


def test_p18_the_winner_is_offered_first_then_the_partner() -> None:
    hands = fill(
        [["2-oro", "1-oro", "12-copa", "11-copa"], ["4-oro"], ["12-espada", "11-espada", "5-oro"], ["6-oro"]],
        ["basto", None, "espada", None],
    )
    p = first_mano(hands)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    assert p.to_move == 0 and p.request()["may_sing"] == ["veinte-copa"]
    p.play(None, "veinte-copa")
    assert p.to_move == 2 and p.request()["may_sing"] == ["veinte-espada"]
    p.play(None, "veinte-espada")
    assert p.to_move == 0 and p.request()["legal"]
    assert [(e["seat"], e["canto"]) for e in of_type(p, "sang")] == [(0, "veinte-copa"), (2, "veinte-espada")]


def test_p19_las_cuarenta_before_las_veinte() -> None:
    hands = fill(
        [["2-oro", "1-oro", "12-oro", "11-oro", "12-copa", "11-copa"], ["4-oro"], ["5-oro"], ["6-oro"]],
        ["basto", None, None, None],
    )
    for rules in (LUDOTEKA, ESPANOL):
        p = first_mano(hands, rules)
        pass_offers(p)
        play(p, "1-oro", "4-oro", "5-oro", "6-oro")
        assert p.request()["may_sing"] == ["cuarenta"]
        assert refused(p, None, "veinte-copa") == "false_canto"
        p.play(None, "cuarenta")
        if rules.ruleset == "ludoteka":  # both at the same moment, the cuarenta first
            assert p.request()["may_sing"] == ["veinte-copa"]
        else:
            assert p.request()["may_sing"] == []


def test_p19_the_bar_is_per_player() -> None:
    """A15: the partner of the cuarenta's holder may sing a veinte first."""
    hands = fill(
        [["2-oro", "1-oro", "12-oro", "11-oro"], ["4-oro"], ["12-copa", "11-copa", "5-oro"], ["6-oro"]],
        ["basto", None, "copa", None],
    )
    p = first_mano(hands, ESPANOL)
    pass_offers(p)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None)  # seat 0 passes the cuarenta
    assert p.to_move == 2 and p.request()["may_sing"] == ["veinte-copa"]


def test_p20_canto_points_count_for_the_singing_pair() -> None:
    p = first_mano(SINGER)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    p.play(None, "veinte-copa")
    p.play(None, "veinte-espada")
    assert p.request()["tantos"][0] == 11 + 40
    play_out(p, sing=False)  # the first legal card to the end of the partido
    end = of_type(p, "mano_end")[0]
    assert end["cantos"] == [40, 0]
    assert end["tantos"][0] == end["card_points"][0] + (10 if end["last_baza"] == 0 else 0) + 40


TUTE_HAND = fill(
    [["2-oro", "1-oro", "12-oro", "12-copa", "12-espada", "12-basto"], ["4-oro"], ["5-oro"], ["6-oro"]],
    ["basto", None, None, None],
)


@pytest.mark.parametrize(
    ("rules", "juegos", "partido_over"),
    [
        (ParejasRules("ludoteka", 4), [0, 0], True),
        (ParejasRules("ludoteka", 2), [0, 0], True),
        (ParejasRules("ludoteka", 5), [2, 0], False),
        (ParejasRules("espanol"), [2, 0], False),
        (ParejasRules("espanol", 2), [2, 0], True),
    ],
    ids=["ludoteka-4", "ludoteka-2", "ludoteka-5", "espanol-8", "espanol-2"],
)
def test_p21_tute_ends_the_mano(rules: ParejasRules, juegos: list[int], partido_over: bool) -> None:
    p = first_mano(TUTE_HAND, rules)
    pass_offers(p)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    assert p.request()["may_sing"][0] == "tute"
    p.play(None, "tute")
    end = of_type(p, "mano_end")[0]
    assert end["outcome"] == "tute" and end["winner"] == 0 and end["tantos"] is None
    assert end["juegos"] == juegos
    assert p.over == partido_over
    if partido_over:
        assert p.winners == [0, 2] and p.ranking() == [[0, 2], [1, 3]]
    else:
        assert p.mano_number == 2


def test_p21_ludoteka_no_tute_after_the_singer_s_own_canto() -> None:
    hands = fill(
        [
            ["2-oro", "1-oro", "12-oro", "11-oro", "12-copa", "12-espada", "12-basto"],
            ["4-oro"],
            ["5-oro"],
            ["6-oro"],
        ],
        ["basto", None, None, None],
    )
    p = first_mano(hands)
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    assert p.request()["may_sing"] == ["tute", "cuarenta"]
    p.play(None, "cuarenta")
    assert "tute" not in p.request()["may_sing"]
    assert refused(p, None, "tute") == ("false_canto" if not p.request().get("legal") else "protocol")
    q = first_mano(hands, ESPANOL)  # espanol has no such bar, but one canto per baza
    pass_offers(q)
    play(q, "1-oro", "4-oro", "5-oro", "6-oro")
    q.play(None, "cuarenta")
    assert q.request()["may_sing"] == []


def test_p21_ludoteka_only_the_singer_s_own_cantos_bar_tute() -> None:
    """A16: what others sang (here the veinte-copa, ``sung_suits``) does not matter; the singer's own does."""
    kings = parse_mask([f"12-{s}" for s in SUITS])
    copa = SUITS.index("copa")
    assert pr.valid_cantos(kings, 0, 1 << copa, False, "ludoteka") == ["tute"]
    assert pr.valid_cantos(kings, 0, 1 << copa, True, "ludoteka") == []
    assert pr.valid_cantos(kings, 0, 1 << copa, True, "espanol") == ["tute"]


def test_p22_false_cantos_are_renuncios_and_a_canto_beside_a_card_is_a_protocol_fault() -> None:
    p = first_mano(SINGER)
    assert refused(p, "1-oro", "cuarenta") == "protocol"  # beside a card request: the reply's shape (A23)
    assert refused(p, "1-oro", "tirar") == "protocol"  # the same, whatever the ruleset
    assert refused(p, "1-oro", "cuarentaa") == "protocol"  # no canto at all
    play(p, "1-oro", "4-oro", "5-oro", "6-oro")
    assert refused(p, None, "veinte-oro") == "false_canto"  # the trump pair is the cuarenta
    assert refused(p, "2-oro") == "protocol"  # a card where a canto or a pass is awaited


# ===================================================================== scoring


def test_p23_tantos_are_card_points_ultimas_and_cantos() -> None:
    assert pr.tantos([72, 48], 1, [60, 20], "ludoteka") == [132, 78]
    for seed in range(6):
        p = ParejasPartido(4, seed)
        play_out(p, random.Random(seed))
        for e in of_type(p, "mano_end"):
            if e["outcome"] == "points":
                assert sum(e["card_points"]) == 120
                assert sum(e["tantos"]) == 130 + sum(e["cantos"])


def test_p24_espanol_cantos_need_30() -> None:
    assert pr.tantos([29, 91], 1, [40, 0], "espanol") == [29, 101]
    assert pr.tantos([30, 90], 1, [40, 0], "espanol") == [70, 100]
    assert pr.tantos([20, 100], 0, [40, 0], "espanol") == [70, 100]  # 20 + últimas = 30
    assert pr.tantos([29, 91], 1, [40, 0], "ludoteka") == [69, 101]


def test_p25_more_tantos_wins_a_tie_goes_to_the_ultimas() -> None:
    assert pr.mano_winner([80, 50], 1) == 0
    assert pr.mano_winner([65, 65], 1) == 1
    assert pr.mano_winner([65, 65], 0) == 0


def test_p26_two_juegos_with_more_than_100() -> None:
    assert pr.juegos_for(100) == 1
    assert pr.juegos_for(101) == 2
    assert pr.juegos_for(66) == 1


def test_p27_espanol_thresholds_are_p25_and_p26() -> None:
    # «pasa de 65»: 66 of 130 wins; «superar 75» with a veinte counted; «superar 85» with the cuarenta
    assert pr.mano_winner(pr.tantos([56, 64], 0, [0, 0], "espanol"), 0) == 0  # 66 against 64
    t = pr.tantos([56, 64], 1, [20, 0], "espanol")
    assert t == [76, 74] and pr.mano_winner(t, 1) == 0
    t = pr.tantos([46, 64], 0, [40, 0], "espanol")
    assert t == [96, 64] and pr.mano_winner(t, 0) == 0 and pr.juegos_for(96) == 1


# ===================================================================== tirar las cartas

POOR = [
    "2-oro",
    "4-oro",
    "5-copa",
    "6-copa",
    "7-copa",
    "2-espada",
    "4-espada",
    "10-espada",
    "5-basto",
    "11-basto",
]


def _tirar_hands(poor_seat: int) -> list[list[str]]:
    specs: list[list[str]] = [[], [], [], []]
    specs[poor_seat] = POOR
    return fill(specs)


def test_p28_tirar_is_offered_only_to_poor_hands_in_turn_from_the_mano() -> None:
    hands = [
        ["2-oro", "4-oro", "5-oro", "6-oro", "7-oro", "2-copa", "4-copa", "5-copa", "6-copa", "10-copa"],
        ["1-oro", "3-oro", "12-oro", "11-oro", "10-oro", "1-copa", "3-copa", "12-copa", "11-copa", "7-copa"],
        [
            "2-espada",
            "4-espada",
            "5-espada",
            "6-espada",
            "7-espada",
            "2-basto",
            "4-basto",
            "5-basto",
            "6-basto",
            "10-espada",
        ],
        [
            "1-espada",
            "3-espada",
            "12-espada",
            "11-espada",
            "1-basto",
            "3-basto",
            "12-basto",
            "11-basto",
            "10-basto",
            "7-basto",
        ],
    ]
    assert [points_of(parse_mask(h)) for h in hands] == [2, 58, 2, 58]
    p = first_mano(hands, ESPANOL)  # seat 0 holds 2-oro: mano
    r = p.request()
    assert p.to_move == 0 and r["may_concede"] and r["legal"] == [] and r["may_sing"] == []
    p.play(None)
    assert p.to_move == 2 and p.request()["may_concede"]  # seat 1 (71) is skipped
    p.play(None)
    r = p.request()
    assert p.to_move == 0 and not r["may_concede"] and r["legal"]
    assert refused(p, r["legal"][0], "tirar") == "protocol"  # too late (A23)


def test_p28_giving_up_gives_the_other_pair_two_juegos() -> None:
    p = first_mano(_tirar_hands(1), ESPANOL)  # seat 1 holds 2-oro: mano, asked first
    assert p.to_move == 1 and p.request()["may_concede"]
    p.play(None, "tirar")
    assert last(p, "conceded") == {"type": "conceded", "seat": 1}
    end = last(p, "mano_end")
    assert end["outcome"] == "tirar" and end["winner"] == 0 and end["juegos_won"] == [2, 0]
    assert p.juegos == [2, 0] and p.porotos == [2, 0, 2, 0] and p.mano_number == 2


def test_p28_a_rich_hand_may_not_give_up_and_ludoteka_has_no_tirar() -> None:
    p = first_mano(ORO_LEAD, ESPANOL)  # seat 0 holds the oro's points
    while p.request()["may_concede"]:
        assert p.to_move != 0
        p.play(None)
    assert p.to_move == 0 and refused(p, None, "tirar") == "protocol"
    q = first_mano(_tirar_hands(0), LUDOTEKA)
    assert not q.request()["may_concede"]
    assert refused(q, None, "tirar") == "protocol"
    assert pr.may_tirar(parse_mask(POOR)) and not pr.may_tirar(parse_mask(["1-oro"]))
    assert pr.may_tirar(parse_mask(["3-oro", "2-copa"])) and not pr.may_tirar(
        parse_mask(["3-oro", "10-copa"])
    )


# ===================================================================== the end of the partido


@pytest.mark.parametrize("rules", [ParejasRules("ludoteka", 1), ParejasRules("espanol", 3), LUDOTEKA])
def test_p29_the_partido_ends_when_a_pair_reaches_n_juegos(rules: ParejasRules) -> None:
    for seed in range(5):
        p = ParejasPartido(4, seed, rules)
        play_out(p, random.Random(seed), sing=False)
        ends = of_type(p, "mano_end")
        assert max(ends[-1]["juegos"]) >= rules.juegos
        assert all(max(e["juegos"]) < rules.juegos for e in ends[:-1])
        winner = ends[-1]["juegos"].index(max(ends[-1]["juegos"]))
        assert p.winners == list(pr.PAIRS[winner])
        assert p.events[-1] == {
            "type": "partido_end",
            "winners": p.winners,
            "juegos": ends[-1]["juegos"],
            "ranking": [p.winners, list(pr.PAIRS[1 - winner])],
            "manos": p.mano_number,
        }
        assert p.to_move is None


def test_p30_n_defaults_and_range() -> None:
    assert ParejasRules("ludoteka").juegos == 4 and ParejasRules("espanol").juegos == 8
    assert ParejasRules("espanol", 1).juegos == 1
    for bad in (0, -2, 2.5, True, "4"):
        with pytest.raises(RulesError):
            ParejasRules("ludoteka", bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        ParejasRules("cabrero-2002")
    with pytest.raises(RulesError):
        ParejasRules("espanol", renuncio="accuse")


def test_p30_the_rules_travel_as_plain_values() -> None:
    r = ParejasRules("espanol", 6, "penalize")
    assert r.to_dict() == {"ruleset": "espanol", "juegos": 6, "renuncio": "penalize"}
    assert ParejasRules.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    assert ParejasRules.from_dict({"ruleset": "espanol"}) == ParejasRules("espanol", 8)
    assert hash(r) == hash(ParejasRules("espanol", 6, "penalize")) and copy.deepcopy(r) is r
    with pytest.raises(AttributeError):
        r.juegos = 3  # type: ignore[misc]
    assert ParejasPartido(4, 1, {"ruleset": "espanol", "juegos": 3}).rules == ParejasRules("espanol", 3)
    with pytest.raises(ValueError):
        ParejasPartido(4, 1, "ludoteka")  # type: ignore[arg-type]


# ===================================================================== faults (rules.md, "Faults"; A26)


def test_a_disqualified_player_s_pair_loses_the_partido() -> None:
    p = first_mano(ORO_LEAD)
    play(p, "1-oro")
    assert p.fault(1, "timeout", "too slow", elapsed_ms=9000)
    assert p.over and p.winners == [0, 2] and p.disqualified == [1]
    assert [e["type"] for e in p.events[-3:]] == ["disqualified", "mano_end", "partido_end"]
    assert p.events[-3] == {
        "type": "disqualified",
        "seat": 1,
        "reason": "timeout",
        "detail": "too slow",
        "elapsed_ms": 9000,
    }
    assert last(p, "mano_end")["outcome"] == "void" and last(p, "mano_end")["winner"] is None
    assert p.ranking() == [[0, 2], [3], [1]]
    assert not p.fault(3, "crash", "gone")  # the partido is decided
    assert p.to_move is None


def test_a_renuncio_under_disqualify() -> None:
    p = _p13_position(LUDOTEKA)
    with pytest.raises(IllegalMove) as info:
        p.play("5-espada")
    e = info.value
    assert (e.reason, e.evidence) == ("renuncio", {"card": "5-espada"})
    assert p.fault(2, e.reason, e.detail, **e.evidence)
    assert p.winners == [1, 3] and last(p, "disqualified")["card"] == "5-espada"


def test_a_renuncio_under_penalize_gives_the_other_pair_two_juegos() -> None:
    p = _p13_position(ParejasRules("ludoteka", renuncio="penalize"))
    assert p.fault(2, "renuncio", "5-espada", card="5-espada")
    assert not p.over and p.mano_number == 2 and p.disqualified == []
    end = last(p, "mano_end")
    assert end["outcome"] == "penalty" and end["winner"] == 1 and end["juegos_won"] == [0, 2]
    assert p.porotos == [0, 2, 0, 2]
    assert last(p, "penalized")["seat"] == 2
    # protocol faults still disqualify
    assert p.fault(0, "not_in_hand", "1-copa", card="1-copa")
    assert p.over and p.winners == [1, 3]


def test_penalties_can_decide_the_partido() -> None:
    p = first_mano(ORO_LEAD, ParejasRules("espanol", 2, "penalize"))
    assert p.fault(p.to_move or 0, "false_canto", "x", canto="cuarenta")
    assert p.over and len(p.winners) == 2 and p.mano_number == 1


def test_faults_before_the_deal() -> None:
    p = games.spec("tute-parejas").new_partido(4, 3, deal=False)
    assert p.events == [] and p.mano_number == 0 and p.to_move is None
    assert p.fault(3, "protocol", "bad hello")
    p.start()
    assert p.over and p.winners == [0, 2] and p.mano_number == 0
    assert p.ranking() == [[0, 2], [1], [3]]
    q = games.spec("tute-parejas").new_partido(4, 3, deal=False)
    q.fault(0, "crash", "x")
    q.fault(1, "crash", "y")
    q.start()
    assert q.over and q.winners == [] and q.ranking() == [[2, 3], [1], [0]]


# ===================================================================== view, request


def test_view_shows_only_the_seat_s_own_hand() -> None:
    p = ParejasPartido(4, 12)
    start = p.events[0]
    for seat in range(4):
        v = p.view(start, seat)
        assert "hands" not in v and v["hand"] == start["hands"][seat]
        assert {k: v[k] for k in v if k != "hand"} == {k: start[k] for k in start if k != "hands"}
    p.play(p.request()["legal"][0])
    played = dict(p.events[-1], ms=1.5)
    assert p.view(played, 2) == {"type": "played", "seat": played["seat"], "card": played["card"]}


def test_the_request_names_everything_a_decision_needs() -> None:
    p = first_mano(ORO_LEAD)
    r = p.request()
    assert r == {
        "type": "play",
        "mano": 1,
        "baza": 1,
        "hand": cards.names_of(parse_mask(ORO_LEAD[0])),
        "table": [],
        "trump": "oro",
        "legal": cards.names_of(parse_mask(ORO_LEAD[0])),
        "may_sing": [],
        "may_concede": False,
        "partner": 2,
        "tantos": [0, 0],
        "juegos": [0, 0],
    }
    play(p, "1-oro")
    assert p.request()["table"] == [{"seat": 0, "card": "1-oro"}]


def test_a_card_that_is_not_held_is_not_in_hand() -> None:
    p = first_mano(ORO_LEAD)
    assert refused(p, "1-copa") == "not_in_hand"
    assert refused(p, "99-oro") == "not_in_hand"
    assert refused(p, 77) == "not_in_hand"
    assert refused(p, None) == "protocol"
    p.play(parse("1-oro"))  # a card id is accepted too
    assert last(p, "played")["card"] == "1-oro"


def test_the_game_is_registered() -> None:
    assert "tute-parejas" in names()
    p = games.spec("tute-parejas").new_partido(4, 11, {"ruleset": "espanol"})
    assert isinstance(p, ParejasPartido) and p.rules == ESPANOL
    assert p.events == ParejasPartido(4, 11, ESPANOL).events
    with pytest.raises(ValueError):
        games.spec("tute-parejas").new_partido(5, 11)


# ===================================================================== worked examples


def _script(p: ParejasPartido, bazas: Sequence[str], cantos: dict[int, list[tuple[int, str]]]) -> None:
    """Play ``bazas`` (each "seat:card ..." in playing order), singing ``cantos`` after the bazas
    they are keyed by, passing every other offer."""
    for k, line in enumerate(bazas, start=1):
        for move in line.split():
            seat, card = move.split(":")
            pass_offers(p)
            assert p.to_move == int(seat), (k, move)
            p.play(card)
        assert last(p, "trick_end")["baza"] == k or p.mano_number > 2
        for seat, canto in cantos.get(k, []):
            while p.to_move != seat or canto not in p.request()["may_sing"]:
                assert not p.request()["legal"], f"{canto} of seat {seat} after baza {k} not offered"
                p.play(None)
            p.play(None, canto)


LUDOTEKA_EXAMPLE = [
    "0:1-basto 1:10-basto 2:5-basto 3:6-basto",
    "0:11-espada 1:4-espada 2:1-espada 3:6-espada",
    "2:1-copa 3:3-copa 0:11-copa 1:6-copa",
    "2:3-basto 3:7-copa 0:4-basto 1:7-basto",
    "3:7-espada 0:12-espada 1:5-espada 2:2-copa",
    "2:11-basto 3:5-oro 0:5-copa 1:2-basto",
    "0:2-espada 1:10-espada 2:12-basto 3:7-oro",
    "1:4-copa 2:3-oro 3:2-oro 0:12-copa",
    "0:3-espada 1:10-copa 2:1-oro 3:12-oro",
    "1:6-oro 2:4-oro 3:11-oro 0:10-oro",
]
"""A mano that fits the ``ludoteka`` worked example (found by search: the page gives only the
cards each pair took, who wins bazas 1, 4 and 10, and the cantos)."""


def _hands_of(bazas: Sequence[str]) -> list[list[str]]:
    hands: list[list[str]] = [[], [], [], []]
    for line in bazas:
        for move in line.split():
            seat, card = move.split(":")
            hands[int(seat)].append(card)
    return hands


def test_worked_example_ludoteka_one_mano() -> None:
    p = second_mano(_hands_of(LUDOTEKA_EXAMPLE), "7-copa")
    before = p.juegos[:]
    assert last(p, "mano_start")["trump"] == "copa"
    _script(p, LUDOTEKA_EXAMPLE, {1: [(0, "cuarenta"), (0, "veinte-espada")], 4: [(3, "veinte-oro")]})
    ends = of_type(p, "trick_end")[-10:]
    assert ends[0]["winner"] == 0 and ends[3]["winner"] == 3 and ends[9]["winner"] % 2 == 1
    taken = [
        sorted(c["card"] for e in ends if e["winner"] % 2 == pair for c in e["cards"]) for pair in (0, 1)
    ]
    a = "1-copa 3-copa 12-copa 11-copa 1-espada 12-espada 11-espada 3-oro 1-basto 11-basto 10-basto"
    b = "10-copa 3-espada 10-espada 1-oro 12-oro 11-oro 10-oro 3-basto 12-basto"
    assert [sorted(c for c in t if cards.POINTS[parse(c)]) for t in taken] == [
        sorted(a.split()),
        sorted(b.split()),
    ]
    end = last(p, "mano_end")
    assert end["card_points"] == [72, 48] and end["last_baza"] == 1 and end["cantos"] == [60, 20]
    assert end["tantos"] == [132, 78] and sum(end["tantos"]) == 210
    assert end["winner"] == 0 and end["juegos_won"] == [2, 0]
    assert p.juegos == [before[0] + 2, before[1]]
    # without its cantos A would have had 72 against 78: B would have won 1 juego
    t = pr.tantos([72, 48], 1, [0, 20], "ludoteka")
    assert t == [72, 78] and pr.mano_winner(t, 1) == 1 and pr.juegos_for(78) == 1


def test_worked_example_ludoteka_a_tie() -> None:
    t = pr.tantos([55, 65], 0, [0, 0], "ludoteka")
    assert t == [65, 65] and pr.mano_winner(t, 0) == 0 and pr.juegos_for(65) == 1


ESPANOL_EXAMPLE = [
    "0:1-oro 1:12-oro 2:7-oro 3:4-oro",
    "0:2-espada 1:1-espada 2:6-espada 3:4-espada",
    "1:2-oro 2:6-oro 3:11-oro 0:7-basto",
    "0:11-basto 1:1-basto 2:6-basto 3:5-basto",
    "1:3-basto 2:10-basto 3:5-oro 0:12-basto",
    "1:2-basto 2:4-basto 3:3-oro 0:7-espada",
    "2:5-copa 3:6-copa 0:12-copa 1:1-copa",
    "1:10-oro 2:4-copa 3:3-copa 0:11-copa",
    "1:7-copa 2:2-copa 3:10-espada 0:11-espada",
    "1:10-copa 2:3-espada 3:5-espada 0:12-espada",
]
"""A mano that fits the ``espanol`` worked example (found by search, as above)."""


def test_worked_example_espanol_one_mano() -> None:
    p = second_mano(_hands_of(ESPANOL_EXAMPLE), "5-basto", ESPANOL)
    assert last(p, "mano_start")["trump"] == "basto"
    _script(p, ESPANOL_EXAMPLE, {1: [(0, "cuarenta")], 3: [(0, "veinte-copa")], 6: [(0, "veinte-espada")]})
    ends = of_type(p, "trick_end")[-10:]
    assert [e["baza"] for e in ends if e["winner"] % 2 == 0] == [1, 3, 6]
    end = last(p, "mano_end")
    assert end["card_points"] == [28, 92] and end["last_baza"] == 1
    assert end["cantos"] == [80, 0] and end["tantos"] == [28, 102]
    assert end["winner"] == 1 and end["juegos_won"] == [0, 2]
    # under ludoteka scoring A would have had 108 against 102
    t = pr.tantos([28, 92], 1, [80, 0], "ludoteka")
    assert t == [108, 102] and pr.mano_winner(t, 1) == 0 and pr.juegos_for(108) == 2


def test_worked_example_espanol_the_85_and_70_thresholds() -> None:
    t = pr.tantos([62, 58], 0, [40, 0], "espanol")
    assert t == [112, 58] and pr.mano_winner(t, 0) == 0 and pr.juegos_for(112) == 2
    t = pr.tantos([50, 70], 1, [40, 0], "espanol")
    assert t == [90, 80] and pr.mano_winner(t, 1) == 0 and pr.juegos_for(90) == 1


def test_worked_example_espanol_tirar_las_cartas() -> None:
    assert points_of(parse_mask(POOR)) == 5
    p = first_mano(_tirar_hands(1), ESPANOL)  # seat 1 holds 2-oro: it is mano
    assert p.to_move == 1 and p.request()["may_concede"]
    p.play(None, "tirar")
    end = last(p, "mano_end")
    assert end["outcome"] == "tirar" and end["juegos_won"] == [2, 0] and end["tantos"] is None
