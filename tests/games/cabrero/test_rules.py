"""The pure rules of rules.md: legal plays, bazas, cantos, cambio, who loses, options."""

from __future__ import annotations

import pytest

from arena import cards, rules
from arena.rules import RulesError, RuleSet
from tests.helpers import fill_hands

ORO, COPA, ESPADA, BASTO = range(4)
CABRERO = RuleSet()
RIO = RuleSet("rioplatense")
TIEBREAK = RuleSet(variants=frozenset({"mano-tiebreak"}))


def c(name: str) -> int:
    return cards.parse(name)


def m(*names: str) -> int:
    return cards.parse_mask(names)


def legal(hand: list[str], lead: int, winning: str | None, trump: int) -> set[str]:
    w = -1 if winning is None else c(winning)
    return set(cards.names_of(rules.legal_mask(m(*hand), lead, w, trump)))


# ---------------------------------------------------------------- legal plays


def test_leader_may_play_any_card():
    hand = ["1-oro", "2-copa", "12-espada", "7-basto"]
    assert legal(hand, -1, None, ORO) == set(hand)


def test_follow_suit_and_beat_when_possible():
    # copa led, 12-copa winning, trump espada: only the copa cards above the 12
    hand = ["3-copa", "4-copa", "11-copa", "1-oro", "2-espada"]
    assert legal(hand, COPA, "12-copa", ESPADA) == {"3-copa"}


def test_follow_suit_and_beat_offers_every_higher_card():
    hand = ["1-copa", "3-copa", "4-copa", "2-espada"]
    assert legal(hand, COPA, "10-copa", ESPADA) == {"1-copa", "3-copa"}


def test_follow_suit_without_beating_when_no_card_of_the_suit_can_win():
    hand = ["4-copa", "5-copa", "1-espada", "1-oro"]
    assert legal(hand, COPA, "3-copa", ESPADA) == {"4-copa", "5-copa"}


def test_follow_suit_without_beating_when_someone_trumped():
    # copa led, but 2-espada (trump) is winning: no copa can win, any copa goes,
    # and following suit comes before over-trumping with 3-espada
    hand = ["1-copa", "4-copa", "3-espada", "12-basto"]
    assert legal(hand, COPA, "2-espada", ESPADA) == {"1-copa", "4-copa"}


def test_without_the_suit_a_trump_that_beats_is_required():
    # no copa: every trump beats the winning 12-copa, so any trump and nothing else
    hand = ["2-oro", "1-oro", "3-basto", "1-espada"]
    assert legal(hand, COPA, "12-copa", ORO) == {"2-oro", "1-oro"}


def test_without_the_suit_over_trump_when_a_trump_is_winning():
    hand = ["12-oro", "4-oro", "1-basto"]
    assert legal(hand, COPA, "10-oro", ORO) == {"12-oro"}


def test_only_lower_trumps_than_the_one_played_means_any_card():
    hand = ["4-oro", "10-oro", "1-basto", "3-espada"]
    assert legal(hand, COPA, "12-oro", ORO) == set(hand)


def test_without_suit_or_trump_any_card():
    hand = ["4-basto", "1-espada", "3-espada"]
    assert legal(hand, COPA, "12-copa", ORO) == set(hand)


def test_trump_led_follow_and_beat():
    hand = ["4-oro", "1-oro", "3-oro", "1-basto"]
    assert legal(hand, ORO, "10-oro", ORO) == {"1-oro", "3-oro"}
    assert legal(["4-oro", "5-oro", "1-basto"], ORO, "10-oro", ORO) == {"4-oro", "5-oro"}


def test_legal_set_is_never_empty_and_inside_the_hand():
    hand = ["2-copa", "6-basto"]
    for lead in range(-1, 4):
        for w in ("1-oro", "1-copa", "2-espada", "3-basto"):
            if lead >= 0 and c(w) // 10 not in (lead, ORO):
                continue  # the winning card is of the led suit or a trump
            got = legal(hand, lead, w, ORO)
            assert got and got <= set(hand)


# ---------------------------------------------------------------- beats / baza winner


