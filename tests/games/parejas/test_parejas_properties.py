"""Property-based tests (hypothesis) of Tute por parejas against docs/rules-parejas.md's invariants.

Random partidos are driven by a seeded driver (random, lowest or highest legal card; never,
always or sometimes singing and giving up; illegal attempts and faults injected at random
moments), then their events are re-checked with oracles written from the page alone (card
strength, P13's legal cards, points, who wins a mano) rather than with :mod:`arena.parejas.rules`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.engine import FAULT_REASONS, IllegalMove
from arena.parejas.engine import ParejasPartido
from arena.parejas.rules import ParejasRules

# ----------------------------------------------------------------- oracles from the page

SUITS = ("oro", "copa", "espada", "basto")
STRENGTH = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)  # strongest first (P2)
POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}  # P3
DECK = frozenset(f"{r}-{s}" for s in SUITS for r in STRENGTH)
CANTO_POINTS = {"cuarenta": 40, **{f"veinte-{s}": 20 for s in SUITS}}


def rank(c: str) -> int:
    return int(c.split("-")[0])


def suit(c: str) -> str:
    return c.split("-")[1]


def points(c: str) -> int:
    return POINTS.get(rank(c), 0)


def beats(c: str, w: str, trump: str) -> bool:
    """P12."""
    stronger = STRENGTH.index(rank(c)) < STRENGTH.index(rank(w))
    return (suit(c) == suit(w) and stronger) or (suit(c) == trump and suit(w) != trump)


def winning(table: list[str], trump: str) -> str:
    w = table[0]
    for c in table[1:]:
        if beats(c, w, trump):
            w = c
    return w


def spec_legal(hand: list[str], table: list[str], trump: str, ruleset: str) -> set[str]:
    """P13's table, case by case."""
    if not table:
        return set(hand)
    led, w = suit(table[0]), winning(table, trump)
    follow = {c for c in hand if suit(c) == led}
    if follow:  # case 1
        return {c for c in follow if beats(c, w, trump)} or follow
    trumps = {c for c in hand if suit(c) == trump}
    over = {c for c in trumps if beats(c, w, trump)}
    if over:  # case 2
        return over
    if trumps and ruleset == "espanol":  # case 3 (A8)
        return trumps
    return set(hand)  # cases 3 (ludoteka) and 4


# ----------------------------------------------------------------- the driver


@dataclass(frozen=True)
class Driver:
    """A deterministic (given its seed) player for every seat, plus a fault injector."""

    seed: int
    play: str = "random"  # random | low | high
    sing: str = "random"  # never | always | random
    tirar: str = "random"  # never | always | random
    p_fault: float = 0.0
    p_illegal: float = 0.0


def _choose(rng: random.Random, how: str) -> bool:
    return how == "always" or (how == "random" and rng.random() < 0.5)


def drive(p: ParejasPartido, d: Driver, max_steps: int = 20_000) -> list[dict[str, Any]]:
    """Play ``p`` to its end with ``d``; returns every request made, with the seat asked."""
    rng = random.Random(d.seed)
    requests = []
    for _ in range(max_steps):
        if p.over:
            return requests
        if d.p_fault and rng.random() < d.p_fault:
            seat = rng.randrange(4)
            expected = seat not in p.disqualified  # the partido is not over here
            assert p.fault(seat, rng.choice(FAULT_REASONS), "injected by the test") == expected
            continue
        r = p.request()
        seat = p.to_move
        assert seat is not None
        requests.append({**r, "seat": seat})
        if d.p_illegal and rng.random() < d.p_illegal and _attempt_illegal(p, rng, r):
            continue
        if r["legal"]:
            legal = r["legal"]
            card = {"low": legal[0], "high": legal[-1]}.get(d.play) or rng.choice(legal)
            p.play(card)
        elif r["may_sing"]:
            p.play(None, rng.choice(r["may_sing"]) if _choose(rng, d.sing) else None)
        else:
            p.play(None, "tirar" if _choose(rng, d.tirar) else None)
    raise AssertionError(f"partido not over after {max_steps} steps")


