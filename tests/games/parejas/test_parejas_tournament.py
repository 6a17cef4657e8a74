"""Tute por parejas through the judge: the protocol's replies, pairs of processes, torneos of pairs.

Each entrant plays as a pair of two processes of its own folder (seats 0+2 or 1+3); the
torneo counts sides (:mod:`arena.tournament.sides`), so the store, standings and workbook
take a partido of pairs as a partido of two.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena import games, protocol
from arena.cli.student import check
from arena.cli.torneo import tournament
from arena.games.common import replies
from arena.games.gamespec import seat_sides
from arena.parejas.rules import ParejasRules
from arena.parejas.sdk import ParejasPlayer, ParejasRequest
from arena.protocol import ProtocolError
from arena.referee.players import find_player
from arena.referee.table import play_folders, play_partido
from arena.rules import RulesError
from arena.tournament.sides import by_side, end_by_side, seat_specs
from arena.tournament.store import Store
from tests.paths import BOTS, ROOT

pytestmark = pytest.mark.usefixtures("player_processes")  # its torneos start player processes

PAIRS = ROOT / "sample_pairs"


# ---------------------------------------------------------------- replies (protocol.play_of)

CARD = {"type": "play", "id": 7, "legal": ["1-oro"], "may_sing": [], "may_concede": False}
SING = {"type": "play", "id": 7, "legal": [], "may_sing": ["cuarenta"], "may_concede": False}
TIRAR = {"type": "play", "id": 7, "legal": [], "may_sing": [], "may_concede": True}


@pytest.mark.parametrize(
    ("request_", "reply", "expected"),
    [
        (CARD, {"card": "1-oro"}, ("1-oro", None)),
        (SING, {"sing": "cuarenta"}, (None, "cuarenta")),
        (SING, {}, (None, None)),  # a pass
        (SING, {"sing": "veinte-copa"}, (None, "veinte-copa")),  # shape only: the engine judges it
        (TIRAR, {"sing": "tirar"}, (None, "tirar")),
        (TIRAR, {}, (None, None)),  # plays the mano on
    ],
)
def test_a_pair_reply_of_the_right_shape_is_read(
    request_: dict[str, Any], reply: dict[str, Any], expected: tuple[str | None, str | None]
) -> None:
    assert replies.play_of({"type": "play", "id": 7, **reply}, request_) == expected


@pytest.mark.parametrize(
    ("request_", "reply", "message"),
    [
        (CARD, {}, "'card'"),  # a card is awaited
        (CARD, {"card": "1-oro", "sing": "cuarenta"}, "may_sing"),  # no canto with a card
        (SING, {"card": "1-oro"}, "legal"),  # a card where only a canto or a pass is awaited
        (TIRAR, {"card": "1-oro"}, "legal"),
        ({**CARD, "may_concede": False}, {"sing": "tirar"}, "may_sing"),
        (SING, {"sing": 40}, "'sing'"),
    ],
)
def test_a_pair_reply_of_the_wrong_shape_is_a_protocol_error(
    request_: dict[str, Any], reply: dict[str, Any], message: str
) -> None:
    with pytest.raises(ProtocolError, match=message):
        replies.play_of({"type": "play", "id": 7, **reply}, request_)


def test_hello_names_the_game_only_when_it_is_not_cabrero() -> None:
    assert "game" not in protocol.hello(1, "ana", {})
    assert protocol.hello(1, "ana", {}, "tute-parejas")["game"] == "tute-parejas"


# ---------------------------------------------------------------- rules from the command line


def test_each_game_takes_its_own_options() -> None:
    assert games.spec("parejas").checked_rules("espanol", juegos=3) == ParejasRules("espanol", 3)
    assert games.spec("parejas").checked_rules() == ParejasRules("ludoteka", 4)
    with pytest.raises(RulesError, match="variant"):
        games.spec("parejas").checked_rules(variants=["cambio"])
    with pytest.raises(RulesError, match="juegos"):
        games.spec("cabrero").checked_rules(juegos=3)
    with pytest.raises(RulesError, match="ludoteka"):
        games.spec("cabrero").checked_rules("ludoteka")


# ---------------------------------------------------------------- sides


def test_a_result_by_seat_becomes_one_by_side(tmp_path: Path) -> None:
    teams = ((0, 2), (1, 3))
    first, second = tmp_path / "a.incident-1.txt", tmp_path / "a.incident-3.txt"
    first.write_text("one\n")
    second.write_text("two\n")
    stats = [
        {
            "manos": 3,
            "manos_perdidas": 2,
            "porotos_perdidos": 2,
            "capotes": 0,
            "tutes": 0,
            "cantos": c,
            "faults": f,
            "reply_cpu_ms": [float(s)],
            "won": False,
            "place": 0.0,
        }
        for s, (c, f) in enumerate([(1, []), (0, ["renuncio"]), (2, []), (0, ["renuncio"])])
    ]
    result = {
        "players": ["ana", "bea", "ana#2", "bea#2"],
        "winners": [0, 2],
        "ranking": [[0, 2], [3], [1]],  # seat 1 disqualified last, its partner above it
        "manos": 3,
        "scores": [4, 2, 4, 2],
        "faults": [{"mano": 3, "seat": 1, "reason": "renuncio", "detail": "x", "penalized": False}],
        "reply_ms": [[1.0], [2.0], [3.0], [4.0]],
        "stats": stats,
    }
    once = games.spec("parejas").team_counts
    out, files = by_side(result, {1: first, 3: second}, ["ana", "bea"], teams, once)
    assert out["players"] == ["ana", "bea"]
    assert out["winners"] == [0] and out["ranking"] == [[0], [1]]
    assert out["scores"] == [4, 2]
    assert out["faults"][0]["seat"] == 1
    assert out["reply_ms"] == [[1.0, 3.0], [2.0, 4.0]]
    assert out["stats"][0]["cantos"] == 3 and out["stats"][0]["manos"] == 3  # cantos add up, manos do not
    assert out["stats"][0]["porotos_perdidos"] == 2  # the pair's porotos, once (the game's team count)
    assert out["stats"][1]["capotes"] == 0 and set(out["stats"][1]) >= set(stats[0]) - {"reply_ms"}
    assert out["stats"][1]["faults"] == ["renuncio", "renuncio"] and out["stats"][1]["place"] == 2.0
    assert out["stats"][0]["won"] and not out["stats"][1]["won"]
    assert files == {1: first} and first.read_text() == "one\ntwo\n" and not second.exists()
    assert end_by_side(
        {"type": "partido_end", "winners": [0, 2], "ranking": [[0, 2], [3], [1]]}, out["sides"]
    ) == {"type": "partido_end", "winners": [0], "ranking": [[0], [1]]}
    assert seat_specs(["ana", "bea"], teams) == ["ana", "bea", "ana", "bea"]
    assert seat_sides(teams) == [0, 1, 0, 1]


# ---------------------------------------------------------------- a partido of pairs


class _Recorder(ParejasPlayer):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[dict[str, Any]] = []

    def handle_hello(self, msg: dict[str, Any]) -> str:
        self.seen.append(msg)
        return super().handle_hello(msg)

    def handle_event(self, event: dict[str, Any]) -> None:
        self.seen.append(event)
        super().handle_event(event)

    def play(self, request: ParejasRequest) -> str | None:
        return request.legal[0] if request.kind == "card" else None


def test_hello_and_partido_start_name_the_game_seats_and_teams() -> None:
    players = [_Recorder() for _i in range(4)]
    result = play_partido(players, 3, ruleset=ParejasRules("ludoteka", 1), game="tute-parejas")
    assert result.winners in ([0, 2], [1, 3])
    for seat, p in enumerate(players):
        hello = p.seen[0]
        start = next(e for e in p.seen if e["type"] == "partido_start")
        assert hello["type"] == "hello" and hello["game"] == "tute-parejas"
        assert (
            start["game"] == "tute-parejas" and start["teams"] == [[0, 2], [1, 3]] and start["seat"] == seat
        )
        assert start["rules"] == {"ruleset": "ludoteka", "juegos": 1, "renuncio": "disqualify"}
        for e in p.seen:  # never another seat's hand
            assert "hands" not in e


def test_a_partido_of_pairs_in_processes_keeps_its_seats_in_the_replay(tmp_path: Path) -> None:
    specs = [find_player(PAIRS / "heuristica"), find_player(PAIRS / "random_legal")]
    replay = tmp_path / "p.jsonl"
    result, incidents = play_folders(
        seat_specs(specs, ((0, 2), (1, 3))),
        8,
        ruleset=ParejasRules("espanol", 2),
        replay=replay,
        game="tute-parejas",
    )
    events = [json.loads(line) for line in replay.read_text().splitlines()]
    head, end = events[0], events[-1]
    assert head["game"] == "tute-parejas" and head["teams"] == [[0, 2], [1, 3]]
    assert [p["name"] for p in head["players"]] == [
        "heuristica",
        "random_legal",
        "heuristica#2",
        "random_legal#2",
    ]
    assert end["type"] == "partido_end" and end["winners"] == result.winners and not result.faults
    assert not incidents and max(end["juegos"]) >= 2
    assert all(len(times) > 0 for times in result.reply_ms)  # four processes, each replied


@pytest.mark.parametrize(
    ("bot", "reason"), [("pareja_renuncio", "renuncio"), ("pareja_sings_anyway", "protocol")]
)
def test_a_faulty_player_loses_the_partido_for_its_pair(tmp_path: Path, bot: str, reason: str) -> None:
    specs = [find_player(PAIRS / "random_legal"), find_player(BOTS / bot)]
    replay = tmp_path / "p.jsonl"
    result, incidents = play_folders(
        seat_specs(specs, ((0, 2), (1, 3))),
        4,
        ruleset=ParejasRules("ludoteka"),
        replay=replay,
        game="tute-parejas",
    )
    assert result.winners == [0, 2]
    assert [(f.seat % 2, f.reason, f.penalized) for f in result.faults] == [(1, reason, False)]
    assert set(incidents) == {result.faults[0].seat}


# ---------------------------------------------------------------- torneos of pairs


@pytest.fixture(scope="module")
def entrants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("pairs")
    for name in ("heuristica", "random_legal"):
        shutil.copytree(PAIRS / name, root / name)
    shutil.copytree(BOTS / "pareja_renuncio", root / "tramposa")
    return root


@pytest.fixture(scope="module")
def torneo(entrants: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("torneo") / "t"
    args = [
        str(entrants),
        "--game",
        "parejas",
        "--ruleset",
        "espanol",
        "--juegos",
        "2",
        "--seed",
        "5",
        "--duplicate",
        "--workers",
        "2",
        "--out",
        str(out),
    ]
    run = CliRunner().invoke(tournament, args)
    assert run.exit_code == 0, run.output
    assert "Tute por parejas" in run.output
    return out


def test_every_two_entrants_meet_on_the_same_deals_with_the_pairs_swapped(torneo: Path) -> None:
    with Store.open(torneo) as store:
        results = store.results()
        assert store.config()["game"] == "tute-parejas"
    assert len(results) == 6  # 3 pairs of entrants, each deal twice
    by_deal: dict[Any, list[tuple[int, ...]]] = {}
    for r in results:
        by_deal.setdefault(r.seed, []).append(tuple(r.seats))
        assert len(r.players) == 2 and len(r.seats) == 2
    assert all(sorted(s) == sorted([s[0], s[0][::-1]]) for s in by_deal.values())


def test_the_store_counts_sides_and_the_replays_keep_seats(torneo: Path) -> None:
    with Store.open(torneo) as store:
        names = [e.name for e in store.entrants()]
        cheat = names.index("tramposa")
        for r in store.results():
            events = [json.loads(line) for line in (torneo / r.replay).read_text().splitlines()]
            assert len(events[0]["players"]) == 4 and events[0]["teams"] == [[0, 2], [1, 3]]
            if cheat in r.seats:  # the renuncio loses the partido for its pair, at once
                assert r.winner_entrants != (cheat,) and cheat in r.disqualified_entrants
                assert [(f.entrant, f.reason) for f in r.faults] == [(cheat, "renuncio")]
            else:
                assert not r.faults
    db = sqlite3.connect(torneo / "torneo.sqlite")
    lost = "json_extract(counts, '$.porotos_perdidos')"  # schema 4: the game's counts
    rows = db.execute(f"SELECT partido, seat, entrant, {lost} FROM seats ORDER BY partido, seat").fetchall()
    porotos = dict(db.execute("SELECT id, porotos FROM partidos").fetchall())
    db.close()
    assert len(rows) == 12  # two sides a partido
    for partido, seat, _entrant, lost in rows:
        assert lost == json.loads(porotos[partido])[1 - seat]  # the juegos the other pair won


def test_a_torneo_of_pairs_has_a_workbook_and_resumes_to_nothing(torneo: Path) -> None:
    assert (torneo / "standings.xlsx").is_file()
    again = CliRunner().invoke(tournament, ["--resume", str(torneo)])
    assert again.exit_code == 0, again.output
    with Store.open(torneo) as store:
        assert len(store.results()) == 6


def test_the_command_refuses_options_of_the_other_game(entrants: Path, tmp_path: Path) -> None:
    for args, word in (
        (["--game", "parejas", "--table-size", "4"], "--table-size"),
        (["--juegos", "3"], "--juegos"),
        (["--game", "parejas", "--variant", "cambio"], "--variant"),
        (["--game", "parejas", "--ruleset", "cabrero-2002"], "cabrero-2002"),
    ):
        run = CliRunner().invoke(tournament, [str(entrants), "--out", str(tmp_path / "x"), *args])
        assert run.exit_code == 2 and word in run.output, run.output
        assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------- arena check --game parejas


def test_check_plays_a_pair_of_the_folder_against_the_sample_pairs(tmp_path: Path) -> None:
    run = CliRunner().invoke(
        check,
        [
            str(PAIRS / "heuristica"),
            "--game",
            "parejas",
            "--partidos",
            "2",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert run.exit_code == 0, run.output
    assert len(list((tmp_path / "c").glob("partido-*.jsonl"))) == 2


def test_a_cabrero_player_checked_as_a_pair_is_told_why_it_fails(tmp_path: Path) -> None:
    run = CliRunner().invoke(
        check,
        [
            str(ROOT / "sample_players" / "a_mas"),
            "--game",
            "parejas",
            "--partidos",
            "1",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert run.exit_code == 1, run.output
    assert "ParejasPlayer" in run.output


# ---------------------------------------------------------------- replays re-checked against the seed


def revalidate(events: list[dict[str, Any]]) -> None:
    """Re-play a replay's decisions on a fresh engine dealt from its seed: the same lines come out.

    Passes are not written to a replay: where the engine asks to sing or to give up and the
    replay's next decision is not that seat's canto or tirar, the seat passed.
    """
    from arena.parejas.engine import PLAY_PHASE, SING_PHASE, ParejasPartido

    head = events[0]
    assert head["game"] == "tute-parejas" and head["teams"] == [[0, 2], [1, 3]]
    p = ParejasPartido(4, head["seed"], head["rules"], deal=False)
    lines = [{k: v for k, v in e.items() if k not in ("ms", "cpu_ms")} for e in events[1:]]
    decisions = [e for e in lines if e["type"] in ("played", "sang", "conceded", "disqualified", "penalized")]
    first_deal = next((i for i, e in enumerate(lines) if e["type"] == "mano_start"), len(lines))
    for e in lines[:first_deal]:  # hello faults: judged before mano 1 is dealt
        if e["type"] == "disqualified":
            p.fault(e["seat"], e["reason"], e["detail"], **_evidence(e))
            decisions.remove(e)
    p.start()
    while not p.over:
        m = p.mano
        assert m is not None and decisions, "the replay ends before the partido does"
        nxt, seat = decisions[0], m.turn
        if nxt["type"] in ("disqualified", "penalized") and (nxt["seat"] == seat or m.phase == PLAY_PHASE):
            decisions.pop(0)  # (a seat asked to sing before the offender passed: no line)
            p.fault(nxt["seat"], nxt["reason"], nxt["detail"], **_evidence(nxt))
        elif m.phase == PLAY_PHASE:
            assert nxt == {"type": "played", "seat": seat, "card": nxt["card"]}
            decisions.pop(0)
            p.play(nxt["card"])
        elif m.phase == SING_PHASE and nxt["type"] == "sang" and nxt["seat"] == seat:
            decisions.pop(0)
            p.play(None, nxt["canto"])
        elif nxt["type"] == "conceded" and nxt["seat"] == seat:
            decisions.pop(0)
            p.play(None, "tirar")
        else:
            p.play(None)  # a pass
    assert p.events == lines


def _evidence(fault: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in fault.items() if k not in ("type", "seat", "reason", "detail")}


def test_every_replay_of_a_torneo_of_pairs_re_checks_against_its_seed(torneo: Path) -> None:
    with Store.open(torneo) as store:
        files = [torneo / r.replay for r in store.results()]
    for path in files:
        revalidate([json.loads(line) for line in path.read_text().splitlines()])


@pytest.mark.parametrize("ruleset", ["ludoteka", "espanol"])
def test_replays_of_both_rulesets_re_check_against_their_seeds(tmp_path: Path, ruleset: str) -> None:
    specs = [find_player(PAIRS / "heuristica"), find_player(PAIRS / "random_legal")]
    for seed in (1, 2):
        replay = tmp_path / f"{ruleset}-{seed}.jsonl"
        play_folders(
            seat_specs(specs, ((0, 2), (1, 3))),
            seed,
            ruleset=ParejasRules(ruleset, 3),
            replay=replay,
            game="tute-parejas",
        )
        revalidate([json.loads(line) for line in replay.read_text().splitlines()])


def test_a_replay_with_penalties_re_checks_against_its_seed(tmp_path: Path) -> None:
    specs = [find_player(PAIRS / "random_legal"), find_player(BOTS / "pareja_renuncio")]
    replay = tmp_path / "penalize.jsonl"
    result, _incidents = play_folders(
        seat_specs(specs, ((0, 2), (1, 3))),
        6,
        ruleset=ParejasRules("espanol", 4, "penalize"),
        replay=replay,
        game="tute-parejas",
    )
    assert result.faults and all(f.penalized and f.seat % 2 == 1 for f in result.faults)
    assert result.winners == [0, 2]  # every mano lost by penalty: 2 juegos each
    revalidate([json.loads(line) for line in replay.read_text().splitlines()])


def test_a_cluster_worker_plays_a_partido_of_pairs_like_a_local_one(
    torneo: Path, entrants: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Dask worker's task (run here): the same replay, the result by side, each seat's log back."""
    from arena.tournament import coordinator as t
    from arena.tournament.cluster import bundles, remote
    from arena.tournament.entrants import collect_entrants
    from arena.tournament.worker import PartidoTask

    monkeypatch.setenv(bundles.CACHE_VAR, str(tmp_path / "cache"))
    with Store.open(torneo) as store:
        config = t.Config.from_store(store.config())
        first = store.scheduled()[0]
        stored = store.results()[0]
    specs = collect_entrants([entrants])
    task = PartidoTask(
        first.id,
        first.seed,
        tuple(specs[e] for e in first.seats),
        config.rules,
        config.limits,
        "/nonexistent",
        config.sandbox,
        game=config.game,
    )
    packed = [bundles.pack(s.folder) for s in task.specs]
    out = remote.play_remote(task, [d for d, _ in packed], dict(packed))
    assert out["problem"] is None and out["error"] is None
    local = remote.materialize(out, tmp_path)
    assert local["result"]["players"] == list(stored.players) and local["result"]["winners"] == list(
        stored.winners
    )
    lines = [json.loads(x) for x in Path(local["replay"]).read_text().splitlines()]
    want = [json.loads(x) for x in (torneo / stored.replay).read_text().splitlines()]
    for e in lines + want:
        for key in ("ms", "cpu_ms", "elapsed_ms"):
            e.pop(key, None)
    assert lines == want, "the replay names the entrants' own folders, not the worker's cache"
    logs = sorted(p.name for p in Path(local["logs"]).iterdir())
    assert len(logs) == 4 and logs == sorted(p.name for p in (torneo / f"{stored.replay}.logs").iterdir())


def test_arena_play_seats_two_folders_as_pairs_and_tells_the_partido(tmp_path: Path) -> None:
    from arena.cli.partido import play

    replay = tmp_path / "p.jsonl"
    args = [
        str(PAIRS / "heuristica"),
        str(PAIRS / "random_legal"),
        "--game",
        "parejas",
        "--ruleset",
        "espanol",
        "--juegos",
        "2",
        "--seed",
        "4",
        "--replay",
        str(replay),
        "--lang",
        "en",
    ]
    run = CliRunner().invoke(play, args)
    assert run.exit_code == 0, run.output
    assert "Pairs: heuristica (0) + heuristica#2 (2) | random_legal (1) + random_legal#2 (3)" in run.output
    assert "juegos: " in run.output and "End of the partido" in run.output
    head = json.loads(replay.read_text().splitlines()[0])
    assert [p["name"] for p in head["players"]] == [
        "heuristica",
        "random_legal",
        "heuristica#2",
        "random_legal#2",
    ]
    three = CliRunner().invoke(play, [str(PAIRS / "heuristica")] * 3 + ["--game", "parejas"])
    assert three.exit_code == 2 and "4" in three.output
