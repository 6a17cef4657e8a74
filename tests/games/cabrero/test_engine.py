"""The partido state machine against rules.md: deals, cantos, outcomes, faults, porotos, ranking.

Situations are built with stacked deals (``engine.stack_deck``) and the expected
values are worked out by hand from rules.md; random partidos (fixed seeds, fixed
``random.Random``) are used where a situation is easier to find than to build.
"""

from __future__ import annotations

import random

import pytest

from arena import cards, engine, rules
from arena.engine import IllegalMove, Partido, stack_deck
from arena.rules import RulesError, RuleSet
from tests.helpers import (
    events,
    fill_hands,
    last,
    legal_cards,
    mano_start,
    play_first_legal,
    play_mano,
    play_randomly,
    play_step,
    seats_from,
)

SUITS = ("oro", "copa", "espada", "basto")
ALL_NAMES = set(cards.NAMES)
KINGS = [f"12-{s}" for s in SUITS]
KNIGHTS = [f"11-{s}" for s in SUITS]
ALL_OROS = [f"{r}-oro" for r in (2, 4, 5, 6, 7, 10, 11, 12, 3, 1)]
HAND_SIZE = {3: 13, 4: 10, 5: 8, 6: 8}


def stacked_first(n: int, specs: list[list[str]], first: int = 0, leftover: str | None = None):
    """A stacked first mano: ``specs`` are partial hands in dealing order from seat ``first``."""
    hands = fill_hands(specs, HAND_SIZE[n], leftover)
    return {1: (first, stack_deck(hands, leftover))}, hands


def snapshot(p: Partido):
    m = p.mano
    return (
        len(p.events),
        p.to_move,
        m.hands[:],
        m.table[:],
        m.baza,
        m.may_sing,
        p.porotos[:],
        p.active[:],
        m.bazas[:],
        m.canto_points[:],
        m.sung_suits,
    )


def expect_illegal(p: Partido, reason: str, card, sing=None) -> IllegalMove:
    before = snapshot(p)
    with pytest.raises(IllegalMove) as info:
        p.play(card, sing=sing)
    assert info.value.reason == reason
    assert snapshot(p) == before, "an illegal move must change nothing"
    return info.value


def finish_mano(p: Partido, choose=None) -> None:
    """Play the current mano out without singing; ``choose(p)`` picks a card (default first legal)."""
    k = p.mano_number
    while not p.over and p.mano_number == k:
        if choose is None:
            play_first_legal(p)
        else:
            p.play(choose(p))


def set_of(hand: list[str] | None) -> set[str]:
    assert hand is not None
    return set(hand)


# ===================================================================== the first mano


def test_first_mano_three_players_two_oro_holder_takes_face_down_leftover():
    # dealing starts at seat 1: seat 1, seat 2, seat 0; 2-oro goes to seat 2
    stacked, hands = stacked_first(
        3, [["1-copa"], ["2-oro", "3-oro"], ["4-oro"]], first=1, leftover="1-basto"
    )
    p = Partido(3, 11, stacked=stacked)
    ev = mano_start(p, 1)
    dealt = {1: hands[0], 2: hands[1], 0: hands[2]}
    for s in range(3):
        assert set_of(ev["dealt"][s]) == set(dealt[s])
    assert ev["mano_seat"] == 2 and p.mano_seat == 2
    assert ev["dealer"] == 1  # the seat to the mano's left
    assert ev["trump"] == "oro" and p.mano.trump == 0
    assert ev["shown"] is None
    assert ev["leftover"] == "1-basto"
    assert ev["out_of_play"] == "2-oro"
    assert ev["swaps"] == [{"seat": 2, "gave": "2-oro", "took": "1-basto"}]
    assert set_of(ev["hands"][2]) == set(dealt[2]) - {"2-oro"} | {"1-basto"}
    assert set_of(ev["hands"][0]) == set(dealt[0])
    assert set_of(ev["hands"][1]) == set(dealt[1])
    assert all(len(h) == 13 for h in ev["hands"])
    assert p.to_move == 2
    assert p.mano.order == (2, 0, 1)
    # the 2-oro is out of play: nobody can play it
    expect_illegal(p, "not_in_hand", "2-oro")


def test_first_mano_three_players_two_oro_leftover_four_oro_holder_is_mano():
    stacked, hands = stacked_first(3, [[], ["4-oro"], []], first=0, leftover="2-oro")
    p = Partido(3, 12, stacked=stacked)
    ev = mano_start(p, 1)
    assert ev["mano_seat"] == 1
    assert ev["dealer"] == 0
    assert ev["swaps"] == []
    assert ev["leftover"] == "2-oro"
    assert ev["out_of_play"] == "2-oro"
    assert ev["trump"] == "oro" and ev["shown"] is None
    assert ev["hands"] == ev["dealt"]
    for s in range(3):
        assert set_of(ev["hands"][s]) == set(hands[s])
    assert p.to_move == 1 and p.mano.order == (1, 2, 0)


@pytest.mark.parametrize("n,first,pos,mano,dealer", [(4, 3, 2, 1, 0), (5, 2, 4, 1, 0), (4, 0, 0, 0, 3)])
def test_first_mano_four_or_five_two_oro_holder_is_mano_trump_oro(n, first, pos, mano, dealer):
    specs = [[] for _ in range(n)]
    specs[pos] = ["2-oro"]
    stacked, hands = stacked_first(n, specs, first=first)
    p = Partido(n, 13, stacked=stacked)
    ev = mano_start(p, 1)
    order_dealt = [(first + i) % n for i in range(n)]
    for i, s in enumerate(order_dealt):
        assert set_of(ev["dealt"][s]) == set(hands[i])
    assert ev["mano_seat"] == mano and p.to_move == mano
    assert ev["dealer"] == dealer
    assert ev["trump"] == "oro" and ev["shown"] is None
    assert ev["sitting_out"] is None and ev["leftover"] is None and ev["out_of_play"] is None
    assert ev["swaps"] == [] and ev["hands"] == ev["dealt"]
    assert p.mano.order == tuple((mano + i) % n for i in range(n))


@pytest.mark.parametrize("n", [4, 5])
def test_first_mano_unstacked_two_oro_holder_is_mano(n):
    for seed in range(15):
        p = Partido(n, seed)
        ev = mano_start(p, 1)
        holder = next(s for s in range(n) if "2-oro" in ev["dealt"][s])
        assert ev["mano_seat"] == holder
        assert ev["dealer"] == (holder - 1) % n
        assert ev["trump"] == "oro" and ev["shown"] is None
        assert all(len(h) == HAND_SIZE[n] for h in ev["dealt"])


