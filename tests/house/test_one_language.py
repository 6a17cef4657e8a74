"""A course run end to end speaks one language: Spanish by default, English with ``--lang en``.

A student's check of a broken player, a torneo with a submission that cannot start and a folder
that is no player, and the standings: every line printed and every text of the workbook (headers,
captions, Descalificaciones, Configuración) is searched for the other language's common words.
What the player itself wrote (its Python traceback) and the folder paths are left out.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from arena import i18n
from arena.cli import main
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"
OPTIONS = ["--table-size", "3", "--rounds", "1", "--seed", "3", "--workers", "1", "--move-ms", "3000"]
ENGLISH = {
    "the",
    "and",
    "with",
    "of",
    "player",
    "players",
    "failed",
    "folder",
    "cannot",
    "not",
    "is",
    "run",
    "scheduled",
    "committed",
    "seed",
    "won",
    "rank",
    "played",
    "lost",
    "import",
    "left",
    "out",
}
SPANISH = {
    "el",
    "la",
    "los",
    "las",
    "del",
    "que",
    "con",
    "jugador",
    "jugadores",
    "carpeta",
    "falló",
    "sin",
    "ganados",
    "perdidas",
    "semilla",
    "jugados",
    "puesto",
    "fuera",
    "queda",
    "importación",
}
OTHER = {"es": ENGLISH, "en": SPANISH}


def _field(root: Path) -> Path:
    field = root / "field"
    for name, sample in (("p1", "a_mas"), ("p2", "a_menos"), ("p3", "random_legal")):
        shutil.copytree(SAMPLES / sample, field / name)
    (field / "q9").mkdir()
    (field / "q9" / "player.py").write_text("import zz_missing\n")
    (field / "e0").mkdir()
    return field


def _words(text: str, root: Path) -> set[str]:
    text = text.replace(str(root), " ")
    text = re.sub(r"\w*(Error|Exception)\b.*", " ", text)  # the player's own traceback
    text = re.sub(r"\S*/\S*", " ", text)  # paths
    text = re.sub(r"--[\w-]+", " ", text)  # option names
    return {w.lower() for w in re.findall(r"[^\W\d_]+", text)}


def _workbook_texts(path: Path) -> str:
    wb = openpyxl.load_workbook(path)
    cells = [str(c) for ws in wb for row in ws.iter_rows(values_only=True) for c in row if isinstance(c, str)]
    return "\n".join(cells)


@pytest.mark.usefixtures("run_token")
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_course_run_speaks_one_language(lang: str, tmp_path: Path) -> None:
    field = _field(tmp_path)
    out = tmp_path / "torneo"
    runner = CliRunner()
    flag = [] if lang == i18n.DEFAULT else ["--lang", lang]
    check = runner.invoke(main, [*flag, "check", str(field / "q9"), "--partidos", "3"])
    torneo = runner.invoke(main, [*flag, "tournament", str(field), "--out", str(out), *OPTIONS])
    assert torneo.exit_code == 0, torneo.output
    standings = runner.invoke(main, ["standings", str(out), *flag])
    assert standings.exit_code == 0, standings.output
    workbook = out / ("standings.xlsx" if lang == i18n.DEFAULT else f"standings-{lang}.xlsx")
    texts = {
        "check": check.output,
        "tournament": torneo.output,
        "standings": standings.output,
        "workbook": _workbook_texts(workbook),
    }
    assert "zz_missing" in texts["check"] and "zz_missing" in texts["workbook"]
    for where, text in texts.items():
        strays = _words(text, tmp_path) & OTHER[lang]
        assert not strays, f"{where} in {lang!r} has {sorted(strays)}:\n{text}"


def _run(args: list[str]) -> str:
    """The output of ``arena ARGS`` as a new process would give it (starting in the default language)."""
    with i18n.speaking(i18n.DEFAULT):
        return CliRunner().invoke(main, args).output


def test_help_and_click_errors_follow_the_language() -> None:
    spanish = _run(["play"])
    assert "Uso: " in spanish and "un partido necesita de 3 a 6 jugadores" in spanish
    english = _run(["play", "--lang", "en"])
    assert "Usage: " in english and "a partido needs 3 to 6 players" in english
    assert "Show this message and exit." in _run(["play", "--help", "--lang", "en"])
    assert "Show this message and exit." in _run(["--lang=en", "play", "--help"])
    assert "Mostrar este mensaje y salir." in _run(["play", "--help"])
    bad = _run(["play", "--renuncio", "nunca"])
    assert "Valor inválido" in bad, bad


def test_ARENA_LANG_chooses_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.ENV, "en")
    i18n.use("en")
    assert "Usage: " in CliRunner().invoke(main, ["play"]).output
