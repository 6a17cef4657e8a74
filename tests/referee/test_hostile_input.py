"""Any reply line is judged by the spec: a fault of the player, never an error of the referee.

Three layers (issue 12, point 4):

- named hostile lines (ids of every type, NaN, bad UTF-8, lone surrogates,
  duplicate keys, deep nesting, …), at ``hello`` and in play;
- a fuzz run of 100,000 generated and mutated lines, and hypothesis's JSON values
  (a tenth of each in the fast tier, all in ``[thorough]``), through the referee's
  own path: :class:`SubprocessConnection`'s ``_hello`` / ``ask`` (over a fake
  process), :func:`replies.check_play` as the referee calls it, and the engine;
- hostile bots (``tests/bots/hostile_reply_*``) in real partidos and in a torneo.
"""

from __future__ import annotations

import copy
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import i18n, protocol
from arena.cards import NAMES, names_of
from arena.containment import sandbox
from arena.containment.process import LineTooLong
from arena.engine import IllegalMove, Partido
from arena.games.common import replies
from arena.referee.connection import Limits, PlayerFault, SubprocessConnection, _Transcript
from arena.referee.players import PlayerSpec
from arena.tournament import coordinator as t
from arena.tournament.store import Store
from tests.referee.test_referee import BOTS, GOOD, LIMITS, ROOT, audit, check_disqualified, folder, play
from tests.torneos import CONFIG, assert_same, execute, outcome, resume

ENGINE_REASONS = {"protocol", "not_in_hand", "renuncio", "false_canto"}


# ---------------------------------------------------------------- the referee's path, over a fake process


class FakeProcess:
    """What ``SubprocessConnection._round_trip`` uses of a player process: each read gives ``line``."""

    pid = -1
    """No such process: a reply the loaded machine makes slow has no idle time to measure."""

    def __init__(self) -> None:
        self.line = b""

    def pending(self, wait: bool = True) -> bool:
        return False

    def write(self, data: bytes = b"", timeout: float = 0.0) -> bool:
        return True

    def queue(self, data: bytes) -> None:
        """Events are dropped."""

    def read_line(self, timeout: float) -> bytes:
        if len(self.line) > protocol.MAX_LINE_BYTES:  # as PlayerProcess: cut at the cap
            raise LineTooLong(self.line[:200])
        return self.line


TEMPLATES = ("lead", "follow", "sing")
"""The partidos a line answers: a first lead, a follower with illegal cards in hand, a leader with a canto."""


def _at(p: Partido, kind: str) -> bool:
    m = p.mano
    assert m is not None
    if kind == "lead":
        return not m.table
    if kind == "follow":
        return bool(m.table) and m.legal() != m.hands[m.turn]
    return m.may_sing and bool(m.cantos())


def _template(kind: str) -> Partido:
    """A partido (first legal card played each turn) waiting for a play of ``kind``."""
    for seed in range(1, 500):
        p = Partido(4, seed)
        while not p.over and not _at(p, kind):
            assert p.mano is not None
            p.play(names_of(p.mano.legal())[0])
        if not p.over:
            return p
    raise AssertionError(f"no partido reaches a {kind} play")