def test_first_mano_six_players_drawn_mano_and_dealer_sits_out():
    # the drawn seat 2 is mano whoever holds 2-oro (seat 4 here); seat 1 deals and sits out
    stacked, hands = stacked_first(6, [[], [], ["2-oro"], [], []], first=2)
    p = Partido(6, 14, stacked=stacked)
    ev = mano_start(p, 1)
    assert ev["mano_seat"] == 2 and p.to_move == 2
    assert ev["dealer"] == 1 and ev["sitting_out"] == 1 and p.sitting_out == 1
    assert ev["dealt"][1] is None and ev["hands"][1] is None
    for i, s in enumerate([2, 3, 4, 5, 0]):
        assert set_of(ev["dealt"][s]) == set(hands[i])
    assert "2-oro" in ev["dealt"][4]
    assert ev["trump"] == "oro" and ev["shown"] is None
    assert p.mano.order == (2, 3, 4, 5, 0)
    # play goes to the right and skips the dealer sitting out
    turns = []
    for _ in range(5):
        turns.append(p.to_move)
        play_first_legal(p)
    assert turns == [2, 3, 4, 5, 0]


def test_first_mano_six_players_mano_drawn_from_the_seed():
    manos = set()
    for seed in range(30):
        ev = mano_start(Partido(6, seed), 1)
        assert ev["sitting_out"] == ev["dealer"] == (ev["mano_seat"] - 1) % 6
        assert ev["trump"] == "oro" and ev["shown"] is None
        assert mano_start(Partido(6, seed), 1) == ev  # same seed, same draw and deal
        manos.add(ev["mano_seat"])
    assert len(manos) > 1  # drawn, not fixed
    holders = [
        next(s for s in range(6) if ev["dealt"][s] and "2-oro" in ev["dealt"][s])
        for ev in (mano_start(Partido(6, seed), 1) for seed in range(30))
    ]
    assert any(h != mano_start(Partido(6, seed), 1)["mano_seat"] for seed, h in enumerate(holders))


# ===================================================================== later manos


def _stack_later(
    n: int, specs: list[list[str]], last_card: str | None = None, leftover: str | None = None, first: int = 0
):
    """A later mano's deal: specs in dealing order from the new mano; ``last_card`` dealt last."""
    hands = fill_hands(specs, HAND_SIZE[n], leftover)
    if last_card is not None:
        h = next(h for h in hands if last_card in h)
        assert h is hands[-1], "the last card dealt goes to the last hand"
        h.remove(last_card)
        h.append(last_card)
    return (first, stack_deck(hands, leftover)), hands


@pytest.mark.parametrize("n,shown_seat", [(4, 0), (5, 0), (6, 5)])
def test_later_mano_rotates_right_and_shows_the_last_card(n, shown_seat):
    # mano 1: mano 0 (2-oro dealt first, or drawn with 6). Mano 2: mano 1, dealer 0.
    positions = 5 if n == 6 else n
    first, _ = stacked_first(n, [["2-oro"]] + [[] for _ in range(positions - 1)], first=0)
    specs = [[] for _ in range(positions)]
    specs[-1] = ["5-espada"]
    specs[1] = ["2-oro"]  # the 2-oro rule must not apply any more
    second, hands = _stack_later(n, specs, last_card="5-espada", first=3)  # first seat: ignored
    p = Partido(n, 15, stacked={**first, 2: second})
    assert p.mano_seat == 0
    play_mano(p, random.Random(1))
    ev = mano_start(p, 2)
    assert ev["mano_seat"] == 1 and ev["dealer"] == 0
    assert ev["sitting_out"] == (0 if n == 6 else None)
    order = [1, 2, 3, 4, 5] if n == 6 else [(1 + i) % n for i in range(n)]
    for i, s in enumerate(order):
        assert set_of(ev["dealt"][s]) == set(hands[i])
    assert ev["shown"] == "5-espada"
    assert ev["trump"] == "espada" and p.mano.trump == 2
    assert "5-espada" in ev["hands"][shown_seat]  # stays in that hand
    assert ev["leftover"] is None and ev["swaps"] == [] and ev["out_of_play"] is None
    assert p.to_move == 1
    assert p.mano.order == tuple(order)


def test_later_manos_mano_moves_one_seat_right_each_time():
    p = Partido(5, 16)
    rng = random.Random(2)
    seen = [p.mano_seat]
    for _ in range(3):
        play_mano(p, rng)
        seen.append(p.mano_seat)
    assert all(p.active)  # four manos: nobody can have lost four porotos
    assert seen == [(seen[0] + i) % 5 for i in range(4)]
    for k in (2, 3, 4):
        ev = mano_start(p, k)
        assert ev["dealer"] == seen[k - 2]  # the previous mano deals
        assert ev["shown"] in ev["hands"][ev["dealer"]]
        assert ev["trump"] == ev["shown"].split("-")[1]


CAMBIO_CASES = {
    # leftover: (specs by dealing position, expected swaps as (position, gave, took), out of play)
    "four": ("4-copa", [["2-copa"], ["7-copa"], []], [], "4-copa"),
    "two": ("2-copa", [[], ["7-copa"], []], [], "2-copa"),
    "five": ("5-copa", [["2-copa"], ["7-copa"], []], [(0, "2-copa", "5-copa")], "2-copa"),
    "six": ("6-copa", [["2-copa"], ["7-copa"], []], [(0, "2-copa", "6-copa")], "2-copa"),
    "seven": ("7-copa", [[], [], ["2-copa"]], [(2, "2-copa", "7-copa")], "2-copa"),
    "sota": (
        "10-copa",
        [["2-copa"], ["7-copa"], []],
        [(1, "7-copa", "10-copa"), (0, "2-copa", "7-copa")],
        "2-copa",
    ),
    "as": (
        "1-copa",
        [["7-copa"], [], ["2-copa"]],
        [(0, "7-copa", "1-copa"), (2, "2-copa", "7-copa")],
        "2-copa",
    ),
    "rey-one-seat-both": (
        "12-copa",
        [[], [], ["2-copa", "7-copa"]],
        [(2, "7-copa", "12-copa"), (2, "2-copa", "7-copa")],
        "2-copa",
    ),
    "tres-one-seat-both": (
        "3-copa",
        [["7-copa", "2-copa"], [], []],
        [(0, "7-copa", "3-copa"), (0, "2-copa", "7-copa")],
        "2-copa",
    ),
}


