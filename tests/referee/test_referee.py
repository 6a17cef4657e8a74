"""The subprocess referee against misbehaving player programs (``tests/bots/``).

Every test plays real partidos with player processes and checks, from the
replay alone, that each fault is recorded with its evidence and provable, that
the partido still ends, that the offender ranks last, that an incident file is
written, and that no player process (nor anything it started) is left behind.

Processes are told apart by their environment: the referee gives every player
``ARENA_PLAYER=1``, and an autouse fixture adds a token unique to the test, so
the leak checks never see another run's processes.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from arena import cards, rules
from arena.containment import process, sandbox
from arena.referee.connection import Limits
from arena.referee.players import PlayerLoadError, find_player
from arena.referee.replay import read_replay
from arena.referee.table import PartidoResult, play_folders
from arena.rules import RuleSet
from tests.paths import BOTS, ROOT
from tests.procs import (
    PidCollector,
    alive,
    in_namespaces,
    kill_and_reap,
    leftover_players,
    player_processes,
    read,
)
from tests.torneos import evidence as incidents

pytestmark = pytest.mark.usefixtures("run_token")  # no player process may outlive a test

SAMPLES = ROOT / "sample_players"
GOOD = ("random_legal", "a_mas", "a_menos")
SEED = 7
FAST = Limits(init_ms=3000, move_ms=300)
"""For the tests that wait out a deadline."""
SLEEPY = Limits(init_ms=3000, move_ms=300, idle_ms=60_000)
"""FAST with idle time unbounded: the wall-clock backstop ends a sleeper (idle:
tests/containment/test_idle.py)."""
LIMITS = Limits(init_ms=3000, move_ms=1000)
"""For the others: no fault here waits for move_ms, and good players never come near it."""

Event = dict[str, Any]


# ---------------------------------------------------------------- processes


class Clock:
    """A sink stamping each recorded event with the monotonic time."""

    def __init__(self) -> None:
        self.stamps: list[tuple[float, Event]] = []

    def __call__(self, event: Event) -> None:
        self.stamps.append((time.monotonic(), event))


# ---------------------------------------------------------------- partidos


REPLY_BOTS = Path(tempfile.mkdtemp(prefix="tute-reply-bots-"))
"""Copies of ``tests/bots/hostile_reply``, one per attack: the folder's name chooses the attack."""
atexit.register(shutil.rmtree, REPLY_BOTS, True)


def folder(name: str) -> Path:
    if name.startswith("hostile_reply_"):
        copy = REPLY_BOTS / name
        if not copy.is_dir():
            shutil.copytree(BOTS / "hostile_reply", copy)
        return copy
    return SAMPLES / name if (SAMPLES / name).is_dir() else BOTS / name


@dataclass
class Game:
    names: list[str]
    result: PartidoResult
    incidents: dict[int, Path]
    replay: Path
    events: list[Event]
    pids: set[int]
    seconds: float
    stamps: list[tuple[float, Event]] = field(default_factory=list)
    namespaces: set[str] = field(default_factory=set)
    """The pid namespaces of sandboxed players (bwrap): every process in them must be gone."""

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def faults(self, seat: int) -> list[Event]:
        return [e for e in self.events if e["type"] in ("disqualified", "penalized") and e["seat"] == seat]

    def stderr_log(self, name: str) -> str:
        return Path(f"{self.replay}.logs/{name}.stderr.log").read_text(encoding="utf-8", errors="replace")


def play(
    tmp_path: Path,
    names: Sequence[str],
    limits: Limits = LIMITS,
    ruleset: RuleSet | None = None,
    seed: int = SEED,
) -> Game:
    """Play one partido between the named folders (bots or sample players); check nothing is left."""
    specs = [find_player(folder(n)) for n in names]
    replay = tmp_path / "p.jsonl"
    pids, clock = PidCollector(), Clock()
    start = time.monotonic()
    result, incidents = play_folders(
        specs, seed, ruleset=ruleset, limits=limits, replay=replay, sinks=[pids, clock]
    )
    seconds = time.monotonic() - start
    assert pids.pids, "no player process was seen during the partido"
    assert not leftover_players(), "player processes left behind after the partido"
    assert not [p for p in pids.pids if alive(p)]
    assert not in_namespaces(pids.namespaces), "processes left in a player's pid namespace"
    pids.close()
    game = Game(list(names), result, incidents, replay, read_replay(replay), pids.pids, seconds, clock.stamps)
    game.namespaces = pids.namespaces - {os.readlink("/proc/self/ns/pid")}
    return game