def test_beats_same_suit_stronger_only():
    assert rules.beats(c("3-copa"), c("12-copa"), ORO)
    assert not rules.beats(c("12-copa"), c("3-copa"), ORO)
    assert rules.beats(c("1-copa"), c("3-copa"), ORO)
    assert rules.beats(c("4-copa"), c("2-copa"), ORO)


def test_beats_off_suit_never_unless_trump():
    assert not rules.beats(c("1-basto"), c("2-copa"), ORO)
    assert rules.beats(c("2-oro"), c("1-copa"), ORO)
    assert not rules.beats(c("2-oro"), c("4-oro"), ORO)
    assert not rules.beats(c("1-copa"), c("2-oro"), ORO)


def test_baza_goes_to_highest_card_of_led_suit_without_trumps():
    baza = [(0, c("4-copa")), (1, c("1-basto")), (2, c("5-copa")), (3, c("2-copa"))]
    assert rules.baza_winner(baza, ORO) == 2


def test_baza_goes_to_highest_trump():
    baza = [(1, c("1-copa")), (2, c("2-espada")), (3, c("3-espada")), (0, c("12-copa"))]
    assert rules.baza_winner(baza, ESPADA) == 3


def test_baza_goes_to_leader_when_nobody_follows_or_trumps():
    baza = [(2, c("2-basto")), (0, c("1-copa")), (1, c("1-espada"))]
    assert rules.baza_winner(baza, ORO) == 2


def test_baza_led_with_trump():
    baza = [(0, c("12-oro")), (1, c("1-copa")), (2, c("3-oro"))]
    assert rules.baza_winner(baza, ORO) == 2


# ---------------------------------------------------------------- cantos


KINGS = ["12-oro", "12-copa", "12-espada", "12-basto"]
KNIGHTS = ["11-oro", "11-copa", "11-espada", "11-basto"]


def test_tute_of_the_four_kings():
    hand = m(*KINGS, "1-oro", "4-copa")
    assert "tute" in rules.valid_cantos(hand, ORO, 0)
    assert rules.is_valid_canto("tute", hand, ORO, 0)


def test_tute_of_the_four_knights():
    hand = m(*KNIGHTS, "1-oro", "4-copa")
    assert "tute" in rules.valid_cantos(hand, COPA, 0)
    assert rules.is_valid_canto("tute", hand, COPA, 0)


def test_three_kings_and_a_knight_is_no_tute():
    hand = m(*KINGS[:3], "11-basto", "1-oro")
    assert "tute" not in rules.valid_cantos(hand, ORO, 0)
    assert not rules.is_valid_canto("tute", hand, ORO, 0)


def test_cuarenta_is_king_and_knight_of_trump():
    hand = m("12-espada", "11-espada", "1-oro")
    assert rules.valid_cantos(hand, ESPADA, 0) == ["cuarenta"]
    assert rules.is_valid_canto("cuarenta", hand, ESPADA, 0)
    assert not rules.is_valid_canto("cuarenta", hand, ORO, 0)


def test_veinte_is_king_and_knight_of_a_plain_suit():
    hand = m("12-copa", "11-copa", "1-oro")
    assert rules.valid_cantos(hand, ORO, 0) == ["veinte-copa"]
    assert rules.is_valid_canto("veinte-copa", hand, ORO, 0)


def test_veinte_of_the_trump_suit_is_not_valid():
    hand = m("12-oro", "11-oro")
    assert "veinte-oro" not in rules.valid_cantos(hand, ORO, 0)
    assert not rules.is_valid_canto("veinte-oro", hand, ORO, 0)
    assert rules.is_valid_canto("cuarenta", hand, ORO, 0)


def test_king_without_its_knight_sings_nothing():
    hand = m("12-copa", "11-oro", "12-basto", "10-basto")
    assert rules.valid_cantos(hand, ESPADA, 0) == []
    assert not rules.is_valid_canto("veinte-copa", hand, ESPADA, 0)
    assert not rules.is_valid_canto("veinte-basto", hand, ESPADA, 0)