@pytest.mark.parametrize("case", sorted(CAMBIO_CASES))
def test_three_players_later_mano_cambio(case):
    leftover, specs, swaps, out = CAMBIO_CASES[case]
    first, _ = stacked_first(3, [["2-oro"], [], []], first=0, leftover="1-basto")
    second, hands = _stack_later(3, specs, leftover=leftover, first=2)
    p = Partido(3, 17, stacked={**first, 2: second})
    assert p.mano_seat == 0
    play_mano(p, random.Random(3))
    assert not p.over and p.mano_number == 2
    ev = mano_start(p, 2)
    order = [1, 2, 0]  # the seat right of the previous mano (0) leads; 0 deals
    assert ev["mano_seat"] == 1 and ev["dealer"] == 0 and ev["sitting_out"] is None
    assert ev["leftover"] == leftover
    assert ev["shown"] is None
    assert ev["trump"] == "copa" and p.mano.trump == 1
    assert ev["out_of_play"] == out
    assert ev["swaps"] == [{"seat": order[i], "gave": g, "took": t} for i, g, t in swaps]
    expected = {order[i]: set(h) for i, h in enumerate(hands)}
    for i, g, t in swaps:
        s = order[i]
        assert g in expected[s]
        expected[s] = expected[s] - {g} | {t}
    for s in range(3):
        assert set_of(ev["dealt"][s]) == set(hands[order.index(s)])
        assert set_of(ev["hands"][s]) == expected[s]
        assert len(ev["hands"][s]) == 13
    assert set().union(*map(set, ev["hands"])) | {out} == ALL_NAMES


# ===================================================================== cantos

# Seat 0 (mano: it holds 2-oro) holds every oro; seats 1-3 hold all copas, espadas, bastos.
ORO_HAND = [ALL_OROS, [], [], []]


def oro_partido(ruleset: RuleSet | None = None) -> Partido:
    stacked, _ = stacked_first(4, ORO_HAND)
    return Partido(4, 18, ruleset, stacked=stacked)


def win_first_baza(p: Partido, lead: str = "1-oro") -> None:
    assert p.to_move == 0
    p.play(lead)
    for _ in range(3):
        play_first_legal(p)
    assert p.to_move == 0 and p.mano.baza == 2


def test_no_canto_before_the_first_baza():
    p = oro_partido()
    assert p.request()["may_sing"] is False
    assert p.mano.cantos() == []
    err = expect_illegal(p, "protocol", "1-oro", sing="cuarenta")
    assert err.evidence.get("canto") == "cuarenta"


def test_only_the_baza_winner_may_sing():
    p = oro_partido()
    p.play("1-oro")
    assert p.to_move == 1 and p.request()["may_sing"] is False
    # seat 1 holds 12-copa and 11-copa but did not win a baza
    expect_illegal(p, "protocol", legal_cards(p)[0], sing="veinte-copa")


def test_baza_winner_may_sing_before_leading():
    p = oro_partido()
    win_first_baza(p)
    req = p.request()
    assert req["may_sing"] is True and req["trick"] == 2 and req["table"] == []
    assert p.mano.cantos() == ["cuarenta"]
    p.play("3-oro", sing="cuarenta")
    sang, played = p.events[-2], p.events[-1]
    assert sang == {"type": "sang", "seat": 0, "canto": "cuarenta"}
    assert played["type"] == "played" and played["card"] == "3-oro"
    assert p.mano.canto_points[0] == 40


def test_may_sing_is_lost_once_the_lead_is_played():
    p = oro_partido()
    win_first_baza(p)
    p.play("3-oro")  # leads without singing
    for _ in range(3):
        play_first_legal(p)
    assert p.request()["may_sing"] is True  # won again: may sing now
    p.play("12-oro", sing=None)
    assert p.to_move == 1
    expect_illegal(p, "protocol", legal_cards(p)[0], sing="veinte-copa")


def test_false_canto_pair_not_held():
    p = oro_partido()
    win_first_baza(p)
    err = expect_illegal(p, "false_canto", "3-oro", sing="veinte-copa")
    assert err.evidence.get("canto") == "veinte-copa"


def test_veinte_of_the_trump_suit_is_a_false_canto():
    p = oro_partido()
    win_first_baza(p)
    expect_illegal(p, "false_canto", "3-oro", sing="veinte-oro")
    p.play("3-oro", sing="cuarenta")  # the trump pair is the cuarenta
    assert last(p, "sang")["canto"] == "cuarenta"


def test_unknown_canto_is_a_false_canto():
    p = oro_partido()
    win_first_baza(p)
    expect_illegal(p, "false_canto", "3-oro", sing="las-cuarenta")


def test_canto_needs_the_cards_in_hand_at_that_moment():
    p = oro_partido()
    win_first_baza(p, lead="12-oro")  # the king of the pair is gone
    expect_illegal(p, "false_canto", "3-oro", sing="cuarenta")


def test_same_canto_cannot_be_sung_twice_in_a_mano():
    p = oro_partido()
    win_first_baza(p)
    p.play("3-oro", sing="cuarenta")
    for _ in range(3):
        play_first_legal(p)
    assert p.to_move == 0 and p.request()["may_sing"] is True
    assert p.mano.cantos() == []
    expect_illegal(p, "false_canto", "10-oro", sing="cuarenta")


def test_false_tute_is_a_false_canto_and_tute_with_a_card_is_protocol():
    p = oro_partido()
    win_first_baza(p)
    expect_illegal(p, "false_canto", None, sing="tute")
    stacked, _ = stacked_first(4, [["2-oro", "1-oro", *KINGS], [], [], []])
    q = Partido(4, 19, stacked=stacked)
    win_first_baza(q)
    expect_illegal(q, "protocol", "4-oro", sing="tute")


def test_pair_canto_without_a_card_is_protocol():
    p = oro_partido()
    win_first_baza(p)
    expect_illegal(p, "protocol", None, sing="cuarenta")


def test_cuarenta_and_veinte_one_per_baza_count_in_the_score():
    # seat 0 keeps the as and 3 of oro to win two bazas, sings cuarenta then veinte-copa;
    # seat 1 holds the other oros and takes the third baza, so the mano is decided by points
    specs = [
        ["2-oro", "1-oro", "3-oro", "12-oro", "11-oro", "12-copa", "11-copa", "2-copa", "4-copa", "5-copa"],
        [],
        [],
        [],
    ]
    stacked, hands = stacked_first(4, specs)
    assert sum(1 for c in hands[1] if c.endswith("-oro")) == 5
    p = Partido(4, 20, stacked=stacked)
    win_first_baza(p, "1-oro")
    p.play("3-oro", sing="cuarenta")
    for _ in range(3):
        play_first_legal(p)
    assert p.to_move == 0
    p.play("2-oro", sing="veinte-copa")
    for _ in range(3):
        play_first_legal(p)
    assert p.to_move == 1  # seat 1 had to beat the 2-oro
    finish_mano(p)
    end = last(p, "mano_end")
    assert end["outcome"] == "points"
    taken = {s: 0 for s in range(4)}
    for t in events(p, "trick_end"):
        taken[t["winner"]] += sum(cards.POINTS[cards.parse(x["card"])] for x in t["cards"])
    last_winner = events(p, "trick_end")[-1]["winner"]
    expected = [taken[s] + (10 if s == last_winner else 0) + (60 if s == 0 else 0) for s in range(4)]
    assert end["scores"] == expected
    assert sum(end["scores"]) == 130 + 60


