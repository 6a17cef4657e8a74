"""The strongest sample player (``sample_players/maestro``): legal, reproducible, sound inference,
and opponent styles that match the sample heuristics they model."""

from __future__ import annotations

import gc
import importlib.util
import math
import random
from types import ModuleType
from typing import Any

import pytest

from arena import cards
from arena.cards import SUIT_MASK, parse
from arena.games.cabrero import inference
from arena.player.loader import load_player_class
from arena.referee.table import play_partido
from arena.rules import RuleSet, legal_mask
from arena.sdk import Move, Player, PlayRequest, TableView
from tests.helpers import SEARCH_TABLES
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("maestro_player", SAMPLES / "maestro" / "player.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


M = _load()
A_MAS, A_MENOS, RANDOM = (load_player_class(SAMPLES / n) for n in ("a_mas", "a_menos", "random_legal"))
OTHERS = [A_MAS, A_MENOS, RANDOM]


class Strict(M.Maestro):  # type: ignore[name-defined,misc]
    strict = True


# ---------------------------------------------------------------- legal and reproducible


@pytest.mark.parametrize(("n", "ruleset"), SEARCH_TABLES)
def test_it_plays_whole_partidos_without_a_fault(n: int, ruleset: RuleSet) -> None:
    players: list[Player] = [Strict(seed=1, simulations=6), Strict(seed=2, simulations=6)]
    players += [OTHERS[i % 3]() for i in range(n - 2)]
    result = play_partido(players, seed=40 + n, ruleset=ruleset)
    assert result.faults == []
    assert result.reply_ms[0] and result.reply_ms[1]
    assert result.winners


def test_the_registered_class_loads_with_its_default_budget() -> None:
    cls = load_player_class(SAMPLES / "maestro")
    player = cls()
    player.setup("maestro", {"init_ms": 10_000, "move_ms": 1000})
    assert player.budget_ms == 300
    player = cls()
    player.setup("maestro", {"init_ms": 10_000, "move_ms": 200})
    assert player.budget_ms == pytest.approx(60)


def test_same_seed_and_simulations_same_moves() -> None:
    def moves(seed: int) -> list[tuple[int, str]]:
        events: list[dict[str, Any]] = []
        players = [Strict(seed=seed, simulations=5), A_MAS(), Strict(seed=seed + 1, simulations=5), RANDOM()]
        play_partido(players, seed=3, sinks=[events.append])
        return [(e["seat"], e["card"]) for e in events if e["type"] == "played"]

    assert moves(9) == moves(9)
    assert moves(9) != moves(10)  # the seed is what decides


def test_it_sings_tute_at_once() -> None:
    view = TableView()
    view.update({"type": "partido_start", "seat": 0, "players": list("abcd"), "rules": RuleSet().to_dict()})
    hand = ["12-oro", "12-copa", "12-espada", "12-basto", "2-oro"]
    view.update(
        {
            "type": "mano_start",
            "mano": 3,
            "dealer": 3,
            "mano_seat": 0,
            "sitting_out": None,
            "active": [0, 1, 2, 3],
            "porotos": [4, 4, 4, 4],
            "trump": "oro",
            "shown": None,
            "out_of_play": None,
            "swaps": [],
            "hand": hand,
        }
    )
    player = Strict(simulations=3)
    player.view = view
    try:
        assert player.play(PlayRequest(3, 2, tuple(hand), (), True, view)) == Move(sing="tute")
        assert not gc.isenabled() and player.gc_paused  # no card is played: paused till the mano ends
        player.on_mano_end({"type": "mano_end", "outcome": "tute"})
        assert gc.isenabled() and not player.gc_paused
    finally:
        gc.enable()


# ---------------------------------------------------------------- the styles are the samples'


def _request(rng: random.Random, seat: int, trump: str) -> tuple[PlayRequest, int, int, int]:
    """A random position: a hand for ``seat`` and a baza in progress before it."""
    deck = list(range(40))
    rng.shuffle(deck)
    hand = cards.mask(deck[:6])
    table = [(s, deck[6 + s]) for s in range(seat)]
    t = cards.SUITS.index(trump)
    lead = winning = -1
    for _s, c in table:
        if lead < 0:
            lead, winning = c // 10, c
        elif M.beats(c, winning, t):
            winning = c
    view = TableView()
    start = {"type": "partido_start", "seat": seat, "players": list("abcd"), "rules": RuleSet().to_dict()}
    view.update(start)
    view.update(
        {
            "type": "mano_start",
            "mano": 2,
            "dealer": 3,
            "mano_seat": 0,
            "sitting_out": None,
            "active": [0, 1, 2, 3],
            "porotos": [4, 4, 4, 4],
            "trump": trump,
            "shown": None,
            "out_of_play": None,
            "swaps": [],
            "hand": cards.names_of(hand),
        }
    )
    for s, c in table:
        view.update({"type": "played", "seat": s, "card": cards.NAMES[c]})
    names = tuple((s, cards.NAMES[c]) for s, c in table)
    request = PlayRequest(2, 1, tuple(cards.names_of(hand)), names, False, view)
    return request, legal_mask(hand, lead, winning, t), lead, winning


STRANGER_BOTS = ROOT / "benchmarks" / "experiments" / "strength_bots"  # opponents maestro never saw
ALTO, BAJO = (load_player_class(STRANGER_BOTS / n) for n in ("alto", "bajo"))


@pytest.mark.parametrize(
    ("style", "cls"), [(M.A_MAS, A_MAS), (M.A_MENOS, A_MENOS), (M.ALTO, ALTO), (M.BAJO, BAJO)]
)
def test_a_style_plays_the_card_its_sample_player_plays(style: int, cls: Any) -> None:
    rng = random.Random(style)
    for i in range(300):
        seat, trump = i % 4, cards.SUITS[i % 3]
        request, legal, lead, winning = _request(rng, seat, trump)
        player = cls()
        player.view = request.view
        move = player.play(request)
        assert M.style_card(style, legal, lead, winning, cards.SUITS.index(trump)) == parse(move.card)


def test_the_beliefs_recognise_each_sample_player() -> None:
    spy = Strict(seed=3, simulations=4)
    result = play_partido([spy, A_MAS(), A_MENOS(), RANDOM()], seed=8)
    assert result.faults == [] and result.manos >= 2
    styles = {s: spy.profile(s) for s in spy.belief}
    assert styles == {1: M.PURE[M.A_MAS], 2: M.PURE[M.A_MENOS], 3: M.PURE[M.AZAR]}


class LeadsHighDucksLow(Player):
    """A bot of no single style: it leads (and sings) like a_mas and follows like a_menos."""

    def __init__(self) -> None:
        super().__init__()
        self.high, self.low = A_MAS(), A_MENOS()

    def play(self, request: PlayRequest) -> Move:
        bot = self.low if request.table else self.high
        bot.view = self.view
        return bot.play(request)  # type: ignore[no-any-return]


def test_the_beliefs_recognise_a_player_that_mixes_styles_by_situation() -> None:
    spy = Strict(seed=3, simulations=4)
    result = play_partido([spy, LeadsHighDucksLow(), A_MENOS(), RANDOM()], seed=8)
    assert result.faults == [] and result.manos >= 2
    rows, profile = spy.beliefs(1), spy.profile(1)
    assert profile[M.LEAD] == M.A_MAS
    # it ducks as a_menos does; where alto would have played the same cards the two tie
    assert rows[M.DUCK][profile[M.DUCK]] == pytest.approx(rows[M.DUCK][M.A_MENOS])
    assert rows[M.DUCK][M.A_MENOS] == pytest.approx(max(rows[M.DUCK]))
    assert rows[M.DUCK][M.A_MENOS] > rows[M.DUCK][M.A_MAS] + 10
    assert spy.profile(2) == M.PURE[M.A_MENOS]  # the pure ones are still seen as pure


def test_a_deal_against_a_style_is_unlikely() -> None:
    """Seat 0 led the 4 of copa: deals where it held a weaker plain card weigh less for a_menos."""
    events, later = M.history((0, 1, 2, 3), [(0, "4-copa")], {}, 0, me=1)
    fits = {0: cards.parse_mask(["5-copa", "5-espada", "6-basto"])}  # the 4-copa was its weakest
    misfits = {0: cards.parse_mask(["2-espada", "5-espada", "6-basto"])}  # a_menos leads the 2-espada
    good, bad = (M.style_loglik(events, later, h, 0)[0][M.LEAD] for h in (fits, misfits))
    assert good[M.A_MENOS] > bad[M.A_MENOS]
    assert good[M.AZAR] == bad[M.AZAR] == -math.log(4)


# ---------------------------------------------------------------- the rules' certainties


class Truth:
    """A replay sink that keeps the true hands (it sees every card)."""

    def __init__(self) -> None:
        self.hands: list[int] = []

    def __call__(self, event: dict[str, Any]) -> None:
        if event["type"] == "mano_start":
            self.hands = [cards.parse_mask(h) if h else 0 for h in event["hands"]]
        elif event["type"] == "played":
            self.hands[event["seat"]] &= ~(1 << parse(event["card"]))


def _voids(view: TableView) -> dict[int, int]:
    """By seat, the suits (as card masks) it showed it has none of: it did not follow them."""
    out: dict[int, int] = {}
    k = len(view.order)
    lead = -1
    for i, (seat, name) in enumerate(view.played):
        c = parse(name)
        if i % k == 0:
            lead = c // 10
        elif c // 10 != lead:
            out[seat] = out.get(seat, 0) | SUIT_MASK[lead]
    return out


class Audited(Strict):
    """Checks at every search that its knowledge is true and no deal it rolls out gives a card of
    a suit to a player who showed it has none."""

    truth: Truth
    keep_pool = True
    searched = 0
    voids_seen = 0

    def search(self, request: PlayRequest, candidates: list[Any], start: float) -> Any:
        know = inference.infer(self.view, request.hand)
        for s, count in know.counts.items():
            assert count == self.truth.hands[s].bit_count()
            assert not know.forbidden[s] & self.truth.hands[s]
        choice = super().search(request, candidates, start)
        voids = _voids(self.view)
        self.voids_seen += bool(voids)
        for hands, _weight, _post in self.last_stats["pool"]:
            for s, h in hands.items():
                assert not h & voids.get(s, 0), (s, cards.names_of(h & voids[s]))
                assert not h & know.forbidden[s]
                assert h.bit_count() == know.counts[s]
        self.searched += 1
        return choice


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_it_never_deals_a_card_of_a_suit_to_a_player_void_in_it(n: int) -> None:
    truth = Truth()
    audited = Audited(seed=5, simulations=4)
    audited.truth = truth
    players: list[Player] = [audited] + [OTHERS[i % 3]() for i in range(n - 1)]
    result = play_partido(players, seed=60 + n, sinks=[truth])
    assert result.faults == []
    assert audited.searched > 10
    assert audited.voids_seen > 0


# ---------------------------------------------------------------- the inline rollout


def _step_loop(m: Any, rng: random.Random, styles: list[Any], stop: int = -1) -> None:
    while not m.over and m.turn != stop:
        M.step(m, styles[m.turn], rng)


@pytest.mark.parametrize("stopping", [False, True])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_inline_rollout_plays_as_the_style_steps(n: int, stopping: bool) -> None:
    """``rollout`` keeps the baza in local variables for speed: from positions of real partidos
    (mid-baza, before a canto, near the end), it must end every mano exactly as calling
    ``step`` until the end does, from the same random numbers; with a ``stop`` seat (the
    others' replies in the search), it must leave the mano at that seat's next turn exactly as
    ``step`` does, mid-baza or not."""
    from arena.engine import Partido

    pick = random.Random(n)
    checked = mid_baza = 0
    for seed in range(12):
        p = Partido(n, seed, RuleSet())
        while not p.over:
            m = p.mano
            assert m is not None
            if pick.random() < 0.3:
                styles = [(*(pick.randrange(5) for _ in range(3)), pick.randrange(2)) for _ in range(n)]
                fast, slow = m.clone(), m.clone()
                stop = pick.randrange(n) if stopping else -1
                M.rollout(fast, random.Random(seed), styles, stop)
                _step_loop(slow, random.Random(seed), styles, stop)
                for field in ("hands", "bazas", "card_points", "canto_points", "sang_pair", "table"):
                    assert getattr(fast, field) == getattr(slow, field), field
                for field in ("over", "last_winner", "tute_seat", "sung_suits", "turn", "lead", "may_sing"):
                    assert getattr(fast, field) == getattr(slow, field), field
                assert (fast.winning, fast.winner, fast.baza) == (slow.winning, slow.winner, slow.baza)
                if fast.over:
                    assert fast.losers(RuleSet()) == slow.losers(RuleSet())
                else:
                    assert stopping and fast.turn == stop
                    mid_baza += bool(fast.table)
                checked += 1
            sing = None
            if m.may_sing and m.cantos():
                sing = m.cantos()[0]
                if sing == "tute":
                    p.play(None, sing)
                    continue
            p.play(cards.cards_of(m.legal())[pick.randrange(m.legal().bit_count())], sing)
    assert checked > 50
    assert mid_baza > 10 if stopping else mid_baza == 0


# ---------------------------------------------------------------- equivalent cards


def _ids(*names: str) -> list[int]:
    return [parse(n) for n in names]


def test_cards_of_no_points_with_nothing_unseen_between_are_one_candidate() -> None:
    hand = _ids("2-copa", "4-copa", "6-copa", "7-copa", "10-copa", "1-copa", "2-oro")
    mine = sum(1 << c for c in hand)
    # the 5 is unseen: 2 ~ 4 and 6 ~ 7; the sota and the as score, the 2-oro is another suit
    assert M.distinct(hand, mine) == sorted(_ids("2-copa", "6-copa", "10-copa", "1-copa", "2-oro"))
    # once the 5 is played, every copa of no points plays alike
    five_gone = mine | 1 << parse("5-copa")
    assert M.distinct(hand, five_gone) == sorted(_ids("2-copa", "10-copa", "1-copa", "2-oro"))


def test_cards_that_score_are_never_merged() -> None:
    hand = _ids("10-basto", "11-basto", "12-basto")  # sota, caballo, rey: 2, 3 and 4 points
    assert M.distinct(hand, sum(1 << c for c in hand)) == sorted(hand)


def test_an_equivalent_card_is_no_worse_in_the_search() -> None:
    """The kept card stands for the merged ones: maestro plays one of its legal cards and never
    searches two cards that play alike."""
    player = Strict(seed=3, simulations=6)
    players: list[Player] = [player, A_MAS(), A_MENOS(), RANDOM()]
    searched: list[list[int]] = []
    original = player.search

    def spy(request: PlayRequest, candidates: Any, start: float) -> Any:
        gone = sum(1 << parse(n) for _s, n in player.view.played)
        mine = sum(1 << parse(n) for n in request.hand)
        cards_searched = sorted({c.card for c in candidates})
        assert M.distinct(cards_searched, mine | gone) == cards_searched
        searched.append(cards_searched)
        return original(request, candidates, start)

    player.search = spy  # type: ignore[method-assign]
    result = play_partido(players, seed=11)
    assert result.faults == []
    assert len(searched) > 10


# ---------------------------------------------------------------- dropping clearly worse candidates


def _bits(pattern: str) -> int:
    return sum(1 << k for k, x in enumerate(pattern) if x == "1")


def test_a_candidate_that_loses_clearly_more_on_the_same_deals_is_dropped() -> None:
    best = "0" * 48
    worse = "1" * 20 + "0" * 28  # 20 more losses, all 20 deals discordant: 20 > 2.5 * sqrt(20)
    close = "1" * 6 + "0" * 42  # 6 more: 6 < 2.5 * sqrt(6), could be luck
    outcomes = [_bits(best), _bits(worse), _bits(close)]
    lost = [o.bit_count() for o in outcomes]
    assert M.prune([0, 1, 2], outcomes, lost) == [0, 2]


def test_losing_together_is_not_evidence() -> None:
    """Common random numbers: deals where both candidates lose say nothing about which is better."""
    a = _bits("1" * 30 + "0" * 18)
    b = _bits("1" * 30 + "1" * 4 + "0" * 14)  # 4 more losses: only the 4 discordant deals count
    assert M.prune([0, 1], [a, b], [a.bit_count(), b.bit_count()]) == [0, 1]


def test_pruning_keeps_the_moves_reproducible_and_legal() -> None:
    dropped: list[int] = []

    def moves(prune: bool) -> list[tuple[int, str]]:
        events: list[dict[str, Any]] = []
        player = Strict(seed=4, simulations=20)  # enough for it to prune (42 candidates dropped), not more
        player.prune = prune
        original = player.search

        def search(request: PlayRequest, candidates: Any, start: float) -> Any:
            choice = original(request, candidates, start)
            dropped.append(len(candidates) - len(player.last_stats["active"]))
            assert choice in player.last_stats["active"]
            return choice

        player.search = search  # type: ignore[method-assign]
        result = play_partido([player, A_MAS(), A_MENOS(), RANDOM()], seed=21, sinks=[events.append])
        assert result.faults == []
        return [(e["seat"], e["card"]) for e in events if e["type"] == "played"]

    assert moves(True) == moves(True)
    assert sum(dropped) > 0  # it did drop candidates
    dropped.clear()
    moves(False)
    assert sum(dropped) == 0


# ---------------------------------------------------------------- the tree's nodes


def _after_my_lead(seat1: str) -> Any:
    """Four seats, two cards each, oros trumps: I (seat 0) lead the as de copas and the others
    follow with their only copa (seat 1 with ``seat1``); returns the mano at my turn again."""
    from arena.engine import Mano

    hands = [["1-copa", "2-espada"], [seat1, "4-espada"], ["5-copa", "5-espada"], ["6-copa", "6-espada"]]
    m = Mano(1, 0, (0, 1, 2, 3), [sum(1 << parse(c) for c in h) for h in hands])
    m.play(parse("1-copa"))
    return m


@pytest.mark.parametrize(("other", "shared"), [("2-copa", True), ("3-copa", False), ("7-copa", True)])
def test_the_coarse_key_shares_a_node_between_replies_that_leave_the_same_score_sheet(
    other: str, shared: bool
) -> None:
    """Seat 1 follows the as with the 4 de copas in one deal and with ``other`` in the other: the
    same baza won by me with the same points shares my next node (the 2 and the 7 score
    nothing), the 3 (10 points) does not; keyed by the cards, no two replies share one."""
    style = [M.PURE[M.AZAR]] * 4
    keys = {}
    for coarse in (True, False):
        for card in ("4-copa", other):
            m = _after_my_lead(card)
            keys[coarse, card] = M.others_play(m, 0, style, random.Random(1), coarse)
            assert m.turn == 0 and m.bazas[0] == 1
    assert (keys[True, "4-copa"] == keys[True, other]) is shared
    assert keys[False, "4-copa"] != keys[False, other]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_deal_reaching_a_coarse_node_has_its_moves(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A node's moves are worked out once; with the coarse key, every later visit (another deal,
    other cards fallen) checks that they are still exactly the moves of the deal reaching it."""
    monkeypatch.setattr(M, "CHECK_NODES", True)
    player = Strict(seed=3, simulations=15)  # a few thousand visits checked at every table size
    player.coarse = True
    result = play_partido([player] + [OTHERS[i % 3]() for i in range(n - 1)], seed=7 + n)
    assert result.faults == [] and result.manos >= 1


def test_it_plays_the_opponents_it_was_not_built_against() -> None:
    """benchmarks/experiments/strength_bots: alto and bajo are two of maestro's styles (their strongest and
    weakest card), and it tells them apart; primero, goloso and último, and the hold-out contador,
    sesgado and posicional, fit none of its profiles exactly, and it still plays whole partidos
    against them."""
    bots = STRANGER_BOTS
    spy = Strict(seed=5, simulations=4)
    others = [load_player_class(bots / name)() for name in ("alto", "bajo", "mixto")]
    result = play_partido([spy, *others], seed=9)
    assert result.faults == [] and result.manos >= 2
    assert spy.profile(1) == M.PURE[M.ALTO]
    assert spy.profile(2) == M.PURE[M.BAJO]
    assert spy.profile(3) not in M.PURE  # mixto leads low and follows high
    for field in (("primero", "goloso", "ultimo"), ("contador", "sesgado", "posicional")):
        spy = Strict(seed=5, simulations=4)
        others = [load_player_class(bots / name)() for name in field]
        result = play_partido([spy, *others], seed=9)
        assert result.faults == [] and result.manos >= 2


def test_the_shared_style_cards_and_the_evidence_agree_with_their_definitions() -> None:
    """``style_cards`` (all styles at once, for speed) plays as ``style_card`` does style by style;
    ``evidence`` is the posterior's log-evidence, and a posterior's draws are its profiles."""
    rng = random.Random(7)
    for i in range(400):
        seat, trump = i % 4, cards.SUITS[i % 3]
        _, legal, lead, winning = _request(rng, seat, trump)
        t = cards.SUITS.index(trump)
        assert M.style_cards(legal, lead, winning, t) == tuple(
            M.style_card(style, legal, lead, winning, t) for style in M.DETERMINISTIC
        )
    for _ in range(200):
        rows = [[rng.uniform(-9, 0) for _ in range(5)] for _ in M.PLAYING]
        rows.append([rng.uniform(-3, 0) for _ in range(2)])
        for mixed in (True, False):
            post = M.posterior(rows, mixed)
            assert math.isclose(M.evidence(rows, mixed), post.log_evidence, rel_tol=1e-9, abs_tol=1e-9)
            profile = post.draw(rng.random)
            assert profile in M.PURE or mixed
            assert all(0 <= profile[k] < 5 for k in M.PLAYING) and 0 <= profile[M.SING] < 2


def test_a_deals_weight_from_the_per_seat_cache_is_its_weight_worked_out_whole() -> None:
    """``deals()`` keeps each (seat, hand)'s likelihood once worked out: every deal it draws
    weighs exactly what the likelihood of all the hands at once gives, and late in a mano
    (few hands possible) most seats' hands repeat."""
    repeats = draws = 0

    class Checked(Strict):
        def search(self, request: PlayRequest, candidates: list[Any], start: float) -> Any:
            nonlocal repeats, draws
            view = self.view
            _know, draw = self.deals(request, random.Random(len(view.played)))
            events, later = M.history(view.order, view.played, self.sang_at, view.trump_suit, view.seat)
            seen: set[tuple[int, int]] = set()
            for _ in range(30):
                hands, weight, rows = draw()
                earlier = {s: self.beliefs(s) for s in hands}
                direct = M.style_loglik(events, later, hands, view.trump_suit, self.noise, earlier)
                expected = 0.0
                for s, h in hands.items():
                    total = direct[s]
                    alone = M.style_loglik(events, later, hands, view.trump_suit, self.noise)[s]
                    for row, summed in zip(total, M._add(self.beliefs(s), alone), strict=True):
                        assert row == pytest.approx(summed)  # the same sums, added in another order
                    assert rows[s] == total
                    expected += M.evidence(total, self.mixed) - M.evidence(self.beliefs(s), self.mixed)
                    repeats += (s, h) in seen
                    draws += 1
                    seen.add((s, h))
                assert weight == expected
            return super().search(request, candidates, start)

    result = play_partido([Checked(seed=3, simulations=4), A_MAS(), A_MENOS(), RANDOM()], seed=12)
    assert result.faults == [] and draws > 0
    assert repeats > draws // 10


