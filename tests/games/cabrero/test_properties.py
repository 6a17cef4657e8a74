"""Property-based tests (hypothesis) of the rules engine against ``shared/spec/rules.md``.

Random partidos are driven by a small seeded driver (random, lowest or highest
legal card; never, always or sometimes singing; optional illegal attempts and
faults injected at random moments), then their replay events are re-checked with
oracles written from the spec text alone (card strength, legal plays, baza
winner, cambio, who loses) rather than with :mod:`arena.rules` itself.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import cards, engine, rules
from arena.engine import IllegalMove, Partido
from arena.games.cabrero.playoff import PLAYOFF
from arena.games.common import replies
from arena.rules import RuleSet

# ----------------------------------------------------------------- spec oracles

SUITS = ("oro", "copa", "espada", "basto")
STRENGTH_ORDER = (1, 3, 12, 11, 10, 7, 6, 5, 4, 2)  # highest first [5]
SPEC_POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}
ALL_NAMES = frozenset(f"{r}-{s}" for s in SUITS for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12))
CARDS_PER_PLAYER = {3: 13, 4: 10, 5: 8, 6: 8}


def rank(c: str) -> int:
    return int(c.split("-")[0])


def suit(c: str) -> str:
    return c.split("-")[1]


def strength(c: str) -> int:
    """Bigger is stronger inside a suit."""
    return -STRENGTH_ORDER.index(rank(c))


def spec_points(c: str) -> int:
    return SPEC_POINTS.get(rank(c), 0)


def spec_beats(c: str, w: str, trump: str) -> bool:
    return (suit(c) == suit(w) and strength(c) > strength(w)) or (suit(c) == trump and suit(w) != trump)


def spec_winning(table: list[str], trump: str) -> int:
    """Index in ``table`` of the card taking the baza: highest trump, else highest of the led suit."""
    trumps = [i for i, c in enumerate(table) if suit(c) == trump]
    pool = trumps or [i for i, c in enumerate(table) if suit(c) == suit(table[0])]
    return max(pool, key=lambda i: strength(table[i]))


def spec_legal(hand: set[str], table: list[str], trump: str) -> set[str]:
    """The legal cards per "Playing a trick"."""
    if not table:
        return set(hand)
    led = suit(table[0])
    w = table[spec_winning(table, trump)]
    follow = {c for c in hand if suit(c) == led}
    if follow:
        return {c for c in follow if spec_beats(c, w, trump)} or follow
    trumps = {c for c in hand if suit(c) == trump and spec_beats(c, w, trump)}
    return trumps or set(hand)


def spec_losers(
    ruleset: RuleSet,
    dealt: list[int],
    bazas: dict[int, int],
    scores: dict[int, int],
    card_points: dict[int, int],
    sang_pair: set[int],
) -> set[int]:
    """Who loses a mano played to its last baza, per "Who loses a mano" and the named options."""
    total = sum(bazas.values())
    for s in dealt:
        if bazas[s] == total:  # capote
            return {s} if s in sang_pair else set(dealt) - {s}
    in_baza = [s for s in dealt if bazas[s] > 0]
    rio = ruleset.ruleset == "rioplatense"
    if rio:
        for s in in_baza:
            if card_points[s] == 120:
                return set(in_baza) - {s}
    value = {s: float(scores[s]) for s in in_baza}
    if "mano-tiebreak" in ruleset.variants:
        for i, s in enumerate(dealt):
            if s in value:
                value[s] += 0.5 ** (i + 1)
    hi, lo = max(value.values()), min(value.values())
    if len(in_baza) == 2:
        return {s for s in in_baza if value[s] == lo}
    middle = {s for s in in_baza if lo < value[s] < hi}
    if middle:
        return middle
    if rio and hi != lo:
        return {s for s in in_baza if value[s] < hi}
    return set(in_baza)


def seat_right(seat: int, active: set[int], n: int) -> int:
    return next((seat + i) % n for i in range(1, n + 1) if (seat + i) % n in active)


def seat_left(seat: int, active: set[int], n: int) -> int:
    return next((seat - i) % n for i in range(1, n + 1) if (seat - i) % n in active)


def holder(hands: dict[int, set[str]], c: str) -> int | None:
    return next((s for s, h in hands.items() if c in h), None)


# ----------------------------------------------------------------- the driver


@dataclass(frozen=True)
class Driver:
    """A deterministic (given its seed) player for every seat, plus a fault injector."""

    seed: int
    play: str = "random"  # random | low | high
    sing: str = "never"  # never | always | random
    p_fault: float = 0.0  # chance per move of faulting a random seat (any reason)
    p_illegal: float = 0.0  # chance per move of attempting an illegal card or canto


def drive(p: Partido, d: Driver, max_steps: int = 20_000) -> None:
    """Play ``p`` to its end with driver ``d``."""
    rng = random.Random(d.seed)
    for _ in range(max_steps):
        if p.over:
            return
        if d.p_fault and rng.random() < d.p_fault:
            _inject_fault(p, rng)
            continue
        m = p.mano
        assert m is not None
        if p.reviews:  # the accuse policy's review after the last baza: nobody accuses here
            assert p.request()["type"] == "review"
            p.play(None)
            continue
        seat = m.turn
        legal = cards.cards_of(m.legal())
        assert legal, "the player to move always has a legal card"
        assert m.may_sing == (not m.table and m.baza > 1), "only the leader of baza 2+ may sing"
        if d.p_illegal and rng.random() < d.p_illegal and _attempt_illegal(p, rng, seat, legal):
            continue
        if d.play == "low":
            c = legal[0]
        elif d.play == "high":
            c = legal[-1]
        else:
            c = rng.choice(legal)
        sing = None
        cantos = m.cantos()
        if cantos and (d.sing == "always" or (d.sing == "random" and rng.random() < 0.5)):
            sing = cantos[0] if d.sing == "always" else rng.choice(cantos)
        if sing == rules.TUTE:
            p.play(None, rules.TUTE)
        else:
            p.play(cards.NAMES[c] if rng.random() < 0.5 else c, sing)
    raise AssertionError(f"partido not over after {max_steps} steps")


EVIDENCE = {  # what a referee attaches to each kind of fault (replay.md)
    "renuncio": {"card": "1-oro"},
    "not_in_hand": {"card": "1-oro"},
    "false_canto": {"canto": "cuarenta"},
    "timeout": {"elapsed_ms": 1234},
    "protocol": {"line": "{oops"},
    "crash": {"exit": 1},
}


def _inject_fault(p: Partido, rng: random.Random) -> None:
    seat = rng.randrange(p.n)
    was_active = p.active[seat]
    before = len(p.events)
    reason = rng.choice(engine.FAULT_REASONS)
    judged = p.fault(seat, reason, "injected by the test", **EVIDENCE[reason])
    assert judged == was_active, "a fault is judged exactly when the seat is active"
    if p.record:
        assert (len(p.events) > before) == judged


def _attempt_illegal(p: Partido, rng: random.Random, seat: int, legal: list[int]) -> bool:
    """Try a move the engine must refuse; on refusal (nothing changed) apply the fault."""
    m = p.mano
    assert m is not None
    hand = m.hands[seat]
    illegal = [c for c in cards.cards_of(hand) if c not in legal]
    not_held = [c for c in range(40) if not hand >> c & 1]
    kind = rng.randrange(3)
    if kind == 0 and illegal:  # by name as on the wire, or by card id as in-process callers do
        c = rng.choice(illegal)
        move: tuple[Any, Any] = (rng.choice((cards.NAMES[c], c)), None)
    elif kind == 1:
        move = (cards.NAMES[rng.choice(not_held)], None)
    else:
        valid = set(m.cantos())
        false = [c for c in ("cuarenta", *rules.CANTO_NAMES) if c not in valid]
        move = (cards.NAMES[legal[0]], rng.choice(false))
    before = (len(p.events), m.hands[:], m.table[:], m.turn)
    shown = move[0] if move[0] is None or isinstance(move[0], str) else cards.NAMES[move[0]]
    if kind == 0 and illegal and p.rules.renuncio == "accuse":  # accepted, marked in the replay
        p.play(*move)
        if p.record:
            assert p.events[before[0]] == {"type": "played", "seat": seat, "card": shown, "renuncio": True}
        return True
    try:
        p.play(*move)
    except IllegalMove as e:
        assert (len(p.events), m.hands, m.table, m.turn) == before, "a refused move changes nothing"
        if move[1] is not None:  # a canto is false when singing is allowed, a protocol fault otherwise
            expected = "false_canto" if m.may_sing else "protocol"
        else:
            expected = "renuncio" if kind == 0 and illegal else "not_in_hand"
        assert e.reason == expected, (move, e.reason)
        assert p.fault(seat, e.reason, e.detail, **e.evidence)
        if p.record:  # the fault line names the seat, the reason and the offending card or canto
            fault = p.events[before[0]]
            assert fault["type"] in ("disqualified", "penalized")
            assert (fault["seat"], fault["reason"]) == (seat, e.reason)
            if move[1] is not None:
                assert fault.get("canto") == move[1]
            else:
                assert fault.get("card") == shown
        return True
    raise AssertionError(f"illegal move {move} accepted from seat {seat}")


# ----------------------------------------------------------------- strategies

SEEDS = st.integers(0, 2**32)
TABLES = st.integers(3, 6)
RULESETS = st.builds(
    RuleSet,
    st.sampled_from(rules.RULESETS),
    st.frozensets(st.sampled_from([v for v in rules.VARIANTS if v != PLAYOFF])),  # its own: test_playoff
    st.sampled_from(rules.RENUNCIO_POLICIES),
)
FAULT_RATES = st.sampled_from([0.0, 0.0, 0.002, 0.01])
ILLEGAL_RATES = st.sampled_from([0.0, 0.0, 0.002, 0.01])


@st.composite
def drivers(draw: st.DrawFn, sing: st.SearchStrategy[str] | None = None) -> Driver:
    return Driver(
        seed=draw(SEEDS),
        play=draw(st.sampled_from(["random", "low", "high"])),
        sing=draw(sing if sing is not None else st.sampled_from(["never", "always", "random"])),
        p_fault=draw(FAULT_RATES),
        p_illegal=draw(ILLEGAL_RATES),
    )


def played_partido(n: int, seed: int, ruleset: RuleSet, d: Driver) -> Partido:
    p = Partido(n, seed, ruleset)
    drive(p, d)
    return p


def manos_of(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events split per mano, each list from its mano_start to its mano_end (if any)."""
    out: list[list[dict[str, Any]]] = []
    for e in events:
        if e["type"] == "mano_start":
            out.append([])
        if out and e["type"] != "partido_end":
            out[-1].append(e)
    return out


