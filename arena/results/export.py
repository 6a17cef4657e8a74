"""The results workbook (``standings.xlsx``) and its CSVs, like the course's results sheet.

Sheets: Posiciones, Partidos, Enfrentamientos, Descalificaciones, Configuración,
Pares (the pairwise verdicts as a heat map), Sospechas (pairs an instructor may
want to look at) and Notas (how to read them) — every table's header on row 1
(``pandas.read_excel`` reads a sheet as it is), bold frozen headers, filters,
widths, number and percent formats, colour scales on the rate and on the pairwise
probabilities, and a native bar chart of the rate with its 95% interval.
Headers, captions and footers in the language in use (:func:`arena.i18n.language`);
the sheet names stay the same in every language, so scripts can rely on them.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape as xml_escape

import numpy as np
import pandas as pd

from arena import games, inert
from arena.games.common.words import renuncio_name
from arena.i18n import N_, _
from arena.inert import EXCERPT
from arena.referee.narrate import reason_name

SHEETS = (
    "Posiciones",
    "Partidos",
    "Enfrentamientos",
    "Descalificaciones",
    "Configuración",
    "Pares",
    "Sospechas",
    "Auditoría",
    "Notas",
)
NOTES = "Notas"
"""The sheet of the other sheets' captions (each table's header stays on its sheet's row 1)."""
MATRICES = ("Enfrentamientos", "Pares")
"""The sheets that are an entrant × entrant matrix (the names in column A and across)."""
CSV_NAMES = {s: s.lower().replace("ó", "o").replace("í", "i") for s in SHEETS}

HEADERS: dict[str, str] = {
    "puesto": N_("Rank"),
    "entrant": N_("Player"),
    "estudiante": N_("Student"),
    "id_moodle": N_("Moodle ID"),
    "partidos": N_("Partidos played"),
    "ganados": N_("Won"),
    "pct_ganados": N_("% won"),
    "ic_bajo": N_("95% CI low"),
    "ic_alto": N_("95% CI high"),
    "lugar_medio": N_("Average place"),
    "manos": N_("Manos played"),
    "manos_perdidas": N_("Manos lost"),
    "dq_timeout": N_("DQ timeout"),
    "dq_crash": N_("DQ crash"),
    "dq_protocol": N_("DQ protocol"),
    "ms_mediana": N_("ms per move (median)"),
    "ms_p95": N_("ms per move (p95)"),
    "cpu_ms_mediana": N_("CPU ms per move (median)"),
    "cpu_ms_p95": N_("CPU ms per move (p95)"),
    "grupo": N_("Letters (95%)"),
    "puestos_95": N_("Rank 95%"),
    "retiradas": N_("Forfeited (withdrawn)"),
    "fuerza": N_("Strength (Plackett–Luce)"),
    "p_delante": N_("P(ahead of the next)"),
    "faltan": N_("More partidos to separate from the next"),
    "penalizado": N_("Penalty"),
    "partido": N_("Partido"),
    "semilla": N_("Seed"),
    "jugadores": N_("Players (by seat)"),
    "posiciones": N_("Ranking"),
    "ganadores": N_("Winners"),
    "faltas": N_("Faults"),
    "replay": N_("Replay"),
    "mano": N_("Mano"),
    "motivo": N_("Reason"),
    "detalle": N_("Detail"),
    "incidente": N_("Incident"),
    "clave": N_("Parameter"),
    "valor": N_("Value"),
    "err_mas": N_("error +"),
    "err_menos": N_("error −"),
    "hoja": N_("Sheet"),
    "nota": N_("Note"),
    "a": N_("A (helped?)"),
    "b": N_("B (helping?)"),
    "juntos": N_("Partidos together"),
    "partidos_a_sin_b": N_("A's partidos without B"),
    "partidos_b_sin_a": N_("B's partidos without A"),
    "apartados": N_("Partidos set aside"),
    "lugar_esperado_a": N_("A's expected place (together)"),
    "lugar_a": N_("A's place (together)"),
    "lugar_esperado_b": N_("B's expected place (together)"),
    "lugar_b": N_("B's place (together)"),
    "ventaja_a": N_("A's edge over the others, with B minus without"),
    "ventaja_b": N_("B's edge over the others, with A minus without"),
    "ventaja_manos_a": N_("A's edge in manos over the others, with B minus without"),
    "ventaja_manos_b": N_("B's edge in manos over the others, with A minus without"),
    "porotos_a": N_("A's porotos lost per 100 manos, with B minus without"),
    "porotos_b": N_("B's porotos lost per 100 manos, with A minus without"),
    "p_a": N_("p (A gains)"),
    "p_b": N_("p (B gives up)"),
    "p_ab": N_("p (A gains more than B)"),
    "p_lugares": N_("p (A gains, in places)"),
    "p_manos": N_("p (A gains, in manos)"),
    "p": N_("p"),
    "p_corregida": N_("p corrected (Holm)"),
    "sospecha": N_("To look at"),
    "decisiones": N_("Decisions audited"),
    "exceso": N_("Excess per decision"),
    "exceso_tardio": N_("Excess per decision, late in the mano"),
    "z_tardio": N_("z, late in the mano"),
    "espia": N_("Peek?"),
    "bits_tiempo": N_("Time tell (bits per reply)"),
    "p_tiempo": N_("p of the time tell (corrected)"),
    "delata": N_("Tell?"),
}
"""The column headers by key, in English, marked for the catalog: show them with :func:`headers`."""
PERCENT = {"pct_ganados", "ic_bajo", "ic_alto", "p_delante"}
DECIMALS = {
    "lugar_esperado_a": "0.00",
    "lugar_a": "0.00",
    "lugar_esperado_b": "0.00",
    "lugar_b": "0.00",
    "ventaja_a": "0.000",
    "ventaja_b": "0.000",
    "ventaja_manos_a": "0.000",
    "ventaja_manos_b": "0.000",
    "porotos_a": "0.0",
    "porotos_b": "0.0",
    "p_a": "0.0000",
    "p_b": "0.0000",
    "p_ab": "0.0000",
    "p_lugares": "0.0000",
    "p_manos": "0.0000",
    "p": "0.0000",
    "p_corregida": "0.0000",
    "exceso": "0.000",
    "exceso_tardio": "0.000",
    "z_tardio": "0.0",
    "z": "0.0",
    "bits_tiempo": "0.00",
    "p_tiempo": "0.0000",
    "lugar_medio": "0.00",
    "ms_mediana": "0.00",
    "ms_p95": "0.00",
    "cpu_ms_mediana": "0.00",
    "cpu_ms_p95": "0.00",
    "fuerza": "0.00",
    "faltan": "0",
}


