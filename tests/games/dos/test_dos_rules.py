"""Tute de a dos against docs/rules-dos.md: one test (or a few) per rule D1-D28, the odd cases,
the rule set, the page's own numbering, and hypothesis properties over random hands and manos.

Only the pure rules are tested (there is no engine yet). Expected values are worked out by
hand from the page; phase 2 is also checked against Tute Cabrero's ``legal_mask``, which
D14 says it is.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import i18n
from arena.games.cabrero import rules as cabrero
from arena.games.common.cards import NAMES, POINTS, mask, names_of, parse, parse_mask, points_of
from arena.games.common.tute import RulesError
from arena.games.dos import rules as dos
from arena.games.dos.rules import DosRules
from tests.paths import ROOT

ORO, COPA, ESPADA, BASTO = range(4)
DOC = ROOT / "docs" / "rules-dos.md"
MODULE = Path(dos.__file__)


def c(name: str) -> int:
    return parse(name)


def m(*names: str) -> int:
    return parse_mask(names)


def legal(hand: list[str], led: str | None, trump: int, monte_left: int = 0) -> set[str]:
    return set(names_of(dos.legal_mask(m(*hand), -1 if led is None else c(led), trump, monte_left)))


def stacked(hand0: list[str], hand1: list[str], turned: str, monte_top: Sequence[str] = ()) -> list[int]:
    """A deck order dealing ``hand0`` to seat 0 (the mano) and ``hand1`` to seat 1, turning
    ``turned`` up and drawing ``monte_top`` first; the other cards follow in card order."""
    assert len(hand0) == len(hand1) == 8
    named = [*hand0, *hand1, turned, *monte_top]
    assert len(set(named)) == len(named)
    rest = [x for x in range(40) if NAMES[x] not in named]
    order = [c(n) for pair in zip(hand0, hand1, strict=True) for n in pair]
    return [*order, c(turned), *(c(n) for n in monte_top), *rest]


# ===================================================================== a mano driven by the rules


@dataclass
class Mano:
    """A record of one mano played with the rules functions alone (random choices)."""

    trump: int
    taken: list[int] = field(default_factory=lambda: [0, 0])
    cantos: list[int] = field(default_factory=lambda: [0, 0])
    sung: list[str] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    sizes: list[tuple[int, int]] = field(default_factory=list)
    phases: list[int] = field(default_factory=list)
    last_drawn: tuple[int, int] | None = None  # (seat, card) of the last card drawn from the monte
    turned_at_end: int = dos.NO_CARD
    cambios: int = 0
    last_baza: int = -1
    tute: int | None = None


def play_mano(rng: random.Random, order: list[int], mano: int, p_sing: float, p_cambio: float) -> Mano:
    d = dos.deal(order, mano)
    hands, monte = list(d.hands), d.monte
    rec = Mano(d.trump)
    sung_suits, leader = 0, mano
    for number in range(1, dos.BAZAS + 1):
        rec.sizes.append((hands[0].bit_count(), hands[1].bit_count()))
        rec.phases.append(dos.phase(len(monte)))
        lead_legal = dos.legal_mask(hands[leader], dos.NO_CARD, d.trump, len(monte))
        led = rng.choice([x for x in range(40) if lead_legal >> x & 1])
        hands[leader] &= ~(1 << led)
        follower = dos.other(leader)
        ok = dos.legal_mask(hands[follower], led, d.trump, len(monte))
        answer = rng.choice([x for x in range(40) if ok >> x & 1])
        hands[follower] &= ~(1 << answer)
        rec.played += [led, answer]
        winner = dos.baza_winner(leader, led, answer, d.trump)
        rec.taken[winner] += POINTS[led] + POINTS[answer]
        if dos.has_moment(number):
            if dos.may_cambio(hands[winner], monte) and rng.random() < p_cambio:
                hands[winner], monte = dos.cambio(hands[winner], monte)
                rec.cambios += 1
            options = dos.valid_cantos(hands[winner], d.trump, sung_suits)
            options = [o for o in options if o != dos.TUTE]  # a tute would end the mano
            if options and rng.random() < p_sing:
                canto = rng.choice(options)
                assert dos.is_valid_canto(canto, hands[winner], d.trump, sung_suits)
                rec.cantos[winner] += dos.canto_points(canto, d.trump)
                rec.sung.append(canto)
                sung_suits = dos.sing(sung_suits, canto, d.trump)
        if len(monte) == 2:
            rec.last_drawn = (dos.other(winner), monte[-1])
        (h0, h1), monte = dos.draw(hands, monte, winner)
        hands = [h0, h1]
        leader = winner
        rec.last_baza = winner
    rec.turned_at_end = dos.turned_up(monte)
    assert hands == [0, 0]
    return rec


# ===================================================================== cards (D1-D3)


def test_D1_the_deal_uses_the_40_cards_once() -> None:
    d = dos.deal(list(range(40)), 0)
    assert d.hands[0] & d.hands[1] == 0
    assert d.hands[0].bit_count() == d.hands[1].bit_count() == dos.HAND_SIZE == 8
    assert len(d.monte) == dos.MONTE_SIZE == 24
    assert d.hands[0] | d.hands[1] | mask(d.monte) == (1 << 40) - 1


def test_D1_a_deal_needs_the_whole_deck() -> None:
    with pytest.raises(RulesError):
        dos.deal(list(range(39)), 0)
    with pytest.raises(RulesError):
        dos.deal([0, *range(39)], 0)


def test_D2_strength_inside_a_suit() -> None:
    ranks = ["1", "3", "12", "11", "10", "7", "6", "5", "4", "2"]  # strongest first
    for i, hi in enumerate(ranks):
        for lo in ranks[i + 1 :]:
            assert dos.beats(c(f"{hi}-espada"), c(f"{lo}-espada"), ORO)
            assert not dos.beats(c(f"{lo}-espada"), c(f"{hi}-espada"), ORO)


def test_D3_card_points_and_the_deck_total() -> None:
    assert [POINTS[c(f"{r}-oro")] for r in (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)] == [
        11,
        10,
        4,
        3,
        2,
        0,
        0,
        0,
        0,
        0,
    ]
    assert points_of((1 << 40) - 1) == 120


# ===================================================================== the game (D4, D5)


def test_D4_two_players() -> None:
    assert dos.PLAYERS == 2
    assert (dos.other(0), dos.other(1)) == (1, 0)
    assert dos.RULESETS == ("habanero",) and dos.DEFAULT_RULESET == "habanero"


def test_D5_the_tie_breaker_plays_the_defaults() -> None:
    assert DosRules() == DosRules("habanero", 2, "disqualify")
    assert DosRules(renuncio="penalize").juegos == 2


# ===================================================================== dealing (D6-D8)


def test_D6_mano_and_dealer_take_turns() -> None:
    assert dos.next_mano(0) == 1 and dos.next_mano(1) == 0
    assert dos.dealer_of(0) == 1 and dos.dealer_of(1) == 0
    seats = [0]
    for _ in range(4):
        seats.append(dos.next_mano(seats[-1]))
    assert seats == [0, 1, 0, 1, 0]


@pytest.mark.parametrize("mano", [0, 1])
def test_D7_one_card_at_a_time_the_mano_first(mano: int) -> None:
    order = list(range(40))
    d = dos.deal(order, mano)
    assert d.hands[mano] == mask(order[0:16:2])
    assert d.hands[1 - mano] == mask(order[1:16:2])


def test_D8_the_17th_card_is_turned_up_under_the_monte_and_sets_trump() -> None:
    order = stacked(
        ["1-oro", "3-oro", "12-oro", "11-oro", "10-oro", "7-oro", "6-oro", "5-oro"],
        ["4-oro", "2-oro", "1-copa", "3-copa", "12-copa", "11-copa", "10-copa", "7-copa"],
        "5-basto",
        ["6-espada"],
    )
    d = dos.deal(order, 0)
    assert d.trump == BASTO
    assert dos.turned_up(d.monte) == c("5-basto") == d.monte[-1]
    assert d.monte[0] == c("6-espada")  # drawn first
    assert dos.turned_up(()) == dos.NO_CARD


def test_D8_no_2_oro_rule_trump_is_the_turned_suit() -> None:
    order = stacked(
        ["2-oro", "3-oro", "12-oro", "11-oro", "10-oro", "7-oro", "6-oro", "5-oro"],
        ["4-oro", "1-oro", "1-copa", "3-copa", "12-copa", "11-copa", "10-copa", "7-copa"],
        "3-espada",
    )
    assert dos.deal(order, 1).trump == ESPADA


# ===================================================================== bazas (D9-D14)


def test_D9_twenty_bazas_the_winner_leads() -> None:
    assert dos.BAZAS == 20 == 40 // dos.PLAYERS
    rec = play_mano(random.Random(1), list(range(40)), 0, 0.0, 0.0)
    assert len(rec.played) == 40 and sorted(rec.played) == list(range(40))


@pytest.mark.parametrize(
    ("led", "answer", "trump", "taker"),
    [
        ("4-copa", "10-copa", ORO, "answer"),  # same suit, stronger
        ("10-copa", "4-copa", ORO, "leader"),  # same suit, weaker
        ("1-copa", "2-oro", ORO, "answer"),  # a trump on a plain card
        ("2-copa", "1-espada", ORO, "leader"),  # another plain suit never wins
        ("5-oro", "3-copa", ORO, "leader"),  # trump led, a plain card
        ("3-oro", "1-oro", ORO, "answer"),  # trump led, a higher trump
        ("12-oro", "11-oro", ORO, "leader"),  # trump led, a lower trump
    ],
)
def test_D10_who_takes_the_baza(led: str, answer: str, trump: int, taker: str) -> None:
    for leader in (0, 1):
        expected = leader if taker == "leader" else 1 - leader
        assert dos.baza_winner(leader, c(led), c(answer), trump) == expected


def test_D11_the_winner_draws_first() -> None:
    monte = (c("1-oro"), c("2-oro"), c("3-oro"), c("4-oro"))
    (h0, h1), left = dos.draw((0, 0), monte, 1)
    assert h1 == m("1-oro") and h0 == m("2-oro")
    assert left == (c("3-oro"), c("4-oro"))
    (h0, h1), left = dos.draw((h0, h1), left, 0)
    assert h0 == m("2-oro", "3-oro") and h1 == m("1-oro", "4-oro") and left == ()


def test_D11_an_empty_monte_draws_nothing() -> None:
    assert dos.draw((5, 6), (), 0) == ((5, 6), ())


def test_D11_the_last_card_drawn_is_the_turned_up_triunfo_to_the_loser_of_baza_12() -> None:
    rec = play_mano(random.Random(3), list(range(40)), 0, 0.0, 0.0)
    assert rec.last_drawn is not None
    _seat, last = rec.last_drawn
    assert last == list(range(40))[16]  # the turned-up card, never exchanged here
    assert rec.turned_at_end == dos.NO_CARD
    assert dos.DRAW_BAZAS == 12


def test_D11_hand_sizes() -> None:
    rec = play_mano(random.Random(4), list(range(40)), 1, 0.5, 0.5)
    assert rec.sizes[:13] == [(8, 8)] * 13
    assert rec.sizes[12:] == [(k, k) for k in range(8, 0, -1)]


def test_D12_the_phase_changes_with_baza_13() -> None:
    assert dos.phase(24) == dos.phase(2) == dos.PHASE_1
    assert dos.phase(0) == dos.PHASE_2
    rec = play_mano(random.Random(5), list(range(40)), 0, 0.0, 0.0)
    assert rec.phases == [1] * 12 + [2] * 8


def test_D13_phase_1_any_card() -> None:
    hand = ["12-copa", "4-copa", "1-oro", "5-basto"]
    assert legal(hand, "10-copa", ORO, monte_left=2) == set(hand)
    assert legal(hand, "2-espada", ORO, monte_left=24) == set(hand)
    assert legal(hand, None, ORO, monte_left=10) == set(hand)


def test_D14_the_page_example() -> None:
    assert legal(["12-copa", "4-copa", "1-oro"], "10-copa", ORO) == {"12-copa"}
    assert legal(["4-copa", "1-oro"], "10-copa", ORO) == {"4-copa"}
    assert legal(["2-oro", "5-oro", "1-espada"], "10-copa", ORO) == {"2-oro", "5-oro"}
    assert legal(["2-espada", "1-basto"], "10-copa", ORO) == {"2-espada", "1-basto"}  # case 3


def test_D14_trump_led_follow_and_beat_in_trumps() -> None:
    assert legal(["1-oro", "2-oro", "3-copa"], "12-oro", ORO) == {"1-oro"}
    assert legal(["2-oro", "4-oro", "3-copa"], "12-oro", ORO) == {"2-oro", "4-oro"}
    assert legal(["3-copa", "1-espada"], "12-oro", ORO) == {"3-copa", "1-espada"}


def test_D14_the_leader_plays_anything_in_phase_2() -> None:
    assert legal(["3-copa", "1-oro"], None, ORO) == {"3-copa", "1-oro"}


@given(st.integers(0, (1 << 40) - 1), st.integers(0, 39), st.integers(0, 3))
def test_D14_is_cabreros_rule_with_one_card_on_the_table(hand: int, led: int, trump: int) -> None:
    hand &= ~(1 << led)
    assert dos.legal_mask(hand, led, trump, 0) == cabrero.legal_mask(hand, led // 10, led, trump)


# ===================================================================== the moment (D15)


def test_D15_a_moment_after_every_baza_but_the_last() -> None:
    assert not dos.has_moment(0)  # before the first baza
    assert all(dos.has_moment(k) for k in range(1, 20))
    assert not dos.has_moment(20)


# ===================================================================== the cambio (D16, D17)


@pytest.mark.parametrize(
    ("turned", "given"),
    [
        ("1-copa", "7-copa"),
        ("3-copa", "7-copa"),
        ("12-copa", "7-copa"),
        ("11-copa", "7-copa"),
        ("10-copa", "7-copa"),
        ("7-copa", "2-copa"),
        ("6-copa", "2-copa"),
        ("5-copa", "2-copa"),
        ("4-copa", None),
        ("2-copa", None),
    ],
)
def test_D16_the_cambio_table(turned: str, given: str | None) -> None:
    assert dos.cambio_card(c(turned)) == (dos.NO_CARD if given is None else c(given))


def test_D16_the_cambio_swaps_hand_and_monte() -> None:
    monte = (c("1-oro"), c("2-oro"), c("12-copa"))
    hand, left = dos.cambio(m("7-copa", "5-basto"), monte)
    assert hand == m("12-copa", "5-basto")
    assert left == (c("1-oro"), c("2-oro"), c("7-copa"))
    assert dos.turned_up(left) == c("7-copa")


def test_D16_the_2_then_takes_the_7() -> None:
    _hand, monte = dos.cambio(m("7-copa"), (c("4-oro"), c("1-copa")))
    assert dos.cambio_card(dos.turned_up(monte)) == c("2-copa")
    hand, monte = dos.cambio(m("2-copa", "6-oro"), monte)
    assert hand == m("7-copa", "6-oro") and monte == (c("4-oro"), c("2-copa"))
    assert not dos.may_cambio(m("3-copa"), monte)  # a turned-up 2: never exchanged


def test_D16_a_cambio_at_the_last_moment_leaves_the_given_card_to_the_loser() -> None:
    last_two = (c("5-oro"), c("1-basto"))  # after baza 12: one hidden card and the turned-up as
    winner_hand, monte = dos.cambio(m("7-basto"), last_two)
    (h0, h1), left = dos.draw((winner_hand, 0), monte, 0)
    assert h0 == m("1-basto", "5-oro") and h1 == m("7-basto") and left == ()


def test_D16_the_turned_up_card_is_not_in_hand_until_taken() -> None:
    monte = (c("5-oro"), c("12-copa"))
    assert dos.valid_cantos(m("11-copa", "7-copa"), COPA, 0) == []
    hand, _ = dos.cambio(m("11-copa", "7-copa"), monte)
    assert dos.valid_cantos(hand, COPA, 0) == ["cuarenta"]  # the rey just taken sings (B11)


@pytest.mark.parametrize(
    ("hand", "monte"),
    [
        (["6-copa"], ("5-oro", "1-copa")),  # no 7 of triunfo
        (["2-copa"], ("5-oro", "1-copa")),  # the 2 is not given for a card with points
        (["7-copa"], ("5-oro", "6-copa")),  # the 7 is not given for a 6
        (["2-copa"], ("5-oro", "4-copa")),  # the 4 is never exchanged
        (["7-copa", "2-copa"], ()),  # the monte is empty: phase 2
    ],
)
def test_D17_a_cambio_not_allowed(hand: list[str], monte: tuple[str, ...]) -> None:
    ids = tuple(c(x) for x in monte)
    assert not dos.may_cambio(m(*hand), ids)
    with pytest.raises(RulesError):
        dos.cambio(m(*hand), ids)


# ===================================================================== cantos (D18-D21)


def test_D18_cuarenta_and_veintes() -> None:
    hand = m("12-copa", "11-copa", "12-oro", "11-oro", "12-basto", "3-basto")
    assert dos.valid_cantos(hand, COPA, 0) == ["veinte-oro", "cuarenta"]
    assert dos.canto_points("cuarenta", COPA) == 40
    assert dos.canto_points("veinte-oro", COPA) == 20


def test_D18_a_suit_already_sung_is_not_offered_again() -> None:
    hand = m("12-oro", "11-oro", "12-espada", "11-espada")
    sung = dos.sing(0, "veinte-oro", COPA)
    assert sung == 1 << ORO
    assert dos.valid_cantos(hand, COPA, sung) == ["veinte-espada"]
    assert not dos.is_valid_canto("veinte-oro", hand, COPA, sung)
    sung = dos.sing(sung, "veinte-espada", COPA)
    assert dos.valid_cantos(hand, COPA, sung) == []


def test_D18_cuarenta_once_per_mano() -> None:
    sung = dos.sing(0, "cuarenta", BASTO)
    assert sung == 1 << BASTO
    assert not dos.is_valid_canto("cuarenta", m("12-basto", "11-basto"), BASTO, sung)


def test_D18_no_order_between_cuarenta_and_veinte() -> None:
    hand = m("12-copa", "11-copa", "12-oro", "11-oro")
    assert dos.is_valid_canto("veinte-oro", hand, COPA, 0)  # B15: no cuarenta first


def test_D19_singing_is_optional() -> None:
    """The rules only list what may be sung; nothing is ever required (a player may pass)."""
    hand = m("12-copa", "11-copa")
    assert dos.valid_cantos(hand, COPA, 0) == ["cuarenta"]
    assert dos.valid_cantos(m("3-copa"), COPA, 0) == []


def test_D20_tute_of_reyes_or_caballos() -> None:
    reyes = m("12-oro", "12-copa", "12-espada", "12-basto")
    caballos = m("11-oro", "11-copa", "11-espada", "11-basto")
    assert dos.valid_cantos(reyes, ORO, 0) == ["tute"]
    assert dos.valid_cantos(caballos, ORO, 0) == ["tute"]
    assert dos.valid_cantos(reyes | m("11-copa"), ORO, 0) == ["tute", "veinte-copa"]
    assert dos.canto_points("tute", ORO) == 0
    assert dos.sing(0b10, "tute", ORO) == 0b10
    assert dos.JUEGOS_PER_MANO == 1  # the tute's mano, like any other
    assert not dos.is_valid_canto("tute", reyes & ~m("12-basto"), ORO, 0)


@pytest.mark.parametrize(
    ("canto", "hand", "trump", "sung"),
    [
        ("cuarenta", ["12-oro"], ORO, 0),  # a card missing
        ("veinte-copa", ["12-copa", "11-copa"], COPA, 0),  # the trump pair is the cuarenta
        ("veinte-copa", ["12-copa", "11-copa"], ORO, 1 << COPA),  # already sung
        ("veinte-copa", ["12-copa", "10-copa"], ORO, 0),  # the sota is not the caballo
        ("cuarenta-oro", ["12-oro", "11-oro"], ORO, 0),  # no such canto
        ("", [], ORO, 0),
    ],
)
def test_D21_false_cantos(canto: str, hand: list[str], trump: int, sung: int) -> None:
    assert not dos.is_valid_canto(canto, m(*hand), trump, sung)


def test_D21_canto_names() -> None:
    assert all(dos.is_canto_name(x) for x in ("tute", "cuarenta", "veinte-oro", "veinte-basto"))
    assert not dos.is_canto_name("veinte") and not dos.is_canto_name(None)
    assert dos.canto_suit("veinte-espada", ORO) == ESPADA and dos.canto_suit("tute", ORO) == -1
    with pytest.raises(RulesError):
        dos.canto_suit("cuarenta-oro", ORO)


# ===================================================================== scoring (D22-D25)


def test_D22_tantos() -> None:
    assert dos.tantos([64, 56], 1, [20, 40]) == [84, 106]
    assert dos.tantos([120, 0], 0, [0, 0]) == [130, 0]
    assert sum(dos.tantos([70, 50], 0, [0, 0])) == 130


def test_D23_more_tantos_wins() -> None:
    assert dos.mano_winner([84, 106], 1) == 1
    assert dos.mano_winner([84, 106], 0) == 1
    assert dos.mano_winner([71, 59], 1) == 0


def test_D23_a_tie_goes_to_the_ultimas() -> None:
    assert dos.tantos([65, 55], 1, [0, 0]) == [65, 65]
    assert dos.mano_winner([65, 65], 1) == 1
    assert dos.mano_winner([85, 85], 0) == 0


def test_D24_no_capote_rule() -> None:
    t = dos.tantos([120, 0], 0, [0, 40])  # the rival sang, then took nothing
    assert t == [130, 40] and dos.mano_winner(t, 0) == 0
    t = dos.tantos([120, 0], 0, [20, 0])  # the capote player sang: still wins (not rule 18)
    assert dos.mano_winner(t, 0) == 0


def test_D25_no_target_of_101() -> None:
    assert dos.mano_winner(dos.tantos([60, 50], 1, [0, 0]), 1) == 1  # 60 against 60: últimas
    assert dos.mano_winner([66, 64], 1) == 0  # far from 101, still a win


# ===================================================================== the partido (D26, D27)


def test_D26_one_juego_per_mano() -> None:
    assert dos.add_juegos((0, 0), 1) == (0, 1)
    assert dos.add_juegos((1, 1), 0) == (2, 1)


def test_D27_first_to_n_juegos() -> None:
    rules = DosRules()
    assert dos.partido_winner((0, 0), rules) is None and not dos.partido_over((1, 1), rules)
    assert dos.partido_winner((2, 1), rules) == 0 and dos.partido_over((2, 1), rules)
    assert dos.partido_winner((0, 2), rules) == 1
    one = DosRules(juegos=1)
    assert dos.partido_winner(dos.add_juegos((0, 0), 1), one) == 1


def test_D27_best_of_three() -> None:
    rules = DosRules()
    rng = random.Random(0)
    for _ in range(200):
        juegos, manos = (0, 0), 0
        while not dos.partido_over(juegos, rules):
            juegos = dos.add_juegos(juegos, rng.randrange(2))
            manos += 1
        assert 2 <= manos <= 3 == 2 * rules.juegos - 1


# ===================================================================== faults (D28) and the rule set


def test_D28_policies_and_no_accuse() -> None:
    assert dos.RENUNCIO_POLICIES == ("disqualify", "penalize")
    with pytest.raises(RulesError, match="'accuse'"):
        DosRules(renuncio="accuse")


def test_D28_a_penalized_renuncio_gives_two_juegos() -> None:
    assert dos.add_juegos((0, 0), 1, dos.PENALTY_JUEGOS) == (0, 2)
    assert dos.partido_winner((0, 2), DosRules(renuncio="penalize")) == 1
    assert dos.partido_winner((0, 2), DosRules(juegos=3, renuncio="penalize")) is None


def test_D28_a_phase_2_renuncio_is_a_card_outside_the_legal_set() -> None:
    hand = m("4-copa", "1-oro")
    assert not dos.legal_mask(hand, c("10-copa"), ORO, 0) >> c("1-oro") & 1  # trumping while holding L
    assert dos.legal_mask(hand, c("10-copa"), ORO, 2) >> c("1-oro") & 1  # phase 1: no renuncio


def test_rules_round_trip_and_defaults() -> None:
    r = DosRules("habanero", 3, "penalize")
    assert r.to_dict() == {"ruleset": "habanero", "juegos": 3, "renuncio": "penalize"}
    assert DosRules.from_dict(r.to_dict()) == r
    assert DosRules.from_dict({}) == DosRules()
    assert repr(r) == "DosRules('habanero', 3, 'penalize')"


@pytest.mark.parametrize("juegos", [0, -1, True, 2.0, "2"])
def test_rules_refuse_bad_juegos(juegos: object) -> None:
    with pytest.raises(RulesError):
        DosRules(juegos=juegos)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        DosRules.from_dict({"juegos": juegos})


def test_rules_refuse_unknown_names() -> None:
    with i18n.speaking("en"):
        with pytest.raises(RulesError, match="unknown ruleset 'ludoteka'"):
            DosRules("ludoteka")
        with pytest.raises(RulesError, match="unknown renuncio policy 'accuse'; known: disqualify, penalize"):
            DosRules(renuncio="accuse")


def test_rules_are_immutable_and_shared() -> None:
    r = DosRules()
    with pytest.raises(AttributeError):
        r.juegos = 5
    assert copy.deepcopy(r) is r and copy.copy(r) is r
    assert hash(r) == hash(DosRules()) and r != DosRules(juegos=3)


# ===================================================================== the page itself


def test_the_page_numbers_its_rules_and_readings() -> None:
    text = DOC.read_text(encoding="utf-8")
    rules = [int(n) for n in re.findall(r"^\*\*D(\d+)\. ", text, re.M)]
    readings = [int(n) for n in re.findall(r"^\*\*B(\d+)\. ", text, re.M)]
    assert rules == list(range(1, len(rules) + 1)) and len(rules) == 28
    assert readings == list(range(1, len(readings) + 1)) and len(readings) == 22
    assert {int(n) for n in re.findall(r"\bB(\d+)\b", text)} <= set(readings)
    assert {int(n) for n in re.findall(r"\bD(\d+)\b", text)} <= set(rules)


def test_the_module_cites_only_rules_of_the_page() -> None:
    source = MODULE.read_text(encoding="utf-8")
    cited = {int(n) for n in re.findall(r"\bD(\d+)\b", source)}
    assert cited and cited <= set(range(1, 29))
    assert {int(n) for n in re.findall(r"\bB(\d+)\b", source)} <= set(range(1, 23))


# ===================================================================== properties


@given(st.integers(1, (1 << 40) - 1), st.integers(-1, 39), st.integers(0, 3), st.integers(0, 24))
def test_legal_plays_never_empty_and_phase_2_within_phase_1(
    hand: int, led: int, trump: int, left: int
) -> None:
    if led >= 0:
        hand &= ~(1 << led)
        if not hand:
            return
    legal_now = dos.legal_mask(hand, led, trump, left)
    phase_1 = dos.legal_mask(hand, led, trump, max(left, 2))
    phase_2 = dos.legal_mask(hand, led, trump, 0)
    assert legal_now and phase_2
    assert phase_1 == hand
    assert phase_2 & ~phase_1 == 0


@given(st.randoms(use_true_random=False), st.integers(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_a_full_mano_adds_up_to_130_plus_cantos(
    rng: random.Random, mano: int, p_sing: float, p_cambio: float
) -> None:
    order = list(range(40))
    rng.shuffle(order)
    rec = play_mano(rng, order, mano, p_sing, p_cambio)
    assert sorted(rec.played) == list(range(40))  # every card played once, the turned-up one too
    assert sum(rec.taken) == 120
    t = dos.tantos(rec.taken, rec.last_baza, rec.cantos)
    assert sum(t) == 130 + sum(rec.cantos)
    assert sum(rec.cantos) <= 100 and len(rec.sung) == len(set(rec.sung))
    assert rec.phases == [1] * 12 + [2] * 8
    assert rec.sizes[:13] == [(8, 8)] * 13
    assert rec.turned_at_end == dos.NO_CARD and rec.last_drawn is not None
    winner = dos.mano_winner(t, rec.last_baza)
    assert t[winner] >= t[1 - winner]


@given(st.randoms(use_true_random=False))
def test_the_last_card_drawn_is_the_one_face_up(rng: random.Random) -> None:
    """Without cambios the loser of baza 12 draws the turned-up triunfo (the deal's 17th card)."""
    order = list(range(40))
    rng.shuffle(order)
    rec = play_mano(rng, order, 0, 0.5, 0.0)
    assert rec.last_drawn is not None and rec.last_drawn[1] == order[16]


@given(st.integers(0, 39), st.integers(0, (1 << 40) - 1))
def test_a_cambio_keeps_the_cards(turned: int, hand: int) -> None:
    hand &= ~(1 << turned)
    monte = (turned,)
    if dos.may_cambio(hand, monte):
        new_hand, new_monte = dos.cambio(hand, monte)
        assert new_hand | mask(new_monte) == hand | (1 << turned)
        assert new_hand.bit_count() == hand.bit_count()
        assert new_monte[-1] // 10 == turned // 10  # the trump suit never changes (D8)
    else:
        given_card = dos.cambio_card(turned)
        assert given_card < 0 or not hand >> given_card & 1
