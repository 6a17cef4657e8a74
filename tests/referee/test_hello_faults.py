"""Hello faults are verdicts before the first deal (issue 13, point 3).

Every player's ``hello`` is judged before mano 1 is dealt. Each failing seat gets
its own ``disqualified`` line, right after ``partido_start``, ranks last (the
disqualified among themselves: a later line higher) and never wins, whatever
happened to the others. Mano 1 is dealt among the others under the first-mano
rules for their number (``shared/spec/rules.md``); with fewer than three left the
partido ends at once, after 0 manos, those left (maybe none) its winners.

Every seat combination of 3–6 players is played in-process (a connection whose
hello failed, as :class:`~arena.referee.connection.InProcessConnection` and
:class:`~arena.referee.connection.SubprocessConnection` leave it); the engine is driven
with random faults and illegal moves over Hypothesis-drawn tables; real bot
processes check the wiring, and a small torneo checks that the same bot gets the
same fault line with 1 and 2 workers.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections.abc import Collection
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import rules
from arena.engine import Partido
from arena.i18n import _
from arena.referee.connection import HELLO_CRASH, InProcessConnection, PlayerFault
from arena.referee.replay import read_replay
from arena.referee.table import PartidoResult, Referee
from arena.rules import RuleSet
from arena.sdk import Player, PlayRequest
from arena.tournament.store import Store
from tests.games.cabrero.test_properties import RULESETS, SEEDS, Driver, _recheck_mano, drive, manos_of
from tests.referee.test_referee import audit, folder, play
from tests.torneos import execute

Event = dict[str, Any]

REASONS = ("crash", "timeout", "protocol")
"""The faults a hello can end in; a failing seat ``s`` gets ``REASONS[s % 3]``."""
TIMEOUT = PlayerFault("timeout", "no reply within 30000 ms of wall-clock time", elapsed_ms=30_001, cpu_ms=2.5)
PROTOCOL = PlayerFault("protocol", "a reply must be a JSON object", line="[1, 2]")


class FirstLegal(Player):
    """Plays its first legal card: cheap, deterministic."""

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]


class RandomLegal(Player):
    """Plays a random legal card (seeded), so that partidos differ from seat to seat."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def play(self, request: PlayRequest) -> str:
        return self.rng.choice(request.legal())


class BrokenHello(FirstLegal):
    """Raises when greeted: the in-process connection keeps a ``crash`` in ``failed``."""

    def setup(self, name: str, limits: dict[str, int]) -> None:
        raise RuntimeError("broken at hello")


def connection(seat: int, fails: bool, seed: int) -> InProcessConnection:
    if not fails:
        return InProcessConnection(RandomLegal(seed * 7 + seat), f"p{seat}")
    reason = REASONS[seat % 3]
    conn = InProcessConnection(BrokenHello(), f"p{seat}")
    assert conn.failed is not None and conn.failed.reason == "crash"
    if reason != "crash":
        conn.failed = TIMEOUT if reason == "timeout" else PROTOCOL
    return conn


def referee_partido(n: int, failing: Collection[int], seed: int) -> tuple[list[Event], PartidoResult]:
    conns = [connection(s, s in failing, seed) for s in range(n)]
    events: list[Event] = []
    result = Referee(conns, [c.name for c in conns], seed, sinks=[events.append]).run()
    return events, result


# ---------------------------------------------------------------- oracles from the spec text


def left_of(seat: int, active: list[int]) -> int:
    """The active seat to the left of ``seat`` (the previous one going right)."""
    return active[(active.index(seat) - 1) % len(active)]


