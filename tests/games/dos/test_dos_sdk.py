"""The Tute de a dos SDK: its view agrees with the referee after every draw and cambio, its requests
are the engine's, its replies fit the kind, and it stays light (no engine, no other game)."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.games.common.cards import NAMES, parse_mask
from arena.games.dos import engine
from arena.games.dos.rules import DosRules
from arena.games.dos.sdk import CAMBIO, DosPlayer, DosRequest, DosView, Move
from arena.player.runner import serve
from arena.referee.table import play_partido
from arena.sdk import Player, PlayRequest, WrongGame
from tests.games.dos.test_dos_engine import Shadow, cards_in
from tests.paths import ROOT

PACKAGE = ROOT / "arena" / "games" / "dos"
GAME = "tute-dos"


# ===================================================================== a light package, through the seam only


def test_importing_the_sdk_loads_neither_the_engine_nor_the_house() -> None:
    code = (
        "import sys, arena.games.dos.sdk\n"
        "heavy = [m for m in sys.modules if m.startswith(('arena.games.dos.engine', 'arena.referee',"
        " 'arena.tournament', 'arena.results', 'arena.cli', 'arena.games.cabrero', 'arena.games.parejas'))]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stdout


ALLOWED = (
    "arena.games.common",
    "arena.games.gamespec",
    "arena.games.dos",
    "arena.protocol",
    "arena.seeds",
    "arena.i18n",
    "arena.errors",
)


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_package_imports_only_the_shared_parts(path: Path) -> None:
    """No other game, no referee: only :mod:`arena.games.common`, the seam and the shared helpers."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] if node.module != "arena" else [f"arena.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] == "arena" and not name.startswith(ALLOWED):
                found.append(name)
    assert not found


# ===================================================================== the view against the referee


class Checker(DosPlayer):
    """Decides at random and checks its view, at every request, against the request and the truth."""

    def __init__(self, seed: int, table: Shadow) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.table = table
        self.checked = {"card": 0, "sing": 0, "drawn": 0, "known": 0}

    def play(self, request: DosRequest) -> Move | str | None:
        v, truth = self.view, self.table
        me, other = v.seat, v.other
        assert v.hand == request.hand and parse_mask(v.hand) == truth.hands[me]
        assert v.table == request.table
        assert v.shown == request.shown and v.monte == request.monte == len(truth.monte)
        assert v.phase == request.phase
        assert v.tantos == request.tantos and v.juegos == request.juegos
        assert v.mano == request.mano and v.trump == request.trump
        assert v.winning() == request.winning()
        assert sum(v.bazas) == request.baza - 1
        # only what it may know; the other's known cards are truly in its hand
        assert cards_in(vars(v)) <= truth.known[me]
        assert parse_mask(v.other_known) & ~truth.hands[other] == 0
        hidden = {NAMES[c] for c in range(40) if truth.hands[other] >> c & 1} - set(v.other_known)
        monte = {NAMES[c] for c in truth.monte[:-1]}
        assert hidden | monte == set(v.unseen())
        self.checked["known"] += bool(v.other_known)
        self.checked["drawn"] += v.monte < 24
        self.checked[request.kind] += 1
        if request.kind == "card":
            assert list(request.legal) == v.legal() and not request.may_sing
            return self.rng.choice(request.legal)
        assert not request.legal and not request.table
        assert list(request.cantos) == v.cantos()
        assert not request.may_cambio or v.may_cambio()
        choice = self.rng.choice([*request.may_sing, None])
        return None if choice is None else Move(sing=choice)


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), juegos=st.integers(1, 3))
def test_the_view_agrees_with_every_request(seed: int, juegos: int) -> None:
    rules = DosRules(juegos=juegos)
    table = Shadow(rules, strict=False)
    players = [Checker(seed + s, table) for s in range(2)]
    result = play_partido(players, seed, ruleset=rules, game=GAME, sinks=[table.see])
    assert not result.faults, result.faults  # an assertion failing in play() would be a crash fault
    assert sum(p.checked["card"] for p in players) > 0
    for p in players:
        assert p.view.juegos == tuple(result.scores)
        assert p.view.rules == rules
        assert len(p.view.results) == result.manos


def test_the_view_sees_cambios_draws_and_known_cards_over_many_partidos() -> None:
    totals = {"card": 0, "sing": 0, "drawn": 0, "known": 0}
    for seed in range(20):
        table = Shadow(DosRules(), strict=False)
        players = [Checker(seed * 7 + s, table) for s in range(2)]
        result = play_partido(players, seed, ruleset=DosRules(), game=GAME, sinks=[table.see])
        assert not result.faults, result.faults
        for p in players:
            for k, n in p.checked.items():
                totals[k] += n
    assert all(totals.values()), totals