# ===================================================================== tute


@pytest.mark.parametrize("figures", [KINGS, KNIGHTS], ids=["kings", "knights"])
def test_tute_ends_the_mano_every_other_dealt_in_player_loses(figures):
    stacked, _ = stacked_first(4, [["2-oro", "1-oro", *figures], [], [], []])
    p = Partido(4, 21, stacked=stacked)
    win_first_baza(p)
    assert "tute" in p.mano.cantos()
    p.play(None, sing="tute")
    assert last(p, "sang") == {"type": "sang", "seat": 0, "canto": "tute"}
    end = last(p, "mano_end")
    assert end["mano"] == 1
    assert end["outcome"] == "tute"
    assert end["losers"] == [1, 2, 3]
    assert end["scores"] is None
    assert end["tricks"] == [1, 0, 0, 0]
    assert end["porotos"] == [4, 3, 3, 3] == p.porotos
    assert p.mano_number == 2 and not p.over


def test_tute_after_a_veinte_of_the_same_kings():
    # seat 0 sings veinte-copa with 12-copa and 11-copa, then tute with the four kings
    stacked, _ = stacked_first(4, [["2-oro", "1-oro", "3-oro", *KINGS, "11-copa"], [], [], []])
    p = Partido(4, 50, stacked=stacked)
    win_first_baza(p, "1-oro")
    p.play("3-oro", sing="veinte-copa")
    for _ in range(3):
        play_first_legal(p)
    assert p.to_move == 0 and "tute" in p.mano.cantos()
    p.play(None, sing="tute")
    end = last(p, "mano_end")
    assert end["outcome"] == "tute" and end["losers"] == [1, 2, 3]
    assert [e["canto"] for e in events(p, "sang")] == ["veinte-copa", "tute"]


def test_tute_six_players_dealer_sitting_out_does_not_lose():
    stacked, _ = stacked_first(6, [["1-oro", *KINGS], [], [], [], []], first=0)
    p = Partido(6, 22, stacked=stacked)
    assert p.sitting_out == 5 and p.mano_seat == 0
    win_first_baza_n(p, 5)
    p.play(None, sing="tute")
    end = last(p, "mano_end")
    assert end["outcome"] == "tute"
    assert end["losers"] == [1, 2, 3, 4]
    assert end["tricks"][5] is None
    assert p.porotos == [4, 3, 3, 3, 3, 4]


def win_first_baza_n(p: Partido, dealt_in: int, lead: str = "1-oro") -> None:
    p.play(lead)
    for _ in range(dealt_in - 1):
        play_first_legal(p)
    assert p.to_move == 0


def test_tute_wins_partido_variant_singer_only_winner():
    stacked, _ = stacked_first(4, [["2-oro", "1-oro", *KNIGHTS], [], [], []])
    p = Partido(4, 23, RuleSet(variants=frozenset({"tute-wins-partido"})), stacked=stacked)
    win_first_baza(p)
    p.play(None, sing="tute")
    assert p.over and p.to_move is None
    assert p.winners == [0]
    end = last(p, "partido_end")
    assert end["winners"] == [0] and end["manos"] == 1
    assert end["ranking"][0] == [0]
    assert sorted(s for g in end["ranking"][1:] for s in g) == [1, 2, 3]
    with pytest.raises(IllegalMove) as info:
        p.play("4-oro")
    assert info.value.reason == "protocol"


def test_tute_wins_partido_six_players_dealer_is_not_a_winner():
    stacked, _ = stacked_first(6, [["1-oro", *KINGS], [], [], [], []], first=0)
    p = Partido(6, 24, RuleSet(variants=frozenset({"tute-wins-partido"})), stacked=stacked)
    win_first_baza_n(p, 5)
    p.play(None, sing="tute")
    assert p.over and p.winners == [0]
    assert p.ranking()[0] == [0]


# ===================================================================== capote


def lead_then_follow(p: Partido, lead: str, sing: str | None = None) -> None:
    assert p.to_move == 0
    p.play(lead, sing=sing)
    while p.to_move != 0 and p.mano_number == 1:
        play_first_legal(p)


def test_capote_every_other_dealt_in_player_loses():
    p = oro_partido()
    for c in reversed(ALL_OROS):
        lead_then_follow(p, c)
    end = events(p, "mano_end")[0]
    assert end["outcome"] == "capote"
    assert end["tricks"] == [10, 0, 0, 0]
    assert end["scores"] == [130, 0, 0, 0]  # 120 card points + 10 de última
    assert end["losers"] == [1, 2, 3]
    assert end["porotos"] == [4, 3, 3, 3]
    # never a canto after the last baza: the next mano starts and its mano may not sing
    assert p.mano_number == 2 and p.mano.baza == 1
    assert p.request()["may_sing"] is False and p.mano.cantos() == []


def test_capote_after_singing_cuarenta_the_singer_alone_loses():
    p = oro_partido()
    lead_then_follow(p, "1-oro")
    lead_then_follow(p, "3-oro", sing="cuarenta")
    for c in ["12-oro", "11-oro", "10-oro", "7-oro", "6-oro", "5-oro", "4-oro", "2-oro"]:
        lead_then_follow(p, c)
    end = events(p, "mano_end")[0]
    assert end["outcome"] == "capote"
    assert end["scores"] == [170, 0, 0, 0]
    assert end["losers"] == [0]
    assert end["porotos"] == [3, 4, 4, 4]


def test_three_players_cuarenta_and_veinte_then_capote_singer_alone_loses():
    # seat 0: every oro (so 2-oro: it swaps it for the face-down 11-copa) and 1, 3, 12 of copa
    specs = [[*ALL_OROS, "1-copa", "3-copa", "12-copa"], [], []]
    stacked, _ = stacked_first(3, specs, first=0, leftover="11-copa")
    p = Partido(3, 25, stacked=stacked)
    assert p.mano_seat == 0
    assert {"11-copa", "12-copa"} <= set(cards.names_of(p.mano.hands[0]))
    leads = [
        "1-oro",
        "3-oro",
        "12-oro",
        "11-oro",
        "10-oro",
        "7-oro",
        "6-oro",
        "5-oro",
        "4-oro",
        "1-copa",
        "3-copa",
        "12-copa",
        "11-copa",
    ]
    cantos = {"3-oro": "cuarenta", "12-oro": "veinte-copa"}
    for c in leads:
        lead_then_follow(p, c, sing=cantos.get(c))
    end = events(p, "mano_end")[0]
    assert end["outcome"] == "capote"
    assert end["tricks"] == [13, 0, 0]
    assert end["scores"] == [120 + 10 + 40 + 20, 0, 0]
    assert end["losers"] == [0]


