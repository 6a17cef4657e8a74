"""The workbook on paper and on opening: print setup, captions, the chart under the table, the
English file beside the Spanish one, and a render through LibreOffice (when installed)."""

from __future__ import annotations

import html
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from openpyxl.utils import get_column_letter, range_boundaries

from arena import i18n
from arena.results import report
from arena.results.collusion import suspicions
from arena.results.export import SHEETS, headers, inert_frame, sheet_frames, write_csvs, write_workbook
from arena.results.standings import faults_table, head_to_head, pairwise_table, partidos_table, standings
from tests.helpers import audited

ENTRANTS = [f"jugador{i:02d}" for i in range(40)]
PARTIDOS = 240  # 24 partidos each at tables of 4: Partidos runs over several printed pages
FOOTER = {"es": "Página &P de &N", "en": "Page &P of &N"}


def seat(won: bool, place: float, faults: list[str]) -> dict[str, Any]:
    return {
        "manos": 5,
        "manos_perdidas": 2,
        "porotos_perdidos": 2,
        "capotes": 0,
        "tutes": 0,
        "cantos": 1,
        "faults": faults,
        "reply_ms": [1.0, 2.0],
        "won": won,
        "place": place,
    }


def synthetic_records() -> list[dict[str, Any]]:
    """Random strict rankings at tables of 4; every tenth partido's last place reneged."""
    rng = random.Random(14)
    records = []
    for k in range(1, PARTIDOS + 1):
        players = rng.sample(ENTRANTS, 4)
        order = rng.sample(range(4), 4)  # seats, best first
        faults = []
        if k % 10 == 0:
            faults = [{"mano": 2, "seat": order[-1], "reason": "renuncio", "detail": "jugó 1-copa"}]
        records.append(
            {
                "partido": f"p{k:04d}",
                "seed": rng.randrange(2**31),
                "players": players,
                "winners": [order[0]],
                "ranking": [[s] for s in order],
                "manos": 5,
                "faults": faults,
                "replay": f"replays/p{k:04d}.jsonl",
                "stats": [seat(s == order[0], order.index(s) + 1.0, faulty(faults, s)) for s in range(4)],
            }
        )
    return records


def faulty(faults: list[dict[str, Any]], seat: int) -> list[str]:
    return [f["reason"] for f in faults if f["seat"] == seat]


@pytest.fixture(scope="module")
def tables() -> tuple[pd.DataFrame, ...]:
    records = synthetic_records()
    return (
        standings(records, ENTRANTS),
        partidos_table(records),
        head_to_head(records, ENTRANTS),
        faults_table(records),
    )


