"""The results workbook (``standings.xlsx``) and its CSVs, like the course's results sheet.

Sheets: Posiciones, Partidos, Enfrentamientos, Descalificaciones, Configuración —
bold frozen headers, filters, widths, number and percent formats, a colour scale
on the rate, and a native bar chart of the rate with its 95% interval.
Headers in Spanish (``lang="es"``, the default) or English (``lang="en"``); the
sheet names stay the same in both, so scripts can rely on them.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from arena import inert

SHEETS = ("Posiciones", "Partidos", "Enfrentamientos", "Descalificaciones", "Configuración")
CSV_NAMES = {s: s.lower().replace("ó", "o") for s in SHEETS}

HEADERS: dict[str, dict[str, str]] = {
    "es": {
        "puesto": "Puesto",
        "entrant": "Jugador",
        "partidos": "Partidos jugados",
        "ganados": "Ganados",
        "pct_ganados": "% ganados",
        "ic_bajo": "IC 95% bajo",
        "ic_alto": "IC 95% alto",
        "lugar_medio": "Lugar medio",
        "manos": "Manos jugadas",
        "manos_perdidas": "Manos perdidas",
        "porotos_100": "Porotos perdidos c/100 manos",
        "capotes": "Capotes",
        "tutes": "Tutes",
        "cantos": "Cantos",
        "dq_renuncio": "Desc. renuncio",
        "dq_false_canto": "Desc. canto falso",
        "dq_timeout": "Desc. tiempo",
        "dq_crash": "Desc. caída",
        "dq_protocol": "Desc. protocolo",
        "dq_not_in_hand": "Desc. carta que no tiene",
        "ms_mediana": "ms por jugada (mediana)",
        "ms_p95": "ms por jugada (p95)",
        "cpu_ms_mediana": "ms de CPU por jugada (mediana)",
        "cpu_ms_p95": "ms de CPU por jugada (p95)",
        "mu": "μ",
        "sigma": "σ",
        "rating": "Rating (μ−3σ)",
        "partido": "Partido",
        "semilla": "Semilla",
        "jugadores": "Jugadores (por asiento)",
        "posiciones": "Posiciones",
        "ganadores": "Ganadores",
        "faltas": "Faltas",
        "replay": "Replay",
        "mano": "Mano",
        "motivo": "Motivo",
        "detalle": "Detalle",
        "incidente": "Incidente",
        "clave": "Parámetro",
        "valor": "Valor",
        "err_mas": "error +",
        "err_menos": "error −",
    },
    "en": {
        "puesto": "Rank",
        "entrant": "Player",
        "partidos": "Partidos played",
        "ganados": "Won",
        "pct_ganados": "% won",
        "ic_bajo": "95% CI low",
        "ic_alto": "95% CI high",
        "lugar_medio": "Average place",
        "manos": "Manos played",
        "manos_perdidas": "Manos lost",
        "porotos_100": "Porotos lost per 100 manos",
        "capotes": "Capotes",
        "tutes": "Tutes",
        "cantos": "Cantos",
        "dq_renuncio": "DQ renuncio",
        "dq_false_canto": "DQ false canto",
        "dq_timeout": "DQ timeout",
        "dq_crash": "DQ crash",
        "dq_protocol": "DQ protocol",
        "dq_not_in_hand": "DQ not in hand",
        "ms_mediana": "ms per move (median)",
        "ms_p95": "ms per move (p95)",
        "cpu_ms_mediana": "CPU ms per move (median)",
        "cpu_ms_p95": "CPU ms per move (p95)",
        "mu": "μ",
        "sigma": "σ",
        "rating": "Rating (μ−3σ)",
        "partido": "Partido",
        "semilla": "Seed",
        "jugadores": "Players (by seat)",
        "posiciones": "Ranking",
        "ganadores": "Winners",
        "faltas": "Faults",
        "replay": "Replay",
        "mano": "Mano",
        "motivo": "Reason",
        "detalle": "Detail",
        "incidente": "Incident",
        "clave": "Parameter",
        "valor": "Value",
        "err_mas": "error +",
        "err_menos": "error −",
    },
}
PERCENT = {"pct_ganados", "ic_bajo", "ic_alto"}
DECIMALS = {
    "lugar_medio": "0.00",
    "porotos_100": "0.0",
    "ms_mediana": "0.00",
    "ms_p95": "0.00",
    "cpu_ms_mediana": "0.00",
    "cpu_ms_p95": "0.00",
    "mu": "0.00",
    "sigma": "0.00",
    "rating": "0.00",
}


def headers(lang: str) -> dict[str, str]:
    if lang not in HEADERS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(HEADERS)}")
    return HEADERS[lang]


def sheet_frames(
    posiciones: pd.DataFrame,
    partidos: pd.DataFrame,
    enfrentamientos: pd.DataFrame,
    descalificaciones: pd.DataFrame,
    config: dict[str, Any],
    lang: str = "es",
) -> dict[str, pd.DataFrame]:
    """The five sheets as frames with the headers of ``lang``."""
    h = headers(lang)
    pos = posiciones.copy()
    pos["err_mas"] = pos["ic_alto"] - pos["pct_ganados"]
    pos["err_menos"] = pos["pct_ganados"] - pos["ic_bajo"]
    h2h = enfrentamientos.reset_index().rename(columns={"entrant": h["entrant"]})
    conf = pd.DataFrame({"clave": list(config), "valor": [_text(v) for v in config.values()]})
    return {
        "Posiciones": pos.rename(columns=h),
        "Partidos": partidos.rename(columns=h),
        "Enfrentamientos": h2h,
        "Descalificaciones": descalificaciones.rename(columns=h),
        "Configuración": conf.rename(columns=h),
    }


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(map(str, value)) or "—"
    return "—" if value is None or value == "" else str(value)


def inert_frame(df: pd.DataFrame, fix: Callable[[Any], Any] = inert.cell) -> pd.DataFrame:
    """``df`` with ``fix`` applied to every value and column name (default: :func:`arena.inert.cell`)."""
    out = df.map(fix)
    out.columns = [fix(c) for c in df.columns]
    return out


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


def write_workbook(frames: dict[str, pd.DataFrame], path: Path, lang: str = "es") -> Path:
    """Write ``frames`` to ``path`` (xlsx) with the formatting; atomically (temp + rename).

    Every text is inert: control characters escaped, and no cell is ever a formula.
    """
    from openpyxl.chart import BarChart, Reference
    from openpyxl.chart.data_source import NumDataSource, NumRef
    from openpyxl.chart.error_bar import ErrorBars
    from openpyxl.formatting.rule import ColorScaleRule
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter

    h = headers(lang)
    tmp = path.with_name(path.name + ".tmp")
    frames = {name: inert_frame(df, _printable) for name, df in frames.items()}
    with pd.ExcelWriter(tmp, engine="openpyxl") as writer:
        for name, df in frames.items():
            df.to_excel(writer, sheet_name=name, index=False)
        for name, df in frames.items():
            ws = writer.sheets[name]
            _text_cells(ws)
            ws.freeze_panes = "B2" if name in ("Posiciones", "Enfrentamientos") else "A2"
            if ws.max_row >= 1 and ws.max_column >= 1:
                ws.auto_filter.ref = ws.dimensions
            for cell in ws[1]:
                cell.font = Font(bold=True)
            for i, column in enumerate(df.columns, 1):
                letter = get_column_letter(i)
                values = [str(column), *(str(v) for v in df[column].head(200))]
                ws.column_dimensions[letter].width = min(60, max(8, max(map(len, values)) + 2))
                key = next((k for k, v in h.items() if v == column), None)
                fmt = (
                    "0.0%"
                    if key in PERCENT or (name == "Enfrentamientos" and i > 1)
                    else DECIMALS.get(key or "")
                )
                if fmt:
                    for row in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                        row[0].number_format = fmt
        pos_ws = writer.sheets["Posiciones"]
        pos = frames["Posiciones"]
        n = len(pos)
        col = {c: i + 1 for i, c in enumerate(pos.columns)}
        rate = get_column_letter(col[h["pct_ganados"]])
        if n:
            pos_ws.conditional_formatting.add(
                f"{rate}2:{rate}{n + 1}",
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
        for key in ("err_mas", "err_menos"):
            pos_ws.column_dimensions[get_column_letter(col[h[key]])].hidden = True
        chart = BarChart()
        chart.type = "bar"
        chart.title = h["pct_ganados"] + " (IC 95%)" if lang == "es" else h["pct_ganados"] + " (95% CI)"
        chart.y_axis.number_format = "0%"
        chart.y_axis.scaling.min = 0
        chart.y_axis.scaling.max = 1
        chart.x_axis.scaling.orientation = "maxMin"  # the best on top, as in the table
        chart.legend = None
        data = Reference(pos_ws, min_col=col[h["pct_ganados"]], min_row=1, max_row=max(n, 1) + 1)
        cats = Reference(pos_ws, min_col=col[h["entrant"]], min_row=2, max_row=max(n, 1) + 1)
        chart.add_data(data, titles_from_data=True)
        chart.set_categories(cats)
        if n:
            plus = get_column_letter(col[h["err_mas"]])
            minus = get_column_letter(col[h["err_menos"]])
            chart.series[0].errBars = ErrorBars(
                errDir="y",
                errBarType="both",
                errValType="cust",
                noEndCap=False,
                plus=NumDataSource(numRef=NumRef(f=f"'Posiciones'!${plus}$2:${plus}${n + 1}")),
                minus=NumDataSource(numRef=NumRef(f=f"'Posiciones'!${minus}$2:${minus}${n + 1}")),
            )
        chart.height = max(7.5, 0.6 * n + 2)
        chart.width = 18
        pos_ws.add_chart(chart, f"{get_column_letter(len(pos.columns) + 2)}2")
    tmp.replace(path)
    return path


def write_csvs(frames: dict[str, pd.DataFrame], folder: Path) -> list[Path]:
    """One UTF-8 CSV per sheet in ``folder`` (``posiciones.csv``, ...); every field inert
    (:func:`arena.inert.cell`: a text that could be a formula starts with ``'``)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, df in frames.items():
        path = folder / f"{CSV_NAMES[name]}.csv"
        inert_frame(df).to_csv(path, index=False)
        paths.append(path)
    return paths


def to_xls(xlsx: Path) -> tuple[Path | None, str]:
    """Convert to legacy .xls through LibreOffice when installed; (path or None, a one-line message)."""
    office = shutil.which("libreoffice") or shutil.which("soffice")
    if office is None:
        return None, "LibreOffice is not installed: no .xls written; the .xlsx is there"
    done = subprocess.run(
        [office, "--headless", "--convert-to", "xls", "--outdir", str(xlsx.parent), str(xlsx)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    xls = xlsx.with_suffix(".xls")
    if done.returncode != 0 or not xls.is_file():
        return None, f"LibreOffice could not convert {xlsx.name}: {done.stderr.strip()[:200]}"
    return xls, f"Legacy workbook: {xls}"