class Judge:
    """Feeds reply lines to the referee's own judging path and checks every outcome.

    A line is a ``ready`` (``SubprocessConnection._hello``) or a ``play`` reply
    (``SubprocessConnection.ask``, then :func:`replies.check_play` and the engine,
    as ``Referee._turn`` does). The outcome is a valid reply, a ``PlayerFault``
    with reason ``protocol``, or the engine's fault; any other exception escapes.
    """

    def __init__(self) -> None:
        conn = SubprocessConnection.__new__(SubprocessConnection)  # no process: a fake one
        conn.spec = PlayerSpec("fuzz", Path("fuzz"), "command")
        conn.name = conn.display_name = "fuzz"
        conn.limits = Limits()
        conn.failed = None
        conn.transcript = _Transcript()
        conn.last_line = None
        conn._next_id = 0
        conn._answered = set()
        conn._reader = replies.decision_of  # Tute Cabrero's reader, as its hello names the game
        conn.closed = True
        conn.box = sandbox.Box([], ".", {}, "none")
        conn._cpu_ns = lambda: None  # type: ignore[method-assign]  # no process: no CPU time to measure
        self.process = FakeProcess()
        conn.process = self.process  # type: ignore[assignment]
        self.conn = conn
        self.templates = [_template(kind) for kind in TEMPLATES]
        self.partidos = [_copy(t) for t in self.templates]
        self.tally: Counter[str] = Counter()
        self.details: Counter[str] = Counter()

    @property
    def next_id(self) -> int:
        """The id of the next request."""
        return self.conn._next_id + 1

    def request(self, which: int) -> dict[str, Any]:
        """The play request the ``which`` template waits on (without its id)."""
        return self.partidos[which].request()

    def hello(self, line: bytes) -> str:
        self.process.line = line
        try:
            self.conn._hello()
        except PlayerFault as fault:
            return self._fault(fault, line)
        assert _is_text(self.conn.display_name), line
        return self._count("ready")

    def play(self, line: bytes, which: int) -> str:
        p = self.partidos[which]
        request = p.request()
        self.process.line = line
        try:
            reply = self.conn.ask(request, 1000)
            card, sing = replies.check_play(reply, request["id"], request["may_sing"])
        except PlayerFault as fault:
            return self._fault(fault, line)
        for value in (card, sing):
            assert value is None or _is_text(value), line
        try:
            p.play(card, sing)
        except IllegalMove as move:
            assert move.reason in ENGINE_REASONS, (move.reason, line)
            _assert_sendable(move.reason, move.detail, move.evidence)
            return self._count(move.reason)
        self.partidos[which] = _copy(self.templates[which])
        return self._count("played")

    def _fault(self, fault: PlayerFault, line: bytes) -> str:
        assert fault.reason == "protocol", (fault.reason, fault.detail, line)
        assert set(fault.evidence) == {"line"}, line
        evidence = fault.evidence["line"]
        assert isinstance(evidence, str) and len(evidence) <= 200, line
        assert isinstance(fault.detail, str) and 0 < len(fault.detail) <= 400, (fault.detail, line)
        _assert_sendable(fault.reason, fault.detail, fault.evidence)
        self.details[fault.detail.split(":")[0][:40]] += 1
        return self._count("protocol")

    def _count(self, outcome: str) -> str:
        self.tally[outcome] += 1
        return outcome


def _copy(p: Partido) -> Partido:
    return copy.deepcopy(p, {id(p.rules): p.rules})  # a RuleSet is immutable: shared


def _is_text(value: object) -> bool:
    return isinstance(value, str) and protocol._is_text(value)


def _assert_sendable(reason: str, detail: str, evidence: dict[str, Any]) -> None:
    """The fault's event can be sent to every player and written to the replay."""
    event = {"type": "disqualified", "seat": 0, "reason": reason, "detail": detail, **evidence}
    protocol.encode(replies.view(event, 1))
    json.dumps(event, ensure_ascii=False).encode()


@pytest.fixture
def judge() -> Judge:
    return _judge()


_JUDGE: list[Judge] = []


def _judge() -> Judge:
    """One judge for the module (hypothesis tests take no function fixtures; templates take a moment)."""
    if not _JUDGE:
        _JUDGE.append(Judge())
    return _JUDGE[0]


# ---------------------------------------------------------------- named hostile lines


def _play(rid: int, **fields: Any) -> bytes:
    return json.dumps({"type": "play", "id": rid, **fields}).encode()