def _attempt_illegal(p: ParejasPartido, rng: random.Random, r: dict[str, Any]) -> bool:
    """Try a move the engine must refuse; on refusal (nothing changed) judge the fault."""
    hand = set(r["hand"])
    kind = rng.randrange(4)
    if kind == 0 and r["legal"] and hand - set(r["legal"]):
        move: tuple[Any, Any] = (rng.choice(sorted(hand - set(r["legal"]))), None)
        expected = "renuncio"
    elif kind == 1 and r["legal"]:
        move, expected = (rng.choice(sorted(DECK - hand)), None), "not_in_hand"
    elif kind == 2:
        false = [c for c in (*CANTO_POINTS, "tute") if c not in r["may_sing"]]
        move = (r["legal"][0] if r["legal"] else None, rng.choice(false))
        expected = "protocol" if r["legal"] else "false_canto"  # beside a card request: its shape (A23)
    elif kind == 3 and not r["may_concede"]:
        move = (r["legal"][0] if r["legal"] else None, "tirar")
        expected = "protocol" if r["legal"] else "false_canto"
    else:
        return False
    before = (len(p.events), p.to_move, p.request(), p.juegos[:])
    try:
        p.play(*move)
    except IllegalMove as e:
        assert (len(p.events), p.to_move, p.request(), p.juegos[:]) == before, (
            "a refused move changes nothing"
        )
        assert e.reason == expected, (move, e.reason)
        seat = p.to_move
        assert seat is not None and p.fault(seat, e.reason, e.detail, **e.evidence)
        return True
    raise AssertionError(f"illegal move {move} accepted")


# ----------------------------------------------------------------- strategies

SEEDS = st.integers(0, 2**32)
RULES = st.builds(
    ParejasRules,
    st.sampled_from(["ludoteka", "espanol"]),
    st.one_of(st.none(), st.integers(1, 9)),
    st.sampled_from(["disqualify", "penalize"]),
)
HOW = st.sampled_from(["never", "always", "random"])


@st.composite
def drivers(draw: st.DrawFn, faults: bool = True) -> Driver:
    return Driver(
        seed=draw(SEEDS),
        play=draw(st.sampled_from(["random", "low", "high"])),
        sing=draw(HOW),
        tirar=draw(HOW),
        p_fault=draw(st.sampled_from([0.0, 0.0, 0.002, 0.01])) if faults else 0.0,
        p_illegal=draw(st.sampled_from([0.0, 0.0, 0.002, 0.01])) if faults else 0.0,
    )


PROPS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
pytestmark = pytest.mark.fast_examples(25)  # [fast]: 25 examples of each property; [thorough] (slow): all


def played(seed: int, rules: ParejasRules, d: Driver) -> tuple[ParejasPartido, list[dict[str, Any]]]:
    p = ParejasPartido(4, seed, rules)
    return p, drive(p, d)