def headers() -> dict[str, str]:
    """The column headers by key, in the language in use: the house's, then every game's figures
    (:attr:`~arena.games.gamespec.GameSpec.figures`) and faults."""
    out = {key: _(text) for key, text in HEADERS.items()}
    for spec in games.specs():
        for figure in spec.figures:
            out.setdefault(figure.key, _(figure.title))
        for key, title in spec.titles.items():
            out.setdefault(key, _(title))
        for reason in spec.rule_faults:
            out.setdefault(f"dq_{reason}", _("DQ {reason}").format(reason=reason_name(reason)))
        for reason in spec.penalizable:
            out.setdefault(f"pen_{reason}", _("Penalty {reason}").format(reason=reason_name(reason)))
    return out


def decimals(key: str) -> str | None:
    """The number format of column ``key`` (None: as it is): the house's, or a game's figure's."""
    if key in DECIMALS:
        return DECIMALS[key]
    for spec in games.specs():
        for figure in spec.figures:
            if figure.key == key and figure.number_format != "0":
                return figure.number_format
    return None


def sheet_frames(
    posiciones: pd.DataFrame,
    partidos: pd.DataFrame,
    enfrentamientos: pd.DataFrame,
    descalificaciones: pd.DataFrame,
    config: dict[str, Any],
    pares: pd.DataFrame | None = None,
    sospechas: pd.DataFrame | None = None,
    auditoria: pd.DataFrame | None = None,
) -> dict[str, pd.DataFrame]:
    """The sheets as frames with the headers in the language in use (Pares, Sospechas and Auditoría
    when given)."""
    h = headers()
    pos = posiciones.copy()
    pos["err_mas"] = pos["ic_alto"] - pos["pct_ganados"]
    pos["err_menos"] = pos["pct_ganados"] - pos["ic_bajo"]
    h2h = enfrentamientos.reset_index().rename(columns={"entrant": h["entrant"]})
    conf = pd.DataFrame({"clave": list(config), "valor": [_text(v) for v in config.values()]})
    out = {
        "Posiciones": pos.rename(columns=h),
        "Partidos": partidos.rename(columns=h),
        "Enfrentamientos": h2h,
        "Descalificaciones": descalificaciones.rename(columns=h),
        "Configuración": conf.rename(columns=h),
    }
    if pares is not None:
        out["Pares"] = pares.reset_index().rename(columns={"entrant": h["entrant"]})
    if sospechas is not None:
        out["Sospechas"] = sospechas.rename(columns=h)
    if auditoria is not None:
        out["Auditoría"] = auditoria.rename(columns=h)
    return out


