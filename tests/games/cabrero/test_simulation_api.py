"""The state API for simulating players: ``Mano.from_position``, ``Mano.clone``,
``Mano.with_hands`` and the SDK's ``PlayRequest.simulation``.

Real partidos are driven through the engine while every seat keeps its SDK view
(fed each event as the referee would send it); at many moves the mano is rebuilt
from what the player to move can know plus the true hidden hands, and must be the
engine's own state, slot for slot, and play out the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from arena.cards import NAMES, cards_of, names_of, parse, parse_mask
from arena.engine import Mano, Partido
from arena.games.common import replies
from arena.rules import RulesError, RuleSet
from arena.sdk import PlayRequest, TableView

Check = Callable[[Partido, PlayRequest, list[tuple[int, str]]], None]


def state(m: Mano) -> dict[str, Any]:
    """Every slot of ``m``, lists copied; ``winner`` and ``winning`` only while a baza is on
    the table (between bazas the engine leaves the last baza's there, unused)."""
    out = {}
    for k in Mano.__slots__:
        v = getattr(m, k)
        out[k] = v[:] if isinstance(v, list) else v
    if not m.table:
        out["winner"] = out["winning"] = None
    return out


def drive(n: int, seed: int, ruleset: RuleSet, check: Check) -> int:
    """Play a partido at random (singing sometimes); call ``check`` before every move with
    the engine, the request of the seat to move (its SDK view kept from the events) and
    the cantos sung so far in the mano. Returns the number of moves checked."""
    p = Partido(n, seed, ruleset)
    rng = random.Random(seed)
    views = [TableView() for _ in range(n)]
    for s, v in enumerate(views):
        players = list("abcdef")[:n]
        v.update({"type": "partido_start", "seat": s, "players": players, "rules": ruleset.to_dict()})
    sent = 0
    sung: list[tuple[int, str]] = []
    moves = 0
    while not p.over:
        for event in p.events[sent:]:
            if event["type"] == "mano_start":
                sung = []
            elif event["type"] == "sang":
                sung.append((event["seat"], event["canto"]))
            for s, v in enumerate(views):
                v.update(replies.view(event, s))
        sent = len(p.events)
        m = p.mano
        assert m is not None
        request = PlayRequest.from_message({**p.request(), "id": moves}, views[m.turn])
        check(p, request, list(sung))
        moves += 1
        cantos = request.cantos()
        sing = rng.choice(cantos) if cantos and rng.random() < 0.7 else None
        if sing == "tute":
            p.play(None, sing)
        else:
            p.play(rng.choice(request.legal()), sing)
    return moves


def play_out(m: Mano, seed: int) -> None:
    """Play ``m`` to its end: sing the first canto offered, then a random legal card."""
    rng = random.Random(seed)
    while not m.over:
        for canto in m.cantos()[:1]:
            m.sing(canto)
        if not m.over:
            m.play(rng.choice(cards_of(m.legal())))


TABLES = [
    (3, RuleSet()),
    (4, RuleSet(variants={"rotating-trump"})),
    (5, RuleSet("rioplatense", {"mano-tiebreak"})),
    (6, RuleSet()),
]


@pytest.mark.parametrize(("n", "ruleset"), TABLES)
def test_from_position_rebuilds_the_engines_mano(n: int, ruleset: RuleSet) -> None:
    """From public facts and the true hands, the very state the engine holds; then the
    same legal moves, the same baza winner, and the same outcome of the same play."""

    def check(p: Partido, request: PlayRequest, sung: list[tuple[int, str]]) -> None:
        m = p.mano
        assert m is not None
        before = state(m)
        rebuilt = Mano.from_position(
            number=p.mano_number,
            trump=m.trump,
            order=m.order,
            hands=m.hands,
            turn=m.turn,
            table=[(s, parse(c)) for s, c in request.table],
            bazas=request.view.bazas,
            card_points=[sc - cp for sc, cp in zip(request.view.scores, m.canto_points, strict=True)],
            sung=sung,
        )
        assert state(rebuilt) == before
        assert rebuilt.legal() == m.legal() and rebuilt.cantos() == m.cantos()
        if m.table:
            assert (rebuilt.winner, rebuilt.winning) == (m.winner, m.winning)
        if len(p.events) % 3 == 0:  # the rest of the mano, played identically on both
            real = m.clone()
            play_out(real, len(p.events))
            play_out(rebuilt, len(p.events))
            assert state(rebuilt) == state(real)
            assert rebuilt.scores() == real.scores()
            if real.tute_seat < 0:
                assert rebuilt.losers(p.rules) == real.losers(p.rules)
        assert state(m) == before  # nothing above touched the engine

    for seed in (1, 2):
        assert drive(n, seed + 10 * n, ruleset, check) > 30


@pytest.mark.parametrize(("n", "ruleset"), TABLES)
def test_the_sdk_simulation_is_the_engines_mano(n: int, ruleset: RuleSet) -> None:
    """``request.simulation`` with the true hidden hands is the engine's state; without
    them, only the player's hand is filled in and the rules helpers agree with the SDK's."""

    def check(p: Partido, request: PlayRequest, sung: list[tuple[int, str]]) -> None:
        m = p.mano
        assert m is not None
        view = request.view
        assert view.order == m.order
        hidden = {s: m.hands[s] for s in m.order if s != view.seat}
        assert state(request.simulation(hidden_hands=hidden)) == state(m)
        named = {s: names_of(h) for s, h in hidden.items()}
        assert state(request.simulation(hidden_hands=named)) == state(m)
        mine = request.simulation()
        assert mine.hands == [m.hands[s] if s == view.seat else 0 for s in range(n)]
        assert names_of(mine.legal()) == request.legal() == view.legal() == names_of(m.legal())
        assert mine.cantos() == request.cantos()
        win = request.winning()
        assert win == view.winning()
        assert win == (None if not m.table else (m.winner, NAMES[m.winning]))
        assert mine.baza == request.baza and mine.may_sing == request.may_sing

    for seed in (3, 4):
        assert drive(n, seed + 10 * n, ruleset, check) > 30


# ---------------------------------------------------------------- independence


def test_playing_a_clone_leaves_the_original_unchanged() -> None:
    p = Partido(4, 7)
    for _ in range(6):  # into the second baza
        m = p.mano
        assert m is not None
        p.play(cards_of(m.legal())[0])
    m = p.mano
    assert m is not None and m.table
    before = state(m)
    for seed in range(5):
        sim = m.clone()
        play_out(sim, seed)
        assert sim.over and (sum(sim.bazas) == sim.nbazas or sim.tute_seat >= 0)
        assert state(m) == before
    sim = m.with_hands({m.turn: m.hands[m.turn] & -m.hands[m.turn]})  # one card less: unchecked
    assert sim.hands[m.turn].bit_count() == 1 and state(m) == before
    p.play(cards_of(m.legal())[0])  # and the original still plays on
    assert state(m) != before


def test_from_position_copies_its_inputs() -> None:
    hands = [parse_mask(["1-oro", "3-oro"]), parse_mask(["1-copa"]), parse_mask(["2-oro", "4-oro"])]
    bazas, points = [0, 1, 0], [0, 0, 0]
    table = [(1, parse("12-copa"))]
    m = Mano.from_position(
        number=3,
        trump=0,
        order=(0, 1, 2),
        hands=hands,
        turn=2,
        table=table,
        bazas=bazas,
        card_points=points,
    )
    snapshot = [hands[:], bazas[:], points[:], table[:]]
    play_out(m, 1)
    assert m.over and [hands, bazas, points, table] == snapshot


def test_a_mid_baza_position_by_hand() -> None:
    """A documented example: four players, espada trump, seat 2 to move on a copa lead."""
    h = parse_mask
    m = Mano.from_position(
        number=4,
        trump=2,
        order=(1, 2, 3, 0),
        hands=[0, 0, h(["1-copa", "4-espada", "7-basto"]), 0],  # only mine known
        turn=2,
        table=[(1, parse("3-copa"))],
        bazas=[0, 1, 0, 6],
        card_points=[0, 0, 0, 57],
        sung=[(3, "cuarenta")],
    )
    assert (m.baza, m.nbazas, m.lead, m.winner) == (8, 10, 1, 1)
    assert names_of(m.legal()) == ["1-copa"]
    assert m.canto_points == [0, 0, 0, 40] and m.sang_pair == [False, False, False, True]
    assert m.sung_suits == 1 << 2 and not m.may_sing
    assert m.scores() == [0, 0, 0, 97]
    m.play(parse("1-copa"))
    assert (m.turn, m.winner, m.winning) == (3, 2, parse("1-copa"))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [1, 1, 6, 0]}, "disjunto"),  # disjoint
        ({"hands": [0, 0b111, parse_mask(["1-copa", "4-espada", "7-basto"]), 0]}, "tiene 3 cartas, no 2"),
        ({"turn": 3}, "no es el que juega después"),  # not the next to play
        ({"turn": 5}, "no recibió cartas"),  # not dealt in
        ({"table": [(2, parse("3-copa"))], "turn": 3, "hands": [0, 0, 0, parse_mask(["1-copa"])]}, "salir"),
        ({"table": [(1, parse("4-espada"))]}, "también la tiene un asiento"),  # also in a hand
        ({"sung": [(3, "tute")]}, "tute"),
        ({"sung": [(3, "veinte-espada")]}, "no puede haber cantado"),  # cannot have sung
        ({"sung": [(3, "cuarenta"), (0, "cuarenta")]}, "no puede haber cantado"),
        ({"may_sing": True}, "puede cantar"),  # may sing
        ({"bazas": [0, 0, 0, 7], "card_points": [0, 0, 0, 57]}, "no puede salir"),  # cannot lead
        ({"card_points": [5, 0, 0, 57]}, "puntos de cartas"),  # card points
        ({"order": (1, 2, 3, 1)}, "distintos"),  # distinct
    ],
)
def test_inconsistent_positions_are_refused(change: dict[str, Any], message: str) -> None:
    args: dict[str, Any] = {
        "number": 4,
        "trump": 2,
        "order": (1, 2, 3, 0),
        "hands": [0, 0, parse_mask(["1-copa", "4-espada", "7-basto"]), 0],
        "turn": 2,
        "table": [(1, parse("3-copa"))],
        "bazas": [0, 1, 0, 6],
        "card_points": [0, 0, 0, 57],
        "sung": [(3, "cuarenta")],
    }
    with pytest.raises(RulesError, match=message):
        Mano.from_position(**(args | change))