def manos_of(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events split per mano, from each mano_start to its mano_end."""
    out: list[list[dict[str, Any]]] = []
    for e in events:
        if e["type"] == "mano_start":
            out.append([])
        if out and e["type"] != "partido_end":
            out[-1].append(e)
    return out


# ----------------------------------------------------------------- properties


@PROPS
@given(SEEDS, RULES, drivers(faults=False))
def test_a_played_out_mano_has_120_card_points_and_130_plus_the_cantos_counted(
    seed: int, rules: ParejasRules, d: Driver
) -> None:
    p, _requests = played(seed, rules, d)
    for mano in manos_of(p.events):
        end = mano[-1]
        if end["outcome"] != "points":
            continue
        bazas = [e for e in mano if e["type"] == "trick_end"]
        assert len(bazas) == 10
        taken = [0, 0]
        for e in bazas:
            table = [x["card"] for x in e["cards"]]
            assert e["points"] == sum(points(c) for c in table)
            taken[e["winner"] % 2] += e["points"]
        assert sum(taken) == 120 and taken == end["card_points"]
        last = bazas[-1]["winner"] % 2
        assert end["last_baza"] == last
        sung = [0, 0]
        for e in mano:
            if e["type"] == "sang":
                sung[e["seat"] % 2] += CANTO_POINTS[e["canto"]]
        assert sung == end["cantos"] and sum(sung) <= 100
        base = [taken[q] + (10 if q == last else 0) for q in (0, 1)]
        counted = [sung[q] if rules.ruleset == "ludoteka" or base[q] >= 30 else 0 for q in (0, 1)]
        assert end["tantos"] == [base[q] + counted[q] for q in (0, 1)]
        assert sum(end["tantos"]) == 130 + sum(counted)


@PROPS
@given(SEEDS, RULES, drivers())
def test_exactly_one_pair_wins_each_scored_mano(seed: int, rules: ParejasRules, d: Driver) -> None:
    p, _requests = played(seed, rules, d)
    juegos = [0, 0]
    for mano in manos_of(p.events):
        end = mano[-1]
        if end["type"] != "mano_end":
            continue
        won = end["juegos_won"]
        if end["outcome"] == "void":
            assert end["winner"] is None and won == [0, 0]
            continue
        w = end["winner"]
        assert w in (0, 1) and won[1 - w] == 0
        if end["outcome"] == "points":
            t = end["tantos"]
            assert t[w] > t[1 - w] or (t[w] == t[1 - w] and end["last_baza"] == w)
            assert won[w] == (2 if t[w] > 100 else 1)
            base = end["card_points"][w] + (10 if end["last_baza"] == w else 0)
            assert rules.ruleset == "ludoteka" or base >= 30, "under espanol a pair under 30 always loses"
        elif end["outcome"] == "tute":
            sang = [e for e in mano if e["type"] == "sang"][-1]
            assert sang["canto"] == "tute" and sang["seat"] % 2 == w
            assert won[w] == (0 if rules.tute_wins_partido else 2)
        else:
            assert end["outcome"] in ("tirar", "penalty") and won[w] == 2
            who = next(e for e in mano if e["type"] in ("conceded", "penalized"))
            assert who["seat"] % 2 == 1 - w
        juegos = [juegos[q] + won[q] for q in (0, 1)]
        assert end["juegos"] == juegos


@PROPS
@given(SEEDS, RULES, drivers())
def test_the_partido_ends_exactly_when_a_pair_reaches_n(seed: int, rules: ParejasRules, d: Driver) -> None:
    p, _requests = played(seed, rules, d)
    ends = [e for e in p.events if e["type"] == "mano_end"]
    final = p.events[-1]
    assert final["type"] == "partido_end" and p.over and p.to_move is None
    assert [e["type"] for e in p.events].count("partido_end") == 1
    for e in ends[:-1]:
        assert max(e["juegos"]) < rules.juegos
    assert final["juegos"] == (ends[-1]["juegos"] if ends else [0, 0])
    assert p.porotos == [final["juegos"][s % 2] for s in range(4)]
    if p.disqualified:  # a disqualification decides it at once
        offender = p.disqualified[0]
        assert sorted(p.winners) == [s for s in range(4) if s % 2 != offender % 2]
        assert p.ranking()[-1] == [offender]
        return
    last = ends[-1]
    tute = last["outcome"] == "tute" and rules.tute_wins_partido
    assert tute or max(last["juegos"]) >= rules.juegos
    w = last["winner"]
    assert p.winners == [w, w + 2] and p.ranking() == [[w, w + 2], [1 - w, 3 - w]]
    scored = sum(1 for e in ends if e["outcome"] != "void")
    assert scored <= 2 * rules.juegos - 1


@PROPS
@given(SEEDS, RULES, drivers())
def test_a_decision_always_exists_and_legal_is_p13(seed: int, rules: ParejasRules, d: Driver) -> None:
    _p, requests = played(seed, rules, d)
    for r in requests:
        kinds = [bool(r["legal"]), bool(r["may_sing"]), r["may_concede"]]
        assert sum(kinds) == 1, r  # one kind of decision at a time, and always one
        if r["legal"]:
            table = [x["card"] for x in r["table"]]
            assert set(r["legal"]) == spec_legal(r["hand"], table, r["trump"], rules.ruleset)
            assert r["partner"] == (r["seat"] + 2) % 4
        if r["may_sing"]:
            assert r["table"] == [] and r["baza"] > 1
            assert len(r["may_sing"]) == len(set(r["may_sing"]))
        if r["may_concede"]:
            assert rules.ruleset == "espanol" and r["baza"] == 1 and len(r["hand"]) == 10
            assert sum(points(c) for c in r["hand"]) <= 10


@PROPS
@given(SEEDS, RULES, drivers())
def test_the_same_seed_gives_the_same_events(seed: int, rules: ParejasRules, d: Driver) -> None:
    p1, _r1 = played(seed, rules, d)
    p2, _r2 = played(seed, rules, d)
    assert p1.events == p2.events
    assert json.loads(json.dumps(p1.events)) == p1.events  # plain JSON values
    other = ParejasPartido(4, seed, ParejasRules(rules.ruleset, rules.juegos, "disqualify"))
    assert other.events[0] == p1.events[0]  # the deal does not depend on the renuncio policy


@PROPS
@given(SEEDS, RULES, drivers(faults=False))
def test_every_mano_deals_the_deck_and_the_mano_moves_right(
    seed: int, rules: ParejasRules, d: Driver
) -> None:
    p, _requests = played(seed, rules, d)
    previous = None
    for mano in manos_of(p.events):
        e = mano[0]
        dealt = [c for h in e["hands"] for c in h]
        assert len(dealt) == 40 and set(dealt) == DECK and all(len(h) == 10 for h in e["hands"])
        assert e["dealer"] == (e["mano_seat"] - 1) % 4
        if previous is None:
            assert e["trump"] == "oro" and e["shown"] is None and "2-oro" in e["hands"][e["mano_seat"]]
        else:
            assert e["mano_seat"] == (previous + 1) % 4
            assert e["shown"] in e["hands"][e["dealer"]] and suit(e["shown"]) == e["trump"]
        previous = e["mano_seat"]
        for b in (x for x in mano if x["type"] == "trick_end"):
            seats = [x["seat"] for x in b["cards"]]
            assert seats == [(seats[0] + i) % 4 for i in range(4)]
            table = [x["card"] for x in b["cards"]]
            assert b["cards"][table.index(winning(table, e["trump"]))]["seat"] == b["winner"]


@PROPS
@given(SEEDS, RULES, drivers(faults=False))
def test_a_view_never_shows_another_seat_s_hand(seed: int, rules: ParejasRules, d: Driver) -> None:
    p, _requests = played(seed, rules, d)
    for seat in range(4):
        own: set[str] = set()
        public: set[str] = set()
        for e in p.events:
            v = p.view(e, seat)
            if e["type"] == "mano_start":
                assert "hands" not in v and v["hand"] == e["hands"][seat]
                own = set(v["hand"])
                public = {e["shown"]} if e["shown"] else set()
            if e["type"] == "played":
                public.add(e["card"])
            seen = _card_names(v)
            assert seen <= own | public, (seat, e["type"], seen - own - public)


def _card_names(value: Any) -> set[str]:
    """Every card name anywhere inside ``value``."""
    if isinstance(value, str):
        return {value} if value in DECK else set()
    if isinstance(value, dict):
        return set().union(*(_card_names(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_card_names(v) for v in value)) if value else set()
    return set()