def test_the_sdk_s_request_is_the_engine_s() -> None:
    for seed in range(5):
        p = engine.DosPartido(2, seed)
        rng = random.Random(seed)
        while not p.over:
            msg = {**p.request(), "id": 1}
            r = DosRequest.from_message(msg, DosView())  # type: ignore[arg-type]
            assert list(r.legal) == p.legal() and list(r.may_sing) == p.may_sing()
            assert r.kind == ("card" if p.legal() else "sing")
            assert r.may_cambio == (engine.CAMBIO in p.may_sing())
            assert r.shown == msg["shown"] and r.monte == msg["monte"] and r.hand == tuple(msg["hand"])
            p.play(*rng.choice(p.moves()))


# ===================================================================== the view, event by event


def view_of(seat: int, *events: dict[str, Any]) -> DosView:
    v = DosView()
    start = {"type": "partido_start", "seat": seat, "players": ["ana", "beto"], "rules": DosRules().to_dict()}
    mano = {
        "type": "mano_start",
        "mano": 1,
        "dealer": 1,
        "mano_seat": 0,
        "trump": "copa",
        "shown": "12-copa",
        "juegos": [0, 0],
        "hand": ["2-oro", "7-copa", "11-copa", "1-oro", "3-oro", "2-basto", "4-basto", "5-basto"],
    }
    for e in (start, mano, *events):
        v.update(e)
    return v


def test_the_view_folds_a_cambio_a_canto_and_the_draws() -> None:
    v = view_of(
        0,
        {"type": "played", "seat": 1, "card": "2-espada"},
        {"type": "played", "seat": 0, "card": "2-oro"},
        {"type": "trick_end", "baza": 1, "cards": [], "winner": 0},
    )
    assert v.may_cambio() and v.cantos() == [] and v.shown == "12-copa" and v.monte == 24
    v.update({"type": "exchanged", "seat": 0, "gave": "7-copa", "took": "12-copa"})
    assert "12-copa" in v.hand and "7-copa" not in v.hand and v.shown == "7-copa"
    assert list(v.hand) == sorted(v.hand, key=lambda c: NAMES.index(c))
    assert v.cantos() == ["cuarenta"] and not v.may_cambio()  # the 2-copa is not in hand
    v.update({"type": "sang", "seat": 0, "canto": "cuarenta"})
    v.update({"type": "drew", "seat": 0, "card": "6-oro"})
    v.update({"type": "drew", "seat": 1, "card": None})
    assert "6-oro" in v.hand and len(v.hand) == 8 and v.monte == 22
    assert v.canto_points == (40, 0) and v.tantos == (40, 0) and v.cantos() == []
    assert v.other_known == () and "7-copa" not in v.unseen()


def test_the_view_knows_what_the_other_took_sang_and_drew_face_up() -> None:
    v = view_of(0, {"type": "trick_end", "baza": 1, "cards": [], "winner": 1})
    v.update({"type": "exchanged", "seat": 1, "gave": "2-copa", "took": "12-copa"})
    v.update({"type": "sang", "seat": 1, "canto": "veinte-oro"})
    assert v.other_known == ("11-oro", "12-oro", "12-copa") and v.canto_points == (0, 20)
    v.update({"type": "played", "seat": 1, "card": "12-oro"})
    assert v.other_known == ("11-oro", "12-copa")
    for _ in range(11):
        v.update({"type": "drew", "seat": 1, "card": None})
        v.update({"type": "drew", "seat": 0, "card": "4-oro"})
    v.update({"type": "drew", "seat": 1, "card": None})
    assert v.monte == 1 and v.shown == "2-copa"
    v.update({"type": "drew", "seat": 0, "card": "2-copa"})  # the face-up card, seen by both
    assert v.monte == 0 and v.shown is None and v.phase == 2


def test_the_face_up_card_drawn_by_the_other_is_known() -> None:
    v = view_of(0)
    for _ in range(11):
        v.update({"type": "drew", "seat": 0, "card": "4-oro"})
        v.update({"type": "drew", "seat": 1, "card": None})
    v.update({"type": "drew", "seat": 0, "card": "6-oro"})
    v.update({"type": "drew", "seat": 1, "card": "12-copa"})
    assert v.other_known == ("12-copa",) and v.shown is None and "12-copa" not in v.unseen()


# ===================================================================== requests and replies


def request(**fields: Any) -> dict[str, Any]:
    msg = {
        "type": "play",
        "id": 7,
        "mano": 2,
        "baza": 3,
        "hand": ["1-oro", "12-copa", "11-copa"],
        "table": [],
        "trump": "copa",
        "shown": "5-copa",
        "monte": 18,
        "legal": [],
        "may_sing": [],
        "tantos": [10, 0],
        "juegos": [1, 0],
    }
    return {**msg, **fields}


