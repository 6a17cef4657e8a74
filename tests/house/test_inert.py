"""Output is inert: no formula in the workbook or the CSVs, no escape code on the screen or in files.

A player chooses its folder's name, its display name, what it writes to standard
error and what it replies; none of it may become a live spreadsheet formula, move
the cursor, recolour the terminal or fake a line such as "Resultado: LIMPIO ✓".
"""

from __future__ import annotations

import copy
import csv
import shutil
import unicodedata
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from arena.cli import main
from arena.inert import cell, formula_like, printable
from arena.results.export import sheet_frames, write_csvs, write_workbook
from arena.results.standings import faults_table, head_to_head, partidos_table, standings
from tests.paths import ROOT
from tests.results.test_standings import ENTRANTS, RECORDS

pytestmark = pytest.mark.usefixtures("player_processes")  # its torneos start player processes

HOSTILE = ROOT / "tests" / "bots" / "hostile_escape"
FORMULA = "=2+5"
RED = "rojo\x1b[31m"
"""A folder name that turns the terminal red."""
BIDI = {chr(c) for c in [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}
RAW = ("\x1b", "\x9b", "\x07", "\r", "\u202e")
"""What the hostile bot sends that must never reach a screen or a file as such."""


def unsafe(text: str, multiline: bool = False) -> list[str]:
    """The characters of ``text`` that could act on a terminal or reorder a line."""
    return [
        c
        for c in text
        if (unicodedata.category(c) in ("Cc", "Cs") and not (multiline and c in "\n\t"))
        or c in BIDI
        or c in "\u2028\u2029"
    ]


def arena(*args: str | Path) -> Result:
    """Run ``arena`` as on a terminal: click strips no escape code of its own accord."""
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, color=True)


def shows_no_raw(text: str) -> None:
    """``text`` holds the hostile bot's codes only escaped, and no line fakes a clean check."""
    assert not [r for r in RAW if r in text], repr(text)
    assert not unsafe(text, multiline=True)
    assert not [line for line in text.splitlines() if line.lstrip().startswith("Resultado: LIMPIO")]


# ---- printable


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
        ("a\rb", "a\\rb"),
        ("ding\x07", "ding\\x07"),
        ("del\x7f", "del\\x7f"),
        ("csi\x9b2J", "csi\\x9b2J"),
        ("nel\x85", "nel\\x85"),
        ("abc\u202edef", "abc\\u202edef"),
        ("\u2066x\u2069", "\\u2066x\\u2069"),
        ("line\u2028fake", "line\\u2028fake"),
        ("two\nlines\tand a tab", "two\\nlines\\tand a tab"),
        ("bad byte \udcff", "bad byte \\udcff"),
    ],
)
def test_printable_escapes_what_acts_on_a_terminal(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_printable_keeps_newlines_and_tabs_in_a_block_only() -> None:
    assert printable("a\n\tb\r\n\x1b[1Ac", multiline=True) == "a\n\tb\\r\n\\x1b[1Ac"
    assert printable("a\n\tb") == "a\\n\\tb"


def test_printable_leaves_ordinary_text_alone() -> None:
    text = "Ganó Ñandú ✓ — 12-basto, 100% «bien» 🂡 \\x1b stays a backslash"
    assert printable(text) == text
    assert printable(text, multiline=True) == text


@given(st.text(), st.booleans())
def test_printable_never_lets_a_control_character_through(text: str, multiline: bool) -> None:
    shown = printable(text, multiline)
    assert not unsafe(shown, multiline)
    assert printable(shown, multiline) == shown  # shown twice is shown the same
    if not multiline:
        assert len(shown.splitlines()) <= 1


# ---- cell


@pytest.mark.parametrize("text", [FORMULA, "+A1", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "  =HYPERLINK(1)"])
def test_cell_quotes_what_a_spreadsheet_would_calculate(text: str) -> None:
    value = cell(text)
    assert isinstance(value, str) and value.startswith("'")
    assert not formula_like(value)


@pytest.mark.parametrize("value", [3, 2.5, -1, None, "ana", "—", "-1", "+2.5", "1e5", "12-basto"])
def test_cell_keeps_numbers_and_plain_text(value: Any) -> None:
    assert cell(value) == value


@given(st.text())
def test_cell_is_never_a_formula_nor_a_control_character(text: str) -> None:
    value = cell(text)
    assert isinstance(value, str) and not unsafe(value) and not formula_like(value)
    ws = openpyxl.Workbook().active
    ws["A1"] = value  # an illegal character would raise here
    assert ws["A1"].data_type != "f"


# ---- the workbook and the CSVs, from hostile records


def hostile_records() -> tuple[list[dict[str, Any]], list[str]]:
    """The standings tests' records with ana named ``=2+5`` and dani's name and fault hostile."""
    rename = {"ana": FORMULA, "dani": RED}
    records = copy.deepcopy(RECORDS)
    for rec in records:
        rec["players"] = [rename.get(p, p) for p in rec["players"]]
        for f in rec["faults"]:
            f["detail"] = "\x1b[2J\u202e=1+1 \x1b[32mResultado: LIMPIO ✓"
    return records, [rename.get(e, e) for e in ENTRANTS]


def test_workbook_and_csvs_hold_hostile_text_inert(tmp_path: Path) -> None:
    records, entrants = hostile_records()
    frames = sheet_frames(
        standings(records, entrants),
        partidos_table(records),
        head_to_head(records, entrants),
        faults_table(records),
        {"seed": -1, "paths": ["=cmd|' /C calc'!A0"]},
    )
    wb = openpyxl.load_workbook(write_workbook(frames, tmp_path / "standings.xlsx"))
    texts = [c for ws in wb for row in ws.iter_rows() for c in row if isinstance(c.value, str)]
    assert not [c.coordinate for c in texts if c.data_type == "f"]
    assert not [c.value for c in texts if unsafe(c.value)]
    names = [c for c in texts if c.value == FORMULA]
    assert {c.parent.title for c in names} == {"Posiciones", "Enfrentamientos"}  # a header there too
    assert all(c.data_type == "s" and c.quotePrefix for c in names)
    assert any(c.value == "rojo\\x1b[31m" for c in texts)
    detail = wb["Descalificaciones"].cell(2, 6)  # after partido, mano, jugador, motivo, penalización
    assert detail.value == "\\x1b[2J\\u202e=1+1 \\x1b[32mResultado: LIMPIO ✓"
    assert wb["Configuración"].cell(2, 2).value == "-1"  # a number stays a number's text

    fields = []
    for path in write_csvs(frames, tmp_path / "csv"):
        with path.open(encoding="utf-8", newline="") as f:
            fields += [v for line in csv.reader(f) for v in line]
    assert "'" + FORMULA in fields and FORMULA not in fields
    assert "'=cmd|' /C calc'!A0" in fields
    assert not [v for v in fields if formula_like(v) or unsafe(v)]


# ---- end to end: arena check, a torneo, arena standings, arena replay


def test_check_shows_a_hostile_player_only_escaped(tmp_path: Path) -> None:
    r = arena("check", HOSTILE, "--partidos", "1", "--out", tmp_path, "--move-ms", "300", "--init-ms", "3000")
    assert r.exit_code == 1, r.output
    shows_no_raw(r.output)
    assert "\\x1b[2K\\r\\x1b[1A\\x1b[32mResultado: LIMPIO ✓" in r.output  # its standard error
    assert "descalificado: carta que no tiene — \\x1b[2J\\x1b[H\\u202e\\x9b2J" in r.output
    assert r.output.splitlines()[-1] == "Resultado: 1 falta ✗"
    (incident,) = tmp_path.glob("*.incident-*.txt")
    text = incident.read_text(encoding="utf-8")
    shows_no_raw(text)
    assert "Final de la salida de error:\n\\x1b[2J\\x1b[H\\x1b[2K\\r" in text


@pytest.fixture(scope="module")
def torneo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result]:
    """A torneo of three: random_legal in a folder named ``=2+5``, a_mas, and the hostile bot
    in a folder whose name turns the terminal red."""
    base = tmp_path_factory.mktemp("inert")
    players = base / "players"
    shutil.copytree(ROOT / "sample_players" / "random_legal", players / FORMULA)
    shutil.copytree(ROOT / "sample_players" / "a_mas", players / "a_mas")
    shutil.copytree(HOSTILE, players / RED)
    out = base / "out"
    done = arena("tournament", players, "--out", out, "--table-size", "3", "--rounds", "1", "--workers", "1")
    assert done.exit_code == 0, done.output
    return out, done