def test_same_pair_cannot_be_sung_twice():
    hand = m("12-copa", "11-copa", "12-oro", "11-oro")
    sung_copa = 1 << COPA
    assert "veinte-copa" not in rules.valid_cantos(hand, ORO, sung_copa)
    assert not rules.is_valid_canto("veinte-copa", hand, ORO, sung_copa)
    assert rules.is_valid_canto("cuarenta", hand, ORO, sung_copa)
    sung_oro = 1 << ORO
    assert not rules.is_valid_canto("cuarenta", hand, ORO, sung_oro)
    assert rules.valid_cantos(hand, ORO, sung_copa | sung_oro) == []


def test_every_pair_held_is_offered():
    hand = m("12-copa", "11-copa", "12-oro", "11-oro", "12-basto", "11-basto")
    assert set(rules.valid_cantos(hand, ORO, 0)) == {"cuarenta", "veinte-copa", "veinte-basto"}


@pytest.mark.parametrize("bad", ["veinte", "cuarenta-oro", "veinte-oros", "TUTE", "", "las cuarenta"])
def test_unknown_canto_names_are_not_valid(bad):
    hand = m(*KINGS, *KNIGHTS)
    assert not rules.is_valid_canto(bad, hand, ORO, 0)


# ---------------------------------------------------------------- three-player swaps


def _three(specs: list[list[str]], leftover: str) -> list[int]:
    return [cards.parse_mask(h) for h in fill_hands(specs, 13, leftover)]


def test_first_mano_two_oro_holder_takes_the_face_down_leftover():
    hands = _three([["4-oro"], ["2-oro"], []], "1-basto")
    before = hands[:]
    mano, swaps, out = rules.first_mano_swap(hands, c("1-basto"))
    assert mano == 1
    assert swaps == [(1, c("2-oro"), c("1-basto"))]
    assert out == c("2-oro")
    assert hands[1] == before[1] & ~(1 << c("2-oro")) | (1 << c("1-basto"))
    assert hands[0] == before[0] and hands[2] == before[2]
    assert hands[1].bit_count() == 13


def test_first_mano_two_oro_is_the_leftover_four_oro_holder_is_mano():
    hands = _three([[], [], ["4-oro"]], "2-oro")
    before = hands[:]
    mano, swaps, out = rules.first_mano_swap(hands, c("2-oro"))
    assert mano == 2
    assert swaps == []
    assert out == c("2-oro")
    assert hands == before


@pytest.mark.parametrize("x", ["2-copa", "4-copa"])
def test_cambio_two_or_four_exchanges_nothing(x):
    specs = [["7-copa"], ["2-copa"] if x != "2-copa" else [], []]
    hands = _three(specs, x)
    before = hands[:]
    swaps, out = rules.cambio(hands, c(x))
    assert swaps == []
    assert out == c(x)
    assert hands == before


@pytest.mark.parametrize("rank", [5, 6, 7])
def test_cambio_five_six_seven_two_of_trump_holder_takes_leftover(rank):
    x = f"{rank}-espada"
    specs = [["7-espada"] if rank != 7 else [], [], ["2-espada"]]
    hands = _three(specs, x)
    before = hands[:]
    swaps, out = rules.cambio(hands, c(x))
    assert swaps == [(2, c("2-espada"), c(x))]
    assert out == c("2-espada")
    assert hands[2] == before[2] & ~(1 << c("2-espada")) | (1 << c(x))
    assert hands[0] == before[0] and hands[1] == before[1]


@pytest.mark.parametrize("rank", [10, 11, 12, 1, 3])
def test_cambio_high_card_seven_then_two_of_trump(rank):
    x = f"{rank}-basto"
    hands = _three([["2-basto"], [], ["7-basto"]], x)
    before = hands[:]
    swaps, out = rules.cambio(hands, c(x))
    assert swaps == [(2, c("7-basto"), c(x)), (0, c("2-basto"), c("7-basto"))]
    assert out == c("2-basto")
    assert hands[2] == before[2] & ~(1 << c("7-basto")) | (1 << c(x))
    assert hands[0] == before[0] & ~(1 << c("2-basto")) | (1 << c("7-basto"))
    assert hands[1] == before[1]
    assert all(h.bit_count() == 13 for h in hands)