def test_capote_six_players_dealer_sitting_out_does_not_lose():
    top = ["1-oro", "3-oro", "12-oro", "11-oro", "10-oro", "7-oro", "6-oro", "5-oro"]
    stacked, _ = stacked_first(6, [top, [], [], [], []], first=0)
    p = Partido(6, 26, stacked=stacked)
    assert p.sitting_out == 5
    for c in top:
        lead_then_follow(p, c)
    end = events(p, "mano_end")[0]
    assert end["outcome"] == "capote"
    assert end["losers"] == [1, 2, 3, 4]
    assert end["scores"][0] == 130 and end["scores"][5] is None and end["tricks"][5] is None
    assert end["porotos"] == [4, 3, 3, 3, 3, 4]


# ===================================================================== plays


def test_request_describes_the_move_awaited():
    p = oro_partido()
    req = p.request()
    assert req["type"] == "play" and req["mano"] == 1 and req["trick"] == 1
    assert set(req["hand"]) == set(ALL_OROS)
    assert req["table"] == [] and req["may_sing"] is False
    p.play("1-oro")
    req = p.request()
    assert req["table"] == [{"seat": 0, "card": "1-oro"}]
    assert set(req["hand"]) == {f"{r}-copa" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)}


def test_renuncio_must_follow_suit():
    specs = [["2-oro", "1-oro"], ["12-oro", "1-copa"], [], []]
    stacked, _ = stacked_first(4, specs)
    p = Partido(4, 27, stacked=stacked)
    p.play("1-oro")
    assert p.to_move == 1
    err = expect_illegal(p, "renuncio", "1-copa")
    assert err.evidence.get("card") == "1-copa"
    p.play("12-oro")  # following suit is fine even though it cannot win


def test_renuncio_must_beat_when_following():
    specs = [["2-oro", "10-copa"], ["4-copa", "1-copa"], [], []]
    stacked, _ = stacked_first(4, specs)
    p = Partido(4, 28, stacked=stacked)
    p.play("10-copa")
    assert "4-copa" in cards.names_of(p.mano.hands[1])
    expect_illegal(p, "renuncio", "4-copa")
    assert cards.parse("4-copa") not in legal_cards(p)
    p.play("1-copa")


def test_renuncio_must_trump_without_the_suit():
    # seat 1 has no copa but holds oro (trump): it must trump the 10-copa
    specs = [["2-oro", "10-copa"], ["4-oro", *[f"{r}-espada" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11)]], [], []]
    stacked, _ = stacked_first(4, specs)
    p = Partido(4, 29, stacked=stacked)
    p.play("10-copa")
    expect_illegal(p, "renuncio", "1-espada")
    assert legal_cards(p) == [cards.parse("4-oro")]
    p.play("4-oro")


def test_card_not_in_hand_or_unknown_is_not_in_hand():
    p = oro_partido()
    for bad in ("1-copa", "13-oro", "1-oros", "", 40, -1, 99):
        err = expect_illegal(p, "not_in_hand", bad)
        assert "card" in err.evidence
    expect_illegal(p, "protocol", None)


def test_play_after_the_partido_is_over_is_protocol():
    p = play_randomly(Partido(3, 30), random.Random(30))
    assert p.over and p.to_move is None
    with pytest.raises(IllegalMove) as info:
        p.play("1-oro")
    assert info.value.reason == "protocol"
    with pytest.raises(IllegalMove):
        p.request()


@pytest.mark.parametrize("n", [0, 1, 2, 7, 10])
def test_table_of_two_or_seven_players_is_rejected(n):
    with pytest.raises(RulesError):
        Partido(n, 1)


def test_unknown_ruleset_variant_or_policy_is_rejected():
    with pytest.raises(RulesError):
        Partido(4, 1, RuleSet("tute-espanol"))
    with pytest.raises(RulesError):
        Partido(4, 1, RuleSet(variants=frozenset({"accuse"})))
    with pytest.raises(RulesError):
        Partido(4, 1, RuleSet(renuncio="forgive"))


def test_bad_stacked_deck_is_rejected():
    with pytest.raises(RulesError):
        stack_deck([["1-oro"] * 10] * 4)
    with pytest.raises(RulesError):
        Partido(4, 1, stacked={1: (0, [*range(39), 0])})


# ===================================================================== faults


def test_disqualify_voids_the_mano_and_costs_nobody_a_poroto():
    first, _ = stacked_first(4, [["2-oro"], [], [], []], first=0)
    # mano 2 after the void mano: 3 players, later-mano rules (cambio), from seat 2
    # (the seat right of the void mano's mano 0, skipping disqualified seat 1).
    # 2-oro is dealt to seat 3: the 2-oro rule must not be used again.
    second, _ = _stack_later(3, [["7-copa"], ["2-oro"], ["2-copa"]], leftover="11-copa", first=3)
    p = Partido(4, 31, stacked={1: first[1], 2: second})
    play_first_legal(p)
    assert p.to_move == 1
    assert p.fault(1, "timeout", "too slow", elapsed_ms=5000) is True
    dq = last(p, "disqualified")
    assert dq["seat"] == 1 and dq["reason"] == "timeout" and dq["elapsed_ms"] == 5000
    end = last(p, "mano_end")
    assert end["mano"] == 1 and end["outcome"] == "void"
    assert end["losers"] == [] and end["scores"] is None and end["eliminated"] == []
    assert end["porotos"] == [4, 4, 4, 4]
    assert p.active == [True, False, True, True]
    ev = mano_start(p, 2)
    assert ev["active"] == [0, 2, 3]
    assert ev["mano_seat"] == 2 and ev["dealer"] == 0
    assert ev["leftover"] == "11-copa" and ev["trump"] == "copa" and ev["shown"] is None
    assert ev["swaps"] == [
        {"seat": 2, "gave": "7-copa", "took": "11-copa"},
        {"seat": 0, "gave": "2-copa", "took": "7-copa"},
    ]
    assert ev["out_of_play"] == "2-copa"
    assert "2-oro" in ev["hands"][3]
    assert ev["dealt"][1] is None
    assert p.to_move == 2
    assert p.mano.order == (2, 3, 0)