PLAY_LINES: dict[str, Any] = {
    "id a list": lambda rid: _play(0, card="1-oro").replace(b'"id": 0', f'"id": [{rid}]'.encode()),
    "id an object": lambda rid: _play(0, card="1-oro").replace(b'"id": 0', f'"id": {{"id": {rid}}}'.encode()),
    "id a float": lambda rid: f'{{"type":"play","id":{rid}.0,"card":"1-oro"}}'.encode(),
    "id true": lambda rid: b'{"type":"play","id":true,"card":"1-oro"}',
    "id null": lambda rid: b'{"type":"play","id":null,"card":"1-oro"}',
    "id a string": lambda rid: f'{{"type":"play","id":"{rid}","card":"1-oro"}}'.encode(),
    "id 4000 digits": lambda rid: b'{"type":"play","id":' + b"9" * 4000 + b',"card":"1-oro"}',
    "id 1e999": lambda rid: b'{"type":"play","id":1e999,"card":"1-oro"}',
    "id NaN": lambda rid: b'{"type":"play","id":NaN,"card":"1-oro"}',
    "id Infinity": lambda rid: b'{"type":"play","id":Infinity,"card":"1-oro"}',
    "id -Infinity": lambda rid: b'{"type":"play","id":-Infinity,"card":"1-oro"}',
    "card a number": lambda rid: _play(rid, card=7),
    "card a list": lambda rid: _play(rid, card=["1-oro"]),
    "card null": lambda rid: _play(rid, card=None),
    "card an object": lambda rid: _play(rid, card={"card": "1-oro"}),
    "card NaN": lambda rid: f'{{"type":"play","id":{rid},"card":NaN}}'.encode(),
    "card a lone surrogate": lambda rid: f'{{"type":"play","id":{rid},"card":"\\ud800"}}'.encode(),
    "card a low surrogate": lambda rid: f'{{"type":"play","id":{rid},"card":"1-\\uDC00oro"}}'.encode(),
    "card invalid UTF-8": lambda rid: f'{{"type":"play","id":{rid},"card":"1-'.encode() + b'\xff"}',
    "card an encoded surrogate": lambda rid: (
        f'{{"type":"play","id":{rid},"card":"'.encode() + b'\xed\xa0\x80"}'
    ),
    "card overlong UTF-8": lambda rid: f'{{"type":"play","id":{rid},"card":"'.encode() + b'\xc0\xaf"}',
    "sing an object": lambda rid: _play(rid, card="1-oro", sing={"canto": "cuarenta"}),
    "sing a number": lambda rid: _play(rid, card="1-oro", sing=40),
    "key a lone surrogate": lambda rid: f'{{"type":"play","id":{rid},"card":"1-oro","\\ud800":1}}'.encode(),
    "duplicate card": lambda rid: f'{{"type":"play","id":{rid},"card":"1-oro","card":"1-oro"}}'.encode(),
    "duplicate id": lambda rid: f'{{"type":"play","id":[],"card":"1-oro","id":{rid}}}'.encode(),
    "duplicate key inside": lambda rid: _play(rid, card="1-oro")[:-1] + b',"x":{"a":1,"a":2}}',
    "2048 deep": lambda rid: b"[" * 2048 + b"]" * 2048,
    "2048 deep objects": lambda rid: b'{"a":' * 680 + b"1" + b"}" * 680,
    "deep in a field": lambda rid: (
        _play(rid, card="1-oro")[:-1] + b',"x":' + b"[" * 1500 + b"]" * 1500 + b"}"
    ),
    "deep card": lambda rid: _play(rid)[:-1] + b',"card":' + b"[" * 1900 + b"]" * 1900 + b"}",
    "33 deep": lambda rid: _play(rid, card="1-oro")[:-1] + b',"x":' + b"[" * 32 + b"]" * 32 + b"}",
    "unclosed deep": lambda rid: b"[" * 4096,
    "UTF-8 BOM": lambda rid: b"\xef\xbb\xbf" + _play(rid, card="1-oro"),
    "UTF-16": lambda rid: _play(rid, card="1-oro").decode().encode("utf-16"),
    "UTF-32": lambda rid: _play(rid, card="1-oro").decode().encode("utf-32"),
    "empty": lambda rid: b"",
    "spaces": lambda rid: b"   \t ",
    "a NUL byte": lambda rid: b"\x00",
    "null": lambda rid: b"null",
    "a string": lambda rid: b'"play"',
    "a number": lambda rid: str(rid).encode(),
    "a list of the reply": lambda rid: b"[" + _play(rid, card="1-oro") + b"]",
    "two objects": lambda rid: _play(rid, card="1-oro") * 2,
    "trailing garbage": lambda rid: _play(rid, card="1-oro") + b"x",
    "type a list": lambda rid: f'{{"type":["play"],"id":{rid},"card":"1-oro"}}'.encode(),
    "type missing": lambda rid: f'{{"id":{rid},"card":"1-oro"}}'.encode(),
    "type ready": lambda rid: f'{{"type":"ready","id":{rid},"name":"x"}}'.encode(),
    "many extra keys": lambda rid: (
        _play(rid, card="1-oro")[:-1] + b"".join(b',"k%d":0' % i for i in range(300)) + b"}"
    ),
    "a 3000-char key": lambda rid: _play(rid, card="1-oro")[:-1] + b',"' + b"k" * 3000 + b'":0}',
    "an escape in type": lambda rid: f'{{"type":"\\u001b[2Jplay","id":{rid},"card":"1-oro"}}'.encode(),
    "4097 bytes": lambda rid: _play(rid, card="1-oro").ljust(4097),
}