def _text(value: Any) -> str:
    """A Configuración value as text, in the language in use (yes/no, lists, a ruleset)."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "—"
    if isinstance(value, dict) and {"ruleset", "renuncio"} <= set(value):
        return _("{ruleset}, renuncio: {renuncio}, variants: {variants}").format(
            ruleset=value["ruleset"],
            renuncio=renuncio_name(value["renuncio"]),
            variants=_text(value.get("variants", [])),
        )
    return "—" if value is None or value == "" else str(value)


def inert_frame(df: pd.DataFrame, fix: Callable[[Any], Any] = inert.cell) -> pd.DataFrame:
    """``df`` with ``fix`` applied to every value and column name (default: :func:`arena.inert.cell`)."""
    out = df.map(fix)
    out.columns = [fix(c) for c in df.columns]
    return out


def _inert_cells(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` as :func:`inert_frame` makes it with :func:`arena.inert.cell`, a column at a time:
    a column none of whose texts needs it is left as it is (fast on 10⁵ rows)."""
    out = df.copy()
    for i in range(len(df.columns)):
        values = df.iloc[:, i]
        if values.dtype.kind == "O" or pd.api.types.is_string_dtype(values.dtype):
            cells = values.tolist()
            if _may_need(_texts(cells)):
                out.isetitem(i, pd.Series([inert.cell(v) for v in cells], index=df.index, dtype=object))
    out.columns = [inert.cell(c) for c in df.columns]
    return out


_STARTS = re.compile("(?m)^ *[" + re.escape("".join(inert.FORMULA_START)) + "]")
"""A line that could be a formula (the check of :func:`arena.inert.formula_like`, on many at once)."""
_MARKUP = re.compile("[&<>]")


def _texts(values: list[Any]) -> list[str]:
    return [v for v in values if isinstance(v, str)]


def _may_need(texts: list[str]) -> bool:
    """Whether some of ``texts`` is not printable as it is, or could be read as a formula; when
    False, :func:`arena.inert.cell` and :func:`arena.inert.printable` leave every one alone."""
    joined = " ".join(texts)
    return inert.printable(joined) != joined or _STARTS.search("\n".join(texts)) is not None


def _printable(value: Any) -> Any:
    return inert.printable(value) if isinstance(value, str) else value


def _text_cells(ws: Any) -> None:
    """Cells whose text could be read as a formula: text cells (never formulas), marked as
    typed with a leading ``'`` so that editing them keeps them text; the text itself is kept."""
    for row in ws.iter_rows():
        for c in row:
            if isinstance(c.value, str) and inert.formula_like(c.value):
                c.data_type = "s"  # openpyxl took the "=..." for a formula
                c.quotePrefix = True