def test_cambio_one_seat_holding_seven_and_two_makes_two_swaps():
    x = "1-oro"
    hands = _three([[], ["7-oro", "2-oro"], []], x)
    before = hands[:]
    swaps, out = rules.cambio(hands, c(x))
    assert swaps == [(1, c("7-oro"), c("1-oro")), (1, c("2-oro"), c("7-oro"))]
    assert out == c("2-oro")
    assert hands[1] == before[1] & ~(1 << c("2-oro")) | (1 << c("1-oro"))
    assert hands[1] >> c("7-oro") & 1
    assert hands[0] == before[0] and hands[2] == before[2]


# ---------------------------------------------------------------- who loses: capote


def losers(ruleset, dealt, bazas, scores, card_points=None, sang=None):
    n = len(bazas)
    card_points = card_points if card_points is not None else list(scores)
    sang = sang if sang is not None else [False] * n
    return rules.mano_losers(ruleset, dealt, bazas, scores, card_points, sang)


def test_capote_every_other_dealt_in_player_loses():
    assert losers(CABRERO, [1, 2, 3, 0], [0, 10, 0, 0], [0, 130, 0, 0]) == [0, 2, 3]


def test_capote_after_singing_the_singer_alone_loses():
    sang = [False, True, False, False]
    assert losers(CABRERO, [1, 2, 3, 0], [0, 10, 0, 0], [0, 170, 0, 0], [0, 120, 0, 0], sang) == [1]


def test_capote_six_players_dealer_not_dealt_in_does_not_lose():
    # seat 5 deals and sits out: it is not in the dealt list
    bazas = [8, 0, 0, 0, 0, 0]
    assert losers(CABRERO, [0, 1, 2, 3, 4], bazas, [130, 0, 0, 0, 0, 0]) == [1, 2, 3, 4]


def test_capote_in_rioplatense_is_still_capote():
    sang = [True, False, False, False]
    assert losers(RIO, [0, 1, 2, 3], [10, 0, 0, 0], [170, 0, 0, 0], [120, 0, 0, 0], sang) == [0]
    assert losers(RIO, [0, 1, 2, 3], [10, 0, 0, 0], [130, 0, 0, 0], [120, 0, 0, 0]) == [1, 2, 3]


# ---------------------------------------------------------------- who loses: points


def test_two_in_baza_the_lower_score_loses():
    assert losers(CABRERO, [0, 1, 2, 3], [6, 4, 0, 0], [80, 50, 0, 0]) == [1]


def test_two_in_baza_points_not_bazas_decide():
    assert losers(CABRERO, [0, 1, 2, 3], [8, 2, 0, 0], [50, 80, 0, 0]) == [0]


def test_two_in_baza_tie_both_lose():
    assert losers(CABRERO, [0, 1, 2, 3], [0, 5, 0, 5], [0, 65, 0, 65]) == [1, 3]


def test_five_players_three_in_baza_the_one_in_the_middle_loses():
    # rule 9: "si sólo tres han levantado cartas pierde uno solo"
    assert losers(CABRERO, [0, 1, 2, 3, 4], [4, 3, 0, 1, 0], [70, 45, 0, 15, 0]) == [1]


def test_five_players_four_in_baza_two_in_the_middle_lose():
    assert losers(CABRERO, [0, 1, 2, 3, 4], [3, 2, 2, 1, 0], [50, 40, 30, 10, 0]) == [1, 2]


def test_five_players_five_in_baza_three_in_the_middle_lose():
    assert losers(CABRERO, [3, 4, 0, 1, 2], [1, 2, 1, 2, 2], [20, 40, 10, 35, 25]) == [0, 3, 4]


def test_tie_at_the_top_leaves_no_middle_all_in_baza_lose():
    assert losers(CABRERO, [0, 1, 2], [6, 5, 2], [55, 55, 20]) == [0, 1, 2]