def test_the_sdk_helper_refuses_bad_hidden_hands() -> None:
    checked: list[int] = []

    def check(p: Partido, request: PlayRequest, sung: list[tuple[int, str]]) -> None:
        if checked or not request.table or request.baza != 1:
            return
        me = request.view.seat
        with pytest.raises(ValueError, match="no el asiento"):  # not seat
            request.simulation(hidden_hands={me: 0})
        other = next(s for s in request.view.order if s != me)
        with pytest.raises(RulesError, match="disjunto"):  # disjoint
            request.simulation(hidden_hands={other: list(request.hand)})
        with pytest.raises(RulesError, match="tiene 1 carta, no"):  # baza 1 of 10: one card is too few
            request.simulation(hidden_hands={other: request.view.unseen()[:1]})
        checked.append(me)

    drive(4, 5, RuleSet(), check)
    assert checked


def test_a_partido_clone_plays_on_without_touching_the_original() -> None:
    from arena.engine import Partido

    p = Partido(4, 5)
    before = (list(p.events), p.to_move, p.request())
    q = p.clone()
    while not q.over:
        assert q.mano is not None
        legal = q.mano.legal()
        q.play((legal & -legal).bit_length() - 1)  # the lowest legal card
    assert q.over and not p.over
    assert (p.events, p.to_move, p.request()) == before