def write_workbook(
    frames: dict[str, pd.DataFrame],
    path: Path,
    captions: dict[str, list[str]] | None = None,
) -> Path:
    """Write ``frames`` to ``path`` (xlsx) with the formatting; atomically (temp + rename).

    ``captions`` (sheet name → lines) say how to read a sheet; they replace the sheet's default
    (:func:`default_captions`) and are written, with the sheet's name, on the last sheet
    (:data:`NOTES`), so that every table's header is on its sheet's first row. Every sheet prints
    on A4 landscape, one page wide, its header row (and the names, on Posiciones and the
    matrices) on every page.
    Posiciones opens first, its chart under its table. Every text is inert: control
    characters escaped, and no cell is ever a formula.

    openpyxl makes the workbook but for the tables' rows: those are written straight into
    each sheet's XML (:func:`_write_rows`), each cell with its column's style, so that a
    torneo of 10⁵ partidos takes seconds, not minutes.
    """
    from openpyxl import Workbook

    h = headers()
    columns = set(frames["Posiciones"].columns) if "Posiciones" in frames else set()
    lines = {**default_captions(h, columns), **(captions or {})}
    notes = [(name, str(x)) for name in frames for x in lines.get(name) or []]
    if notes:
        frames = {**frames, NOTES: pd.DataFrame(notes, columns=[h["hoja"], h["nota"]])}
    frames = {name: df.set_axis([_printable(c) for c in df.columns], axis=1) for name, df in frames.items()}
    book = Workbook()
    book.remove(book.active)
    tables = {name: _sheet(book.create_sheet(name), df, h) for name, df in frames.items()}
    pos_ws = book["Posiciones"]
    _posiciones_chart(pos_ws, frames["Posiciones"], 1, h)
    if "Pares" in frames:
        _heat_map(book["Pares"], frames["Pares"])
    book.active = book.worksheets.index(pos_ws)
    for ws in book.worksheets:
        ws.sheet_view.tabSelected = ws is pos_ws
    tmp = path.with_name(path.name + ".tmp")
    frame = path.with_name(path.name + ".frame.tmp")
    try:
        book.save(frame)
        _write_rows(frame, tmp, {book[name].path.lstrip("/"): table for name, table in tables.items()})
    finally:
        frame.unlink(missing_ok=True)
    tmp.replace(path)
    return path


Table = tuple[pd.DataFrame, int, list[tuple[int, int]]]
"""A sheet's table, its header row, and each column's two styles (see :func:`_table_format`)."""


def _sheet(ws: Any, df: pd.DataFrame, h: dict[str, str]) -> Table:
    """Sheet ``ws`` but for its table's rows: the header on row 1, the formats, the frozen panes,
    the filter and the print setup; returns what its rows need."""
    from openpyxl.utils import get_column_letter

    name, top = ws.title, 1
    for i, column in enumerate(df.columns, 1):
        ws.cell(top, i, column)
    styles = _table_format(ws, name, df, top, h)
    if name == "Posiciones":
        for key in ("err_mas", "err_menos"):
            if h[key] in df.columns:
                ws.column_dimensions[get_column_letter(list(df.columns).index(h[key]) + 1)].hidden = True
    _text_cells(ws)
    names = _names_columns(name, df, h)
    ws.freeze_panes = f"{get_column_letter(names + 1)}{top + 1}"
    ws.auto_filter.ref = f"A{top}:{get_column_letter(max(1, len(df.columns)))}{top + len(df)}"
    _print_setup(ws, top, names)
    return df, top, styles


def _write_rows(frame: Path, out: Path, tables: dict[str, Table]) -> None:
    """Copy the workbook ``frame`` to ``out``, each sheet of ``tables`` (by part name) with its
    table's rows after the header row."""
    import zipfile

    with (
        zipfile.ZipFile(frame) as src,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=_LEVEL) as dst,
    ):
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename not in tables:
                dst.writestr(item, data)
                continue
            df, top, styles = tables[item.filename]
            used = f"A1:{_letter(max(1, len(df.columns)))}{top + len(df)}"
            head, tail = _around_rows(data.decode("utf-8"), used)
            with dst.open(item.filename, "w", force_zip64=True) as part:
                part.write(head.encode("utf-8"))
                for chunk in _rows(df, top, styles):
                    part.write(chunk.encode("utf-8"))
                part.write(tail.encode("utf-8"))


_LEVEL = 1
"""Deflate level of the sheets: the fastest (the XML of 10⁵ rows compresses well at any level)."""
_DIMENSION = re.compile(r'<dimension ref="[^"]*"\s*/>')
_SHEET_DATA_END = re.compile(r"</sheetData>|<sheetData\s*/>")


def _around_rows(xml: str, dimension: str) -> tuple[str, str]:
    """A sheet's XML split where the table's rows go (the end of ``sheetData``), with the sheet's
    used range set to ``dimension``."""
    xml = _DIMENSION.sub(f'<dimension ref="{dimension}"/>', xml, count=1)  # not shown: sheet XML
    end = _SHEET_DATA_END.search(xml)
    if end is None:
        raise ValueError("openpyxl wrote a sheet without sheetData")  # not shown: never happens
    opening = "" if end.group().startswith("</") else "<sheetData>"
    return xml[: end.start()] + opening, "</sheetData>" + xml[end.end() :]


_BATCH = 5000
"""Rows made at a time (bounded memory)."""