def check_first_mano(e: Event, left: list[int]) -> None:
    """Mano 1 dealt among ``left`` under rules.md, "The partido's first mano"."""
    assert (e["type"], e["mano"]) == ("mano_start", 1), e["type"]
    assert e["active"] == left
    assert e["trump"] == "oro" and e["shown"] is None
    a, mano, dealer = len(left), e["mano_seat"], e["dealer"]
    assert mano in left and dealer == left_of(mano, left), "the dealer of record sits to the mano's left"
    dealt = {s for s, h in enumerate(e["hands"]) if h is not None}
    if a == 6:
        assert e["sitting_out"] == dealer and dealt == set(left) - {dealer}, "the six-player dealer sits out"
        assert {len(e["dealt"][s]) for s in dealt} == {8} and e["out_of_play"] is None
        return
    assert e["sitting_out"] is None and dealt == set(left)
    holds = {c: next((s for s in left if c in e["dealt"][s]), None) for c in ("2-oro", "4-oro")}
    if a in (4, 5):
        assert mano == holds["2-oro"] and e["swaps"] == [] and e["out_of_play"] is None
        assert {len(e["dealt"][s]) for s in left} == {40 // a}
        return
    assert {len(e["dealt"][s]) for s in left} == {13} and e["out_of_play"] == "2-oro"
    if e["leftover"] == "2-oro":  # nobody holds it: the holder of 4-oro is mano, nothing is exchanged
        assert mano == holds["4-oro"] and e["swaps"] == []
    else:  # the holder of 2-oro takes the leftover face down and puts 2-oro out of play
        assert mano == holds["2-oro"]
        assert e["swaps"] == [{"seat": mano, "gave": "2-oro", "took": e["leftover"]}]


def check_hello_verdicts(n: int, failing: Collection[int], events: list[Event]) -> list[int]:
    """The replay of a partido whose ``failing`` seats failed hello; returns the seats left."""
    failing = sorted(failing)
    left = [s for s in range(n) if s not in failing]
    k = len(failing)
    assert events[0]["type"] == "partido_start"
    lines = events[1 : 1 + k]
    assert [(e["type"], e["seat"]) for e in lines] == [("disqualified", s) for s in failing]
    for e in lines:
        assert e["reason"] == REASONS[e["seat"] % 3] and e["detail"]
    dq = [e["seat"] for e in events if e["type"] == "disqualified"]
    assert all(dq.count(s) == 1 for s in failing), "each failing seat is disqualified once"
    end = events[-1]
    assert end["type"] == "partido_end"
    assert not set(end["winners"]) & set(failing), "a seat that failed hello never wins"
    places = [s for g in end["ranking"] for s in g]
    assert sorted(places) == list(range(n)) and places[n - k :] == failing[::-1], "they rank last"
    if len(left) < rules.MIN_PLAYERS:
        assert events[1 + k :] == [end], "no mano is dealt"
        assert end["manos"] == 0 and end["winners"] == left
        assert end["ranking"] == ([left] if left else []) + [[s] for s in reversed(failing)]
    else:
        check_first_mano(events[1 + k], left)
        assert end["manos"] >= 1 and len(end["winners"]) < rules.MIN_PLAYERS
    return left


SUBSETS = [
    (n, failing) for n in range(3, 7) for k in range(n + 1) for failing in itertools.combinations(range(n), k)
]


# ---------------------------------------------------------------- every seat combination, through the referee


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_hello_faults_in_every_seat_combination(n: int) -> None:
    """Every subset of seats failing hello, at every table size: 2^n partidos played to the end."""
    for failing in (f for m, f in SUBSETS if m == n):
        seed = 1000 * n + sum(1 << s for s in failing)
        events, result = referee_partido(n, failing, seed)
        where = f"n={n}, failing={failing}, seed={seed}"
        try:
            left = check_hello_verdicts(n, failing, events)
            audit(events)
        except AssertionError as exc:
            raise AssertionError(f"{where}: {exc}") from exc
        assert result.winners == events[-1]["winners"] and result.ranking == events[-1]["ranking"], where
        assert result.manos == events[-1]["manos"], where
        hello = [(f.mano, f.seat, f.reason, f.penalized) for f in result.faults if f.mano == 0]
        assert hello == [(0, s, REASONS[s % 3], False) for s in failing], where
        if len(left) < rules.MIN_PLAYERS:
            assert result.manos == 0 and result.winners == left, where


def test_three_players_two_fail_hello_the_third_wins_with_no_mano() -> None:
    for failing in itertools.combinations(range(3), 2):
        events, result = referee_partido(3, failing, 5)
        (winner,) = set(range(3)) - set(failing)
        assert [e["type"] for e in events] == ["partido_start", "disqualified", "disqualified", "partido_end"]
        assert (result.winners, result.manos) == ([winner], 0)
        assert result.ranking == [[winner], [failing[1]], [failing[0]]]


def test_every_player_failing_hello_leaves_no_winner() -> None:
    events, result = referee_partido(4, range(4), 9)
    assert events[-1] == {"type": "partido_end", "winners": [], "ranking": [[3], [2], [1], [0]], "manos": 0}
    assert result.winners == [] and result.manos == 0


def test_players_see_the_hello_verdicts_before_the_deal() -> None:
    """The others get partido_start, then the disqualified line, then mano 1 without that seat."""

    class Watcher(FirstLegal):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[Event] = []

        def on_partido_start(self, event: Event) -> None:
            self.seen.append(event)

        def on_disqualified(self, event: Event) -> None:
            self.seen.append(event)

        def on_mano_start(self, event: Event) -> None:
            self.seen.append(event)

    watchers = [Watcher() for _ in range(4)]
    conns = [InProcessConnection(w, f"w{i}") for i, w in enumerate(watchers)]
    conns[1].failed = TIMEOUT
    Referee(conns, [c.name for c in conns], 3).run()
    first = watchers[0].seen[:3]
    assert [e["type"] for e in first] == ["partido_start", "disqualified", "mano_start"]
    assert first[1]["seat"] == 1 and "elapsed_ms" not in first[1], "evidence stays in the replay"
    assert first[2]["active"] == [0, 2, 3] and first[2]["mano"] == 1
    assert watchers[1].seen == [], "a seat that failed hello gets no partido"


# ---------------------------------------------------------------- the engine API


def test_partido_deals_at_once_by_default_and_on_start_when_deferred() -> None:
    assert Partido(4, 11).events[0]["type"] == "mano_start"
    p = Partido(4, 11, deal=False)
    assert (p.events, p.mano, p.to_move, p.started, p.over) == ([], None, None, False, False)
    p.start()
    assert p.events == Partido(4, 11).events, "no fault before the deal: the same partido"
    with pytest.raises(rules.RulesError):
        p.start()


def test_faults_before_the_deal_are_each_judged_even_when_too_few_are_left() -> None:
    p = Partido(3, 11, RuleSet(renuncio="penalize"), deal=False)
    assert p.fault(0, "timeout", "late", elapsed_ms=1)
    assert p.fault(2, "renuncio", "before any card", card="1-oro"), "no mano: every fault disqualifies"
    assert not p.over and not p.fault(0, "crash", "again"), "a disqualified seat is judged once"
    p.start()
    assert p.over and p.winners == [1] and p.ranking() == [[1], [2], [0]] and p.mano_number == 0
    assert [e["type"] for e in p.events] == ["disqualified", "disqualified", "partido_end"]
    assert not p.fault(1, "crash", "after the end")


@pytest.mark.fast_examples(25)
@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(3, 6),
    mask=st.integers(0, 63),
    seed=SEEDS,
    ruleset=RULESETS,
    driver_seed=SEEDS,
    p_fault=st.sampled_from([0.0, 0.002, 0.01]),
    p_illegal=st.sampled_from([0.0, 0.002, 0.01]),
)
def test_hypothesis_absent_seats_then_any_partido(
    n: int, mask: int, seed: int, ruleset: RuleSet, driver_seed: int, p_fault: float, p_illegal: float
) -> None:
    """Seats disqualified before the deal, then a partido with random faults: still valid, still last."""
    failing = [s for s in range(n) if mask >> s & 1]
    p = Partido(n, seed, ruleset, deal=False)
    for s in failing:
        assert p.fault(s, REASONS[s % 3], "at hello", **({"exit": 1} if s % 3 == 0 else {}))
    p.start()
    if not p.over:
        drive(p, Driver(driver_seed, sing="random", p_fault=p_fault, p_illegal=p_illegal))
    events = [{"type": "partido_start"}, *p.events]
    left = check_hello_verdicts(n, failing, events)
    for mano in manos_of(p.events):
        _recheck_mano(mano, ruleset, n)
        assert not set(mano[0]["active"]) & set(failing)
    dq = [e["seat"] for e in p.events if e["type"] == "disqualified"]
    assert p.ranking()[-len(dq) :] == [[s] for s in reversed(dq)] or not dq, "a later one ranks higher"
    assert set(p.winners) <= set(left)