PROPS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FAST = settings(max_examples=500, deadline=None)
pytestmark = pytest.mark.fast_examples(25)  # [fast]: 25 examples of each property; [thorough] (slow): all


# ----------------------------------------------------------------- 1. dealing


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers())
def test_every_mano_deals_the_whole_deck_and_swaps_are_consistent(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    prev_mano_seat = None
    for k, mano in enumerate(manos_of(p.events), start=1):
        e = mano[0]
        assert e["mano"] == k
        active = set(e["active"])
        a = len(active)
        assert 3 <= a <= n
        # Seats: the mano, the dealer to its left, the six-player dealer sitting out.
        if k == 1:
            assert e["trump"] == "oro"
        else:
            assert e["mano_seat"] == seat_right(prev_mano_seat, active, n)
        prev_mano_seat = e["mano_seat"]
        assert e["dealer"] == seat_left(e["mano_seat"], active, n)
        assert e["sitting_out"] == (e["dealer"] if a == 6 else None)
        dealt_in = active - {e["sitting_out"]}
        assert len(dealt_in) == min(a, 5)
        # The deal: 40 distinct cards, 13/10/8 a player, the leftover with three.
        dealt = {s: h for s, h in enumerate(e["dealt"]) if h is not None}
        assert set(dealt) == dealt_in
        assert all(len(h) == CARDS_PER_PLAYER[a] for h in dealt.values())
        deck = [c for h in dealt.values() for c in h]
        if a == 3:
            assert e["leftover"] is not None
            deck.append(e["leftover"])
        else:
            assert e["leftover"] is None
        assert len(deck) == 40 and set(deck) == ALL_NAMES
        # Swaps applied in order to the dealt hands give the hands.
        hands = {s: set(h) for s, h in dealt.items()}
        for sw in e["swaps"]:
            assert sw["gave"] in hands[sw["seat"]] and sw["took"] not in hands[sw["seat"]]
            hands[sw["seat"]] = hands[sw["seat"]] - {sw["gave"]} | {sw["took"]}
        assert {s: set(h) for s, h in enumerate(e["hands"]) if h is not None} == hands
        assert all(e["hands"][s] is None for s in range(n) if s not in dealt_in)
        assert all(len(h) == CARDS_PER_PLAYER[a] for h in hands.values())
        in_hands = set().union(*hands.values())
        assert e["out_of_play"] is None or e["out_of_play"] not in in_hands
        assert len(in_hands) + (a == 3) == 40
        _check_trump_and_cambio(e, k, a, ruleset, dealt, hands)


def _check_trump_and_cambio(e, k, a, ruleset, dealt, hands):
    dealt = {s: set(h) for s, h in dealt.items()}
    swaps = [(sw["seat"], sw["gave"], sw["took"]) for sw in e["swaps"]]
    if a == 3:
        left = e["leftover"]
        assert e["shown"] is None
        if k == 1:  # [19.1]: the 2-oro holder takes the face-down leftover
            assert e["out_of_play"] == "2-oro"
            if left == "2-oro":
                assert swaps == [] and e["mano_seat"] == holder(dealt, "4-oro")
            else:
                two = holder(dealt, "2-oro")
                assert swaps == [(two, "2-oro", left)] and e["mano_seat"] == two
            return
        t = suit(left)
        assert e["trump"] == t
        two, seven = f"2-{t}", f"7-{t}"
        if rank(left) in (2, 4):
            assert swaps == [] and e["out_of_play"] == left
        elif rank(left) in (5, 6, 7):
            assert swaps == [(holder(dealt, two), two, left)] and e["out_of_play"] == two
        else:
            h7 = holder(dealt, seven)
            after = {s: h - {seven} | {left} if s == h7 else h for s, h in dealt.items()}
            assert swaps == [(h7, seven, left), (holder(after, two), two, seven)]
            assert e["out_of_play"] == two
        return
    assert swaps == [] and e["out_of_play"] is None
    if k == 1:
        assert e["shown"] is None
        if a in (4, 5):
            assert "2-oro" in hands[e["mano_seat"]]
    elif "rotating-trump" in ruleset.variants:
        assert e["shown"] is None and e["trump"] == SUITS[(k - 1) % 4]
    else:
        shown_at = e["dealer"] if a < 6 else seat_left(e["dealer"], set(e["active"]), len(e["dealt"]))
        assert e["shown"] in hands[shown_at] and e["trump"] == suit(e["shown"])


# ----------------------------------------------------------------- 2. 130 points


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers(sing=st.just("never")))
def test_scores_add_up_to_130_without_cantos(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    assert not any(e["type"] == "sang" for e in p.events)
    ends = [e for e in p.events if e["type"] == "mano_end"]
    played_out = [e for e in ends if e["outcome"] in ("points", "capote")]
    if d.p_fault == 0 and d.p_illegal == 0:
        assert played_out == ends  # nothing else can end a mano here
    for e in played_out:
        scores = [x for x in e["scores"] if x is not None]
        assert sum(scores) == 130, e
        assert all(x >= 0 for x in scores)
    for e in ends:
        if e["outcome"] not in ("points", "capote"):
            assert e["scores"] is None


# ----------------------------------------------------------------- 3. porotos


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers())
def test_porotos_only_fall_and_the_partido_ends_in_time(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    ev = p.events
    assert ev[-1]["type"] == "partido_end"
    dq = [e["seat"] for e in ev if e["type"] == "disqualified"]
    porotos = [rules.STARTING_POROTOS] * n
    for mano in manos_of(ev):
        start, end = mano[0], mano[-1]
        assert end["type"] == "mano_end"
        assert start["porotos"] == porotos
        outcome = end["outcome"]
        cost = 2 if outcome == "penalty" else 1
        expected = [x - cost * (s in end["losers"]) for s, x in enumerate(porotos)]
        assert end["porotos"] == expected
        assert all(b <= a for a, b in zip(porotos, end["porotos"], strict=True))
        if outcome == "void":
            assert end["losers"] == [] and any(e["type"] == "disqualified" for e in mano)
        else:
            assert sum(porotos) - sum(end["porotos"]) >= 1
        assert (outcome == "penalty") == any(e["type"] == "penalized" for e in mano)
        porotos = end["porotos"]
    manos = ev[-1]["manos"]
    assert manos == len(manos_of(ev))
    assert manos <= 4 * n + len(dq)
    void = sum(e["type"] == "mano_end" and e["outcome"] == "void" for e in ev)
    assert void <= len(dq)


# ----------------------------------------------------------------- 4. determinism


@settings(max_examples=100, deadline=None)
@given(TABLES, SEEDS, RULESETS, drivers(), drivers())
def test_same_seed_same_deals_and_same_partido(n, seed, ruleset, d1, d2):
    p1 = played_partido(n, seed, ruleset, d1)
    again = played_partido(n, seed, ruleset, d1)
    assert again.events == p1.events
    assert json.loads(json.dumps(p1.events)) == p1.events  # plain JSON data
    quiet = Partido(n, seed, ruleset, record=False)
    drive(quiet, d1)
    assert quiet.events == []
    assert (quiet.winners, quiet.ranking(), quiet.mano_number) == (p1.winners, p1.ranking(), p1.mano_number)

    p2 = played_partido(n, seed, ruleset, d2)
    starts1 = {e["mano"]: e for e in p1.events if e["type"] == "mano_start"}
    starts2 = {e["mano"]: e for e in p2.events if e["type"] == "mano_start"}
    assert starts1[1] == starts2[1]  # nothing a player does comes before the first deal
    for k in starts1.keys() & starts2.keys():
        a, b = starts1[k], starts2[k]
        if (a["active"], a["mano_seat"]) == (b["active"], b["mano_seat"]):
            for key in ("dealt", "leftover", "hands", "swaps", "trump", "shown", "out_of_play", "dealer"):
                assert a[key] == b[key], (k, key)


# ----------------------------------------------------------------- 5. legal plays


DECKS = st.permutations(sorted(ALL_NAMES))


@st.composite
def baza_states(draw: st.DrawFn) -> tuple[set[str], list[str], str]:
    """A hand of 1..13 cards, a baza of 0..5 other cards on the table, a trump suit."""
    deck = draw(DECKS)
    k = draw(st.integers(0, 5))
    hand = set(deck[k : k + draw(st.integers(1, 13))])
    return hand, deck[:k], draw(st.sampled_from(SUITS))


@FAST
@given(baza_states())
def test_legal_mask_follows_the_spec(state):
    hand, table, trump = state
    t = SUITS.index(trump)
    if table:
        lead = SUITS.index(suit(table[0]))
        winning = cards.parse(table[spec_winning(table, trump)])
    else:
        lead, winning = -1, -1
    hmask = cards.parse_mask(hand)
    legal = rules.legal_mask(hmask, lead, winning, t)
    assert legal != 0
    assert legal & ~hmask == 0
    got = set(cards.names_of(legal))
    if table and any(suit(c) == suit(table[0]) for c in hand):
        assert all(suit(c) == suit(table[0]) for c in got)
    assert got == spec_legal(hand, table, trump)


@FAST
@given(DECKS, st.integers(1, 6), st.sampled_from(SUITS), st.permutations(range(6)))
def test_baza_winner_is_the_highest_trump_else_the_highest_of_the_led_suit(deck, k, trump, seats):
    table = deck[:k]
    played = [(seats[i], cards.parse(c)) for i, c in enumerate(table)]
    assert rules.baza_winner(played, SUITS.index(trump)) == seats[spec_winning(table, trump)]


@st.composite
def finished_manos(draw: st.DrawFn):
    """A table, its dealt-in seats from the mano, and a plausible end of a mano played out."""
    n = draw(TABLES)
    mano_seat = draw(st.integers(0, n - 1))
    out = draw(st.sampled_from([s for s in range(n) if s != mano_seat])) if n == 6 else None
    order = [s for i in range(n) if (s := (mano_seat + i) % n) != out]
    nbazas = CARDS_PER_PLAYER[n]
    winners = draw(
        st.one_of(
            st.lists(st.sampled_from(order), min_size=nbazas, max_size=nbazas),
            st.sampled_from(order).map(lambda s: [s] * nbazas),  # capote
            st.lists(st.sampled_from(order[:2]), min_size=nbazas, max_size=nbazas),  # |P| <= 2
        )
    )
    bazas = [winners.count(s) for s in range(n)]
    in_baza = [s for s in order if bazas[s]]
    # Split the 120 card points among those who took bazas, coarsely so that ties happen.
    cuts = sorted(
        draw(
            st.lists(st.sampled_from(range(0, 121, 5)), min_size=len(in_baza) - 1, max_size=len(in_baza) - 1)
        )
    )
    bounds = [0, *cuts, 120]
    card_points = [0] * n
    for i, s in enumerate(draw(st.permutations(in_baza))):
        card_points[s] = bounds[i + 1] - bounds[i]
    last = winners[-1]
    cantos = {s: draw(st.sampled_from([0, 0, 0, 20, 40, 60])) for s in in_baza}
    scores = [card_points[s] + 10 * (s == last) + cantos.get(s, 0) if s in order else None for s in range(n)]
    sang = [cantos.get(s, 0) > 0 for s in range(n)]
    return order, out, bazas, scores, card_points, sang


@FAST
@given(finished_manos(), RULESETS)
def test_mano_losers_follow_the_spec(mano, ruleset):
    order, out, bazas, scores, card_points, sang = mano
    losers = rules.mano_losers(ruleset, order, bazas, scores, card_points, sang)
    assert losers and set(losers) <= set(order) and out not in losers
    assert len(set(losers)) == len(losers)
    expected = spec_losers(
        ruleset,
        order,
        {s: bazas[s] for s in order},
        {s: scores[s] for s in order},
        {s: card_points[s] for s in order},
        {s for s in order if sang[s]},
    )
    assert set(losers) == expected


# ----------------------------------------------------------------- 6. replay re-check


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers())
def test_replay_every_play_is_held_legal_and_in_turn(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    for mano in manos_of(p.events):
        _recheck_mano(mano, ruleset, n)


def _recheck_mano(mano: list[dict[str, Any]], ruleset: RuleSet, n: int) -> None:
    start = mano[0]
    trump = start["trump"]
    hands = {s: set(h) for s, h in enumerate(start["hands"]) if h is not None}
    order = [s for i in range(n) if (s := (start["mano_seat"] + i) % n) in hands]
    nbazas = len(hands[order[0]])
    bazas = dict.fromkeys(order, 0)
    pts = dict.fromkeys(order, 0)
    cantos = dict.fromkeys(order, 0)
    sang_pair: set[int] = set()
    sung: set[str] = set()
    leader, table, baza, last = order[0], [], 1, None
    sang_now = False  # a canto already sung before this lead
    ended = None
    tute = None
    for e in mano[1:]:
        kind = e["type"]
        assert ended is None or kind == "disqualified", "nothing follows mano_end but faults"
        if kind == "sang":
            assert not table and baza > 1 and e["seat"] == leader and not sang_now, e
            sang_now = True
            h, c = hands[e["seat"]], e["canto"]
            if c == "tute":
                assert all(f"12-{s}" in h for s in SUITS) or all(f"11-{s}" in h for s in SUITS)
                tute = e["seat"]
                continue
            s = trump if c == "cuarenta" else c.removeprefix("veinte-")
            assert c == "cuarenta" or s != trump, "the trump pair is the cuarenta"
            assert {f"12-{s}", f"11-{s}"} <= h and s not in sung, e
            sung.add(s)
            cantos[e["seat"]] += 40 if s == trump else 20
            sang_pair.add(e["seat"])
        elif kind == "played":
            seat, c = e["seat"], e["card"]
            expected = leader if not table else order[(order.index(table[-1][0]) + 1) % len(order)]
            assert seat == expected, e
            assert c in hands[seat], e
            legal = c in spec_legal(hands[seat], [x for _, x in table], trump)
            assert legal is (e.get("renuncio") is not True), (e, table, hands[seat])  # marked iff illegal
            hmask = cards.parse_mask(hands[seat])
            if table:
                lead = SUITS.index(suit(table[0][1]))
                winning = cards.parse(table[spec_winning([x for _, x in table], trump)][1])
            else:
                lead, winning = -1, -1
            allowed = rules.legal_mask(hmask, lead, winning, SUITS.index(trump)) >> cards.parse(c) & 1
            assert bool(allowed) is legal
            hands[seat].remove(c)
            table.append((seat, c))
        elif kind == "trick_end":
            assert len(table) == len(order) and e["trick"] == baza
            assert e["cards"] == [{"seat": s, "card": c} for s, c in table]
            w = table[spec_winning([c for _, c in table], trump)][0]
            assert e["winner"] == w
            ids = [(s, cards.parse(c)) for s, c in table]
            assert rules.baza_winner(ids, SUITS.index(trump)) == w
            bazas[w] += 1
            pts[w] += sum(spec_points(c) for _, c in table)
            leader, table, last, sang_now = w, [], w, False
            baza += 1
        elif kind == "mano_end":
            ended = e
        elif kind == "accused":  # the accuse policy: the verdict follows from the marked cards
            marked = {x["seat"] for x in mano if x["type"] == "played" and x.get("renuncio")}
            assert e["proven"] is (e["seat"] in marked) and e["by"] != e["seat"]
        else:
            assert kind in ("disqualified", "penalized"), kind
    assert ended is not None, "every mano of a finished partido ends"
    assert ended["tricks"] == [bazas.get(s) for s in range(n)]
    outcome = ended["outcome"]
    losers = set(ended["losers"])
    # A dealt-in player's disqualification voids the mano; the six-player dealer's does not.
    dq_in = [
        e["seat"] for e in mano[: mano.index(ended)] if e["type"] == "disqualified" and e["seat"] in order
    ]
    assert (outcome == "void") == bool(dq_in) and len(dq_in) <= 1
    assert len(ended["losers"]) == len(losers) and losers <= set(order)
    assert start["sitting_out"] not in losers
    if outcome in ("points", "capote"):
        assert baza == nbazas + 1 and all(not h for h in hands.values())
        assert (outcome == "capote") == (max(bazas.values()) == nbazas)
        scores = {s: pts[s] + cantos[s] + 10 * (s == last) for s in order}
        assert ended["scores"] == [scores.get(s) for s in range(n)]
        assert losers == spec_losers(ruleset, order, bazas, scores, pts, sang_pair), ended
    elif outcome == "tute":
        assert tute is not None and losers == set(order) - {tute}
    elif outcome == "penalty":
        pen = [e["seat"] for e in mano if e["type"] == "penalized"]
        assert len(pen) == 1 and losers == set(pen)
    elif outcome == "accused":
        (verdict,) = [e for e in mano if e["type"] == "accused"]
        assert losers == {verdict["seat"] if verdict["proven"] else verdict["by"]} and ended["scores"] is None
    else:
        assert outcome == "void" and not losers


# ----------------------------------------------------------------- 7. losers and ranking


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers())
def test_losers_eliminations_and_ranking(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    ev = p.events
    active = set(range(n))
    dq: list[int] = []
    elim_at: dict[int, int] = {}
    tute_end = None
    for mano in manos_of(ev):
        start = mano[0]
        assert set(start["active"]) == active
        dealt_in = {s for s, h in enumerate(start["dealt"]) if h is not None}
        for e in mano:
            if e["type"] == "disqualified":
                assert e["seat"] in active
                active.discard(e["seat"])
                dq.append(e["seat"])
            elif e["type"] == "mano_end":
                assert set(e["losers"]) <= dealt_in
                assert start["sitting_out"] not in e["losers"]
                exp = sorted(s for s in e["losers"] if e["porotos"][s] <= 0 and s in active)
                assert sorted(e["eliminated"]) == exp
                assert not set(e["eliminated"]) & set(dq)
                for s in e["eliminated"]:
                    elim_at[s] = e["mano"]
                active -= set(e["eliminated"])
                if e["outcome"] == "tute":
                    tute_end = (
                        e["mano"],
                        next(x["seat"] for x in mano if x["type"] == "sang" and x["canto"] == "tute"),
                    )
    end = ev[-1]
    assert end["type"] == "partido_end"
    if tute_end and "tute-wins-partido" in ruleset.variants:
        k, singer = tute_end
        assert end["winners"] == [singer]
        for s in active - {singer}:  # the singer's survivors go out with the tute
            elim_at[s] = k
        active = {singer}
    assert len(active) < 3
    assert sorted(end["winners"]) == sorted(active) == p.active_seats()
    ranking = end["ranking"]
    flat = [s for g in ranking for s in g]
    assert sorted(flat) == list(range(n)) and all(ranking), "ranking is a partition of the seats"
    if end["winners"]:
        assert sorted(ranking[0]) == sorted(end["winners"])
    if dq:
        assert ranking[-len(dq) :] == [[s] for s in reversed(dq)]
    place = {s: i for i, g in enumerate(ranking) for s in g}
    for s, k in elim_at.items():
        for t, j in elim_at.items():
            if k > j:
                assert place[s] < place[t]
            elif k == j:
                assert place[s] == place[t]
        assert all(place[s] > place[w] for w in end["winners"])
        assert all(place[s] < place[x] for x in dq)
    # After the decision nothing changes the result.
    before = list(ev)
    for s in range(n):
        assert p.fault(s, "crash", "after the end") is False
    assert p.events == before


# ----------------------------------------------------------------- 8. views


@PROPS
@given(TABLES, SEEDS, RULESETS, drivers())
def test_views_never_reveal_other_hands(n, seed, ruleset, d):
    p = played_partido(n, seed, ruleset, d)
    for e in p.events:
        for seat in range(n):
            v = replies.view(e, seat)
            assert v["type"] == e["type"]
            assert not {"dealt", "leftover", "hands", "seed"} & set(v)
            if e["type"] == "disqualified":  # protocol.md: seat, reason, detail, and the card / canto
                shown = {k: e[k] for k in ("type", "seat", "reason", "detail", "card", "canto") if k in e}
                assert v == shown
            if e["type"] == "penalized":  # protocol.md: seat, reason, detail — nothing of the hand
                assert v == {k: e[k] for k in ("type", "seat", "reason", "detail")}
            if e["type"] != "mano_start":
                continue
            assert v["hand"] == e["hands"][seat]
            own = set(v["hand"] or ())
            first = e["mano"] == 1
            public = {e["shown"], e["out_of_play"]} - {None}
            for sw in v["swaps"]:
                public.add(sw["gave"])
                if sw["took"] is not None:
                    public.add(sw["took"])
                    assert not first or sw["seat"] == seat, "the first-mano swap is face down"
            others = {c for s, h in enumerate(e["hands"]) if s != seat and h for c in h}
            visible = {c for c in ALL_NAMES if f'"{c}"' in json.dumps({**v, "hand": None})}
            assert visible <= own | public
            assert not (visible & others) - public
            if first and e["leftover"] is not None and e["leftover"] not in own | {e["out_of_play"]}:
                assert e["leftover"] not in visible


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_drivers_cover_every_outcome_kind(n):
    """A smoke check that the random driver does reach faults, penalties and cantos."""
    kinds: set[str] = set()
    for seed in range(12):
        rs = RuleSet(
            variants=frozenset({"tute-wins-partido"} if seed % 3 == 0 else ()),
            renuncio="penalize" if seed % 2 else "disqualify",
        )
        p = played_partido(n, seed, rs, Driver(seed, sing="always", p_fault=0.01, p_illegal=0.01))
        kinds |= {e["outcome"] for e in p.events if e["type"] == "mano_end"}
        kinds |= {e["type"] for e in p.events}
    assert {"points", "void", "penalty", "sang", "disqualified", "penalized"} <= kinds


@settings(max_examples=40, deadline=None)
@given(TABLES, SEEDS, RULESETS, SEEDS)
def test_mano_clone_is_independent(n, seed, ruleset, driver_seed):
    """Simulating players play out clones of the mano; the real one must not move."""
    p = Partido(n, seed, ruleset)
    rng = random.Random(driver_seed)
    while not p.over:
        m = p.mano
        assert m is not None
        if p.reviews:  # the accuse policy's review: nobody accuses
            p.play(None)
            continue
        if rng.random() < 0.1:
            snapshot = {k: getattr(m, k) for k in m.__slots__}
            snapshot = {k: v[:] if isinstance(v, list) else v for k, v in snapshot.items()}
            sim = m.clone()
            while not sim.over:
                for canto in sim.cantos()[:1]:
                    sim.sing(canto)
                if not sim.over:
                    sim.play(rng.choice(cards.cards_of(sim.legal())))
            assert sum(sim.bazas) == sim.nbazas or sim.tute_seat >= 0
            assert {k: getattr(m, k) for k in m.__slots__} == snapshot
        p.play(rng.choice(cards.cards_of(m.legal())))