def test_void_first_mano_next_mano_uses_later_rules_four_players():
    # five players; the mano (seat 0) itself is disqualified: the next mano is seat 1,
    # the dealer the active seat left of it (4); the dealer's last card is shown.
    first, _ = stacked_first(5, [["2-oro"], [], [], [], []], first=0)
    second, _ = _stack_later(4, [[], [], ["2-oro"], ["6-basto"]], last_card="6-basto", first=3)
    p = Partido(5, 32, stacked={**first, 2: second})
    assert p.mano_seat == 0
    assert p.fault(0, "crash", "exit 1", exit=1) is True
    assert last(p, "mano_end")["outcome"] == "void"
    ev = mano_start(p, 2)
    assert ev["active"] == [1, 2, 3, 4]
    assert ev["mano_seat"] == 1 and ev["dealer"] == 4
    assert ev["shown"] == "6-basto" and ev["trump"] == "basto"
    assert "6-basto" in ev["hands"][4]
    assert "2-oro" in ev["hands"][3]
    assert p.mano.order == (1, 2, 3, 4)
    assert p.porotos == [4] * 5


def test_renuncio_fault_disqualifies_by_default():
    p = Partido(4, 33)
    seat = p.to_move
    assert p.fault(seat, "renuncio", "played 1-copa", card="1-copa") is True
    dq = last(p, "disqualified")
    assert dq == {
        "type": "disqualified",
        "seat": seat,
        "reason": "renuncio",
        "detail": "played 1-copa",
        "card": "1-copa",
    }
    assert not p.active[seat] and p.porotos == [4, 4, 4, 4]
    assert mano_start(p, 2)["mano_seat"] == rules.seat_right(mano_start(p, 1)["mano_seat"], p.active)


def test_disqualification_leaving_two_players_ends_the_partido():
    p = Partido(3, 34)
    p.fault(1, "protocol", "garbage", line="{{")
    assert p.over
    assert p.winners == [0, 2]
    end = last(p, "partido_end")
    assert end["winners"] == [0, 2] and end["ranking"] == [[0, 2], [1]] and end["manos"] == 1
    assert last(p, "mano_end")["outcome"] == "void"


@pytest.mark.parametrize("reason", ["renuncio", "false_canto"])
def test_penalize_policy_offender_loses_two_porotos_and_the_mano_ends(reason):
    p = Partido(4, 35, RuleSet(renuncio="penalize"))
    m1 = p.mano_seat
    play_first_legal(p)
    seat = p.to_move
    assert p.fault(seat, reason, "bad") is True
    pen = last(p, "penalized")
    assert pen["seat"] == seat and pen["reason"] == reason
    assert not events(p, "disqualified")
    end = last(p, "mano_end")
    assert end["outcome"] == "penalty"
    assert end["losers"] == [seat] and end["scores"] is None
    assert end["porotos"] == [2 if s == seat else 4 for s in range(4)]
    assert all(p.active)
    assert p.mano_number == 2 and p.mano_seat == (m1 + 1) % 4


def test_penalize_twice_eliminates_at_zero_porotos():
    p = Partido(4, 36, RuleSet(renuncio="penalize"))
    p.fault(2, "renuncio", "one")
    p.fault(2, "false_canto", "two")
    end = last(p, "mano_end")
    assert end["porotos"][2] == 0
    assert end["eliminated"] == [2]
    assert not p.active[2]
    assert mano_start(p, 3)["active"] == [0, 1, 3]
    assert p.fault(2, "renuncio", "after") is False  # eliminated: ignored


def test_penalize_can_take_porotos_below_zero():
    for seed in range(40):
        p = Partido(4, seed, RuleSet(renuncio="penalize"))
        rng = random.Random(seed)
        p.fault(p.to_move, "renuncio", "first")
        seat = last(p, "penalized")["seat"]
        while not p.over and p.porotos[seat] == 2:
            play_mano(p, rng)
        if not p.over and p.porotos[seat] == 1 and p.active[seat] and seat in p.mano.order:
            break
    else:
        pytest.fail("no seed found")
    assert p.fault(seat, "renuncio", "second") is True
    end = last(p, "mano_end")
    assert end["outcome"] == "penalty" and end["losers"] == [seat]
    assert end["porotos"][seat] == -1 == p.porotos[seat]
    assert end["eliminated"] == [seat] and not p.active[seat]


@pytest.mark.parametrize("reason", ["not_in_hand", "protocol", "timeout", "crash"])
def test_penalize_policy_protocol_faults_still_disqualify(reason):
    p = Partido(4, 37, RuleSet(renuncio="penalize"))
    seat = p.to_move
    p.fault(seat, reason, "x")
    assert last(p, "disqualified")["seat"] == seat
    assert not events(p, "penalized")
    assert last(p, "mano_end")["outcome"] == "void"
    assert p.porotos == [4] * 4 and not p.active[seat]


def test_unknown_fault_reason_is_an_error():
    p = Partido(4, 38)
    with pytest.raises(RulesError):
        p.fault(0, "cheating", "x")
    assert all(p.active)


def test_faults_from_eliminated_players_are_ignored():
    for seed in range(50):
        p = Partido(4, seed)
        rng = random.Random(seed)
        while not p.over and all(p.active):
            play_step(p, rng)
        if not p.over:
            break
    assert not p.over
    gone = next(s for s in range(4) if not p.active[s])
    assert p.porotos[gone] <= 0
    n_events, porotos = len(p.events), p.porotos[:]
    assert p.fault(gone, "crash", "late crash") is False
    assert p.fault(gone, "renuncio", "late renuncio") is False
    assert len(p.events) == n_events and p.porotos == porotos
    assert gone not in p.disqualified


def test_faults_after_the_partido_is_decided_are_ignored():
    p = play_randomly(Partido(4, 40), random.Random(40))
    before = (p.events[:], p.winners[:], p.ranking())
    for s in range(4):
        assert p.fault(s, "crash", "after the end") is False
    assert (p.events, p.winners, p.ranking()) == before


@pytest.mark.parametrize("policy,reason", [("disqualify", "crash"), ("penalize", "renuncio")])
def test_six_player_sitting_out_dealer_fault_disqualifies_and_mano_goes_on(policy, reason):
    p = Partido(6, 41, RuleSet(renuncio=policy))
    m1, dealer = p.mano_seat, p.sitting_out
    play_first_legal(p)
    mover = p.to_move
    assert p.fault(dealer, reason, "died", exit=-9) is True
    assert last(p, "disqualified")["seat"] == dealer
    assert not events(p, "mano_end")
    assert p.mano_number == 1 and p.to_move == mover
    assert not p.active[dealer]
    play_mano(p, random.Random(41))
    end = events(p, "mano_end")[0]
    assert end["outcome"] in ("points", "capote")
    assert dealer not in end["losers"]
    ev = mano_start(p, 2)
    assert len(ev["active"]) == 5 and dealer not in ev["active"]
    assert ev["sitting_out"] is None
    assert ev["mano_seat"] == rules.seat_right(m1, p.active) and ev["dealer"] == m1
    assert ev["shown"] is not None and ev["shown"] in ev["hands"][m1]
    assert p.disqualified == [dealer]