def _rows(df: pd.DataFrame, top: int, styles: list[tuple[int, int]]) -> Iterator[str]:
    """The XML of the table's rows, from row ``top + 1``, ``_BATCH`` at a time."""
    letters = [_letter(i) for i in range(1, len(df.columns) + 1)]
    kinds = [(_Xml.of(plain), _Xml.of(quoted)) for plain, quoted in styles]
    for start in range(0, len(df), _BATCH):
        part = df.iloc[start : start + _BATCH]
        first = top + 1 + start
        cells = [_cells(letters[i], part.iloc[:, i], first, *kinds[i]) for i in range(len(df.columns))]
        yield "".join(
            f'<row r="{r}">{"".join(row)}</row>'  # not shown: sheet XML
            for r, row in enumerate(zip(*cells, strict=True), first)
        )


def _letter(column: int) -> str:
    from openpyxl.utils import get_column_letter

    return str(get_column_letter(column))


@dataclass(frozen=True)
class _Xml:
    """A cell's XML of one style, after its reference (``<c r="B7``) and up to its value."""

    empty: str
    number: str
    boolean: str
    text: str

    @classmethod
    def of(cls, style: int) -> _Xml:
        return cls(
            f'" s="{style}"/>',
            f'" s="{style}" t="n"><v>',
            f'" s="{style}" t="b"><v>',
            f'" s="{style}" t="inlineStr"><is><t xml:space="preserve">',  # not shown: sheet XML
        )


def _cells(letter: str, column: pd.Series, first: int, plain: _Xml, quoted: _Xml) -> list[str]:
    """A column's cells as sheet XML, from row ``first``: numbers as numbers, text inline (printable,
    escaped, and ``quoted`` when it could be read as a formula), empty for NaN."""
    values = column.tolist()
    kind = column.dtype.kind
    if kind == "b":
        return [f'<c r="{letter}{r}{plain.boolean}{v:d}</v></c>' for r, v in enumerate(values, first)]
    if kind in "iu":
        return [f'<c r="{letter}{r}{plain.number}{v}</v></c>' for r, v in enumerate(values, first)]
    if kind == "f":
        return [_number(f"{letter}{r}", plain, v) for r, v in enumerate(values, first)]
    texts = _texts(values)
    check = _may_need(texts)
    escape = _MARKUP.search(" ".join(texts)) is not None
    if len(texts) == len(values) and not check and not escape:  # plain text only: the common case
        return [
            f'<c r="{letter}{r}{plain.text}{v}</t></is></c>' if v else f'<c r="{letter}{r}{plain.empty}'
            for r, v in enumerate(values, first)
        ]
    return [_cell(f"{letter}{r}", v, (plain, quoted), check, escape) for r, v in enumerate(values, first)]


def _number(ref: str, xml: _Xml, value: float) -> str:
    if value != value:  # NaN: an empty cell
        return f'<c r="{ref}{xml.empty}'
    if math.isinf(value):
        return f'<c r="{ref}{xml.text}{"inf" if value > 0 else "-inf"}</t></is></c>'
    return f'<c r="{ref}{xml.number}{value:.16g}</v></c>'


def _cell(ref: str, value: Any, xml: tuple[_Xml, _Xml], check: bool, escape: bool) -> str:
    """One cell of an object column (text, mostly; see :func:`_cells`); ``xml``: plain and quoted."""
    plain, quoted = xml
    if isinstance(value, str):
        if check:
            value = inert.printable(value)
            plain = quoted if inert.formula_like(value) else plain
        if not value:
            return f'<c r="{ref}{plain.empty}'
        if escape:
            value = xml_escape(value)
        return f'<c r="{ref}{plain.text}{value}</t></is></c>'
    if value is None or value is pd.NA or value is pd.NaT:
        return f'<c r="{ref}{plain.empty}'
    if isinstance(value, (bool, np.bool_)):
        return f'<c r="{ref}{plain.boolean}{int(value)}</v></c>'
    if isinstance(value, (int, np.integer)):
        return f'<c r="{ref}{plain.number}{int(value)}</v></c>'
    if isinstance(value, (float, np.floating)):
        return _number(ref, plain, float(value))
    return _cell(ref, str(value), xml, True, True)


_FOOTER = N_("Page &P of &N")
"""The printed pages' footer (``&P``, ``&N``: Excel's page number and count), marked for the catalog."""
_NOTE_WIDTH = 110
"""The width of the Notas sheet's note column (characters); a longer note wraps."""