@pytest.fixture(scope="module")
def spanish_book(tables: tuple[pd.DataFrame, ...], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Spanish workbook of :func:`frames`, written once for the tests that only read it."""
    with i18n.speaking("es"):
        return write_workbook(frames(tables, "es"), tmp_path_factory.mktemp("spanish") / "w.xlsx")


def frames(tables: tuple[pd.DataFrame, ...], lang: str) -> dict[str, pd.DataFrame]:
    theta = tables[0].set_index("entrant")["fuerza"].reindex(ENTRANTS).to_numpy(dtype=float)
    sospechas = suspicions(synthetic_records(), ENTRANTS, theta)
    with i18n.speaking(lang):
        return sheet_frames(
            *tables,
            {"seed": 7, "sandbox": "none"},
            pares=pairwise_table(tables[0]),
            sospechas=sospechas,
            auditoria=audited(ENTRANTS),
        )


def headers_in(lang: str) -> dict[str, str]:
    """The column headers by key in ``lang``."""
    with i18n.speaking(lang):
        return headers()


def header_row(ws: Any) -> int:
    """The table's header row: the first row of its filter."""
    return range_boundaries(ws.auto_filter.ref)[1]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_sheet_prints_a4_landscape_one_page_wide_with_its_titles(
    tables: tuple[pd.DataFrame, ...], lang: str, tmp_path: Path
) -> None:
    with i18n.speaking(lang):
        xlsx = write_workbook(frames(tables, lang), tmp_path / "w.xlsx")
    wb = openpyxl.load_workbook(xlsx)
    assert tuple(wb.sheetnames) == SHEETS
    names = {"Posiciones": "$A:$B", "Enfrentamientos": "$A:$A", "Pares": "$A:$A"}
    frozen = {"Posiciones": "C", "Enfrentamientos": "B", "Pares": "B"}
    for ws in wb:
        top = header_row(ws)
        assert top == 1, ws.title  # pandas.read_excel reads every sheet as it is
        setup = ws.page_setup
        assert (setup.orientation, setup.paperSize) == ("landscape", 9), ws.title  # 9: A4
        assert (setup.fitToWidth, setup.fitToHeight) == (1, 0), ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.print_title_rows == f"${top}:${top}", ws.title
        assert ws.print_title_cols == names.get(ws.title), ws.title
        assert ws.freeze_panes == f"{frozen.get(ws.title, 'A')}{top + 1}", ws.title
        m = ws.page_margins
        assert max(m.left, m.right, m.top, m.bottom) <= 0.6, ws.title
        assert (ws.oddHeader.center.text, ws.oddFooter.center.text) == ("&A", FOOTER[lang])
        assert all(c.font.bold for c in ws[top]), ws.title
    pos = wb["Posiciones"]
    assert pos.cell(header_row(pos), 2).value == headers_in(lang)["entrant"]  # the names print on every page
    assert wb.active.title == "Posiciones"
    assert [ws.title for ws in wb if ws.sheet_view.tabSelected] == ["Posiciones"]


def test_captions_are_on_the_notes_sheet_and_the_callers_replace_the_defaults(
    tables: tuple[pd.DataFrame, ...], spanish_book: Path, tmp_path: Path
) -> None:
    notes = pd.read_excel(spanish_book, sheet_name="Notas")
    assert list(notes.columns) == ["Hoja", "Nota"]
    said: dict[str, str] = {}
    for sheet, note in zip(notes["Hoja"], notes["Nota"], strict=True):
        said.setdefault(sheet, note)  # each sheet's first line
    assert said["Posiciones"].startswith("Ordenados por la fuerza estimada (modelo de Plackett–Luce")
    assert said["Enfrentamientos"].startswith(
        "Fila A, columna B: parte de los partidos que A y B jugaron juntos"
    )
    assert said["Pares"].startswith("Fila A, columna B: la parte de los remuestreos del bootstrap")
    pos = pd.read_excel(spanish_book, sheet_name="Posiciones")  # the header on row 1: read as it is
    assert list(pos.columns[:3]) == [headers_in("es")[k] for k in ("puesto", "entrant", "grupo")]
    assert list(pos[headers_in("es")["entrant"]]) == list(tables[0]["entrant"])

    mine = {"Partidos": ["Torneo de prueba", "=1+1"], "Posiciones": ["Solo esto"]}
    path = write_workbook(frames(tables, "es"), tmp_path / "w.xlsx", captions=mine)
    wb = openpyxl.load_workbook(path)
    rows = list(wb["Notas"].iter_rows(min_row=2, values_only=True))
    assert rows[:3] == [("Posiciones", "Solo esto"), ("Partidos", "Torneo de prueba"), ("Partidos", "=1+1")]
    assert wb["Notas"]["B4"].data_type == "s" and wb["Notas"]["B4"].quotePrefix  # a caller's text stays inert
    assert rows[3][0] == "Enfrentamientos"  # still the default
    assert header_row(wb["Partidos"]) == 1 and wb["Partidos"].freeze_panes == "A2"


def test_formats_filter_colour_scale_and_chart_follow_the_table(spanish_book: Path) -> None:
    h = headers_in("es")
    wb = openpyxl.load_workbook(spanish_book)
    ws = wb["Posiciones"]
    top, n = header_row(ws), len(ENTRANTS)
    head = [c.value for c in ws[top]]
    rate = get_column_letter(head.index(h["pct_ganados"]) + 1)
    names = get_column_letter(head.index(h["entrant"]) + 1)
    assert top == 1
    assert ws.auto_filter.ref == f"A{top}:{get_column_letter(len(head))}{top + n}"
    assert ws[f"{rate}{top + 1}"].number_format == "0.0%" and isinstance(ws[f"{rate}{top + 1}"].value, float)
    assert [str(cf.sqref) for cf in ws.conditional_formatting] == [f"{rate}{top + 1}:{rate}{top + n}"]
    (chart,) = ws._charts
    anchor = chart.anchor._from
    assert (anchor.col, anchor.row + 1) == (0, top + n + 3)  # column A, two rows under the table
    series = chart.series[0]
    assert series.val.numRef.f == f"'Posiciones'!${rate}${top + 1}:${rate}${top + n}"
    assert series.cat.numRef.f == f"'Posiciones'!${names}${top + 1}:${names}${top + n}"
    assert series.tx.strRef.f == f"'Posiciones'!{rate}{top}"
    plus = get_column_letter(head.index(h["err_mas"]) + 1)
    assert series.errBars.plus.numRef.f == f"'Posiciones'!${plus}${top + 1}:${plus}${top + n}"
    assert ws.column_dimensions[plus].hidden
    assert chart.anchor.ext.cy >= n * 0.3 * 360_000  # sized to read: at least 3 mm a bar (EMU)
    m = wb["Enfrentamientos"]
    mtop = header_row(m)
    assert m.cell(mtop, 2).alignment.textRotation == 90 and m.cell(mtop + 1, 3).number_format == "0.0%"
    pares = wb["Pares"]  # the pairwise verdicts: a heat map over the whole matrix
    assert pares.cell(1, 2).alignment.textRotation == 90 and pares["C2"].number_format == "0.0%"
    assert [str(cf.sqref) for cf in pares.conditional_formatting] == [f"B2:{get_column_letter(n + 1)}{n + 1}"]


def test_english_workbook_is_written_beside_the_spanish_one(
    tables: tuple[pd.DataFrame, ...], tmp_path: Path
) -> None:
    names = []
    for lang in ("es", "en"):
        with i18n.speaking(lang):
            names.append(report.workbook_name())
    assert names == ["standings.xlsx", "standings-en.xlsx"]
    with pytest.raises(ValueError, match="unknown language"), i18n.speaking("fr"):
        report.workbook_name()
    es = report.Report(tables[0], frames(tables, "es"), PARTIDOS, PARTIDOS, 0, ["Los puestos 2 a 4 …"])
    en = report.Report(tables[0], frames(tables, "en"), PARTIDOS, PARTIDOS, 0, [])
    with i18n.speaking("es"):
        (spanish,) = report.write(es, tmp_path, csv=False)
    before = spanish.read_bytes()
    with i18n.speaking("en"):
        (english,) = report.write(en, tmp_path, csv=False)
    assert (spanish.name, english.name) == ("standings.xlsx", "standings-en.xlsx")
    assert spanish.read_bytes() == before  # untouched
    for path, player in ((spanish, "Jugador"), (english, "Player")):
        ws = openpyxl.load_workbook(path)["Posiciones"]
        assert ws.cell(header_row(ws), 2).value == player


# ---- the tables' rows, written straight into the sheets' XML

ODD = pd.DataFrame(
    {
        "partido": ["p1", "a & b <c>", "=1+1", "", "rojo\x1b[31m", "  espacios  "],
        "mano": [1, None, 3, None, 5, 6],
        "entrant": ["ana", "beto", "caro", "dani", "eva", "fede"],
        "motivo": ["renuncio", "-2+3", "@SUM(A1)", "+", "-1", "1e5"],
        "penalizado": [True, False, True, False, True, False],
        "detalle": [1.5, float("nan"), 0.1 + 0.2, -3.0, 1e-9, float("inf")],
        "incidente": [7, "x", None, 2.5, True, "y"],
    }
)
"""Every kind of value a row holds, as a Descalificaciones table: texts to escape or to keep
from being formulas, empty ones, ints, NaN, bools, and a column of mixed kinds."""


def test_rows_keep_their_values_kinds_and_styles(tables: tuple[pd.DataFrame, ...], tmp_path: Path) -> None:
    wbf = frames(tables, "es")
    wbf["Descalificaciones"] = ODD.rename(columns=headers_in("es"))
    ws = openpyxl.load_workbook(write_workbook(wbf, tmp_path / "w.xlsx"))["Descalificaciones"]
    rows = [[c for c in row] for row in ws.iter_rows(min_row=2)]
    assert [c.value for c in rows[0]] == ["p1", 1, "ana", "renuncio", True, 1.5, 7]
    assert [r[0].value for r in rows] == ["p1", "a & b <c>", "=1+1", None, "rojo\\x1b[31m", "  espacios  "]
    assert [r[1].value for r in rows] == [1, None, 3, None, 5, 6]
    assert [r[3].value for r in rows] == ["renuncio", "-2+3", "@SUM(A1)", "+", "-1", "1e5"]
    assert [r[5].value for r in rows[:5]] == [1.5, None, 0.3, -3.0, 1e-9] and rows[5][5].value == "inf"
    assert [r[6].value for r in rows] == [7, "x", None, 2.5, True, "y"]
    quoted = {c.value for r in rows for c in r if c.quotePrefix}
    assert quoted == {"=1+1", "-2+3", "@SUM(A1)", "+"}  # texts a spreadsheet would calculate
    assert all(c.data_type != "f" for r in rows for c in r)
    assert all(
        c.border.left.style == "thin" and c.border.bottom.color.rgb == "00A6A6A6" for r in rows for c in r
    )
    assert ws.max_row == 1 + len(ODD) and ws.dimensions == f"A1:G{1 + len(ODD)}"


def test_many_rows_are_written_in_batches(tables: tuple[pd.DataFrame, ...], tmp_path: Path) -> None:
    n = 12_345
    partidos = pd.DataFrame(
        {"partido": [f"p{k:05d}" for k in range(n)], "semilla": range(n), "jugadores": ["a, b, c, d"] * n}
    )
    wbf = frames(tables, "es")
    wbf["Partidos"] = partidos.rename(columns=headers_in("es"))
    wb = openpyxl.load_workbook(write_workbook(wbf, tmp_path / "w.xlsx"), read_only=True)
    rows = list(wb["Partidos"].iter_rows(min_row=2, values_only=True))
    assert (
        len(rows) == n
        and rows[0] == ("p00000", 0, "a, b, c, d")
        and rows[-1] == ("p12344", n - 1, "a, b, c, d")
    )
    assert [r[1] for r in rows] == list(range(n))


def test_the_csvs_are_the_inert_tables(tables: tuple[pd.DataFrame, ...], tmp_path: Path) -> None:
    wbf = {**frames(tables, "es"), "Descalificaciones": ODD}
    for path, df in zip(write_csvs(wbf, tmp_path / "csv"), wbf.values(), strict=True):
        assert path.read_text(encoding="utf-8") == inert_frame(df).to_csv(index=False)


# ---- the render: LibreOffice converts every sheet to PDF pages; poppler's pdftotext reads them

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
PDFTOTEXT = shutil.which("pdftotext")
WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')
PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')


def pdf_pages(pdf: Path) -> list[dict[str, Any]]:
    """Each page's size, its top line (the page header: the sheet's name), its bottom line
    (the page footer) and all its text."""
    assert PDFTOTEXT is not None
    out = subprocess.run([PDFTOTEXT, "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True)
    pages = []
    for chunk in out.stdout.split("<page ")[1:]:
        size = PAGE.match("<page " + chunk)
        assert size is not None
        words = [(float(m[1]), float(m[2]), float(m[4]), html.unescape(m[5])) for m in WORD.finditer(chunk)]
        top = min(y0 for _, y0, _, _ in words)
        bottom = max(y1 for _, _, y1, _ in words)
        pages.append(
            {
                "size": (round(float(size[1])), round(float(size[2]))),
                "header": " ".join(w for _, y0, _, w in sorted(words) if y0 < top + 2),
                "footer": " ".join(w for _, _, y1, w in sorted(words) if y1 > bottom - 2),
                "text": " ".join(w for _, _, _, w in words),
            }
        )
    return pages


NO_OFFICE = "LibreOffice (soffice) is not installed; .ci/run installs it when CI runs as root"
NO_PDFTOTEXT = "pdftotext (Debian's poppler-utils) is not installed; .ci/run installs it with LibreOffice"


@pytest.mark.slow  # an integration with LibreOffice: soffice starts and renders a PDF (seconds)
@pytest.mark.skipif(SOFFICE is None, reason=NO_OFFICE)
def test_libreoffice_prints_every_sheet_one_page_wide_with_names_on_every_page(
    tables: tuple[pd.DataFrame, ...], tmp_path: Path
) -> None:
    if PDFTOTEXT is None:
        pytest.skip(NO_PDFTOTEXT)
    wbf = frames(tables, "es")
    xlsx = write_workbook(wbf, tmp_path / "standings.xlsx")
    profile = tmp_path / "lo-profile"  # a private profile: parallel runs do not share one
    done = subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(xlsx),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HOME": str(tmp_path)},
        check=False,
    )
    pdf = tmp_path / "standings.pdf"
    assert done.returncode == 0 and pdf.is_file(), done.stdout + done.stderr
    pages = pdf_pages(pdf)
    total = len(pages)
    by_sheet = {name: [p for p in pages if p["header"] == name] for name in SHEETS}
    counts = {name: len(p) for name, p in by_sheet.items()}
    assert sum(counts.values()) == total, [p["header"] for p in pages]  # every page headed by its sheet
    assert [p["header"] for p in pages] == [n for n in SHEETS for _ in range(counts[n])]  # in order
    assert all(p["size"] == (842, 595) for p in pages)  # A4 landscape
    assert [p["footer"] for p in pages] == [f"Página {i} de {total}" for i in range(1, total + 1)]
    # one page wide: the table's last visible header (repeated on every page) is on every page
    hidden = {headers_in("es")["err_mas"], headers_in("es")["err_menos"]}
    for name, df in wbf.items():
        last = next(str(c) for c in reversed(df.columns) if c not in hidden)
        for page in by_sheet[name]:
            assert all(w in page["text"] for w in re.findall(r"\w+", last)), (name, last)
    # the names on every page (Configuración and Notas hold none)
    for page in pages:
        if page["header"] not in ("Configuración", "Notas"):
            assert any(e in page["text"] for e in ENTRANTS), page["header"]
    # Posiciones: the table whole on its first page, the chart whole on the next
    assert all(e in by_sheet["Posiciones"][0]["text"] for e in ENTRANTS)
    assert counts["Posiciones"] == 2 and "(IC 95%)" in by_sheet["Posiciones"][1]["text"]
    assert counts["Partidos"] >= 3  # 240 rows run over several pages, each still one page wide
    assert counts["Enfrentamientos"] == counts["Descalificaciones"] == counts["Configuración"] == 1
    assert counts["Pares"] <= 2 and counts["Notas"] == 1 and counts["Sospechas"] >= 1
    assert total - counts["Sospechas"] <= 14, counts  # Sospechas: a row per ordered pair that met
