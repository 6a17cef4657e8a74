"""Tute por parejas (docs/rules-parejas.md, "Invariants a test can rely on"): whole partidos played
by random legal players under both rulesets, checked mano by mano."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena import games
from arena.cards import POINTS, parse
from arena.parejas.engine import ParejasPartido
from arena.parejas.rules import RULESETS, ParejasRules

RULES = st.sampled_from(RULESETS)


def play_out(p: ParejasPartido, rng: random.Random) -> None:
    """Random legal decisions until the partido is over (singing and conceding at random)."""
    while not p.over:
        request = p.request()
        if request["legal"]:
            p.play(rng.choice(request["legal"]))
        elif request["may_sing"] and rng.random() < 0.7:
            p.play(None, rng.choice(request["may_sing"]))
        elif request["may_concede"] and rng.random() < 0.3:
            p.play(None, "tirar")
        else:
            p.play(None)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=RULES, juegos=st.integers(1, 6), choices=st.integers(0, 2**32))
@example(seed=61906, ruleset="ludoteka", juegos=1, choices=1)  # a tute in the first mano wins it
def test_every_mano_and_the_partido_add_up(seed: int, ruleset: str, juegos: int, choices: int) -> None:
    p = ParejasPartido(4, seed, ParejasRules(ruleset, juegos))
    play_out(p, random.Random(choices))
    totals = [0, 0]
    for end in (e for e in p.events if e["type"] == "mano_end"):
        if end["outcome"] == "points":  # played to the last baza: 120 in cards, 10 de últimas
            assert sum(end["card_points"]) == 120, end
            assert sum(end["bazas"]) == 10, end
            counted = sum(end["tantos"]) - 130
            assert 0 <= counted <= sum(end["cantos"]), end  # plus the cantos that count (P24)
        winners = [pair for pair in (0, 1) if end["juegos_won"][pair] > 0]
        if end["outcome"] == "tute" and not winners:  # ludoteka, N < 5: the tute wins the partido,
            assert ruleset == "ludoteka" and juegos < 5, end  # the tally left as it was (A16)
            assert end is [e for e in p.events if e["type"] == "mano_end"][-1], end
            assert p.winners == [end["winner"], end["winner"] + 2], end
        else:
            assert len(winners) == 1 and winners[0] == end["winner"], end  # one pair wins each mano
        totals = [totals[i] + end["juegos_won"][i] for i in (0, 1)]
        assert totals == end["juegos"], end
    final = p.events[-1]
    assert final["type"] == "partido_end" and p.over
    winner = 0 if p.winners == [0, 2] else 1
    assert sorted(p.winners) in ([0, 2], [1, 3])
    assert totals[winner] >= juegos or any(e.get("outcome") == "tute" for e in p.events), final
    assert totals[1 - winner] < juegos  # it ended as soon as a pair reached N, not later
    assert p.porotos == [totals[s % 2] for s in range(4)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=RULES)
def test_the_same_seed_deals_and_plays_the_same(seed: int, ruleset: str) -> None:
    runs = []
    for _ in range(2):
        p = games.spec("tute-parejas").new_partido(4, seed, ParejasRules(ruleset).to_dict())
        assert isinstance(p, ParejasPartido)
        play_out(p, random.Random(seed))
        runs.append(p.events)
    assert runs[0] == runs[1]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), ruleset=RULES)
def test_a_seat_sees_only_its_own_hand_and_the_deal_is_whole(seed: int, ruleset: str) -> None:
    p = ParejasPartido(4, seed, ParejasRules(ruleset))
    play_out(p, random.Random(seed))
    for start in (e for e in p.events if e["type"] == "mano_start"):
        cards = [parse(c) for hand in start["hands"] for c in hand]
        assert sorted(cards) == list(range(40))  # all 40 cards, 10 each (P6)
        assert all(len(hand) == 10 for hand in start["hands"])
        assert sum(POINTS[c] for c in cards) == 120
        for seat in range(4):
            seen = p.view(start, seat)
            assert "hands" not in seen and seen["hand"] == start["hands"][seat]
            shown = repr(seen)
            others = [c for s in range(4) if s != seat for c in start["hands"][s] if c != start.get("shown")]
            assert not [c for c in others if f"'{c}'" in shown], (seat, seen)


def test_partners_sit_opposite_and_the_winning_pair_ranks_first() -> None:
    p = ParejasPartido(4, 3)
    play_out(p, random.Random(3))
    assert p.ranking() == [sorted(p.winners), [s for s in range(4) if s not in p.winners]]