# ---------------------------------------------------------------- real bot processes


@pytest.mark.usefixtures("run_token")
def test_bots_failing_hello_at_a_three_player_table(tmp_path: Path) -> None:
    """A bot that exits at hello and one that exits before reading it: the third wins, 0 manos."""
    game = play(tmp_path, ["hello_exit", "a_mas", "hello_exit_raw"])
    faults = audit(game.events)
    assert [(f["seat"], f["reason"], f["exit"]) for f in faults] == [(0, "crash", 3), (2, "crash", 3)]
    assert [e["type"] for e in game.events] == [
        "partido_start",
        "disqualified",
        "disqualified",
        "partido_end",
    ]
    assert faults[0]["detail"] == faults[1]["detail"], "one wording, however the crash was seen"
    assert (game.result.winners, game.result.ranking, game.result.manos) == ([1], [[1], [2], [0]], 0)
    assert set(game.incidents) == {0, 2}


@pytest.mark.usefixtures("run_token")
def test_a_bot_failing_hello_leaves_mano_one_to_the_others(tmp_path: Path) -> None:
    game = play(tmp_path, ["a_mas", "a_menos", "hello_exit", "random_legal", "hostile_reply_hello_deep"])
    faults = audit(game.events)
    assert [(f["seat"], f["reason"]) for f in faults][:2] == [(2, "crash"), (4, "protocol")]
    check_first_mano(game.events[3], [0, 1, 3])
    assert game.result.ranking[-2:] == [[4], [2]]
    assert not {2, 4} & set(game.result.winners)