HELLO_LINES: dict[str, Any] = {
    "id a list": lambda rid: f'{{"type":"ready","id":[{rid}],"name":"x"}}'.encode(),
    "id an object": lambda rid: f'{{"type":"ready","id":{{"id":{rid}}},"name":"x"}}'.encode(),
    "id NaN": lambda rid: b'{"type":"ready","id":NaN,"name":"x"}',
    "id a float": lambda rid: f'{{"type":"ready","id":{rid}.0,"name":"x"}}'.encode(),
    "name a lone surrogate": lambda rid: f'{{"type":"ready","id":{rid},"name":"\\udc80"}}'.encode(),
    "name a list": lambda rid: f'{{"type":"ready","id":{rid},"name":["x"]}}'.encode(),
    "name deep": lambda rid: (
        f'{{"type":"ready","id":{rid},"name":'.encode() + b"[" * 2000 + b"]" * 2000 + b"}"
    ),
    "name invalid UTF-8": lambda rid: f'{{"type":"ready","id":{rid},"name":"'.encode() + b'\x80"}',
    "duplicate name": lambda rid: f'{{"type":"ready","id":{rid},"name":"a","name":"b"}}'.encode(),
    "2048 deep": lambda rid: b"[" * 2048 + b"]" * 2048,
    "a play": lambda rid: _play(rid, card="1-oro"),
}


@pytest.mark.parametrize("case", PLAY_LINES)
def test_a_hostile_play_reply_is_a_protocol_fault(judge: Judge, case: str) -> None:
    line = PLAY_LINES[case](judge.next_id)
    assert judge.play(line, 0) == "protocol", case


@pytest.mark.parametrize("case", HELLO_LINES)
def test_a_hostile_ready_is_a_protocol_fault(judge: Judge, case: str) -> None:
    line = HELLO_LINES[case](judge.next_id)
    assert judge.hello(line) == "protocol", case


def test_the_details_name_the_problem(judge: Judge) -> None:
    cases = {
        b'{"type":"play","id":NaN,"card":"1-oro"}': "NaN no es un valor JSON",
        b"[" * 2048 + b"]" * 2048: "anida más de 32",
        b'{"type":"play","card":"\xff"}': "no es UTF-8 válido",
        b'{"type":"play","card":"\\udfff"}': "un surrogate suelto",
        b'{"type":"play","card":"1-oro","card":"1-oro"}': "clave repetida 'card'",
        b'{"type":"play","id":[3],"card":"1-oro"}': "el id de la respuesta, una lista, no coincide",
        b"[1]": "no es un objeto JSON sino una lista",
        b'{"type":"play","id":' + b"7" * 100 + b"}": "el id de la respuesta, un entero de 332 bits",
    }
    for line, words in cases.items():
        judge.process.line = line
        with pytest.raises(PlayerFault) as info:
            judge.conn.ask(judge.request(0), 1000)
        assert words in info.value.detail, (line[:60], info.value.detail)
        assert info.value.evidence["line"] == line.decode("utf-8", "replace")[:200]


def test_valid_replies_are_still_accepted(judge: Judge) -> None:
    rid = judge.next_id
    assert judge.hello(f' {{"name":"Ana","id":{rid},"type":"ready"}}\r\t'.encode()) == "ready"
    assert judge.conn.display_name == "Ana"
    p = judge.partidos[0]
    assert p.mano is not None
    card = names_of(p.mano.legal())[0]
    assert judge.play(_play(judge.next_id, card=card), 0) == "played"
    assert judge.play(_play(judge.next_id, card="no-card"), 0) == "not_in_hand"
    follow = judge.partidos[1]
    assert follow.mano is not None
    illegal = names_of(follow.mano.hands[follow.mano.turn] & ~follow.mano.legal())[0]
    assert judge.play(_play(judge.next_id, card=illegal), 1) == "renuncio"
    sing = judge.partidos[2]
    assert sing.mano is not None
    canto = sing.mano.cantos()[0]
    lead = names_of(sing.mano.legal())[0]
    if canto == "tute":
        assert judge.play(_play(judge.next_id, sing=canto), 2) == "played"
    else:
        assert judge.play(_play(judge.next_id, card=lead, sing=canto), 2) == "played"
    assert judge.play(_play(judge.next_id, card=lead, sing="veinte-nada"), 2) == "false_canto"
    assert judge.play(_play(judge.next_id, card=lead, sing="cuarenta"), 0) == "protocol"  # may not sing