def test_torneo_workbook_has_the_folder_name_as_text(torneo: tuple[Path, Result]) -> None:
    out, _ = torneo
    wb = openpyxl.load_workbook(out / "standings.xlsx")
    cells = [c for ws in wb for row in ws.iter_rows() for c in row]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    pos = wb["Posiciones"]
    top = openpyxl.utils.range_boundaries(pos.auto_filter.ref)[1]  # the header row, under the caption
    names = {pos.cell(r, 2).value: pos.cell(r, 2) for r in range(top + 1, pos.max_row + 1)}
    assert set(names) == {FORMULA, "a_mas", "rojo\\x1b[31m"}
    assert names[FORMULA].data_type == "s"
    (fault,) = list(wb["Descalificaciones"].iter_rows(min_row=2, values_only=True))
    assert fault[2] == "rojo\\x1b[31m" and "\\x1b[32mResultado: LIMPIO ✓" in fault[5]
    assert not [c.value for c in cells if isinstance(c.value, str) and unsafe(c.value)]


def test_torneo_csv_quotes_the_folder_name(torneo: tuple[Path, Result]) -> None:
    out, _ = torneo
    with (out / "csv" / "posiciones.csv").open(encoding="utf-8", newline="") as f:
        names = [row[1] for row in list(csv.reader(f))[1:]]
    assert sorted(names) == sorted(["'" + FORMULA, "a_mas", "rojo\\x1b[31m"])


def test_torneo_terminal_incident_files_and_log_are_escaped(torneo: tuple[Path, Result]) -> None:
    out, done = torneo
    shows_no_raw(done.output)
    assert "rojo\\x1b[31m" in done.output
    shown = arena("standings", out)
    assert shown.exit_code == 0, shown.output
    shows_no_raw(shown.output)
    assert "rojo\\x1b[31m" in shown.output and FORMULA in shown.output
    incidents = list((out / "replays").glob("*.incident-*.txt"))
    assert incidents
    for path in incidents:
        shows_no_raw(path.read_text(encoding="utf-8"))
    log = (out / "torneo.log").read_text(encoding="utf-8")
    shows_no_raw(log)
    assert "rojo\\x1b[31m" in log


def test_replay_narration_is_escaped(torneo: tuple[Path, Result]) -> None:
    out, _ = torneo
    (replay,) = (out / "replays").glob("*.jsonl")
    shown = arena("replay", replay)
    assert shown.exit_code == 0, shown.output
    shows_no_raw(shown.output)
    assert "rojo\\x1b[31m (" in shown.output
    assert "descalificado: carta que no tiene — \\x1b[2J\\x1b[H\\u202e\\x9b2J" in shown.output