class Answers(DosPlayer):
    """Answers every request with ``answer``."""

    def __init__(self, answer: Move | str | None) -> None:
        super().__init__()
        self.answer = answer
        self.requests: list[DosRequest] = []

    def play(self, request: DosRequest) -> Move | str | None:
        self.requests.append(request)
        return self.answer


def test_the_request_tells_its_kind_and_what_is_offered() -> None:
    p = Answers("1-oro")
    p.handle_play(request(legal=["1-oro", "12-copa", "11-copa"], table=[{"seat": 1, "card": "3-oro"}]))
    p.answer = None
    p.handle_play(request(may_sing=["cuarenta", CAMBIO]))
    p.handle_play(request(may_sing=["cuarenta"], monte=0, shown=None))
    card, sing, late = p.requests
    assert [r.kind for r in p.requests] == ["card", "sing", "sing"]
    assert card.winning() == (1, "3-oro") and card.phase == 1 and card.shown == "5-copa"
    assert (card.tantos, card.juegos, card.baza, card.monte) == ((10, 0), (1, 0), 3, 18)
    assert sing.may_cambio and sing.cantos == ("cuarenta",)
    assert not late.may_cambio and late.phase == 2 and late.shown is None


@pytest.mark.parametrize(
    ("fields", "answer", "reply"),
    [
        ({"legal": ["1-oro"]}, "1-oro", {"card": "1-oro"}),
        ({"legal": ["1-oro"]}, Move(card="1-oro", sing="cuarenta"), {"card": "1-oro"}),
        ({"may_sing": ["cuarenta", CAMBIO]}, Move(sing="cuarenta"), {"sing": "cuarenta"}),
        ({"may_sing": ["cuarenta", CAMBIO]}, Move(sing=CAMBIO), {"sing": CAMBIO}),
        ({"may_sing": [CAMBIO]}, Move(card="1-oro", sing=CAMBIO), {"sing": CAMBIO}),
        ({"may_sing": ["cuarenta"]}, None, {}),
        ({"may_sing": ["cuarenta"]}, Move(), {}),
        ({"may_sing": ["cuarenta"]}, "1-oro", {}),
    ],
)
def test_the_reply_fits_the_kind(fields: dict[str, Any], answer: Move | str | None, reply: dict) -> None:
    assert Answers(answer).handle_play(request(**fields)) == {"type": "play", "id": 7, **reply}


@pytest.mark.parametrize("answer", [None, Move(), Move(sing="cuarenta")])
def test_no_card_when_a_card_is_asked_is_a_clear_error(answer: Move | None) -> None:
    with pytest.raises(ValueError, match=r"request\.legal"):
        Answers(answer).handle_play(request(legal=["1-oro"]))


def test_a_player_must_write_play() -> None:
    with pytest.raises(NotImplementedError):
        DosPlayer().handle_play(request(legal=["1-oro"]))


# ===================================================================== hello: the right game only


def test_hello_names_the_game() -> None:
    limits = {"init_ms": 1, "move_ms": 1}
    hello = {"type": "hello", "id": 1, "protocol": 1, "name": "x", "limits": limits}
    assert Answers(None).handle_hello({**hello, "game": GAME}) == "x"
    with pytest.raises(WrongGame, match="DosPlayer"):
        Player().handle_hello({**hello, "game": GAME})
    with pytest.raises(WrongGame):
        Answers(None).handle_hello(hello)  # a Tute Cabrero hello
    with pytest.raises(WrongGame):
        Answers(None).handle_hello({**hello, "game": "tute-parejas"})

    class Out:
        def __init__(self) -> None:
            self.lines: list[bytes] = []

        def write(self, b: bytes) -> None:
            self.lines.append(b)

    out = Out()
    msg = f'{{"type":"hello","id":1,"protocol":1,"name":"p","limits":{{}},"game":"{GAME}"}}'
    serve(Answers(None), [msg.encode(), b'{"type":"bye"}'], out)
    assert out.lines == [b'{"type":"ready","id":1,"name":"p"}\n']


def test_a_cabrero_player_is_disqualified_at_hello_and_the_other_wins() -> None:
    class Cabrero(Player):
        def play(self, request: PlayRequest) -> str:
            return request.legal()[0]

    for seat in (0, 1):
        players: list[Player | DosPlayer] = [Answers("x"), Answers("x")]
        players[seat] = Cabrero()
        result = play_partido(players, 5, ruleset=DosRules(), game=GAME)  # type: ignore[arg-type]
        [fault] = result.faults
        assert (fault.mano, fault.seat, fault.reason) == (0, seat, "crash")
        assert "arena.dos.sdk.DosPlayer" in fault.detail
        assert result.manos == 0 and result.winners == [1 - seat] and result.ranking == [[1 - seat], [seat]]