# ---------------------------------------------------------------- the garbage collector paused


def test_the_collector_is_paused_while_searching_and_runs_again_once_the_move_is_played() -> None:
    seen: list[tuple[bool, bool]] = []  # (collecting during a search, collecting at the next event)

    class Watched(Strict):
        def search(self, request: PlayRequest, candidates: list[Any], start: float) -> Any:
            seen.append((gc.isenabled(), False))
            return super().search(request, candidates, start)

        def on_played(self, event: dict[str, Any]) -> None:
            super().on_played(event)
            if event["seat"] == self.view.seat and seen and not seen[-1][1]:
                seen[-1] = (seen[-1][0], gc.isenabled())

    assert gc.isenabled()
    result = play_partido([Watched(seed=1, simulations=4), A_MAS(), A_MENOS(), RANDOM()], seed=7)
    assert result.faults == []
    assert len(seen) > 10
    assert seen == [(False, True)] * len(seen)  # paused for every search, running once it was played
    assert gc.isenabled()  # and after the partido



def test_the_collector_is_left_alone_when_told_and_resumed_when_a_search_fails() -> None:
    during: list[bool] = []

    class Unpaused(Strict):
        pause_gc = False

        def search(self, request: PlayRequest, candidates: list[Any], start: float) -> Any:
            during.append(gc.isenabled())
            return super().search(request, candidates, start)

    after_failure: list[bool] = []
    failed_paused: list[bool] = []

    class Failing(M.Maestro):  # type: ignore[name-defined,misc]
        def search(self, request: PlayRequest, candidates: list[Any], start: float) -> Any:
            failed_paused.append(not gc.isenabled())
            raise RuntimeError("a bug in the search")

        def play(self, request: PlayRequest) -> Move:
            failures = len(failed_paused)
            move = super().play(request)
            if len(failed_paused) > failures:  # its search failed: resumed at once, before the move
                after_failure.append(gc.isenabled())
            return move

    result = play_partido([Unpaused(seed=1, simulations=4), A_MAS(), A_MENOS()], seed=8)
    assert result.faults == [] and during and all(during)
    result = play_partido([Failing(seed=1, simulations=4), A_MAS(), A_MENOS(), RANDOM()], seed=9)
    assert result.faults == []  # its fallback moves are legal
    assert failed_paused and all(failed_paused)
    assert len(after_failure) == len(failed_paused) and all(after_failure)