def test_a_second_reply_to_an_earlier_request_is_unsolicited(judge: Judge) -> None:
    old = judge.conn._next_id  # answered by an earlier test or the line below
    assert judge.play(_play(judge.next_id, card="no-card"), 0) == "not_in_hand"
    judge.process.line = _play(old + 1, card="1-oro")
    with pytest.raises(PlayerFault, match=re.escape(i18n._(protocol.UNSOLICITED))):
        judge.conn.ask(judge.request(0), 1000)


def test_a_number_beyond_pythons_int_string_limit_is_a_fault(judge: Judge) -> None:
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(640)
    try:
        line = b'{"type":"play","id":' + b"1" * 1000 + b',"card":"1-oro"}'
        assert judge.play(line, 0) == "protocol"
        assert judge.hello(b'{"type":"ready","id":' + b"2" * 4000 + b',"name":"x"}') == "protocol"
    finally:
        sys.set_int_max_str_digits(limit)


# ---------------------------------------------------------------- fuzz: 100,000 lines, deterministic

TOKENS = [
    b"[", b"]", b"{", b"}", b",", b":", b'"', b"\\", b"\\u", b"\\ud800", b"\\uDFFF", b"\\u0000", b"null",
    b"true", b"false", b"NaN", b"Infinity", b"-Infinity", b"-0", b"1e999", b"-1e-999", b"0.5", b"1E+2",
    b"99999999999999999999999", b"[]", b"{}", b'"id"', b'"card"', b'"sing"', b'"type"', b'"play"',
    b'"ready"', b'"tute"', b'"cuarenta"', b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00",
    b"\n", b"\r", b"\t", b" ", b"\x1b[2J", "ñ".encode(), "🂡".encode(), b"\xf4\x90\x80\x80",
]  # fmt: skip


def random_value(rng: random.Random, depth: int = 0) -> Any:
    """A random Python value that JSON (with NaN) can write: every type, any nesting."""
    kind = rng.randrange(12 if depth < 4 else 8)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice(
            [0, -1, 1, 2**31, 2**63, -(2**64), 10 ** rng.randrange(1, 300), rng.randrange(-99, 99)]
        )
    if kind == 3:
        return rng.choice([0.0, -0.0, 0.5, 1e308, float("nan"), float("inf"), float("-inf"), rng.random()])
    if kind in (4, 5):
        return rng.choice(
            [*NAMES, "", "tute", "cuarenta", "veinte-oro", "\ud800", "a\udfffb", "\x00", "é" * 50]
        )
    if kind in (6, 7):
        return "".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x10FFFF)])) for _ in range(4))
    if kind in (8, 9):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {
        random_value(rng, 99) if rng.random() < 0.8 else "id": random_value(rng, depth + 1) for _ in range(3)
    }


