"""``arena check``, ``arena new`` and the student guide's ten-minute example, end to end."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from tests.paths import BOTS, ROOT

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

GUIDE = ROOT / "docs" / "student-guide.md"
FAST = ["--move-ms", "300", "--init-ms", "3000"]


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js) is not on PATH")


@pytest.mark.parametrize(
    "sample", ["random_legal", "a_mas", "a_menos", pytest.param("node_basico", marks=NODE)]
)
def test_check_is_clean_on_each_sample_player(sample: str, tmp_path: Path) -> None:
    r = arena("check", ROOT / "sample_players" / sample, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "Resultado: LIMPIO" in r.output
    assert len(re.findall(r"^Partido \d: .* sin faltas$", r.output, re.M)) == 3
    assert re.search(r"CPU por jugada \(\d+ jugadas\): mediana .* \(límite 1000 ms de CPU\)", r.output)
    assert re.search(r"Reloj por jugada \(\d+ jugadas\): mediana .* \(respaldo 3000 ms\)", r.output)


@pytest.mark.parametrize(
    ("bot", "reason"),
    [
        ("renuncio", "renuncio"),
        ("false_canto", "canto falso"),
        ("not_in_hand", "carta que no tiene"),
        ("garbage", "error de protocolo"),
        ("crash", "se cayó"),
        ("slow", "tiempo agotado"),
    ],
)
def test_check_names_the_fault_shows_the_incident_and_fails(bot: str, reason: str, tmp_path: Path) -> None:
    r = arena("check", BOTS / bot, "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code == 1, r.output
    assert f"descalificado: {reason}" in r.output
    assert "pista:" in r.output
    if bot in ("renuncio", "false_canto", "not_in_hand"):  # the request, the reply, the field at fault
        assert "La solicitud:" in r.output and "La respuesta:" in r.output and "respondió `{" in r.output
        assert "Últimas líneas del protocolo" not in r.output
    else:
        assert "Últimas líneas del protocolo" in r.output
    assert "Final de la salida de error:" in r.output
    assert list(tmp_path.glob("*.incident-*.txt"))
    assert "Resultado: 1 falta ✗" in r.output


def test_check_finds_replies_that_were_not_flushed(tmp_path: Path) -> None:
    r = arena(
        "check",
        BOTS / "no_flush",
        "--partidos",
        "1",
        "--out",
        tmp_path,
        "--move-ms",
        "200",
        "--init-ms",
        "500",
    )
    assert r.exit_code == 1
    assert "Aviso: no hace flush" in r.output


def test_check_says_where_prints_went_and_stays_clean(tmp_path: Path) -> None:
    r = arena("check", BOTS / "printer", "--partidos", "1", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "Aviso" not in r.output  # print() is harmless: the Python runner sends it to the log
    assert "Salida estándar: lo que tu jugador escribió con print() fue a su registro" in r.output


@pytest.mark.parametrize("bot", ["no_player", "bad_toml", "import_error", "no_class"])
def test_check_refuses_a_broken_folder_in_one_line(bot: str, tmp_path: Path) -> None:
    r = arena("check", BOTS / bot, "--out", tmp_path)
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line.startswith("Resultado")]
    assert len(lines) == 1 and bot in lines[0]


def test_new_refuses_to_overwrite_and_bad_names(tmp_path: Path) -> None:
    assert arena("new", "ana", "--dir", tmp_path).exit_code == 0
    again = arena("new", "ana", "--dir", tmp_path)
    assert again.exit_code != 0 and "ya existe" in again.output
    bad = arena("new", "9lives", "--dir", tmp_path)
    assert bad.exit_code != 0 and "empieza con una letra" in bad.output


def test_the_guides_ten_minute_example_end_to_end(tmp_path: Path) -> None:
    players = tmp_path / "players"
    r = arena("new", "ana", "--dir", players)
    assert r.exit_code == 0, r.output
    template = (players / "ana" / "player.py").read_text()
    assert "def play(" in template
    # the template works as it is
    assert arena("check", players / "ana", "--partidos", "1", "--out", tmp_path / "c0").exit_code == 0
    # fill in the one method with the guide's code
    text = GUIDE.read_text(encoding="utf-8")
    code = re.search(r"<!-- ten-minute-example -->\s*```python\n(.*?)```", text, re.S)
    assert code, "the guide's example is marked <!-- ten-minute-example -->"
    (players / "ana" / "player.py").write_text(code.group(1), encoding="utf-8")
    r = arena("check", players / "ana", "--out", tmp_path / "c1")
    assert r.exit_code == 0, r.output
    replay = tmp_path / "p.jsonl"
    r = arena(
        "play",
        players / "ana",
        ROOT / "sample_players/a_mas",
        ROOT / "sample_players/a_menos",
        "--replay",
        replay,
        "--seed",
        "3",
    )
    assert r.exit_code == 0, r.output
    assert "Fin del partido" in r.output and replay.is_file()
    shown = arena("replay", replay, "--mano", "1")
    assert shown.exit_code == 0 and "ana (0):" in shown.output