# ---------------------------------------------------------------- the replay alone proves every fault


def _legal(hand: int, table: list[tuple[int, int]], trump: int) -> int:
    if not table:
        return hand
    winning = table[0][1]
    for _, c in table[1:]:
        if rules.beats(c, winning, trump):
            winning = c
    return rules.legal_mask(hand, table[0][1] // 10, winning, trump)


@dataclass
class ManoState:
    """What the replay says about the mano in progress: hands, trump, the baza, cantos sung."""

    hands: dict[int, int]
    trump: int
    table: list[tuple[int, int]] = field(default_factory=list)
    sung: int = 0
    last_winner: int | None = None
    scored: bool = False

    def may_sing(self, seat: int) -> bool:
        return not self.table and self.last_winner == seat


def prove(fault: Event, m: ManoState, limits: dict[str, int]) -> None:
    """Check that the evidence on a ``disqualified`` / ``penalized`` line proves its fault."""
    seat, reason = fault["seat"], fault["reason"]
    assert isinstance(fault["detail"], str) and fault["detail"]
    if reason == "renuncio":
        c = cards.parse(fault["card"])
        hand = m.hands[seat]
        assert hand >> c & 1, "a renuncio is a card the player holds"
        legal = _legal(hand, m.table, m.trump)
        assert not legal >> c & 1, f"{fault['card']} was legal"
        assert legal & ~(1 << c), "the player had a legal alternative"
    elif reason == "not_in_hand":
        card = fault["card"]
        assert card not in cards.NAMES or not m.hands.get(seat, 0) >> cards.parse(card) & 1
    elif reason == "false_canto":
        canto = fault["canto"]
        assert m.may_sing(seat), "a false canto is judged only when the player may sing"
        assert not rules.is_valid_canto(canto, m.hands[seat], m.trump, m.sung)
    elif reason == "timeout":
        assert fault["elapsed_ms"] >= limits["move_ms"]
    elif reason == "protocol":
        assert isinstance(fault["line"], str) and len(fault["line"]) <= 200
    elif reason == "crash":
        assert "exit" in fault
    else:
        raise AssertionError(f"unknown fault reason {reason!r}")


def prove_hello(fault: Event, limits: dict[str, int]) -> None:
    """Check the evidence of a fault judged at ``hello``, before the first deal."""
    reason = fault["reason"]
    assert isinstance(fault["detail"], str) and fault["detail"]
    if reason == "timeout":
        cpu = fault.get("cpu_ms")
        wall = limits.get("init_wall_ms", limits["init_ms"])
        assert fault["elapsed_ms"] >= wall or (cpu is not None and cpu > limits["init_ms"]), fault
    elif reason == "protocol":
        assert isinstance(fault["line"], str) and len(fault["line"]) <= 200
    else:
        assert reason == "crash" and "exit" in fault, fault


def audit(events: list[Event]) -> list[Event]:
    """Re-check a whole replay from its lines alone; returns its fault lines.

    Every card accepted was held and legal, every canto valid, every baza won by
    the right seat; every fault line proves its fault, and the mano of a fault
    ends at once (void for a disqualified dealt-in player, a penalty otherwise).
    Hello faults come before the first ``mano_start`` (mano 1 is dealt among the
    others) or, with fewer than three left, before a ``partido_end`` after 0 manos.
    """
    assert events[0]["type"] == "partido_start"
    limits = events[0]["limits"]
    m: ManoState | None = None
    out: set[int] = set()
    faults: list[Event] = []
    for i, e in enumerate(events):
        kind = e["type"]
        if kind == "mano_start":
            m = ManoState(
                {s: cards.parse_mask(h) for s, h in enumerate(e["hands"]) if h is not None},
                cards.SUITS.index(e["trump"]),
            )
            assert not set(e["active"]) & out, "a disqualified seat was dealt in again"
            if e["mano"] == 1:  # dealt among every seat whose hello was judged good
                assert e["active"] == sorted(set(range(len(events[0]["players"]))) - out)
        elif kind == "sang":
            assert m is not None and m.may_sing(e["seat"])
            assert rules.is_valid_canto(e["canto"], m.hands[e["seat"]], m.trump, m.sung)
            if e["canto"] != rules.TUTE:
                m.sung |= 1 << rules.canto_suit(e["canto"], m.trump)
        elif kind == "played":
            assert m is not None
            seat, c = e["seat"], cards.parse(e["card"])
            assert seat not in out
            assert m.hands[seat] >> c & 1, f"seat {seat} played {e['card']} it did not hold"
            assert _legal(m.hands[seat], m.table, m.trump) >> c & 1, f"{e['card']} was accepted but illegal"
            m.hands[seat] &= ~(1 << c)
            m.table.append((seat, c))
        elif kind == "trick_end":
            assert m is not None
            assert e["winner"] == rules.baza_winner(m.table, m.trump)
            m.last_winner, m.table = e["winner"], []
        elif kind in ("disqualified", "penalized") and m is None:  # before the first deal: at hello
            assert kind == "disqualified" and e["seat"] not in out
            assert events[i + 1]["type"] in ("disqualified", "mano_start", "partido_end")
            prove_hello(e, limits)
            faults.append(e)
            out.add(e["seat"])
        elif kind in ("disqualified", "penalized"):
            prove(e, m, limits)
            faults.append(e)
            seat = e["seat"]
            after = events[i + 1]
            if kind == "penalized":
                assert after["type"] == "mano_end" and after["outcome"] == "penalty"
                assert after["losers"] == [seat]
            else:
                out.add(seat)
                if seat in m.hands and not m.scored:
                    assert after["type"] == "mano_end" and after["outcome"] == "void"
                    assert after["losers"] == []
        elif kind == "mano_end":
            assert m is not None
            m.scored = True
    end = events[-1]
    assert end["type"] == "partido_end", "the partido did not finish"
    if m is None:  # no mano dealt: fewer than three were left after the hellos, and they win
        left = sorted(set(range(len(events[0]["players"]))) - out)
        assert len(left) < rules.MIN_PLAYERS and end["manos"] == 0 and end["winners"] == left
    disqualified = [e["seat"] for e in faults if e["type"] == "disqualified"]
    if disqualified:
        tail = end["ranking"][-len(disqualified) :]
        assert tail == [[s] for s in reversed(disqualified)], "the disqualified must rank last"
    assert not set(end["winners"]) & set(disqualified)
    return faults


def check_disqualified(game: Game, name: str, reason: str, evidence: str) -> Event:
    """The usual checks on a partido where bot ``name`` is disqualified; returns its line."""
    seat = game.seat(name)
    faults = audit(game.events)
    mine = game.faults(seat)
    assert len(mine) == 1, mine
    line = mine[0]
    assert line["type"] == "disqualified"
    assert line["reason"] == reason, line
    assert evidence in line, f"no {evidence!r} evidence in {line}"
    others = f"only the bot faulted: {faults}\n{incidents(game.replay.parent)}"
    assert [f["seat"] for f in faults] == [seat], others
    assert game.events[-1]["type"] == "partido_end"
    assert game.result.ranking[-1] == [seat]
    assert game.events[-1]["ranking"][-1] == [seat]
    assert seat not in game.result.winners
    assert [f.seat for f in game.result.faults] == [seat]
    incident = game.replay.parent / f"p.incident-{seat}-{name}.txt"
    assert game.incidents == {seat: incident}
    text = incident.read_text(encoding="utf-8")
    assert f"asiento {seat} ({name}): {reason}" in text.splitlines()[0]
    if reason in rules.RULE_FAULTS:  # the request, the reply and the field at fault, not the last lines
        assert "Últimas líneas del protocolo" not in text
        assert text.count('→ {"type":"play"') == 1 and text.count("← {") == 1
        assert "La solicitud:" in text and "La respuesta:" in text and "\n  legal: " in text
        assert "respondió `{" in text
    else:
        assert "Últimas líneas del protocolo" in text
        assert '→ {"type":"play"' in text or '→ {"type":"hello"' in text
    assert "Final de la salida de error:" in text
    assert f"{name} bot:" in text.split("Final de la salida de error:")[1], "the stderr tail is missing"
    return line


def seat_played(game: Game, seat: int, before: Event | None = None) -> list[str]:
    """The cards ``seat`` had accepted (before the event ``before``, if given)."""
    end = game.events.index(before) if before is not None else len(game.events)
    return [e["card"] for e in game.events[:end] if e["type"] == "played" and e["seat"] == seat]


# ---------------------------------------------------------------- one misbehaving bot, three good players

GARBAGE = "this is not JSON {{{"
EXTRA = '{"type":"note","text":"an extra line nobody asked for"}'


def _slow(game: Game, line: Event) -> None:
    """A sleeper uses no CPU: the wall-clock backstop (max(3 × 300, 300 + 2000) ms) ends its move."""
    assert line["elapsed_ms"] >= 2300
    assert line["cpu_ms"] is not None and line["cpu_ms"] < 300
    assert "tiempo de reloj" in line["detail"]


def _slow_hello(game: Game, line: Event) -> None:
    assert line["elapsed_ms"] >= 1000
    # judged before the first deal: right after partido_start; mano 1 is dealt among the others
    assert game.events.index(line) == 1
    assert game.events[2]["type"] == "mano_start" and game.seat("slow_hello") not in game.events[2]["active"]


def _crash(game: Game, line: Event) -> None:
    assert line["exit"] == 3
    assert "3" in line["detail"]


def _garbage(game: Game, line: Event) -> None:
    assert line["line"] == GARBAGE


def _extra_line(game: Game, line: Event) -> None:
    assert line["line"] == EXTRA
    # the first reply was accepted; the extra line is found at the next request
    assert len(seat_played(game, game.seat("extra_line"), before=line)) == 1


def _wrong_id(game: Game, line: Event) -> None:
    reply = json.loads(line["line"])
    assert reply["type"] == "play" and reply["id"] > 1000
    assert "id" in line["detail"]


def _closed_stdout(game: Game, line: Event) -> None:
    assert line["exit"] is None  # still running when its output closed
    assert "cerró su salida" in line["detail"]


def _renuncio(game: Game, line: Event) -> None:
    assert line["card"] in cards.NAMES


def _false_canto(game: Game, line: Event) -> None:
    assert line["canto"] == "cuarenta" or line["canto"].startswith("veinte-")


def _not_in_hand(game: Game, line: Event) -> None:
    assert line["card"] in cards.NAMES


def _sing_not_allowed(game: Game, line: Event) -> None:
    reply = json.loads(line["line"])
    assert reply["sing"] == "cuarenta" and "card" in reply
    assert "sing" in line["detail"]
    assert not seat_played(game, game.seat("sing_not_allowed"), before=line)


def _child_crash(game: Game, line: Event) -> None:
    assert line["exit"] == 3
    assert_escapees_dead(game, "child_crash")


def assert_escapees_dead(game: Game, name: str) -> None:
    log = game.stderr_log(name)
    pids = [int(p) for p in re.findall(r"(?:grand)?child pid (\d+)", log)]
    assert len(pids) == 2, log
    if game.namespaces:  # sandboxed: those pids are the namespace's own; the namespace must be empty
        assert not in_namespaces(game.namespaces), f"processes started by {name} are still alive"
    else:
        assert not [p for p in pids if alive(p)], f"processes started by {name} are still alive"


CASES: list[tuple[str, int, str, str, Limits, Callable[[Game, Event], None]]] = [
    ("slow", 1, "timeout", "elapsed_ms", SLEEPY, _slow),
    ("slow_hello", 2, "timeout", "elapsed_ms", Limits(init_ms=1000, move_ms=300), _slow_hello),
    ("crash", 0, "crash", "exit", LIMITS, _crash),
    ("garbage", 3, "protocol", "line", LIMITS, _garbage),
    ("extra_line", 1, "protocol", "line", LIMITS, _extra_line),
    ("wrong_id", 2, "protocol", "line", LIMITS, _wrong_id),
    ("closed_stdout", 0, "crash", "exit", LIMITS, _closed_stdout),
    ("renuncio", 1, "renuncio", "card", LIMITS, _renuncio),
    ("false_canto", 0, "false_canto", "canto", LIMITS, _false_canto),
    ("not_in_hand", 3, "not_in_hand", "card", LIMITS, _not_in_hand),
    ("sing_not_allowed", 2, "protocol", "line", LIMITS, _sing_not_allowed),
    ("child_crash", 1, "crash", "exit", LIMITS, _child_crash),
]


@pytest.mark.parametrize(
    ("bot", "seat", "reason", "evidence", "limits", "extra"), CASES, ids=[c[0] for c in CASES]
)
def test_misbehaving_bot_is_disqualified(
    tmp_path: Path,
    bot: str,
    seat: int,
    reason: str,
    evidence: str,
    limits: Limits,
    extra: Callable[[Game, Event], None],
) -> None:
    names = list(GOOD)
    names.insert(seat, bot)
    game = play(tmp_path, names, limits)
    line = check_disqualified(game, bot, reason, evidence)
    extra(game, line)
    # three players remain: the partido goes on after the void mano
    assert game.result.manos > line_mano(game, line)
    assert len(game.result.winners) == 2


def line_mano(game: Game, line: Event) -> int:
    i = game.events.index(line)
    return next((e["mano"] for e in reversed(game.events[:i]) if e["type"] == "mano_start"), 0)


def test_long_line_is_cut_at_the_cap_without_waiting(tmp_path: Path) -> None:
    """Exactly 4096 bytes is a valid reply; 4097 and more is a protocol fault at once."""
    limits = Limits(3000, 2000)
    game = play(tmp_path, ["a_mas", "long_line", "random_legal", "a_menos"], limits)
    line = check_disqualified(game, "long_line", "protocol", "line")
    assert line["line"].startswith('{"type":"play","pad":"xxxx')
    assert len(line["line"]) == 200
    # its first reply, padded to exactly 4096 bytes, was accepted
    assert len(seat_played(game, 1, before=line)) == 1
    # judged when byte 4097 arrived (a protocol fault), not at the deadline (that would be a timeout);
    # how soon is a timing figure: benchmarks/performance/timing.py, long_line
    at = next(i for i, (_, e) in enumerate(game.stamps) if e == line)
    waited = game.stamps[at][0] - game.stamps[at - 1][0]
    assert waited < limits.move_wall / 1000, f"the referee waited {waited:.3f} s for the rest of the line"


def test_child_left_processes_are_killed_after_a_normal_partido(tmp_path: Path) -> None:
    game = play(tmp_path, ["child_left", "random_legal", "a_mas", "a_menos"])
    assert audit(game.events) == []
    assert not game.incidents
    assert_escapees_dead(game, "child_left")


def test_printer_is_not_disqualified(tmp_path: Path) -> None:
    game = play(tmp_path, ["random_legal", "printer", "a_mas", "a_menos"])
    assert audit(game.events) == []
    assert not game.result.faults and not game.incidents
    assert not list(tmp_path.glob("p.incident-*"))
    assert game.events[0]["players"][1]["name"] == "printer"
    assert seat_played(game, 1), "the printer played"
    log = game.stderr_log("printer")
    from arena.player.runner import PRINT_NOTE

    assert log.startswith(PRINT_NOTE + "\n")  # the runner notes it once, for arena check
    assert log[len(PRINT_NOTE) + 1 :].startswith("printer: imported")
    # over a megabyte was printed at hello alone: the log is capped (1 MiB) and says so
    size = Path(f"{game.replay}.logs/printer.stderr.log").stat().st_size
    assert size <= (1 << 20) + 100
    assert re.search(r"\[arena: se descartaron \d+ bytes más de stderr\]", log)


# ---------------------------------------------------------------- folders that cannot run


@pytest.mark.parametrize("bot", ["no_player", "bad_toml", "no_command"])
def test_unusable_folder_is_refused_on_sight(bot: str) -> None:
    with pytest.raises(PlayerLoadError) as info:
        find_player(BOTS / bot)
    message = str(info.value)
    assert "\n" not in message
    assert str(BOTS / bot) in message
    assert not player_processes()


@pytest.mark.parametrize("bot", ["import_error", "no_class"])
def test_python_folder_that_does_not_load_stops_everything_before_the_partido(
    tmp_path: Path, bot: str
) -> None:
    spec = find_player(BOTS / bot)  # it looks like a player: the runner finds out
    replay = tmp_path / "p.jsonl"
    good = [find_player(SAMPLES / n) for n in GOOD[:2]]
    start = time.monotonic()
    with pytest.raises(PlayerLoadError) as info:
        play_folders([*good, spec], SEED, ruleset=None, limits=LIMITS, replay=replay)
    # not at the hello deadline (generous under load;
    # the figure: benchmarks/performance/timing.py, load_error)
    assert time.monotonic() - start < LIMITS.init_wall / 1000, "a load error must not wait for init_ms"
    message = str(info.value)
    assert "\n" not in message
    assert str(BOTS / bot) in message
    expected = {
        "import_error": "import_error bot refuses to load",
        "no_class": "no define ninguna clase de jugador",
    }[bot]
    assert expected in message
    assert not replay.exists(), "no partido was started"
    assert not leftover_players()


# ---------------------------------------------------------------- policies and several faults


def test_penalize_policy_keeps_the_renuncio_bot_playing(tmp_path: Path) -> None:
    game = play(
        tmp_path, ["random_legal", "a_mas", "renuncio", "a_menos"], ruleset=RuleSet(renuncio="penalize")
    )
    seat = 2
    faults = audit(game.events)
    assert faults and all(f["type"] == "penalized" and f["seat"] == seat for f in faults)
    assert all(f["reason"] == "renuncio" and f["card"] in cards.NAMES for f in faults)
    assert not [e for e in game.events if e["type"] == "disqualified"]
    first = game.events.index(faults[0])
    end = game.events[first + 1]
    assert end["porotos"][seat] == rules.STARTING_POROTOS - 2
    assert end["scores"] is None
    # still in the partido: asked again after the first penalty (played or penalized again)
    later = [
        e for e in game.events[first + 2 :] if e["type"] in ("played", "penalized") and e["seat"] == seat
    ]
    assert later
    nxt = next(e for e in game.events[first + 1 :] if e["type"] == "mano_start")
    assert seat in nxt["active"]
    assert all(f.penalized for f in game.result.faults)
    assert (tmp_path / f"p.incident-{seat}-renuncio.txt").is_file()
    assert game.events[-1]["type"] == "partido_end" and seat not in game.result.winners


def test_two_players_fault_in_one_partido(tmp_path: Path) -> None:
    names = ["random_legal", "crash", "a_mas", "garbage", "a_menos"]
    game = play(tmp_path, names)
    faults = audit(game.events)
    assert {(f["seat"], f["reason"]) for f in faults} == {(1, "crash"), (3, "protocol")}
    assert all(f["type"] == "disqualified" for f in faults)
    order = [f["seat"] for f in faults]
    assert game.result.ranking[-2:] == [[order[1]], [order[0]]], "a later disqualification ranks higher"
    assert set(game.result.winners) <= {0, 2, 4} and len(game.result.winners) == 2
    assert set(game.incidents) == {1, 3}
    for seat in (1, 3):
        assert game.incidents[seat] == tmp_path / f"p.incident-{seat}-{names[seat]}.txt"


@pytest.mark.parametrize(
    ("bot", "reason", "evidence"), [("crash", "crash", "exit"), ("renuncio", "renuncio", "card")]
)
def test_three_player_partido_with_a_fault_ends_with_the_other_two_winning(
    tmp_path: Path, bot: str, reason: str, evidence: str
) -> None:
    game = play(tmp_path, ["a_mas", bot, "a_menos"])
    line = check_disqualified(game, bot, reason, evidence)
    assert game.result.winners == [0, 2]
    assert game.result.ranking == [[0, 2], [1]]
    assert game.events[-1]["winners"] == [0, 2]
    # nothing more was dealt once fewer than three players were left
    assert game.events.index(line) + 2 == len(game.events) - 1


# ---------------------------------------------------------------- regressions of bugs found and fixed


def test_incident_header_names_the_detail_once(tmp_path: Path) -> None:
    game = play(tmp_path, ["garbage", *GOOD])
    line = game.faults(0)[0]
    head = game.incidents[0].read_text(encoding="utf-8").splitlines()[0]
    assert head.count(line["detail"]) == 1, head


def test_exit_is_a_crash_even_if_a_child_keeps_stdout_open(tmp_path: Path) -> None:
    game = play(tmp_path, ["fork_exit", *GOOD], FAST)
    line = game.faults(0)[0]
    assert (line["reason"], line.get("exit")) == ("crash", 3), line


MECHANISMS = [
    "rlimits",
    pytest.param(
        "bwrap", marks=pytest.mark.skipif(not sandbox.bwrap_works(), reason="bwrap does not work here")
    ),
]


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_grandchild_without_arena_environment_is_killed(tmp_path: Path, mechanism: str) -> None:
    names = ["env_escape", *GOOD]
    specs = [find_player(folder(n)) for n in names]
    replay = tmp_path / "p.jsonl"
    pids: list[int] = []
    seen = PidCollector()
    try:
        play_folders(
            specs, SEED, ruleset=None, limits=LIMITS, replay=replay, sinks=[seen], mechanism=mechanism
        )
        log = Path(f"{replay}.logs/env_escape.stderr.log").read_text(encoding="utf-8")
        pids = [int(p) for p in re.findall(r"grandchild pid (\d+)", log)]
        assert len(pids) == 1, log
        time.sleep(0.2)
        if mechanism == "bwrap":  # the pid is the namespace's own: the namespace must be empty
            assert seen.namespaces and not in_namespaces(seen.namespaces)
            seen.close()
            pids = []
        else:
            assert not alive(pids[0]), "the grandchild (sleep 301) is still running"
    finally:
        for pid in pids:
            if alive(pid) and (read(f"/proc/{pid}/cmdline") or b"").startswith(b"sleep\x00301"):
                kill_and_reap(pid)


def _slow_drain(monkeypatch: pytest.MonkeyPatch, delay: float = 0.5) -> None:
    """Delay the referee's stderr-draining thread, as a busy machine does (seen ~1 in 3 under load)."""
    original = process.StderrLog._drain

    def drain(self: process.StderrLog, fd: int) -> None:
        time.sleep(delay)
        original(self, fd)

    monkeypatch.setattr(process.StderrLog, "_drain", drain)


def test_load_error_is_found_even_when_stderr_drains_late(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _slow_drain(monkeypatch)
    specs = [find_player(BOTS / "import_error"), *(find_player(SAMPLES / n) for n in GOOD[:2])]
    with pytest.raises(PlayerLoadError):
        play_folders(specs, SEED, ruleset=None, limits=LIMITS, replay=tmp_path / "p.jsonl")


def test_crash_incident_holds_the_last_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_drain(monkeypatch)
    game = play(tmp_path, ["crash", *GOOD])
    text = game.incidents[0].read_text(encoding="utf-8")
    assert "crash bot: exiting with status 3" in text.split("Final de la salida de error:")[1]


# ---------------------------------------------------------------- one process, several partidos


def test_a_process_serves_several_partidos_with_one_hello(tmp_path: Path) -> None:
    from arena.referee.connection import SubprocessConnection
    from arena.referee.table import Referee

    specs = [find_player(SAMPLES / name) for name in GOOD]
    conns = [SubprocessConnection(spec, LIMITS, tmp_path / "logs") for spec in specs]
    try:
        pids = [c.process.pid for c in conns]
        results = [
            Referee(conns, list(GOOD), seed, limits=LIMITS, partido_id=f"p{seed}").run(close=False)
            for seed in (1, 2, 3)
        ]
        assert all(not r.faults and r.winners for r in results)
        assert [c.process.pid for c in conns] == pids and all(alive(pid) for pid in pids)
        # every partido was played by the same three processes, greeted once each
        assert all(r.manos >= 1 for r in results) and len({r.partido for r in results}) == 3
    finally:
        for c in conns:
            c.close()
    assert not leftover_players()
    assert all(not alive(pid) for pid in pids)