def dump(rng: random.Random, value: Any) -> bytes:
    """``value`` as a line, ASCII-escaped or raw (lone surrogates then become invalid UTF-8)."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, allow_nan=True)
    return text.encode("utf-8", "surrogatepass")


def valid_reply(rng: random.Random, judge: Judge, which: int) -> dict[str, Any]:
    """A well-formed play reply for the ``which`` template (a card of the hand, sometimes a canto)."""
    request = judge.request(which)
    reply: dict[str, Any] = {"type": "play", "id": judge.next_id, "card": rng.choice(request["hand"])}
    if request["may_sing"] and rng.random() < 0.5:
        reply["sing"] = rng.choice(["cuarenta", "veinte-oro", "veinte-copa", "veinte-espada", "veinte-basto"])
        if rng.random() < 0.2:
            reply = {"type": "play", "id": reply["id"], "sing": "tute"}
    return reply


def mutate(rng: random.Random, line: bytes, judge: Judge) -> bytes:
    """One random change: bytes flipped, inserted, dropped, repeated; tokens, values, nesting, encodings."""
    n = len(line)
    i, j = sorted((rng.randrange(n + 1), rng.randrange(n + 1)))
    op = rng.randrange(14)
    if op == 0 and n:
        k = rng.randrange(n)
        return line[:k] + bytes([line[k] ^ (1 << rng.randrange(8))]) + line[k + 1 :]
    if op == 1:
        return line[:i] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4))) + line[i:]
    if op == 2:
        return line[:i] + line[j:]
    if op == 3:
        return line[:j] + line[i:j] * rng.randrange(1, 4) + line[j:]
    if op in (4, 5):
        return line[:i] + rng.choice(TOKENS) + line[i:]
    if op == 6:
        depth = rng.choice([2, 31, 32, 33, 100, 1000, 2048])
        return rng.choice([b"[", b'{"a":']) * depth + line
    if op == 7:
        depth = rng.choice([1, 32, 33, 999, 2000])
        return line[:i] + b"[" * depth + b"]" * depth + line[i:]
    if op == 8:
        return line[:i]
    if op == 9:
        text = line.decode("utf-8", "surrogateescape")
        return text.encode(rng.choice(["utf-16", "utf-16-le", "utf-32", "utf-8-sig", "latin-1"]), "replace")
    if op == 10:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if op == 11:
        return dump(rng, random_value(rng))
    if op == 12:  # a stale or near id
        return line.replace(str(judge.next_id).encode(), str(judge.next_id - rng.randrange(1, 5)).encode())
    return line[:i] + line[j:] + line[i:j]


def structured(rng: random.Random, reply: dict[str, Any]) -> bytes:
    """The reply with one field given a random value, an extra field, or a key written twice."""
    reply = dict(reply)
    key = rng.choice(["type", "id", "card", "sing", "name", "x", "\ud800"])
    if rng.random() < 0.7:
        reply[key] = random_value(rng)
    else:
        reply.pop(key, None)
    line = dump(rng, reply)
    if rng.random() < 0.2:  # a duplicate key, which json.dumps cannot write
        field = rng.choice(list(reply) or ["type"])
        line = line[:-1] + b"," + dump(rng, field) + b":" + dump(rng, random_value(rng)) + b"}"
    return line


def fuzz_lines(seed: int, count: int, judge: Judge) -> Iterator[tuple[str, bytes, int]]:
    """``count`` lines: (``hello`` or ``play``, line, template), each made for the next request's id."""
    rng = random.Random(seed)
    for _ in range(count):
        which = rng.randrange(len(TEMPLATES))
        if rng.random() < 0.1:
            reply: dict[str, Any] = {"type": "ready", "id": judge.next_id, "name": random_value(rng)}
            if rng.random() < 0.5:
                reply["name"] = "Ana"
            kind = "hello"
        else:
            reply = valid_reply(rng, judge, which)
            kind = "play"
        r = rng.random()
        if r < 0.1:
            line = dump(rng, reply)
        elif r < 0.45:
            line = structured(rng, reply)
        else:
            line = dump(rng, reply)
            for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
                line = mutate(rng, line, judge)
        yield kind, line, which


FUZZ_LINES = 100_000
"""The thorough run's lines (``slow``); the fast tier's run judges the first tenth of them."""


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(FUZZ_LINES // 10, id="fast"),
        pytest.param(FUZZ_LINES, id="thorough", marks=pytest.mark.slow),
    ],
)
def test_fuzz_every_line_is_judged(judge: Judge, lines: int) -> None:
    seen = 0
    for kind, line, which in fuzz_lines(12, lines, judge):
        try:
            judge.hello(line) if kind == "hello" else judge.play(line, which)
        except AssertionError:
            raise
        except BaseException as exc:
            raise AssertionError(f"the referee failed on {line[:300]!r}: {exc!r}") from exc
        seen += 1
    assert seen == lines
    tally = judge.tally
    assert sum(tally.values()) >= lines
    # the run reached every outcome: valid replies and every fault the engine judges
    for kind in ("ready", "played", "protocol", "not_in_hand", "renuncio", "false_canto"):
        assert tally[kind] > 20, tally
    for detail in (
        "la respuesta no es UTF-8 válido",
        "la respuesta no es JSON válido",
        "la respuesta anida más de 32 niveles",
    ):
        assert judge.details[detail] > 20, judge.details


# ---------------------------------------------------------------- hypothesis: JSON values of every type

surrogates = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
texts = st.text(max_size=12) | st.builds("".join, st.lists(st.text(max_size=3) | surrogates, max_size=4))
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=10**300, max_value=10**1200)
    | st.floats(allow_nan=True, allow_infinity=True)
    | texts
    | st.sampled_from(NAMES)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