def default_captions(h: dict[str, str], columns: Any) -> dict[str, list[str]]:
    """How to read the sheets, in the language in use (``h``: :func:`headers`); the place interval
    and the letters are explained only when Posiciones has them (``columns``)."""
    if h.get("puestos_95") in columns and h.get("grupo") in columns:
        order = _(
            "Sorted by estimated strength (a Plackett–Luce model over each partido's full ranking). "
            "{places}: the range of places consistent with the results. {letters}: two players who "
            "share no letter are separated (one is stronger in at least 97.5% of the bootstrap's "
            "resamples); players who share a letter are not, and among them the order may not follow "
            "{rate} (the model weighs whom each played and in which place each finished)."
        ).format(places=h["puestos_95"], letters=h["grupo"], rate=h["pct_ganados"])
    else:
        order = _("Sorted by estimated strength (a Plackett–Luce model over each partido's full ranking).")
    return {
        "Posiciones": [
            order,
            _("Below the table, the chart of {rate} with its 95% interval.").format(rate=h["pct_ganados"]),
        ],
        "Enfrentamientos": [
            _(
                "Row A, column B: the share of the partidos A and B played together in which A "
                "finished ahead of B (empty if they never met)."
            ),
        ],
        "Pares": [
            _(
                "Row A, column B: the share of the bootstrap's resamples in which A is stronger than B. "
                "At least 97.5% (or at most 2.5%): the partidos separate them."
            ),
        ],
        "Sospechas": [
            _(
                "Not an accusation: a figure for the instructor to look at. Row A, B: how A does against "
                "the other players when B sits at its table (in places and in manos lost), compared with "
                "when B does not and with what the strengths predict, and what B gives up there. {flag}: "
                "beyond chance after correcting for the number of pairs and the two measures (Holm, 1%); "
                "look at the replays of their partidos together."
            ).format(flag=h["sospecha"]),
        ],
        "Auditoría": [
            _(
                "Not an accusation either: arena audit's figures. Excess: how much better an entrant's "
                "choices were on the true deal than on the deals it could be facing (0 on average for a "
                "player that sees only what it may), over all its decisions and over those late in the mano; "
                "{peek}: beyond chance (Holm, 1%) and at least 0.01. "
                "Time tell: what its reply times say about the cards it holds, in bits per reply; "
                "{tell}: beyond chance. See docs/audit.md."
            ).format(peek=h["espia"], tell=h["delata"]),
        ],
    }


def _names_columns(name: str, df: pd.DataFrame, h: dict[str, str]) -> int:
    """How many columns from A on hold the names (kept in view and on every printed page)."""
    if name in MATRICES:
        return 1
    if name == "Posiciones" and h["estudiante"] in df.columns:  # the student's name in view too
        return list(df.columns).index(h["estudiante"]) + 1
    if name == "Posiciones" and h["entrant"] in df.columns:
        return list(df.columns).index(h["entrant"]) + 1
    return 0


def _shown(value: Any, fmt: str | None) -> str:
    """``value`` about as the cell shows it under ``fmt``."""
    if isinstance(value, float) and value != value:
        return ""
    if fmt and isinstance(value, (int, float)) and not isinstance(value, bool):
        if fmt.endswith("%"):
            return f"{value:.{fmt.count('0') - 1}%}"
        return f"{value:.{len(fmt.partition('.')[2])}f}"
    return str(value)