# ===================================================================== porotos, end, ranking


def _check_bookkeeping(p: Partido) -> None:
    """Porotos, eliminations and the end of the partido, re-derived from the events."""
    porotos = [4] * p.n
    active = set(range(p.n))
    manos = 0
    for e in p.events:
        if e["type"] == "mano_start":
            manos += 1
            assert e["porotos"] == porotos
            assert e["active"] == sorted(active)
        elif e["type"] == "disqualified":
            active.discard(e["seat"])
        elif e["type"] == "mano_end":
            cost = 2 if e["outcome"] == "penalty" else 1
            if e["outcome"] != "void":
                assert e["losers"], "a mano that is not void costs at least one poroto"
            for s in e["losers"]:
                porotos[s] -= cost
            assert e["porotos"] == porotos
            out = sorted(s for s in e["losers"] if porotos[s] <= 0)
            assert sorted(e["eliminated"]) == out
            active -= set(out)
        elif e["type"] == "partido_end":
            assert len(active) < 3
            assert e["winners"] == sorted(active)
            assert e["manos"] == manos
    assert p.events[-1]["type"] == "partido_end"
    assert manos <= 4 * p.n + len(p.disqualified)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_porotos_and_elimination_at_zero(n):
    for seed in range(4):
        p = play_randomly(Partido(n, 100 + seed), random.Random(seed))
        _check_bookkeeping(p)
        assert all(p.porotos[s] <= 0 for s in p.eliminated_at)
        assert all(p.porotos[s] > 0 for s in p.winners)


def _find(n: int, pred, ruleset: RuleSet | None = None, limit: int = 400) -> Partido:
    for seed in range(limit):
        p = play_randomly(Partido(n, seed, ruleset), random.Random(seed))
        if pred(p):
            return p
    pytest.fail("no seed found")


def test_partido_ends_with_no_winner_when_everyone_left_loses():
    p = _find(3, lambda p: not p.winners)
    _check_bookkeeping(p)
    end = last(p, "partido_end")
    assert end["winners"] == []
    last_losers = last(p, "mano_end")["eliminated"]
    assert len(last_losers) >= 2
    assert end["ranking"][0] == sorted(last_losers)


def test_partido_ends_when_fewer_than_three_remain():
    for n in (3, 4, 5, 6):
        p = play_randomly(Partido(n, 200 + n), random.Random(n))
        assert p.over and sum(p.active) < 3
        assert p.winners == [s for s in range(n) if p.active[s]]
        assert p.events[-1]["type"] == "partido_end"
        # the partido ended right after the mano that left fewer than three
        assert p.events[-2]["type"] == "mano_end"
        assert len(mano_start(p)["active"]) >= 3


def _expected_ranking(p: Partido) -> list[list[int]]:
    winners = last(p, "partido_end")["winners"]
    groups = [sorted(winners)] if winners else []
    elim = {e["mano"]: sorted(e["eliminated"]) for e in events(p, "mano_end") if e["eliminated"]}
    groups += [elim[k] for k in sorted(elim, reverse=True)]
    groups += [[e["seat"]] for e in reversed(events(p, "disqualified"))]
    return groups


def test_ranking_winners_then_later_eliminated_then_disqualified_later_higher():
    p = Partido(6, 42)
    rng = random.Random(42)
    first_dq = p.mano.order[1]
    p.fault(first_dq, "renuncio", "x")
    play_mano(p, rng)
    second_dq = p.to_move
    p.fault(second_dq, "timeout", "y")
    play_randomly(p, rng)
    ranking = p.ranking()
    assert ranking[-2:] == [[second_dq], [first_dq]]
    assert ranking == _expected_ranking(p) == last(p, "partido_end")["ranking"]
    assert sorted(s for g in ranking for s in g) == list(range(6))
    assert ranking[0] == p.winners or not p.winners
    _check_bookkeeping(p)


def _drive_with_faults(p: Partido, rng: random.Random, rate: float = 0.03) -> None:
    while not p.over:
        if rng.random() < rate:
            reason = rng.choice(engine.FAULT_REASONS)
            seat = p.to_move if reason in ("renuncio", "false_canto") else rng.randrange(p.n)
            judged = p.active[seat]
            assert p.fault(seat, reason, "injected") is judged
        else:
            play_step(p, rng)