def test_tie_at_the_bottom_leaves_no_middle_all_in_baza_lose():
    assert losers(CABRERO, [0, 1, 2], [9, 2, 2], [90, 20, 20]) == [0, 1, 2]


def test_everybody_tied_all_in_baza_lose():
    assert losers(CABRERO, [0, 1, 2], [5, 4, 4], [50, 50, 50], [30, 50, 50]) == [0, 1, 2]


def test_tie_at_the_top_with_someone_strictly_in_the_middle():
    # 60, 60, 40, 30: 40 is strictly between the lowest and the highest
    assert losers(CABRERO, [0, 1, 2, 3], [3, 3, 2, 2], [60, 60, 40, 30]) == [2]


def test_ties_at_both_ends_of_five_leave_no_middle():
    assert losers(CABRERO, [0, 1, 2, 3, 4], [2, 2, 2, 1, 1], [50, 50, 10, 10, 10]) == [0, 1, 2, 3, 4]


def test_players_with_no_baza_never_lose_by_points():
    # seat 1 took nothing (score 0): not in P, so not the "lowest"; seat 2 is the middle
    assert losers(CABRERO, [0, 1, 2, 3], [5, 0, 3, 2], [70, 0, 40, 20]) == [2]
    # two in baza: the lower loses even though two players scored less (nothing)
    assert losers(CABRERO, [0, 1, 2, 3], [7, 0, 3, 0], [100, 0, 30, 0]) == [2]


def test_a_baza_without_points_still_counts_for_baza():
    # seat 3 took two bazas worth 0: it is in P (lowest, safe); seat 2 is the middle
    assert losers(CABRERO, [0, 1, 2, 3], [5, 0, 3, 2], [90, 0, 40, 0]) == [2]


# ---------------------------------------------------------------- rioplatense


def test_rioplatense_all_120_card_points_without_capote_others_in_baza_lose():
    # seat 0: every card point, seat 1: the last baza (10) with blank cards, seat 2 one blank baza
    bazas, scores, card_points = [11, 1, 1], [120, 10, 0], [120, 0, 0]
    assert losers(CABRERO, [0, 1, 2], bazas, scores, card_points) == [1]
    assert losers(RIO, [0, 1, 2], bazas, scores, card_points) == [1, 2]


def test_rioplatense_all_120_card_points_players_without_bazas_safe():
    bazas, scores, card_points = [8, 1, 0, 1], [120, 10, 0, 0], [120, 0, 0, 0]
    assert losers(RIO, [0, 1, 2, 3], bazas, scores, card_points) == [1, 3]


def test_rioplatense_tie_at_the_top_only_those_below_lose():
    assert losers(RIO, [0, 1, 2], [6, 5, 2], [55, 55, 20]) == [2]
    assert losers(RIO, [0, 1, 2, 3], [3, 3, 2, 2], [50, 50, 15, 15]) == [2, 3]


def test_rioplatense_tie_at_the_bottom_both_below_the_top_lose():
    assert losers(RIO, [0, 1, 2], [9, 2, 2], [90, 20, 20]) == [1, 2]


def test_rioplatense_all_tied_all_lose():
    assert losers(RIO, [0, 1, 2], [5, 4, 4], [50, 50, 50], [30, 50, 50]) == [0, 1, 2]


def test_rioplatense_same_as_cabrero_with_a_middle_or_two_in_baza():
    assert losers(RIO, [0, 1, 2, 3, 4], [4, 3, 0, 1, 0], [70, 45, 0, 15, 0]) == [1]
    assert losers(RIO, [0, 1, 2, 3], [6, 4, 0, 0], [80, 50, 0, 0]) == [1]
    assert losers(RIO, [0, 1, 2, 3], [0, 5, 0, 5], [0, 65, 0, 65]) == [1, 3]


# ---------------------------------------------------------------- mano-tiebreak