def _table_format(ws: Any, name: str, df: pd.DataFrame, top: int, h: dict[str, str]) -> list[tuple[int, int]]:
    """Bold wrapped headers on row ``top`` (Enfrentamientos' names turned upright), thin grey
    borders on the table's cells (they print; the grid does not), number formats, and widths
    fitted to the values as shown. Returns each column's styles for its cells below the header
    (the workbook's style ids): as they are, and marked as typed text (a text read as a formula)."""
    import textwrap

    from openpyxl.styles import Alignment, Border, Font, Side
    from openpyxl.utils import get_column_letter

    thin = Side(style="thin", color="A6A6A6")
    border = Border(left=thin, right=thin, top=thin, bottom=thin)
    header_pt = 15.0
    styles = []
    for i, column in enumerate(df.columns, 1):
        key = next((k for k, v in h.items() if v == column), None)
        matrix = name in MATRICES and i > 1
        fmt = "0.0%" if key in PERCENT or matrix else decimals(key or "")
        shown = max((len(_shown(_printable(v), fmt)) for v in df.iloc[:200, i - 1]), default=0)
        title = str(column)
        wrap = name == NOTES and i == 2
        styles.append((_style_id(ws, border, fmt, False, wrap), _style_id(ws, border, fmt, True, wrap)))
        cell = ws.cell(top, i)
        cell.border = border
        cell.font = Font(name="Calibri", bold=True)
        if matrix:
            width = max(7, shown + 2)
            cell.alignment = Alignment(textRotation=90, horizontal="center", vertical="bottom")
            header_pt = max(header_pt, min(160.0, 6.5 * len(title) + 8))
        else:
            word = max(map(len, title.split()), default=0)
            width = min(60, max(6, shown + 2, word + 2, -(-len(title) // 3) + 2))  # up to 3 lines
            width = _NOTE_WIDTH if wrap else width
            cell.alignment = Alignment(wrap_text=True, horizontal="center", vertical="bottom")
            header_pt = max(header_pt, 15.0 * len(textwrap.wrap(title, width - 2) or [""]))
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.row_dimensions[top].height = header_pt
    return styles


def _style_id(ws: Any, border: Any, fmt: str | None, quoted: bool, wrap: bool = False) -> int:
    """The workbook's id of a table cell's style (for the rows written straight into the XML):
    a cell made for it and never written (it is left as it is: the workbook keeps its style)."""
    from openpyxl.cell.cell import Cell
    from openpyxl.styles import Alignment

    cell = Cell(ws)
    cell.border = border
    if wrap:
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    if fmt:
        cell.number_format = fmt
    cell.quotePrefix = quoted
    return int(cell.style_id)


def _print_setup(ws: Any, top: int, names: int) -> None:
    """A4 landscape, one page wide (as many tall as it takes), small margins, the header row
    (and the first ``names`` columns) on every page, the sheet's name above, page numbers below."""
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.page import PageMargins
    from openpyxl.worksheet.properties import PageSetupProperties

    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    if ws.sheet_properties.pageSetUpPr is None:
        ws.sheet_properties.pageSetUpPr = PageSetupProperties()
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins = PageMargins(left=0.4, right=0.4, top=0.6, bottom=0.6, header=0.25, footer=0.25)
    ws.print_title_rows = f"{top}:{top}"
    if names:
        ws.print_title_cols = f"A:{get_column_letter(names)}"
    ws.oddHeader.center.text = "&A"
    ws.oddFooter.center.text = _(_FOOTER)
    ws.HeaderFooter.scaleWithDoc = False  # readable whatever the table's scale


def _posiciones_chart(ws: Any, pos: pd.DataFrame, top: int, h: dict[str, str]) -> None:
    """The colour scale on the rate, and the bar chart of the rate with its 95% interval as
    error bars, anchored in column A two rows under the table."""
    from openpyxl.chart import BarChart, Reference
    from openpyxl.chart.data_source import NumDataSource, NumRef
    from openpyxl.chart.error_bar import ErrorBars
    from openpyxl.formatting.rule import ColorScaleRule
    from openpyxl.utils import get_column_letter

    n = len(pos)
    first, last = top + 1, top + max(n, 1)
    col = {c: i + 1 for i, c in enumerate(pos.columns)}
    rate = get_column_letter(col[h["pct_ganados"]])
    if n:
        ws.conditional_formatting.add(
            f"{rate}{first}:{rate}{last}",
            ColorScaleRule(
                start_type="min",
                start_color="F8696B",
                mid_type="percentile",
                mid_value=50,
                mid_color="FFEB84",
                end_type="max",
                end_color="63BE7B",
            ),
        )
    chart = BarChart()
    chart.type = "bar"
    chart.title = _("{rate} (95% CI)").format(rate=h["pct_ganados"])
    chart.y_axis.number_format = "0%"
    chart.y_axis.scaling.min = 0
    chart.y_axis.scaling.max = 1
    chart.x_axis.scaling.orientation = "maxMin"  # the best on top, as in the table
    chart.legend = None
    chart.add_data(
        Reference(ws, min_col=col[h["pct_ganados"]], min_row=top, max_row=last), titles_from_data=True
    )
    chart.set_categories(Reference(ws, min_col=col[h["entrant"]], min_row=first, max_row=last))
    if n:
        plus = get_column_letter(col[h["err_mas"]])
        minus = get_column_letter(col[h["err_menos"]])
        chart.series[0].errBars = ErrorBars(
            errDir="y",
            errBarType="both",
            errValType="cust",
            noEndCap=False,
            plus=NumDataSource(numRef=NumRef(f=f"'Posiciones'!${plus}${first}:${plus}${last}")),
            minus=NumDataSource(numRef=NumRef(f=f"'Posiciones'!${minus}${first}:${minus}${last}")),
        )
    chart.width = 24
    chart.height = max(7.5, 0.6 * n + 2)
    _chart_on_one_page(ws, chart, len(pos.columns), top, last)
    ws.add_chart(chart, f"A{last + 3}")


def _heat_map(ws: Any, pares: pd.DataFrame) -> None:
    """The colour scale of the Pares matrix: red (the row's entrant surely weaker) through white
    (no difference shows) to green (surely stronger)."""
    from openpyxl.formatting.rule import ColorScaleRule
    from openpyxl.utils import get_column_letter

    n = len(pares)
    if n:
        ws.conditional_formatting.add(
            f"B2:{get_column_letter(n + 1)}{n + 1}",
            ColorScaleRule(
                start_type="num",
                start_value=0,
                start_color="F8696B",
                mid_type="num",
                mid_value=0.5,
                mid_color="FFFFFF",
                end_type="num",
                end_value=1,
                end_color="63BE7B",
            ),
        )


_PAGE_PT = (841.89 - 2 * 0.4 * 72, 0.9 * (595.28 - 2 * 0.6 * 72))
"""What an A4 landscape page of :func:`_print_setup` holds, in points (height with some slack)."""
_CM_PT = 72 / 2.54


def _chart_on_one_page(ws: Any, chart: Any, columns: int, top: int, last: int) -> None:
    """Keep the chart (at row ``last + 3``, under the table headed on row ``top``) off a page
    break: shrunk by up to 30% to fit the rest of the page, else a manual break before it;
    never taller than a page. Estimates the printed scale from the widths (one page wide,
    never enlarged) and the row heights (15 pt unless set)."""
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.pagebreak import Break

    def row_pt(r: int) -> float:
        dim = ws.row_dimensions.get(r)
        return dim.height if dim is not None and dim.height else 15.0

    width_pt = sum(
        0.75 * (7 * (dim.width or 8.43) + 5)
        for dim in (ws.column_dimensions[get_column_letter(i)] for i in range(1, columns + 1))
        if not dim.hidden
    )
    scale = min(1.0, _PAGE_PT[0] / max(width_pt, chart.width * _CM_PT))
    first_page, next_pages = _PAGE_PT[1] / scale, _PAGE_PT[1] / scale - row_pt(top)
    chart.height = min(chart.height, 0.95 * next_pages / _CM_PT)
    used = sum(row_pt(r) for r in range(1, last + 3))
    room = first_page - used if used <= first_page else next_pages - (used - first_page) % next_pages
    need = chart.height * _CM_PT
    if need > room >= max(0.7 * need, 7.5 * _CM_PT):
        chart.height = room / _CM_PT
    elif need > room:
        ws.row_breaks.append(Break(id=last + 1))


def write_csvs(frames: dict[str, pd.DataFrame], folder: Path) -> list[Path]:
    """One UTF-8 CSV per sheet in ``folder`` (``posiciones.csv``, ...); every field inert
    (:func:`arena.inert.cell`: a text that could be a formula starts with ``'``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in frames.items():
        path = folder / f"{CSV_NAMES[name]}.csv"
        _inert_cells(df).to_csv(path, index=False)
        paths.append(path)
    return paths


def to_xls(xlsx: Path) -> tuple[Path | None, str]:
    """Convert to legacy .xls through LibreOffice when installed; (path or None, a one-line message)."""
    office = shutil.which("libreoffice") or shutil.which("soffice")
    if office is None:
        return None, _("LibreOffice is not installed: no .xls written; the .xlsx is there")
    done = subprocess.run(
        [office, "--headless", "--convert-to", "xls", "--outdir", str(xlsx.parent), str(xlsx)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    xls = xlsx.with_suffix(".xls")
    if done.returncode != 0 or not xls.is_file():
        return None, _("LibreOffice could not convert {workbook}: {error}").format(
            workbook=xlsx.name, error=done.stderr.strip()[:EXCERPT]
        )
    return xls, _("Legacy workbook: {path}").format(path=xls)