@st.composite
def reply_lines(draw: st.DrawFn, rid: int) -> bytes:
    """A reply-shaped object: each field the right value, another JSON value, or absent; any encoding."""
    fields: dict[str, Any] = {}
    for key, right in (("type", "play"), ("id", rid), ("card", "1-oro"), ("sing", "cuarenta")):
        choice = draw(st.sampled_from(["right", "right", "other", "absent"]))
        if choice == "right":
            fields[key] = right
        elif choice == "other":
            fields[key] = draw(json_values)
    fields.update(draw(st.dictionaries(texts, json_values, max_size=2)))
    text = json.dumps(fields, ensure_ascii=draw(st.booleans()), allow_nan=True)
    return text.encode("utf-8", "surrogatepass")


HYPOTHESIS = settings(
    max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck), database=None
)
FAST = pytest.mark.fast_examples(100)  # the fast tier's tenth; [thorough] runs all 1000


@FAST
@HYPOTHESIS
@given(value=json_values, ascii_only=st.booleans(), hello=st.booleans())
def test_hypothesis_any_json_value_is_judged(value: Any, ascii_only: bool, hello: bool) -> None:
    judge = _judge()
    try:
        line = json.dumps(value, ensure_ascii=ascii_only, allow_nan=True).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        return
    result = judge.hello(line) if hello else judge.play(line, 0)
    assert result in ("protocol", "ready"), result


@FAST
@HYPOTHESIS
@given(data=st.data(), which=st.integers(0, len(TEMPLATES) - 1))
def test_hypothesis_reply_shaped_objects_are_judged(data: st.DataObject, which: int) -> None:
    judge = _judge()
    line = data.draw(reply_lines(judge.next_id))
    judge.play(line, which)


@FAST
@HYPOTHESIS
@given(cut=st.integers(0, 200), junk=st.binary(max_size=8))
def test_hypothesis_bytes_spliced_into_a_valid_reply_are_judged(cut: int, junk: bytes) -> None:
    judge = _judge()
    line = _play(judge.next_id, card=judge.request(0)["hand"][0])
    cut = min(cut, len(line))
    judge.play(line[:cut] + junk + line[cut:], 0)


# ---------------------------------------------------------------- hostile bots in real partidos

PLAY_BOTS = [
    "hostile_reply_list_id",
    "hostile_reply_dict_id",
    "hostile_reply_deep",
    "hostile_reply_nan",
    "hostile_reply_surrogate",
    "hostile_reply_bad_utf8",
    "hostile_reply_dup_keys",
]
HELLO_BOTS = ["hostile_reply_hello_list_id", "hostile_reply_hello_deep"]


@pytest.mark.usefixtures("run_token")
@pytest.mark.parametrize("bot", PLAY_BOTS + HELLO_BOTS)
def test_a_hostile_bot_is_disqualified_for_protocol_and_the_partido_completes(
    tmp_path: Path, bot: str
) -> None:
    names = [GOOD[0], bot, *GOOD[1:]]
    game = play(tmp_path, names, LIMITS)
    line = check_disqualified(game, bot, "protocol", "line")  # the others are not charged
    assert isinstance(line["line"], str) and len(line["line"]) <= 200
    assert game.result.winners and set(game.result.winners) <= {0, 2, 3}
    if bot in HELLO_BOTS:  # judged before the first deal, which leaves it out
        assert game.events.index(line) == 1
        assert game.events[2]["type"] == "mano_start" and 1 not in game.events[2]["active"]


@pytest.mark.usefixtures("run_token")
def test_two_hostile_bots_at_one_table(tmp_path: Path) -> None:
    game = play(tmp_path, ["hostile_reply_hello_deep", GOOD[0], "hostile_reply_list_id", GOOD[1], GOOD[2]])
    faults = audit(game.events)
    assert sorted((f["seat"], f["reason"]) for f in faults) == [(0, "protocol"), (2, "protocol")]
    assert game.events[-1]["type"] == "partido_end"


# ---------------------------------------------------------------- torneos: hostile bots, a failing referee


@pytest.mark.usefixtures("run_token")
def test_a_torneo_with_hostile_bots_completes_and_charges_only_them(tmp_path: Path) -> None:
    field = tmp_path / "field"
    for name in ("a_mas", "a_menos"):
        shutil.copytree(ROOT / "sample_players" / name, field / name)
    for name in ("hostile_reply_hello_list_id", "hostile_reply_deep"):
        shutil.copytree(folder(name), field / name)
    out = tmp_path / "torneo"
    config = t.Config(table_size=3, rounds=1, seed=5, move_ms=3000, init_ms=10_000)
    stats = execute(out, field, config, 2)
    assert (stats.total, stats.committed) == (4, 4)
    with Store.open(out) as store:
        hostile = {e.index for e in store.entrants() if e.name.startswith("hostile_reply_")}
        faults = [f for r in store.results() for f in r.faults]
        assert store.failures() == []
    assert faults and {(f.entrant in hostile, f.reason) for f in faults} == {(True, "protocol")}