def test_mano_tiebreak_two_tied_the_mano_wins():
    # mano is seat 2 (+1/2); seat 0 is third in order (+1/8): seat 0 loses alone
    dealt, bazas, scores = [2, 3, 0, 1], [5, 0, 5, 0], [65, 0, 65, 0]
    assert losers(CABRERO, dealt, bazas, scores) == [0, 2]
    assert losers(TIEBREAK, dealt, bazas, scores) == [0]


def test_mano_tiebreak_tie_at_the_top_without_the_mano():
    # mano seat 2 took nothing; seat 3 (+1/4) beats seat 1 (+1/16), who is now in the middle
    dealt, bazas, scores = [2, 3, 0, 1], [2, 4, 0, 4], [30, 50, 0, 50]
    assert losers(CABRERO, dealt, bazas, scores) == [0, 1, 3]
    assert losers(TIEBREAK, dealt, bazas, scores) == [1]


def test_mano_tiebreak_tie_at_the_bottom_the_mano_loses():
    # "gana a más y pierde a menos": the tied mano ends above the other, in the middle
    dealt, bazas, scores = [1, 2, 0], [9, 2, 2], [90, 20, 20]
    assert losers(CABRERO, dealt, bazas, scores) == [0, 1, 2]
    assert losers(TIEBREAK, dealt, bazas, scores) == [1]


def test_mano_tiebreak_fractions_never_overturn_whole_points():
    # the mano (seat 1) has one point less: 40.5 < 41.25
    assert losers(TIEBREAK, [1, 0, 2], [6, 4, 0], [41, 40, 0]) == [1]
    assert losers(TIEBREAK, [0, 1, 2], [6, 4, 0], [41, 40, 0]) == [1]


# ---------------------------------------------------------------- table and options


def test_seat_right_and_left_skip_inactive_seats_and_wrap():
    active = [True, False, True, True]
    assert rules.seat_right(0, active) == 2
    assert rules.seat_right(3, active) == 0
    assert rules.seat_right(1, active) == 2
    assert rules.seat_left(0, active) == 3
    assert rules.seat_left(2, active) == 0
    assert rules.seat_left(3, active) == 2
    assert rules.seat_right(5, [True] * 6) == 0
    assert rules.seat_left(0, [True] * 6) == 5


def test_seat_right_with_no_active_seat_is_an_error():
    with pytest.raises(RulesError):
        rules.seat_right(0, [False, False, False])


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_table_of_three_to_six_is_fine(n):
    rules.check_table_size(n)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8])
def test_table_of_two_or_seven_is_an_error(n):
    with pytest.raises(RulesError):
        rules.check_table_size(n)


def test_cards_per_player():
    assert rules.cards_per_player(3) == 13
    assert rules.cards_per_player(4) == 10
    assert rules.cards_per_player(5) == 8
    assert rules.cards_per_player(6) == 8  # five players dealt in


def test_rotating_trump_cycles_oro_copa_espada_basto():
    assert [rules.rotating_trump(k) for k in range(1, 10)] == [0, 1, 2, 3, 0, 1, 2, 3, 0]


def test_default_ruleset():
    r = RuleSet()
    assert r.ruleset == "cabrero-2002"
    assert r.renuncio == "disqualify"
    assert r.variants == frozenset()


def test_ruleset_to_and_from_dict():
    r = RuleSet("rioplatense", frozenset({"mano-tiebreak", "rotating-trump"}), "penalize")
    d = r.to_dict()
    assert d == {
        "ruleset": "rioplatense",
        "renuncio": "penalize",
        "variants": ["mano-tiebreak", "rotating-trump"],
    }
    assert RuleSet.from_dict(d) == r
    assert r.has("mano-tiebreak") and not r.has("tute-wins-partido")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"ruleset": "cabrero"},
        {"ruleset": "espanol"},
        {"variants": frozenset({"rotating"})},
        {"variants": frozenset({"mano-tiebreak", "accuse"})},
        {"renuncio": "forgive"},
        {"renuncio": "ignore"},
    ],
)
def test_unknown_ruleset_variant_or_policy_is_an_error(kwargs):
    with pytest.raises(RulesError):
        RuleSet(**kwargs)


def test_rules_error_is_a_value_error():
    assert issubclass(RulesError, ValueError)
