"""``arena standings DIR`` on real torneo folders: finished, foreign, and with the workbook rebuilt."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from arena.cli import main
from tests.paths import ROOT

pytestmark = pytest.mark.usefixtures("player_processes")  # its torneos start player processes

SAMPLES = ("random_legal", "a_mas", "a_menos")


@pytest.fixture(scope="module")
def torneo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("torneo")
    players = base / "players"
    for name in SAMPLES:
        shutil.copytree(ROOT / "sample_players" / name, players / name)
    out = base / "out"
    done = CliRunner().invoke(
        main,
        [
            "tournament",
            str(players),
            "--out",
            str(out),
            "--table-size",
            "3",
            "--rounds",
            "2",
            "--workers",
            "1",
            "--seed",
            "5",
        ],
        catch_exceptions=False,
    )
    assert done.exit_code == 0, done.output
    assert "Planilla:" in done.output and (out / "standings.xlsx").is_file()
    return out


def test_standings_rebuilds_the_workbook_and_csvs(torneo: Path) -> None:
    (torneo / "standings.xlsx").unlink()
    done = CliRunner().invoke(main, ["standings", str(torneo), "--csv"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert done.output.splitlines()[0] == "2 de 2 partidos jugados (completo)"
    wb = openpyxl.load_workbook(torneo / "standings.xlsx")
    pos = wb["Posiciones"]
    top = openpyxl.utils.range_boundaries(pos.auto_filter.ref)[1]
    assert top == 1  # the header on the first row; what the order establishes, on the Notas sheet
    notes = [r for r in wb["Notas"].iter_rows(min_row=2, values_only=True) if r[0] == "Posiciones"]
    assert notes[0][1].startswith("Los partidos separan ")
    assert "Diseño de asientos: equilibrado: " in done.output  # which seating design was used
    names = {pos.cell(r, 2).value for r in range(top + 1, pos.max_row + 1)}
    assert names == set(SAMPLES)
    column = [c.value for c in pos[top]].index("Partidos jugados") + 1
    played = [pos.cell(r, column).value for r in range(top + 1, pos.max_row + 1)]
    assert played == [2, 2, 2]
    partidos = wb["Partidos"]
    assert partidos.max_row == 3 and partidos.cell(2, 1).value == "p0001"
    with (torneo / "csv" / "posiciones.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert [r[1] for r in rows[1:]] == [pos.cell(r, 2).value for r in range(top + 1, pos.max_row + 1)]
    conf = {r[0]: r[1] for r in wb["Configuración"].iter_rows(min_row=2, values_only=True)}
    assert conf["aislamiento de los jugadores (--sandbox)"] in ("bwrap", "rlimits", "none")
    assert conf["semilla explícita (--seed)"] == "5"
    assert (
        conf["diseño de asientos"].startswith("equilibrado: ")
        and "medido: los asientos de un participante difieren en a lo sumo" in conf["diseño de asientos"]
    )


def test_standings_in_english(torneo: Path) -> None:
    done = CliRunner().invoke(main, ["standings", str(torneo), "--lang", "en"], catch_exceptions=False)
    assert done.exit_code == 0
    assert done.output.splitlines()[0] == "2 of 2 partidos played (complete)"
    pos = openpyxl.load_workbook(torneo / "standings-en.xlsx")["Posiciones"]  # standings.xlsx stays Spanish
    assert pos.cell(openpyxl.utils.range_boundaries(pos.auto_filter.ref)[1], 2).value == "Player"


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("es", "Ordenados por la fuerza estimada (Plackett–Luce sobre la clasificación completa"),
        ("en", "Ordered by estimated strength (Plackett–Luce over each partido's full ranking"),
    ],
)
def test_the_terminal_table_says_what_orders_it(torneo: Path, lang: str, line: str) -> None:
    """Right under the table's last row: the order is the strength, so 1st may have fewer wins than 2nd."""
    done = CliRunner().invoke(main, ["standings", str(torneo), "--lang", lang], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    rule = next(i for i, text in enumerate(lines) if text.startswith("---") and set(text) <= {"-", " "})
    assert [lines[rule + 1 + i].split()[0] for i in range(len(SAMPLES))] == ["1", "2", "3"]
    under = lines[rule + 1 + len(SAMPLES)]
    assert under.startswith(line)
    assert "not by wins" in under or "no por ganados" in under


def test_standings_of_a_foreign_folder_is_one_clear_line(tmp_path: Path) -> None:
    done = CliRunner().invoke(main, ["standings", str(tmp_path)])
    assert done.exit_code == 1
    assert done.output.strip().splitlines() == [
        f"Error: {tmp_path}: no es la carpeta de un torneo (no tiene torneo.sqlite)"
    ]
    (tmp_path / "torneo.sqlite").write_text("not a database")
    done = CliRunner().invoke(main, ["standings", str(tmp_path)])
    assert done.exit_code == 1 and "no es el almacén de un torneo de tute-arena" in done.output


def test_xls_without_libreoffice_says_so_in_one_line(torneo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    done = CliRunner().invoke(main, ["standings", str(torneo), "--xls"], catch_exceptions=False)
    assert done.exit_code == 0
    assert "LibreOffice no está instalado: no se escribió el .xls; el .xlsx sí se escribió" in done.output
