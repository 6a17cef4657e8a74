"""The engine of Tute de a dos against docs/rules-dos.md: the deal, the draws, the moment (cambio and
cantos), phase 2's obligations, every fault under both policies, the end at N juegos, the ranking,
and what each player may see.

Random partidos are checked by :class:`Shadow`, which folds the omniscient events with the pure
rules alone (never the engine) and says what every request must be: the legal cards, what a moment
offers, and which cards each seat may know.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import games, i18n
from arena.games.common.cards import NAMES, POINTS, SUITS, mask, names_of, parse, parse_mask
from arena.games.common.deal import deal_key, deal_order
from arena.games.common.tute import CANTO_NAMES, KING, KNIGHT, IllegalMove, RulesError
from arena.games.dos import rules as dr
from arena.games.dos.engine import CAMBIO, DosPartido
from arena.games.dos.rules import DosRules
from arena.referee.narrate import narrate

Event = dict[str, Any]
CARD_NAME = re.compile(r"\b(?:1[0-2]|[1-7])-(?:oro|copa|espada|basto)\b")
POLICIES = ("disqualify", "penalize")


def cards_in(obj: object) -> set[str]:
    """Every card name anywhere in ``obj``."""
    return set(CARD_NAME.findall(repr(obj)))


def stacked(
    hand0: Sequence[str], hand1: Sequence[str], turned: str, monte_top: Sequence[str] = ()
) -> list[int]:
    """A deck order dealing ``hand0`` to the mano and ``hand1`` to the dealer, turning ``turned`` up
    and drawing ``monte_top`` first; the other cards follow in card order (D7, D8)."""
    named = [*hand0, *hand1, turned, *monte_top]
    assert len(hand0) == len(hand1) == dr.HAND_SIZE and len(set(named)) == len(named)
    rest = [x for x in range(40) if NAMES[x] not in named]
    order = [parse(n) for pair in zip(hand0, hand1, strict=True) for n in pair]
    return [*order, parse(turned), *(parse(n) for n in monte_top), *rest]


# ===================================================================== the shadow: the rules alone


class Shadow:
    """The partido folded from the omniscient events with :mod:`arena.games.dos.rules` alone.

    It knows every hand and the monte, the moment in progress, and what each seat may know
    (its own cards, every card played, every card that was face up, its own draws, the rey and
    caballo of a canto), and
    checks every rule it can see on the way (D8, D10-D12, D16, D18, D22-D27).
    """

    def __init__(self, rules: DosRules, strict: bool = True) -> None:
        self.rules = rules
        self.strict = strict
        """Whether a pass must be told (:meth:`passed`); else a moment left unanswered is one."""
        self.hands = [0, 0]
        self.monte: tuple[int, ...] = ()
        self.trump = -1
        self.known: list[set[str]] = [set(), set()]
        self.moment: int | None = None  # the winner whose moment it is
        self.cambio_made = False
        self.sung_suits = 0
        self.leader = -1
        self.last = -1
        self.baza = 0
        self.table: list[tuple[int, int]] = []
        self.card_points = [0, 0]
        self.cantos = [0, 0]
        self.juegos = [0, 0]
        self.manos = 0
        self.mano_seat = -1
        self.sizes_at_lead: list[tuple[int, int]] = []
        self.drawn_last: tuple[int, str] | None = None
        self.over = False

    def offer(self) -> list[str]:
        """What the moment's winner may do now (D15-D18): the cantos, then the cambio."""
        if self.moment is None:
            return []
        hand = self.hands[self.moment]
        out = dr.valid_cantos(hand, self.trump, self.sung_suits)
        if not self.cambio_made and dr.may_cambio(hand, self.monte):
            out.append(CAMBIO)
        return out

    def expected(self, seat: int) -> tuple[list[str], list[str]]:
        """``(legal, may_sing)`` the next request to ``seat`` must carry."""
        if self.offer():
            assert seat == self.moment
            return [], self.offer()
        assert self.moment is None, "a moment with nothing to offer must not wait"
        led = self.table[0][1] if self.table else dr.NO_CARD
        return names_of(dr.legal_mask(self.hands[seat], led, self.trump, len(self.monte))), []

    def passed(self) -> None:
        """The winner passed at its moment: the draws follow."""
        assert self.moment is not None
        self.moment = None

    def _moment_over(self) -> None:
        """A card or a draw: any moment is over (a pass, which leaves no line)."""
        assert not self.strict or self.moment is None, "a moment was not asked"
        self.moment = None

    def see(self, e: Event) -> None:
        kind = e["type"]
        if kind == "mano_start":
            self._mano_start(e)
        elif kind == "played":
            self._played(e)
        elif kind == "trick_end":
            self._trick_end(e)
        elif kind == "exchanged":
            seat, gave, took = e["seat"], parse(e["gave"]), parse(e["took"])
            assert seat == self.moment and CAMBIO in self.offer()  # D15, D17
            assert took == self.monte[-1] and gave == dr.cambio_card(took)  # D16, B10
            self.hands[seat], self.monte = dr.cambio(self.hands[seat], self.monte)
            self.cambio_made = True
            if not self.offer():  # nothing left to sing: the moment is over, the draws follow
                self.moment = None
            for k in self.known:
                k.update((e["gave"], e["took"]))
        elif kind == "sang":
            assert e["seat"] == self.moment and e["canto"] in self.offer()  # D21
            if e["canto"] != dr.TUTE:
                self.cantos[e["seat"]] += dr.canto_points(e["canto"], self.trump)
                self.sung_suits = dr.sing(self.sung_suits, e["canto"], self.trump)
                suit = dr.canto_suit(e["canto"], self.trump)
                for k in self.known:  # the rey and caballo sung: both know where they are
                    k.update(NAMES[x] for x in (KING[suit], KNIGHT[suit]))
            self.moment = None
        elif kind == "drew":
            self._drew(e)
        elif kind == "mano_end":
            self._mano_end(e)
        elif kind == "partido_end":
            self.over = True
            assert e["juegos"] == self.juegos and e["manos"] == self.manos

    def _mano_start(self, e: Event) -> None:
        self.manos += 1
        assert e["mano"] == self.manos and e["juegos"] == self.juegos
        hands = [parse_mask(h) for h in e["hands"]]
        monte = tuple(parse(c) for c in e["monte"])
        assert [h.bit_count() for h in hands] == [8, 8] and len(monte) == dr.MONTE_SIZE  # D7, D8
        assert hands[0] & hands[1] == 0 and hands[0] | hands[1] | mask(monte) == (1 << 40) - 1
        assert e["shown"] == NAMES[monte[-1]] and e["trump"] == SUITS[monte[-1] // 10]
        if self.manos > 1:
            assert e["mano_seat"] == dr.next_mano(self.mano_seat)  # D6
        assert e["dealer"] == dr.dealer_of(e["mano_seat"])
        self.mano_seat = e["mano_seat"]
        self.hands, self.monte, self.trump = hands, monte, monte[-1] // 10
        self.known = [set(e["hands"][s]) | {e["shown"]} for s in (0, 1)]
        self.moment, self.cambio_made, self.sung_suits = None, False, 0
        self.leader, self.baza, self.table = e["mano_seat"], 1, []
        self.card_points, self.cantos = [0, 0], [0, 0]
        self.sizes_at_lead, self.drawn_last = [], None

    def _played(self, e: Event) -> None:
        seat, c = e["seat"], parse(e["card"])
        self._moment_over()
        if not self.table:
            assert seat == self.leader
            self.sizes_at_lead.append((self.hands[0].bit_count(), self.hands[1].bit_count()))
            led = dr.NO_CARD
        else:
            assert seat == dr.other(self.leader)
            led = self.table[0][1]
        assert dr.legal_mask(self.hands[seat], led, self.trump, len(self.monte)) >> c & 1  # D13, D14
        self.hands[seat] &= ~(1 << c)
        self.table.append((seat, c))
        for k in self.known:
            k.add(e["card"])

    def _trick_end(self, e: Event) -> None:
        (s0, c0), (s1, c1) = self.table
        winner = dr.baza_winner(s0, c0, c1, self.trump)  # D10
        assert e["winner"] == winner and e["baza"] == self.baza
        assert e["cards"] == [{"seat": s0, "card": NAMES[c0]}, {"seat": s1, "card": NAMES[c1]}]
        self.card_points[winner] += POINTS[c0] + POINTS[c1]
        self.table, self.leader, self.last = [], winner, winner
        if dr.has_moment(self.baza):  # D15
            self.moment, self.cambio_made = winner, False
            if not self.offer():
                self.moment = None
        self.baza += 1

    def _drew(self, e: Event) -> None:
        self._moment_over()
        assert len(self.monte) >= 1 and not self.table  # D11: after the moment
        first = e["seat"] == self.leader
        card = self.monte[0]
        assert e["card"] == NAMES[card]
        if first:
            assert len(self.monte) % 2 == 0
        else:
            assert len(self.monte) % 2 == 1
        self.hands[e["seat"]] |= 1 << card
        self.monte = self.monte[1:]
        self.known[e["seat"]].add(e["card"])
        if not self.monte:  # the face-up card, drawn by the loser of baza 12 (D11)
            assert not first and self.baza == dr.DRAW_BAZAS + 1
            self.drawn_last = (e["seat"], e["card"])
            for k in self.known:
                k.add(e["card"])

    def _mano_end(self, e: Event) -> None:
        winner = e["winner"]
        if e["outcome"] == "points":
            assert self.baza == dr.BAZAS + 1 and self.hands == [0, 0] and not self.monte
            assert sum(self.card_points) == 120 and e["card_points"] == self.card_points  # D22
            assert e["cantos"] == self.cantos and e["last_baza"] == self.last
            tantos = [self.card_points[s] + self.cantos[s] + (10 if s == self.last else 0) for s in (0, 1)]
            assert e["tantos"] == tantos and sum(tantos) == 130 + sum(self.cantos)
            assert winner == (self.last if tantos[0] == tantos[1] else int(tantos[1] > tantos[0]))  # D23
            assert e["juegos_won"][winner] == 1  # D26, B18
            # D11: 8 cards at the start of bazas 1-13, then one fewer each baza
            assert self.sizes_at_lead == [(8, 8)] * 13 + [(20 - k + 1,) * 2 for k in range(14, 21)]
            assert self.drawn_last is not None
        elif e["outcome"] == "tute":
            assert e["tantos"] is None and e["juegos_won"][winner] == 1  # D20
        elif e["outcome"] == "penalty":
            assert e["tantos"] is None and e["juegos_won"][winner] == dr.PENALTY_JUEGOS  # D28, B21
        else:
            assert e["outcome"] == "void" and winner is None and e["juegos_won"] == [0, 0]
        if winner is not None:
            assert e["juegos_won"][1 - winner] == 0
            self.juegos[winner] += e["juegos_won"][winner]
        assert e["juegos"] == self.juegos
        self.moment = None

    def fold(self, events: Sequence[Event]) -> None:
        for e in events:
            self.see(e)


# ===================================================================== a random driver


def bad_move(p: DosPartido, req: Event, rng: random.Random) -> tuple[tuple[Any, ...], str] | None:
    """A move the rules forbid for the request ``req`` and the fault it is, or None if none is at hand."""
    seat = p.to_move
    assert seat is not None
    hand = set(req["hand"])
    options: list[tuple[tuple[Any, ...], str]] = []
    if req["legal"]:
        options.append(((rng.choice([c for c in NAMES if c not in hand]),), "not_in_hand"))
        options.append(((None,), "protocol"))
        options.append(((req["legal"][0], "cuarenta"), "false_canto"))  # no moment now (D21)
        options.append(((req["legal"][0], CAMBIO), "false_canto"))  # no moment now (D17)
        options.append(((req["legal"][0], None, 1 - seat), "protocol"))  # no accusations (B21)
        illegal = sorted(hand - set(req["legal"]))
        if illegal:  # phase 2 only (D13)
            options.append(((rng.choice(illegal),), "renuncio"))
    else:
        options.append(((req["hand"][0] if req["hand"] else "1-oro",), "protocol"))
        options.append(((None, "mus"), "protocol"))
        unsung = [s for s in ("tute", "cuarenta", *CANTO_NAMES) if s not in req["may_sing"]]
        options.append(((None, rng.choice(unsung)), "false_canto"))
        if CAMBIO not in req["may_sing"]:
            options.append(((None, CAMBIO), "false_canto"))
    return rng.choice(options) if options else None


def drive(
    p: DosPartido,
    rng: random.Random,
    p_fault: float = 0.0,
    p_act: float = 0.7,
    on_request: Callable[[DosPartido, Event], None] | None = None,
) -> Shadow:
    """Play ``p`` to its end at random, checking every request against a :class:`Shadow`; with
    probability ``p_fault`` a decision is a forbidden move, judged as the referee judges it."""
    shadow = Shadow(p.rules)
    seen = 0
    while not p.over:
        shadow.fold(p.events[seen:])
        seen = len(p.events)
        seat = p.to_move
        assert seat is not None
        req = p.request()
        legal, may_sing = shadow.expected(seat)
        assert req["legal"] == legal and req["may_sing"] == may_sing
        assert bool(req["legal"]) != bool(req["may_sing"])  # a card, or a moment with something to do
        if on_request:
            on_request(p, req)
        if rng.random() < p_fault:
            bad = bad_move(p, req, rng)
            if bad is not None:
                move, reason = bad
                before = (len(p.events), p.to_move, p.request(), p.juegos[:])
                with pytest.raises(IllegalMove) as caught:
                    p.play(*move)
                assert caught.value.reason == reason, (move, caught.value.detail)
                assert (len(p.events), p.to_move, p.request(), p.juegos[:]) == before  # nothing changed
                assert p.fault(seat, reason, caught.value.detail, **caught.value.evidence)
                continue
        if req["legal"]:
            p.play(rng.choice(req["legal"]))
        elif rng.random() < p_act:
            p.play(None, rng.choice(req["may_sing"]))
        else:
            p.play(None)
            shadow.passed()
    shadow.fold(p.events[seen:])
    assert shadow.over
    return shadow


# ===================================================================== construction and the deal


def test_two_players_only_and_the_rules_in_any_form() -> None:
    for n in (1, 3, 4):
        with pytest.raises(RulesError):
            DosPartido(n, 1)
    assert DosPartido(2, 1).rules == DosRules()
    assert DosPartido(2, 1, {"juegos": 3, "renuncio": "penalize"}).rules == DosRules(
        "habanero", 3, "penalize"
    )
    with pytest.raises(RulesError):
        DosPartido(2, 1, "habanero")  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        DosPartido(2, 1, {"ruleset": "ludoteka"})


def test_a_seed_deals_the_same_partido_through_the_factory_and_the_engine() -> None:
    assert games.spec("tute-dos").new_partido(2, 11).events == DosPartido(2, 11).events
    assert games.spec("dos").new_partido(2, 11).events == DosPartido(2, 11).events
    assert DosPartido(2, 11).events != DosPartido(2, 12).events
    undealt = games.spec("tute-dos").new_partido(2, 11, deal=False)
    assert undealt.events == [] and undealt.to_move is None
    undealt.start()
    assert undealt.events == DosPartido(2, 11).events


@pytest.mark.parametrize("seed", [0, 1, 7, 2002, "ab" * 32])
def test_D6_D8_the_deal_partitions_the_deck_and_turns_up_the_trump(seed: int | str) -> None:
    p = DosPartido(2, seed)
    [start] = p.events
    first, order = deal_order(deal_key(seed), 1, (0, 1))
    assert start["mano_seat"] == first and start["dealer"] == 1 - first  # D6, B3: drawn from the seed
    hands = [parse_mask(h) for h in start["hands"]]
    assert hands == [mask(order[(s != first) : 16 : 2]) for s in (0, 1)]  # D7: one at a time, mano first
    assert start["monte"] == [NAMES[c] for c in (*order[17:], order[16])]  # D8: the 17th turned up, last
    assert start["shown"] == NAMES[order[16]] and start["trump"] == NAMES[order[16]].split("-")[1]
    assert hands[0] | hands[1] | parse_mask(start["monte"]) == (1 << 40) - 1
    assert start["juegos"] == [0, 0]
    assert p.to_move == first


def test_D6_the_mano_alternates_and_the_previous_mano_deals() -> None:
    p = DosPartido(2, 5, DosRules(juegos=4))
    drive(p, random.Random(5))
    starts = [e for e in p.events if e["type"] == "mano_start"]
    assert len(starts) >= 4
    for a, b in itertools.pairwise(starts):
        assert b["mano_seat"] == a["dealer"] and b["dealer"] == a["mano_seat"]


def test_stacked_deals_are_checked() -> None:
    with pytest.raises(RulesError):
        DosPartido(2, 1, stacked={1: (0, list(range(39)))})
    with pytest.raises(RulesError):
        DosPartido(2, 1, stacked={1: (2, list(range(40)))})


# ===================================================================== random partidos, every request checked


@settings(max_examples=80)
@given(
    seed=st.integers(0, 2**32 - 1),
    juegos=st.integers(1, 3),
    renuncio=st.sampled_from(POLICIES),
    p_act=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_every_request_and_event_follows_the_rules(
    seed: int, juegos: int, renuncio: str, p_act: float
) -> None:
    p = DosPartido(2, seed, DosRules(juegos=juegos, renuncio=renuncio))
    drive(p, random.Random(seed), p_act=p_act)
    assert p.over and not p.disqualified and len(p.winners) == 1
    [w] = p.winners
    assert p.juegos[w] >= juegos > p.juegos[1 - w]  # D27: the first to N
    assert p.mano_number <= 2 * juegos - 1 and sum(p.juegos) == p.mano_number  # one juego a mano (D26)
    assert p.porotos == p.juegos and p.ranking() == [[w], [1 - w]]
    assert p.events[-1] == {
        "type": "partido_end",
        "winners": [w],
        "juegos": p.juegos,
        "ranking": [[w], [1 - w]],
        "manos": p.mano_number,
    }


@settings(max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), juegos=st.integers(1, 4), renuncio=st.sampled_from(POLICIES))
def test_every_forbidden_move_is_refused_unchanged_and_judged_by_the_policy(
    seed: int, juegos: int, renuncio: str
) -> None:
    p = DosPartido(2, seed, DosRules(juegos=juegos, renuncio=renuncio))
    drive(p, random.Random(seed), p_fault=0.02)
    faults = [(i, e) for i, e in enumerate(p.events) if e["type"] in ("penalized", "disqualified")]
    for i, e in faults:
        after = p.events[i + 1]
        assert after["type"] == "mano_end"
        if e["type"] == "penalized":  # D28 penalize: the mano ends, the other gets 2 juegos
            assert renuncio == "penalize" and e["reason"] in ("renuncio", "false_canto")
            assert after["outcome"] == "penalty" and after["winner"] == 1 - e["seat"]
            assert after["juegos_won"][1 - e["seat"]] == 2
        else:  # disqualify: the mano is void, the partido over, won by the other
            assert renuncio == "disqualify" or e["reason"] in ("protocol", "not_in_hand")
            assert after["outcome"] == "void" and p.events[i + 2]["type"] == "partido_end"
            assert p.winners == [1 - e["seat"]] and p.ranking() == [[1 - e["seat"]], [e["seat"]]]
    if not p.disqualified:
        assert max(p.juegos) >= juegos


# ================================================================ the moment: cambio and cantos (D15-D21)

# Seat 0 (mano) leads 2-oro, seat 1 takes it with 1-oro; trump copa, 12-copa turned up.
LOW = ["2-oro", "4-oro", "5-oro", "6-oro", "2-espada", "4-espada", "5-espada", "6-espada"]
CAMBIO_HAND = ["7-copa", "11-copa", "1-oro", "3-oro", "2-basto", "4-basto", "5-basto", "6-basto"]


def after_first_baza(hand1: Sequence[str], turned: str, rules: DosRules | None = None) -> DosPartido:
    p = DosPartido(2, 1, rules, stacked={1: (0, stacked(LOW, hand1, turned))})
    p.play("2-oro")
    p.play("1-oro")
    return p


def test_D16_the_cambio_then_the_canto_it_completes() -> None:
    p = after_first_baza(CAMBIO_HAND, "12-copa")
    assert p.to_move == 1
    req = p.request()
    assert req["legal"] == [] and req["may_sing"] == [CAMBIO] and req["shown"] == "12-copa"
    assert req["baza"] == 2 and req["monte"] == 24 and req["tantos"] == [0, 11]
    p.play(None, CAMBIO)
    assert p.events[-1] == {"type": "exchanged", "seat": 1, "gave": "7-copa", "took": "12-copa"}
    req = p.request()  # asked again: the rey taken completes the cuarenta (B11, D18)
    assert p.to_move == 1 and req["may_sing"] == ["cuarenta"] and req["shown"] == "7-copa"
    assert "12-copa" in req["hand"] and "7-copa" not in req["hand"]
    with pytest.raises(IllegalMove) as caught:  # one cambio a moment (D17)
        p.play(None, CAMBIO)
    assert caught.value.reason == "false_canto" and caught.value.evidence == {"canto": CAMBIO}
    p.play(None, "cuarenta")
    assert p.events[-3] == {"type": "sang", "seat": 1, "canto": "cuarenta"}
    assert [e["type"] for e in p.events[-2:]] == ["drew", "drew"]
    assert [e["seat"] for e in p.events[-2:]] == [1, 0]  # the winner first (D11)
    req = p.request()
    assert p.to_move == 1 and req["legal"] and req["tantos"] == [0, 51]
    for seat in (0, 1):  # a cambio is public
        assert p.view(p.events[-4], seat) == {
            "type": "exchanged",
            "seat": 1,
            "gave": "7-copa",
            "took": "12-copa",
        }


def test_D16_a_2_for_a_low_card_and_no_cambio_for_a_4() -> None:
    low = ["2-copa", "11-copa", "1-oro", "3-oro", "2-basto", "4-basto", "5-basto", "6-basto"]
    p = after_first_baza(low, "6-copa")
    assert p.request()["may_sing"] == [CAMBIO]
    p.play(None, CAMBIO)
    assert p.events[-3] == {"type": "exchanged", "seat": 1, "gave": "2-copa", "took": "6-copa"}
    p = after_first_baza(["2-copa", *low[1:]], "4-copa")
    assert p.to_move == 1 and p.request()["legal"]  # nothing to offer: no moment (D16, B10)
    assert p.events[-1]["type"] == "drew"


def test_D17_a_false_cambio_is_judged_like_a_false_canto() -> None:
    p = after_first_baza(CAMBIO_HAND, "12-copa")
    p.play(None)  # a pass: the moment is over, the draws follow
    assert p.to_move == 1 and p.request()["legal"]
    with pytest.raises(IllegalMove) as caught:  # at a card request
        p.play(p.request()["legal"][0], CAMBIO)
    assert caught.value.reason == "false_canto"
    # without the 7 of triunfo: nothing offered, so a moment is not even asked
    p = after_first_baza(["7-oro", *CAMBIO_HAND[1:]], "12-copa")
    assert p.to_move == 1 and p.request()["legal"] and p.events[-1]["type"] == "drew"
    with pytest.raises(IllegalMove) as caught:
        p.play(p.request()["legal"][0], CAMBIO)
    assert caught.value.reason == "false_canto" and caught.value.evidence == {"canto": CAMBIO}
    for policy, kind in (("penalize", "penalized"), ("disqualify", "disqualified")):
        p = after_first_baza(CAMBIO_HAND, "12-copa", DosRules(renuncio=policy))
        p.play(None, CAMBIO)
        with pytest.raises(IllegalMove) as caught:
            p.play(None, CAMBIO)
        assert p.fault(1, caught.value.reason, caught.value.detail, **caught.value.evidence)
        fault = next(e for e in p.events if e["type"] == kind)
        assert fault["canto"] == CAMBIO and fault["reason"] == "false_canto"
        end = next(e for e in p.events if e["type"] == "mano_end")
        assert end["outcome"] == ("penalty" if policy == "penalize" else "void")
        assert end["winner"] == (0 if policy == "penalize" else None)


def test_D18_D21_cantos_once_a_pair_and_never_a_veinte_of_trump() -> None:
    hand = ["12-basto", "11-basto", "12-espada", "11-espada", "1-oro", "3-oro", "7-basto", "6-basto"]
    p = after_first_baza(hand, "4-copa")
    req = p.request()
    assert req["may_sing"] == ["veinte-espada", "veinte-basto"]  # no cambio for a 4
    for wrong in ("cuarenta", "veinte-copa", "veinte-oro", "tute"):
        with pytest.raises(IllegalMove) as caught:
            p.play(None, wrong)
        assert caught.value.reason == "false_canto" and caught.value.evidence == {"canto": wrong}
    with pytest.raises(IllegalMove, match="cambio") as caught:
        p.play(None, "mus")  # no canto at all
    assert caught.value.reason == "protocol"
    with pytest.raises(IllegalMove) as caught:
        p.play("1-oro")  # a card at a moment
    assert caught.value.reason == "protocol"
    p.play(None, "veinte-basto")
    assert p.to_move == 1 and p.request()["legal"]  # one canto a moment (B14): the moment is over
    assert p.request()["tantos"] == [0, 31]


def test_D20_a_tute_wins_the_mano_at_once() -> None:
    kings = ["12-oro", "12-copa", "12-espada", "12-basto", "1-oro", "3-basto", "7-basto", "6-basto"]
    p = after_first_baza(kings, "4-copa")
    assert p.request()["may_sing"] == ["tute"]
    p.play(None, "tute")
    end = next(e for e in p.events if e["type"] == "mano_end")
    assert end["outcome"] == "tute" and end["winner"] == 1 and end["juegos_won"] == [0, 1]
    assert end["tantos"] is None
    assert p.events[-1]["type"] == "mano_start" and p.events[-1]["mano_seat"] == 1  # D6: the other is mano


# ===================================================================== draws and phase 2 (D11-D14)


def test_D11_the_loser_of_baza_12_draws_the_face_up_card_seen_by_both() -> None:
    p = DosPartido(2, 3)
    drive(p, random.Random(3), p_act=0.0)
    mano = p.events[: next(i for i, e in enumerate(p.events) if e["type"] == "mano_end")]
    drew = [e for e in mano if e["type"] == "drew"]
    assert len(drew) == 24
    monte = mano[0]["monte"]
    assert [e["card"] for e in drew] == monte  # in the monte's order; no cambio was made (p_act 0)
    last = drew[-1]
    baza12 = next(e for e in mano if e["type"] == "trick_end" and e["baza"] == 12)
    assert last["seat"] == 1 - baza12["winner"] and last["card"] == mano[0]["shown"]
    for e in drew:
        for seat in (0, 1):
            shown = p.view(e, seat)
            assert shown["card"] == (e["card"] if seat == e["seat"] or e is last else None)


def d14(hand: Sequence[str], led: str, trump: str) -> set[str]:
    """D14's table, from the card names alone: follow and beat, else follow; else trump; else any."""
    suit = led.split("-")[1]
    follow = [c for c in hand if c.split("-")[1] == suit]
    if follow:
        beat = [c for c in follow if parse(c) > parse(led)]
        return set(beat or follow)
    trumps = [c for c in hand if c.split("-")[1] == trump]
    return set(trumps or hand)


def test_D13_D14_any_card_in_phase_1_obligations_in_phase_2() -> None:
    checked = {1: 0, 2: 0, "bound": 0}

    def check(p: DosPartido, req: Event) -> None:
        if not req["legal"]:
            return
        phase = dr.phase(req["monte"])
        assert req["baza"] <= 12 if phase == 1 else req["baza"] >= 13  # D12, B7
        assert (req["shown"] is None) == (phase == 2)
        if phase == 1 or not req["table"]:  # D13, and the leader
            assert req["legal"] == req["hand"]
        else:
            assert set(req["legal"]) == d14(req["hand"], req["table"][0]["card"], req["trump"])
            checked["bound"] += set(req["legal"]) != set(req["hand"])
        checked[phase] += 1

    for seed in range(10):
        drive(DosPartido(2, seed), random.Random(seed), on_request=check)
    assert checked[1] and checked[2] and checked["bound"]


def test_D14_a_renuncio_in_phase_2_under_each_policy() -> None:
    for policy in POLICIES:
        p = DosPartido(2, 6, DosRules(juegos=3, renuncio=policy))
        rng = random.Random(6)
        while True:
            req = p.request()
            illegal = sorted(set(req["hand"]) - set(req["legal"])) if req["legal"] else []
            if illegal:
                break
            p.play(rng.choice(req["legal"]) if req["legal"] else None)
        seat = p.to_move
        assert seat is not None and req["monte"] == 0 and req["table"]
        with pytest.raises(IllegalMove) as caught:
            p.play(illegal[0])
        assert caught.value.reason == "renuncio" and caught.value.evidence == {"card": illegal[0]}
        before = p.juegos[1 - seat]
        assert p.fault(seat, "renuncio", caught.value.detail, **caught.value.evidence)
        kind = "penalized" if policy == "penalize" else "disqualified"
        i = next(i for i, e in enumerate(p.events) if e["type"] == kind)
        assert p.events[i + 1]["outcome"] == ("penalty" if policy == "penalize" else "void")
        if policy == "penalize":  # D28: the mano ends, the other gets 2 juegos; on unless that makes N
            assert p.juegos[1 - seat] == before + 2 and p.over == (before + 2 >= 3)
            assert p.events[i + 2]["type"] == ("partido_end" if p.over else "mano_start")
        else:
            assert p.over and p.winners == [1 - seat] and p.disqualified == [seat]


# ============================================================= faults outside the rules, and hello faults


def test_card_faults_are_named_and_change_nothing() -> None:
    p = DosPartido(2, 9)
    req, seat = p.request(), p.to_move
    missing = next(c for c in NAMES if c not in req["hand"])
    for move, reason in (
        ((missing,), "not_in_hand"),
        (("99-oro",), "not_in_hand"),
        ((57,), "not_in_hand"),
        ((None,), "protocol"),
        ((req["legal"][0], "cuarenta"), "false_canto"),
        ((req["legal"][0], "veinte-mus"), "protocol"),
        ((req["legal"][0], None, 1 - (seat or 0)), "protocol"),
    ):
        with pytest.raises(IllegalMove) as caught:
            p.play(*move)
        assert caught.value.reason == reason
        assert p.request() == req and len(p.events) == 1
    p.play(req["legal"][0])


@pytest.mark.parametrize("policy", POLICIES)
def test_a_program_fault_disqualifies_under_every_policy(policy: str) -> None:
    p = DosPartido(2, 4, DosRules(renuncio=policy))
    assert p.fault(0, "timeout", "slow", elapsed_ms=3000, cpu_ms=1001.0)
    assert p.over and p.winners == [1] and p.ranking() == [[1], [0]]
    assert [e["type"] for e in p.events[-3:]] == ["disqualified", "mano_end", "partido_end"]
    assert p.events[-2]["outcome"] == "void"
    assert not p.fault(1, "crash", "gone")  # the partido is decided
    assert p.view(p.events[-3], 1) == {
        "type": "disqualified",
        "seat": 0,
        "reason": "timeout",
        "detail": "slow",
    }


def test_hello_faults_come_before_the_deal() -> None:
    p = DosPartido(2, 4, deal=False)
    assert p.fault(1, "crash", "gone")
    p.start()
    assert p.over and p.mano_number == 0 and p.winners == [0] and p.ranking() == [[0], [1]]
    both = DosPartido(2, 4, deal=False)
    both.fault(0, "protocol", "bad")
    both.fault(1, "crash", "gone")
    both.start()
    assert both.over and both.winners == [] and both.ranking() == [[1], [0]]
    with pytest.raises(RulesError):
        both.start()
    with pytest.raises(IllegalMove):
        both.request()


def test_the_ranking_before_the_end_ties() -> None:
    assert DosPartido(2, 1).ranking() == [[0, 1]]


# ===================================================================== views never leak (hypothesis)


def check_views(p: DosPartido, shadow_events: Sequence[Event]) -> int:
    """Every event's view, for both seats, holds only cards that seat may know; returns the views checked."""
    shadow = Shadow(p.rules, strict=False)
    checked = 0
    for e in shadow_events:
        shadow.see(e)
        for seat in (0, 1):
            v = p.view(e, seat)
            assert "hands" not in v and "monte" not in v
            assert "ms" not in v and "cpu_ms" not in v and "elapsed_ms" not in v and "line" not in v
            if e["type"] in ("disqualified", "penalized"):
                continue  # the offender's card or canto is the shared evidence (protocol.md)
            assert cards_in(v) <= shadow.known[seat], (e, seat, cards_in(v) - shadow.known[seat])
            if e["type"] == "mano_start":
                assert v["hand"] == e["hands"][seat]
            checked += 1
    return checked


@pytest.mark.fast_examples(25)
@settings(max_examples=150)
@given(
    seed=st.integers(0, 2**32 - 1), renuncio=st.sampled_from(POLICIES), p_fault=st.sampled_from([0.0, 0.01])
)
def test_the_views_never_show_the_other_hand_or_the_monte(seed: int, renuncio: str, p_fault: float) -> None:
    requests: list[tuple[Event, set[str]]] = []

    def remember(p: DosPartido, req: Event) -> None:
        shadow = Shadow(p.rules, strict=False)
        shadow.fold(p.events)
        seat = p.to_move
        assert seat is not None
        requests.append((req, shadow.known[seat]))

    p = DosPartido(2, seed, DosRules(juegos=2, renuncio=renuncio))
    drive(p, random.Random(seed), p_fault=p_fault, on_request=remember if seed % 8 == 0 else None)
    assert check_views(p, p.events) > 0
    for req, known in requests:  # what a request tells is known too
        assert cards_in(req) <= known


# ===================================================================== the account


def test_the_account_tells_the_draws_the_cambio_and_the_juegos() -> None:
    p = after_first_baza(CAMBIO_HAND, "12-copa")
    p.play(None, CAMBIO)
    p.play(None, "cuarenta")
    drive(p, random.Random(1))
    players = [{"seat": 0, "name": "ana", "source": "ana"}, {"seat": 1, "name": "beto", "source": "beto"}]
    head = {"type": "partido_start", "partido": "p", "seed": 1, "game": "tute-dos", "players": players}
    head["rules"] = p.rules.to_dict()
    with i18n.speaking("en"):
        lines = list(narrate([head, *p.events]))
    text = "\n".join(lines)
    assert "tute-dos" in lines[0] and "2 juegos to win" in lines[0]
    assert "Cambio: beto (1) gives 7-copa and takes 12-copa" in text
    assert "beto (1) sings las cuarenta" in text
    first = next(e for e in p.events if e["type"] == "drew")
    assert f"{first['card']} from the monte" in text
    assert re.search(r"(ana \(0\)|beto \(1\)) wins 1 juego; juegos: \d – \d", text)
    # a player's view of a hidden draw tells nothing
    hidden = next(e for e in p.events if e["type"] == "drew" and e["seat"] == 1)
    with i18n.speaking("en"):
        assert list(narrate([head, p.view(hidden, 0)])) == list(narrate([head]))