def _inject_failure(monkeypatch: pytest.MonkeyPatch, partidos: set[str], how: str) -> None:
    """Fault injection: the referee raises (or its worker dies) on ``partidos``.

    Reaches workers forked from this process after the call (``fork`` context), not
    those of a forkserver: a resume through the command plays normally.
    """
    from arena.referee import table as referee

    real = referee.play_folders

    def play_folders(*args: Any, partido_id: str = "partido", **kw: Any) -> Any:
        if partido_id in partidos:
            if how == "exit":
                os._exit(3)  # at once: whatever it was logging must not silence the others
            raise RuntimeError(f"injected failure in {partido_id}")
        return real(*args, partido_id=partido_id, **kw)

    monkeypatch.setattr(referee, "play_folders", play_folders)


def _names(folder: Path) -> dict[str, list[str]]:
    """The players of each scheduled partido, by name."""
    with Store.open(folder) as store:
        names = [e.name for e in store.entrants()]
        return {p.id: [names[e] for e in p.seats] for p in store.scheduled()}


@pytest.mark.usefixtures("run_token")
@pytest.mark.parametrize("how", ["raise", "exit"])
def test_a_partido_the_referee_fails_on_is_named_the_others_go_on_and_resume_retries_it(
    players: Path, reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    out = tmp_path / "torneo"
    failing = {"p0003"}
    _inject_failure(monkeypatch, failing, how)
    with pytest.raises(t.TournamentError) as info:
        execute(out, players, CONFIG, 2, context=multiprocessing.get_context("fork"))
    failing.clear()
    message = str(info.value)
    names = _names(out)
    line = next(x for x in message.splitlines() if x.strip().startswith("p0003 "))
    assert f"p0003 ({', '.join(names['p0003'])}): " in line  # the partido and its players, in one line
    assert ("injected failure in p0003" if how == "raise" else "falló el worker") in line
    with Store.open(out) as store:
        committed = {r.id for r in store.results()}
        failed = {pid for pid, _, _ in store.failures()}
        assert store.runs()[-1]["status"] == "failed"
    # a worker that dies breaks the pool: the partidos still running in it fail too
    assert ("--resume lo juega de nuevo:" if len(failed) == 1 else "--resume los juega de nuevo:") in message
    assert "p0003" in failed and "p0003" not in committed
    assert committed | failed == set(names)  # every other partido was played
    if how == "raise":
        assert committed == set(names) - {"p0003"}
    assert not [p for p in (out / "replays").iterdir() if p.name.startswith(".tmp-")]
    log = (out / "torneo.log").read_text()
    assert "p0003 (" in log and "--resume lo reintenta" in log
    output = resume(out)  # the command's workers come from a forkserver: no injected failure there
    assert f"{len(committed)} de 8 partidos ya guardados" in output
    assert_same(out, reference)
    assert "se reintentan partidos que fallaron antes: " in (out / "torneo.log").read_text()


@pytest.mark.usefixtures("run_token")
def test_under_max_faults_a_failed_partido_holds_back_the_decisions_that_depend_on_it(
    players: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    field = tmp_path / "field"
    for name in GOOD:
        shutil.copytree(players / name, field / name)
    shutil.copytree(BOTS / "crash", field / "crash")
    config = replace(CONFIG, max_faults=1)
    plain = tmp_path / "plain"
    execute(plain, field, config, 2)
    names = _names(plain)
    theirs = [pid for pid, seated in names.items() if "crash" in seated]
    out = tmp_path / "torneo"
    _inject_failure(monkeypatch, {theirs[0]}, "raise")
    with pytest.raises(t.TournamentError, match=r"partidos que lo esperan \(--max-faults\): \d+"):
        execute(out, field, config, 2, context=multiprocessing.get_context("fork"))
    with Store.open(out) as store:
        settled = {r.id for r in store.results()} | {w.partido for w in store.withdrawn()}
    assert not settled & set(theirs)  # crash's later partidos wait: its first could disqualify it
    resume(out)
    assert outcome(out) == outcome(plain)
