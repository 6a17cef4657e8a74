"""The proof of the game seam: Nim de montones, a game with string moves and no cards, registered from
outside ``arena/`` through the entry-point group ``arena.games``, passes the conformance library and
plays ``arena play``, ``arena check``, ``arena tournament``, the workbook and the site; no file under
``arena/`` names it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from nim_game.engine import NimPartido
from nim_game.spec import SPEC

from arena.check import conformance
from arena.errors import FaultError
from arena.protocol import ProtocolError
from tests.newgame import register

SAMPLES = Path(__file__).resolve().parent / "nim_game" / "samples"
ROOT = Path(__file__).resolve().parents[2]


def test_nim_passes_the_conformance_library() -> None:
    assert conformance.check_game(SPEC, seeds=range(8)) == 8 * len(list(conformance.cases(SPEC)))


def test_a_move_is_a_string_read_from_the_reply_and_judged_by_the_engine() -> None:
    p = NimPartido(2, 7)
    request = {**p.request(), "id": 3}
    assert SPEC.read_reply({"type": "play", "id": 3, "take": "0:1"}, request) == "0:1"
    with pytest.raises(ProtocolError, match="card"):  # a Tute reply is not a Nim reply
        SPEC.read_reply({"type": "play", "id": 3, "card": "1-oro"}, request)
    with pytest.raises(ProtocolError, match="take"):
        SPEC.read_reply({"type": "play", "id": 3}, request)
    with pytest.raises(FaultError) as fault:
        p.act(f"0:{p.heaps[0] + 1}")  # more than the heap holds
    assert fault.value.reason == "illegal"


def _arena(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "arena", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=600
    )


def test_the_entry_point_registers_it_and_a_broken_one_is_named(tmp_path: Path) -> None:
    env = register.environment(tmp_path / "site")
    code = "from arena import games; print(games.names())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert "'nim'" in out.stdout and out.stdout.index("tute-cabrero") < out.stdout.index("nim")
    bad = tmp_path / "bad"
    info = bad / "broken_game-1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-game\nVersion: 1\n")
    (info / "entry_points.txt").write_text("[arena.games]\nbroken = no_such_module:SPEC\n")
    env_bad = {**env, "PYTHONPATH": f"{bad}:{env['PYTHONPATH']}"}
    check = "from arena import games\ntry:\n    games.spec('broken')\nexcept ValueError as e:\n    print(e)"
    out = subprocess.run(
        [sys.executable, "-c", check], env=env_bad, capture_output=True, text=True, check=True
    )
    assert "broken" in out.stdout and "no_such_module" in out.stdout, out.stdout  # named, not hidden
    code = "from arena import games; print(len(games.specs()))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env_bad, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "4"  # the house's three and nim: a broken plug-in stops nothing


@pytest.mark.usefixtures("player_processes")
def test_nim_plays_arena_play_and_a_tournament_with_its_workbook_and_site(tmp_path: Path) -> None:
    env = register.environment(tmp_path / "site")
    replay = tmp_path / "uno.jsonl"
    run = _arena(
        ["play", "--game", "nim", "--replay", str(replay), str(SAMPLES / "azar"), str(SAMPLES / "optimo")],
        env,
        tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "takes the last counter" in run.stdout
    events = [json.loads(line) for line in replay.read_text().splitlines()]
    assert events[0]["game"] == "nim" and events[-1]["type"] == "partido_end"
    assert all("ms" in e for e in events if e["type"] == "took")  # the referee stamps the game's reply event

    run = _arena(["check", "--game", "nim", "--lang", "en", str(SAMPLES / "optimo")], env, tmp_path)
    assert run.returncode == 0 and "CLEAN" in run.stdout, run.stdout + run.stderr  # its samples found

    out = tmp_path / "torneo"
    folders = [str(SAMPLES / s) for s in ("azar", "optimo", "primero")]
    run = _arena(
        ["tournament", "--game", "nim", "--out", str(out), "--table-size", "2", "--rounds", "2", *folders],
        env,
        tmp_path,
    )
    assert run.returncode == 0, run.stderr
    posiciones = pd.read_excel(out / "standings.xlsx", sheet_name="Posiciones")
    assert {"Manos won", "Counters taken per 100 manos", "Desc. illegal move"} <= set(posiciones.columns)
    assert "Porotos lost per 100 manos" not in posiciones.columns and "Tutes" not in posiciones.columns
    assert posiciones["Manos won"].sum() == sum(
        1
        for r in (out / "replays").glob("*.jsonl")
        for line in r.read_text().splitlines()
        if '"mano_end"' in line
    )
    assert posiciones.iloc[0]["Jugador"] == "optimo"  # nim-sum play wins at two seats
    pages = list((out / "web" / "partidos").glob("*.html"))
    assert pages and all('src="../assets/game-nim.js"' in page.read_text() for page in pages)
    assert (out / "web" / "assets" / "game-nim.js").read_text() == (
        SAMPLES.parent / "viewer_nim.js"
    ).read_text()


def test_no_file_under_arena_names_the_proof_game() -> None:
    named = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "arena").rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".js", ".po", ".html", ".css")
        and (
            "nim_game" in path.read_text(encoding="utf-8", errors="replace")
            or "Nim de montones" in path.read_text(encoding="utf-8", errors="replace")
        )
    ]
    assert named == []