@pytest.mark.parametrize("policy", ["disqualify", "penalize"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_faults_keep_deals_porotos_and_ranking_consistent(n, policy):
    for seed in range(3):
        p = Partido(n, 500 + seed, RuleSet(renuncio=policy))
        _drive_with_faults(p, random.Random(seed))
        _check_bookkeeping(p)
        prev = None
        for ev in events(p, "mano_start"):
            _check_deal(ev, prev, n)
            prev = ev
        assert p.ranking() == _expected_ranking(p) == last(p, "partido_end")["ranking"]
        assert sorted(s for g in p.ranking() for s in g) == list(range(n))


def test_ranking_players_eliminated_in_the_same_mano_tie():
    p = _find(5, lambda p: any(len(e["eliminated"]) >= 2 for e in events(p, "mano_end")))
    ranking = p.ranking()
    for e in events(p, "mano_end"):
        if len(e["eliminated"]) >= 2:
            assert sorted(e["eliminated"]) in ranking
    assert ranking == _expected_ranking(p)
    # later elimination ranks higher
    pos = {s: i for i, g in enumerate(ranking) for s in g}
    for a, ka in p.eliminated_at.items():
        for b, kb in p.eliminated_at.items():
            if ka > kb:
                assert pos[a] < pos[b]


# ===================================================================== table size changes


def _check_deal(ev: dict, prev: dict | None, n: int) -> None:
    """A mano_start against "Dealing a mano", re-derived by hand."""
    act = [s in ev["active"] for s in range(n)]
    a = len(ev["active"])
    m = ev["mano_seat"]
    left = seats_from(m, act)[-1]
    assert ev["dealer"] == left
    if prev is not None:
        pm = prev["mano_seat"]
        assert m == next((pm + i) % n for i in range(1, n + 1) if act[(pm + i) % n])
    assert ev["sitting_out"] == (ev["dealer"] if a == 6 else None)
    dealt_in = seats_from(m, act, skip=ev["sitting_out"])
    size = HAND_SIZE[a]
    seen: set[str] = set()
    for s in range(n):
        if s in dealt_in:
            assert len(ev["dealt"][s]) == size and len(ev["hands"][s]) == size
            seen |= set(ev["dealt"][s])
        else:
            assert ev["dealt"][s] is None and ev["hands"][s] is None
    if a == 3:
        seen.add(ev["leftover"])
    assert seen == ALL_NAMES
    hands = {s: set(ev["dealt"][s]) for s in dealt_in}
    for sw in ev["swaps"]:
        assert sw["gave"] in hands[sw["seat"]]
        hands[sw["seat"]] = hands[sw["seat"]] - {sw["gave"]} | {sw["took"]}
    for s in dealt_in:
        assert hands[s] == set(ev["hands"][s])
    if prev is None:
        assert ev["trump"] == "oro" and ev["shown"] is None
        return
    if a == 3:
        x = ev["leftover"]
        rank, trump = x.split("-")
        assert ev["trump"] == trump and ev["shown"] is None
        holder = {c: s for s in dealt_in for c in ev["dealt"][s]}
        two, seven = f"2-{trump}", f"7-{trump}"
        if rank in ("2", "4"):
            assert ev["swaps"] == [] and ev["out_of_play"] == x
        elif rank in ("5", "6", "7"):
            assert ev["swaps"] == [{"seat": holder[two], "gave": two, "took": x}]
            assert ev["out_of_play"] == two
        else:
            assert ev["swaps"] == [
                {"seat": holder[seven], "gave": seven, "took": x},
                {"seat": holder[two], "gave": two, "took": seven},
            ]
            assert ev["out_of_play"] == two
    else:
        shown_to = ev["dealer"] if a < 6 else seats_from(m, act, skip=ev["dealer"])[-1]
        assert ev["shown"] in ev["hands"][shown_to]
        assert ev["trump"] == ev["shown"].split("-")[1]
        assert ev["swaps"] == [] and ev["leftover"] is None


def test_partido_shrinking_from_six_to_three_follows_each_table_size():
    def shrinks(p: Partido) -> bool:
        return {len(e["active"]) for e in events(p, "mano_start")} >= {6, 5, 4, 3}

    p = _find(6, shrinks)
    starts = events(p, "mano_start")
    prev = None
    for ev in starts:
        _check_deal(ev, prev, 6)
        prev = ev
    first3 = next(ev for ev in starts if len(ev["active"]) == 3)
    assert first3["mano"] > 1
    assert first3["leftover"] is not None and first3["shown"] is None
    assert first3["trump"] == first3["leftover"].split("-")[1]
    _check_bookkeeping(p)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_deal_follows_the_dealing_rules(n):
    for seed in range(3):
        p = play_randomly(Partido(n, 300 + seed), random.Random(seed))
        prev = None
        for ev in events(p, "mano_start"):
            _check_deal(ev, prev, n)
            prev = ev


# ===================================================================== rotating trump


@pytest.mark.parametrize("n", [5, 6])
def test_rotating_trump_counts_void_manos_and_shows_no_card(n):
    p = Partido(n, 43, RuleSet(variants=frozenset({"rotating-trump"})))
    assert mano_start(p, 1)["trump"] == "oro"
    p.fault(p.mano.order[1], "crash", "x")  # mano 1 void: still counted
    rng = random.Random(43)
    for k, suit in zip((2, 3, 4, 5), ("copa", "espada", "basto", "oro"), strict=True):
        ev = mano_start(p, k)
        assert len(ev["active"]) == n - 1  # nobody can be out after four manos
        assert ev["trump"] == suit and ev["shown"] is None
        assert p.mano.trump == SUITS.index(suit)
        assert ev["sitting_out"] == (ev["dealer"] if n - 1 == 6 else None)
        play_mano(p, rng)


def test_rotating_trump_does_not_apply_with_three_players():
    p = play_randomly(Partido(3, 44, RuleSet(variants=frozenset({"rotating-trump"}))), random.Random(44))
    starts = events(p, "mano_start")
    assert len(starts) >= 2
    for ev in starts[1:]:
        assert ev["trump"] == ev["leftover"].split("-")[1]


def test_rotating_trump_with_four_then_three_players():
    p = _find(
        4,
        lambda p: any(len(e["active"]) == 3 for e in events(p, "mano_start")),
        RuleSet(variants=frozenset({"rotating-trump"})),
    )
    for ev in events(p, "mano_start"):
        if len(ev["active"]) >= 4:
            assert ev["trump"] == SUITS[(ev["mano"] - 1) % 4] and ev["shown"] is None
        else:
            assert ev["trump"] == ev["leftover"].split("-")[1]


# ===================================================================== determinism


def _deal_fields(ev: dict) -> dict:
    return {k: v for k, v in ev.items() if k != "porotos"}


@pytest.mark.parametrize("n", [3, 4, 6])
def test_deal_depends_only_on_seed_and_mano_number(n):
    a = play_randomly(Partido(n, 45), random.Random(1))
    b = play_randomly(Partido(n, 45), random.Random(2))
    sa, sb = events(a, "mano_start"), events(b, "mano_start")
    assert sa[0] == sb[0]  # the first mano is the same whatever the plays
    compared = 0
    for ea, eb in zip(sa, sb, strict=False):
        if ea["active"] != eb["active"] or ea["mano_seat"] != eb["mano_seat"]:
            break
        assert _deal_fields(ea) == _deal_fields(eb)
        compared += 1
    assert compared >= 2
    other = Partido(n, 46)
    assert mano_start(other, 1)["dealt"] != sa[0]["dealt"]


def test_same_seed_and_players_reproduce_the_partido_with_or_without_record():
    a = play_randomly(Partido(5, 47), random.Random(7))
    b = play_randomly(Partido(5, 47), random.Random(7))
    c = play_randomly(Partido(5, 47, record=False), random.Random(7))
    assert a.events == b.events
    assert c.events == []
    assert (a.winners, a.porotos, a.ranking(), a.mano_number) == (
        c.winners,
        c.porotos,
        c.ranking(),
        c.mano_number,
    )


def test_scores_of_a_mano_played_out_without_cantos_add_up_to_130():
    for n in (3, 4, 5, 6):
        p = play_randomly(Partido(n, 48), random.Random(n), sing=False)
        for e in events(p, "mano_end"):
            assert e["outcome"] in ("points", "capote")
            assert sum(x for x in e["scores"] if x is not None) == 130


def test_mano_tiebreak_keeps_recorded_scores_whole():
    p = play_randomly(Partido(4, 49, RuleSet(variants=frozenset({"mano-tiebreak"}))), random.Random(9))
    for e in events(p, "mano_end"):
        if e["scores"] is not None:
            assert all(isinstance(x, int) for x in e["scores"] if x is not None)