HELLO_BOTS = ("hello_exit", "hello_exit_raw", "hostile_reply_hello_deep")
TIMING = ("ms", "cpu_ms", "elapsed_ms")


def hello_lines(out: Path) -> dict[str, list[Event]]:
    """Per partido, the fault lines judged before its first deal, without measured times."""
    found: dict[str, list[Event]] = {}
    with Store.open(out) as store:
        for r in store.results():
            events = read_replay(out / r.replay)
            first = next((i for i, e in enumerate(events) if e["type"] == "mano_start"), len(events))
            found[r.id] = [{k: v for k, v in e.items() if k not in TIMING} for e in events[1:first]]
    return found


@pytest.mark.usefixtures("run_token")
def test_same_bot_same_hello_line_with_one_and_two_workers(tmp_path: Path) -> None:
    from arena.results import report
    from arena.tournament import coordinator as t

    field = tmp_path / "field"
    for name in ("a_mas", *HELLO_BOTS):  # every table of three: two or three fail hello
        shutil.copytree(folder(name), field / name)
    config = t.Config(table_size=3, rounds=1, seed=13, move_ms=3000, init_ms=3000)
    runs = {}
    for workers in (1, 2):
        out = tmp_path / f"torneo-{workers}"
        stats = execute(out, field, config, workers)
        assert stats.total == stats.committed
        runs[workers] = hello_lines(out)
    assert runs[1] == runs[2]
    lines = [e for partido in runs[1].values() for e in partido]
    assert {e["type"] for e in lines} == {"disqualified", "partido_end"}
    assert {e["detail"] for e in lines if e.get("reason") == "crash"} == {_(HELLO_CRASH)}
    with Store.open(tmp_path / "torneo-2") as store:
        names = {e.index: e.name for e in store.entrants()}
        for r in store.results():
            hello = {names[e] for e in r.seats} & set(HELLO_BOTS)
            assert sorted(names[f.entrant] for f in r.faults if f.mano == 0) == sorted(hello)
            assert not {names[e] for e in r.winner_entrants} & hello, "a bot failing hello never wins"
        table = report.build(store).posiciones.set_index("entrant")
    assert all(table.loc[name, "ganados"] == 0 for name in HELLO_BOTS)
