"""The results site: ``DIR/web/``, a self-contained static site of a torneo (see docs/web.md).

``index.html`` (the standings as the workbook has them, the chart, the head-to-head heat map,
the partidos, the faults with their incident reports, the configuration), one replay viewer
page per partido (``partidos/<id>.html``), one page per entrant (``jugadores/<index>.html``)
and the incident reports (``incidentes/``). No server, no network: the pages work from
``file://``; the data is embedded as JSON blocks read by the shipped scripts, under a
Content-Security-Policy that allows nothing else. Every text from the players (names,
details, incident reports, replay lines) is escaped. The layout and DOM are a contract
with the browser tests, summarised in docs/web.md.
"""

from __future__ import annotations

import html
import json
import math
import numbers
import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from babel.numbers import format_decimal, format_percent

from arena import __version__, games, i18n
from arena.i18n import N_, _, n_
from arena.inert import printable
from arena.referee.narrate import narrate, reason_name
from arena.referee.replay import ReplayError, read_replay
from arena.referee.stats import finishing_places
from arena.results import export, report
from arena.tournament.store import Entrant, PartidoRecord, Store

WEB_DIR = "web"
"""The site's folder inside the torneo folder."""
ASSETS = Path(__file__).with_name("web_assets")
ASSET_FILES = ("site.css", "site.js", "viewer.js")


def renderer_name(game: str) -> str:
    """The asset name of ``game``'s replay renderer (its spec's ``viewer`` file): ``game-<short>.js``."""
    return f"game-{games.spec(game).short}.js"  # not shown: a file name


def assets() -> dict[str, Path]:
    """Every asset by its name under ``assets/``: the house's, and each game's renderer."""
    out = {name: ASSETS / name for name in ASSET_FILES}
    for spec in games.specs():
        out[renderer_name(spec.name)] = Path(spec.viewer)
    return out
CSP = "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'"  # not shown
PARTIDOS_IN_INDEX = 1000
"""Rows of the partidos table on the index; a bigger torneo lists them all in ``partidos/index.html``."""
HEAT_STEPS = 10
SEAT_PLACES = {
    2: ("b", "t"),
    3: ("b", "tl", "tr"),
    4: ("b", "r", "t", "l"),
    5: ("b", "r", "tr", "tl", "l"),
    6: ("b", "r", "tr", "t", "tl", "l"),
}
"""Where each seat sits on the table seen from above (grid areas of site.css), by table size."""
NOT_EVIDENCE = frozenset({"type", "seat", "reason", "detail"})
"""A fault line's fields that are not its evidence (any other is, whatever the game: docs/replay.md)."""

_TITLE = N_("Torneo {name}")


# ---------------------------------------------------------------- markup helpers


def esc(value: Any) -> str:
    """``value`` as HTML text or attribute value: printable (control characters shown), escaped."""
    return html.escape(printable(str(value)), quote=True)


def attrs(values: dict[str, Any] | None) -> str:
    if not values:
        return ""
    return "".join(f' {k}="{esc(v)}"' for k, v in values.items() if v is not None)


def el(tag: str, inner: str = "", values: dict[str, Any] | None = None) -> str:
    """An element; ``inner`` is markup (escape texts with :func:`esc` first)."""
    return f"<{tag}{attrs(values)}>{inner}</{tag}>"


def link(href: str, text: str, values: dict[str, Any] | None = None) -> str:
    return el("a", esc(text), {"href": href, **(values or {})})


def json_block(block_id: str, value: Any) -> str:
    """A JSON data block (not executed under the CSP); ``<``, ``>``, ``&``, U+2028/9 as ``\\uXXXX``."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for char in "<>&\u2028\u2029":
        text = text.replace(char, f"\\u{ord(char):04x}")
    return el("script", text, {"type": "application/json", "id": block_id})


def page(
    title: str, body: str, root: str, scripts: Sequence[str] = (), data: str = "", head_extra: str = ""
) -> str:
    """A whole page; ``root``: the path from the page to ``web/`` (``""`` or ``"../"``; a served
    page: the assets' folder's parent); ``head_extra``: more markup for the ``head``."""
    head = [
        '<meta charset="utf-8">',  # not shown: markup
        el("title", esc(title)),
        '<meta name="viewport" content="width=device-width, initial-scale=1">',  # not shown: markup
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',  # not shown: markup
        f'<meta name="generator" content="tute-arena {esc(__version__)}">',  # not shown: markup
        f'<link rel="stylesheet" href="{root}assets/site.css">',  # not shown: markup
    ]
    for name in ("site.js", *scripts):
        head.append(el("script", "", {"src": root + "assets/" + name, "defer": "defer"}))
    if head_extra:
        head.append(head_extra)
    skip = link("#contenido", _("Skip to content"), {"class": "skip"})
    size = el(
        "button",
        esc(_("Larger text")),
        {"type": "button", "id": "large-type", "aria-pressed": "false", "class": "tool"},
    )
    return (
        f'<!DOCTYPE html>\n<html lang="{i18n.language()}">\n<head>\n'  # not shown: markup
        + "\n".join(head)
        + "\n</head>\n<body>\n"
        + skip
        + el("div", size, {"class": "tools"})
        + body
        + data
        + "\n</body>\n</html>\n"
    )


def table(
    head: Sequence[str], rows: Iterable[str], values: dict[str, Any], caption: str = "", scroll: str = ""
) -> str:
    """A table (``rows``: markup of ``tr``s), in a scrollable region labelled ``scroll`` when given."""
    heading = "".join(el("th", esc(h), {"scope": "col"}) for h in head)
    inner = (el("caption", esc(caption)) if caption else "") + el("thead", el("tr", heading))
    out = el("table", inner + el("tbody", "".join(rows)), values)
    if scroll:
        return el("div", out, {"class": "scroll", "role": "region", "aria-label": scroll, "tabindex": "0"})
    return out


# ---------------------------------------------------------------- numbers


def raw(value: Any) -> str:
    """A number as the ``data-value`` attribute holds it: repr of the int or float, empty for NaN."""
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int) or (hasattr(value, "dtype") and value.dtype.kind in "iu"):
        return str(int(value))
    number = float(value)
    return "" if math.isnan(number) else repr(number)


def shown(key: str, value: Any) -> str:
    """A value as the workbook formats its column (percent, decimals), in the language in use."""
    if isinstance(value, str):
        return value or "—"
    if value is None:
        return "—"
    if isinstance(value, float) and math.isnan(value):
        return "—"
    lang = i18n.language()
    if key in export.PERCENT:
        return str(format_percent(value, "#,##0.0%", locale=lang))
    number_format = export.decimals(key)
    if number_format:
        return str(format_decimal(value, "#,##0." + number_format.partition(".")[2], locale=lang))
    if isinstance(value, float):
        return str(format_decimal(value, "#,##0.###", locale=lang))
    return str(value)


def is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


# ---------------------------------------------------------------- the site


class Site:
    """What a site is made of, read from the store at once."""

    def __init__(
        self,
        folder: Path,
        rep: report.Report,
        entrants: list[Entrant],
        recs: list[PartidoRecord],
        replays_shown: bool = True,
    ):
        self.folder = folder
        self.replays_shown = replays_shown
        """Whether the viewer pages are written: not while a torneo dealt from a secret key is
        incomplete (a finished partido's hands are a deal that ``--duplicate`` rotations still to
        be played use again; the workbook hides the seeds then too)."""
        self.rep = rep
        self.entrants = entrants
        self.recs = recs
        self.index = {e.name: e.index for e in entrants}
        self.h = export.headers()

    def partido_link(self, root: str, partido: str) -> str:
        """The partido's id, linked to its viewer page when the replays are shown."""
        return link(viewer_href(root, partido), partido) if self.replays_shown else esc(partido)

    def player_link(self, name: str, root: str) -> str:
        i = self.index.get(name)
        return esc(name) if i is None else link(f"{root}jugadores/{i}.html", name)  # not shown: markup


def build_site(
    folder: str | Path, out_dir: Path | None = None, rep: report.Report | None = None
) -> list[Path]:
    """Write the site of the torneo in ``folder`` into ``out_dir`` (default ``folder/web``), in the
    language in use; ``rep``: its report when already built. Returns the files written."""
    folder = Path(folder)
    out = Path(out_dir) if out_dir is not None else folder / WEB_DIR
    with Store.open(folder, readonly=True) as store, store.snapshot():
        rep = rep if rep is not None else report.build(store)
        scheduled, committed, withdrawn = store.counts()
        secret = store.deal_key() is not None and committed + withdrawn < scheduled
        site = Site(folder, rep, store.entrants(), store.results(figures=False), not secret)
    return write(site, out)


def write(site: Site, out: Path) -> list[Path]:
    for sub in ("partidos", "jugadores", "incidentes"):
        if (out / sub).is_dir():
            shutil.rmtree(out / sub)
    for sub in ("assets", "partidos", "jugadores", "incidentes"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    written = []
    for name, source in assets().items():
        shutil.copyfile(source, out / "assets" / name)
        written.append(out / "assets" / name)
    incidents = _copy_incidents(site, out)
    written += incidents.values()
    for rec in site.recs if site.replays_shown else ():
        written.append(_put(out / "partidos" / f"{rec.id}.html", viewer_page(site, rec)))
    if len(site.recs) > PARTIDOS_IN_INDEX:
        written.append(_put(out / "partidos" / "index.html", partidos_page(site)))
    for e in site.entrants:
        written.append(_put(out / "jugadores" / f"{e.index}.html", entrant_page(site, e)))
    written.insert(0, _put(out / "index.html", index_page(site, {k: v.name for k, v in incidents.items()})))
    return written


def _put(path: Path, text: str) -> Path:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path


def _copy_incidents(site: Site, out: Path) -> dict[str, Path]:
    """Each incident file, as ``incidentes/<its name>.txt``, by its path relative to DIR."""
    copied: dict[str, Path] = {}
    names = [str(n) for n in site.rep.frames["Descalificaciones"].iloc[:, 6].tolist()]
    for rel in names:
        source = site.folder / rel
        if not rel or rel in copied or not source.is_file():
            continue
        name = re.sub(r"[^A-Za-z0-9._-]", "_", Path(rel).name.removesuffix(".txt"))
        target = out / "incidentes" / f"{name}.txt"
        if target.exists():
            target = out / "incidentes" / f"{name}-{len(copied)}.txt"
        shutil.copyfile(source, target)
        target.chmod(0o644)
        copied[rel] = target
    return copied


# ---------------------------------------------------------------- index.html


def site_title(name: str) -> str:
    """The site's title from its torneo's folder name: "Torneo <name>", without saying *torneo* twice
    (``torneo-20261206-1219`` → "Torneo 20261206-1219"; a folder named ``torneo`` → "Torneo")."""
    rest = name[len("torneo") :].lstrip("-_ .") if name.lower().startswith("torneo") else name
    return _(_TITLE).format(name=rest).strip()


def index_page(site: Site, incidents: dict[str, str]) -> str:
    rep, h = site.rep, site.h
    title = site_title(site.folder.resolve().name)
    nav = [
        ("posiciones", _("Standings")),
        ("chart", h["pct_ganados"]),
        ("enfrentamientos", _("Head to head")),
        *([("pares", _("Pairwise verdicts"))] if "Pares" in rep.frames else []),
        *([("sospechas", _("Suspicions"))] if "Sospechas" in rep.frames else []),
        *([("auditoria", _("Audit"))] if "Auditoría" in rep.frames else []),
        ("partidos-lista", _("Partidos")),
        ("faltas", _("Faults")),
        ("configuracion", _("Configuration")),
    ]
    captions = export.default_captions(h, {h[c] for c in rep.posiciones.columns if c in h})
    body = [
        el("header", el("h1", esc(title)) + el("p", esc(report.progress_line(rep)), {"class": "progress"})),
        el(
            "nav",
            el("ul", "".join(el("li", link(f"#{a}", t)) for a, t in nav)),
            {"aria-label": _("Sections")},
        ),
        '<main id="contenido">',  # not shown: markup
        el(
            "section",
            el("h2", esc(_("Standings")), {"id": "posiciones-titulo"})
            + "".join(el("p", esc(x)) for x in [*rep.separation, captions["Posiciones"][0]])
            + posiciones_table(site),
            {"aria-labelledby": "posiciones-titulo"},
        ),
        chart(site),
        el(
            "section",
            el("h2", esc(_("Head to head")), {"id": "enfrentamientos-titulo"})
            + el("p", esc(captions["Enfrentamientos"][0]))
            + heat_map(site),
            {"aria-labelledby": "enfrentamientos-titulo"},
        ),
        pares_section(site, captions),
        suspicions_section(site, captions),
        audit_section(site, captions),
        partidos_section(site, PARTIDOS_IN_INDEX),
        faults_section(site, incidents),
        config_section(site),
        "</main>",
        el("footer", el("p", esc(_("Made by tute-arena {version}.").format(version=__version__)))),
    ]
    return page(title, "\n".join(body), "")


def pares_section(site: Site, captions: dict[str, list[str]]) -> str:
    """The pairwise verdicts: the probability that the row's entrant is stronger, as a heat map."""
    if "Pares" not in site.rep.frames:
        return ""
    return el(
        "section",
        el("h2", esc(_("Pairwise verdicts")), {"id": "pares-titulo"})
        + el("p", esc(captions["Pares"][0]))
        + heat_map(site, "Pares"),
        {"aria-labelledby": "pares-titulo"},
    )


SUSPICIONS_SHOWN = 20
"""The site lists the pairs flagged and, after them, the most suspicious others up to this many rows."""


def suspicions_section(site: Site, captions: dict[str, list[str]]) -> str:
    """The pairs an instructor may want to look at (collusion, soft play): never an accusation."""
    frame = site.rep.frames.get("Sospechas")
    if frame is None:
        return ""
    h = site.h
    flag = h["sospecha"]
    flagged = int(frame[flag].astype(bool).sum()) if flag in frame.columns else 0
    shown_rows = frame.head(max(flagged, SUSPICIONS_SHOWN))
    keys = [next((k for k, v in h.items() if v == c), str(c)) for c in frame.columns]
    rows = []
    for record in shown_rows.itertuples(index=False):
        cells = []
        for key, value in zip(keys, record, strict=True):
            values: dict[str, Any] = {"data-col": key}
            if key in ("a", "b"):
                cells.append(el("td", site.player_link(str(value), ""), values))
                continue
            if key == "sospecha":
                cells.append(el("td", esc(_("yes") if value else _("no")), values))
                continue
            if is_number(value):
                values["data-value"] = raw(value)
                values["class"] = "num"
            cells.append(el("td", esc(shown(key, value)), values))
        rows.append(
            el("tr", "".join(cells), {"class": "suspect" if record[keys.index("sospecha")] else "pair"})
        )
    inner = el("h2", esc(_("Suspicions")), {"id": "sospechas-titulo"})
    inner += "".join(el("p", esc(x)) for x in [*site.rep.suspicion, captions["Sospechas"][0]])
    inner += table(
        [str(c) for c in frame.columns],
        rows,
        {"id": "sospechas-tabla"},
        _("Suspicions"),
        _("Suspicions table, scrolls sideways"),
    )
    return el("section", inner, {"id": "sospechas", "aria-labelledby": "sospechas-titulo"})


def audit_section(site: Site, captions: dict[str, list[str]]) -> str:
    """``arena audit``'s figures by entrant (a peek, a time tell), when the torneo was audited."""
    frame = site.rep.frames.get("Auditoría")
    if frame is None:
        return ""
    h = site.h
    keys = [next((k for k, v in h.items() if v == c), str(c)) for c in frame.columns]
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        for key, value in zip(keys, record, strict=True):
            values: dict[str, Any] = {"data-col": key}
            if key == "entrant":
                cells.append(el("td", site.player_link(str(value), ""), values))
            elif key in ("espia", "delata"):
                cells.append(el("td", esc(_("yes") if value else _("no")), values))
            else:
                if is_number(value):
                    values["data-value"] = raw(value)
                    values["class"] = "num"
                cells.append(el("td", esc(shown(key, value)), values))
        flagged = record[keys.index("espia")] or record[keys.index("delata")]
        rows.append(el("tr", "".join(cells), {"class": "suspect" if flagged else "entrant"}))
    inner = el("h2", esc(_("Audit")), {"id": "auditoria-titulo"})
    inner += "".join(el("p", esc(x)) for x in captions["Auditoría"])
    inner += table([str(c) for c in frame.columns], rows, {"id": "auditoria-tabla"}, _("Audit"), _("Audit"))
    return el("section", inner, {"id": "auditoria", "aria-labelledby": "auditoria-titulo"})


def posiciones_table(site: Site) -> str:
    pos, h = site.rep.posiciones, site.h
    columns = list(pos.columns)
    if not report.has_students(pos):  # a torneo of no imported submission: no blank columns
        columns = [c for c in columns if c not in report.STUDENT_COLUMNS]
    rows = []
    for record in pos.to_dict("records"):
        cells = []
        for key in columns:
            value = record[key]
            values: dict[str, Any] = {"data-col": key}
            if key == "entrant":
                inner = site.player_link(str(value), "")
                cells.append(el("td", inner, values))
                continue
            if is_number(value):
                values["data-value"] = raw(value)
                values["class"] = "num"
            inner = esc(shown(key, value))
            if key == "pct_ganados":
                inner = interval_bar(record) + inner
            cells.append(el("td", inner, values))
        rows.append(el("tr", "".join(cells), {"class": "entrant", "data-entrant": record["entrant"]}))
    return table(
        [h.get(c, c) for c in columns],
        rows,
        {"id": "posiciones"},
        _("Standings"),
        _("Standings table, scrolls sideways"),
    )


def interval_bar(record: dict[str, Any]) -> str:
    """A small drawing of the rate with its 95% interval (decorative: the numbers are beside it)."""
    p, low, high = (record[k] for k in ("pct_ganados", "ic_bajo", "ic_alto"))
    if any(isinstance(v, float) and math.isnan(v) for v in (p, low, high)):
        return ""
    w = 60
    shapes = [
        el("rect", "", {"class": "track", "x": 0, "y": 3, "width": w, "height": 4}),
        el("rect", "", {"class": "bar", "x": 0, "y": 3, "width": f"{p * w:.1f}", "height": 4}),
    ]
    for x1, x2, y1, y2 in ((low, high, 5, 5), (low, low, 1, 9), (high, high, 1, 9)):
        shapes.append(
            el("line", "", {"class": "ci", "x1": f"{x1 * w:.1f}", "x2": f"{x2 * w:.1f}", "y1": y1, "y2": y2})
        )
    box = {
        "class": "mini",
        "viewBox": f"0 0 {w} 10",
        "width": w,
        "height": 10,
        "aria-hidden": "true",
    }  # not shown
    return el("svg", "".join(shapes), box)


def chart(site: Site) -> str:
    """The rate of each entrant with its 95% interval, as an SVG with a text alternative."""
    pos, h = site.rep.posiciones, site.h
    label_w, bar_w, row_h, top = 200, 420, 26, 30
    width, height = label_w + bar_w + 90, top + row_h * max(1, len(pos)) + 10
    title = _("{rate} (95% CI)").format(rate=h["pct_ganados"])
    desc = _(
        "One bar per player, in the order of the standings: the bar is its {rate}, the line across "
        "it the 95% interval. The same figures are in the standings table."
    ).format(rate=h["pct_ganados"])
    parts = [
        f'<svg id="chart-svg" role="img" aria-labelledby="chart-title chart-desc"'
        f' viewBox="0 0 {width} {height}"'
        f' width="{width}" height="{height}" preserveAspectRatio="xMinYMin meet">',  # not shown: markup
        el("title", esc(title), {"id": "chart-title"}),
        el("desc", esc(desc), {"id": "chart-desc"}),
    ]
    for tick in range(0, 101, 25):
        x = label_w + bar_w * tick / 100
        parts.append(
            el(
                "line",
                "",
                {"class": "grid", "x1": f"{x:.1f}", "x2": f"{x:.1f}", "y1": top - 6, "y2": height - 6},
            )
            + el("text", f"{tick}%", {"class": "tick", "x": f"{x:.1f}", "y": str(top - 12)})
        )
    for i, record in enumerate(pos.to_dict("records")):
        y = top + i * row_h
        name = str(record["entrant"])
        short = name if len(name) <= 24 else name[:23] + "…"
        p, low, high = (record[k] for k in ("pct_ganados", "ic_bajo", "ic_alto"))
        group = [el("title", esc(f"{name}: {shown('pct_ganados', p)}"))]
        group.append(
            el("text", esc(short), {"class": "label", "x": str(label_w - 8), "y": str(y + row_h * 0.65)})
        )
        if not (isinstance(p, float) and math.isnan(p)):
            x0 = label_w
            group.append(
                el(
                    "rect",
                    "",
                    {
                        "class": "bar",
                        "x": str(x0),
                        "y": str(y + 5),
                        "width": f"{p * bar_w:.1f}",
                        "height": str(row_h - 10),
                    },
                )
            )
            mid = y + row_h / 2
            a, b = x0 + low * bar_w, x0 + high * bar_w
            for x1, x2, y1, y2 in ((a, b, mid, mid), (a, a, mid - 6, mid + 6), (b, b, mid - 6, mid + 6)):
                group.append(
                    el("line", "", {"class": "ci", "x1": f"{x1:.1f}", "x2": f"{x2:.1f}", "y1": y1, "y2": y2})
                )
            group.append(
                el(
                    "text",
                    esc(shown("pct_ganados", p)),
                    {"class": "value", "x": str(label_w + bar_w + 8), "y": str(y + row_h * 0.65)},
                )
            )
        parts.append(el("g", "".join(group), {"class": "row", "data-entrant": name}))
    parts.append("</svg>")
    caption = _("{rate} with its 95% interval; the numbers are in the standings table above.").format(
        rate=h["pct_ganados"]
    )
    caption_html = esc(caption) + " " + link("#posiciones", _("Standings table"))
    return el(
        "figure",
        el("h2", esc(title), {"id": "chart-heading"})
        + el("div", "".join(parts), {"class": "scroll"})
        + el("figcaption", caption_html),
        {"id": "chart", "aria-labelledby": "chart-heading"},
    )


def heat_map(site: Site, sheet: str = "Enfrentamientos") -> str:
    """The matrix sheet ``sheet`` (Enfrentamientos, Pares) as a table coloured by its shares."""
    frame = site.rep.frames[sheet]
    names = [str(c) for c in frame.columns[1:]]
    rows = []
    for row in frame.itertuples(index=False):
        who = str(row[0])
        cells = [el("th", esc(who), {"scope": "row"})]
        for col, value in zip(names, row[1:], strict=True):
            v = float(value)
            if math.isnan(v):
                values = {"data-row": who, "data-col": col, "data-value": "", "class": "heat-none"}
                cells.append(el("td", "—", values))
                continue
            step = round(v * HEAT_STEPS)
            values = {"data-row": who, "data-col": col, "data-value": repr(v), "class": f"heat-{step}"}
            cells.append(el("td", esc(shown("pct_ganados", v)), values))
        rows.append(el("tr", "".join(cells)))
    if sheet == "Pares":
        return table(
            [site.h["entrant"], *names],
            rows,
            {"id": "pares", "class": "heat"},
            _("Pairwise verdicts"),
            _("Pairwise verdicts table, scrolls sideways"),
        )
    return table(
        [site.h["entrant"], *names],
        rows,
        {"id": "enfrentamientos", "class": "heat"},
        _("Head to head"),
        _("Head to head table, scrolls sideways"),
    )


def viewer_href(root: str, partido: str) -> str:
    """The link to a partido's viewer page from a page ``root`` away from ``web/``."""
    return root + "partidos/" + partido + ".html"


def partido_rows(site: Site, recs: Sequence[PartidoRecord], root: str) -> list[str]:
    rows = []
    for rec in recs:
        winners = ", ".join(rec.players[s] for s in rec.winners)
        cells = [
            el("th", site.partido_link(root, rec.id), {"scope": "row", "data-col": "partido"}),
            el("td", ", ".join(site.player_link(p, root) for p in rec.players), {"data-col": "jugadores"}),
            el("td", esc(winners or "—"), {"data-col": "ganadores"}),
            el("td", str(rec.manos), {"data-col": "manos", "data-value": str(rec.manos), "class": "num"}),
            el("td", str(len(rec.faults)), {"data-col": "faltas", "data-value": str(len(rec.faults))}),
        ]
        rows.append(el("tr", "".join(cells), {"data-partido": rec.id}))
    return rows


def _partidos_head(site: Site) -> list[str]:
    h = site.h
    return [h["partido"], h["jugadores"], h["ganadores"], h["manos"], h["faltas"]]


def partidos_section(site: Site, limit: int) -> str:
    recs = site.recs[:limit]
    more = (
        ""
        if site.replays_shown
        else el("p", esc(_("The replays are published when the torneo is complete (they show every hand).")))
    )
    if len(site.recs) > limit:
        more += el(
            "p",
            esc(
                _("The first {shown} of {total} partidos; all of them: ").format(
                    shown=limit, total=len(site.recs)
                )
            )
            + link("partidos/index.html", _("every partido")),
        )
    return el(
        "section",
        el("h2", esc(_("Partidos")), {"id": "partidos-lista"})
        + more
        + table(
            _partidos_head(site),
            partido_rows(site, recs, ""),
            {"id": "partidos"},
            _("Partidos"),
            _("Partidos table, scrolls sideways"),
        ),
        {"aria-labelledby": "partidos-lista"},
    )


def partidos_page(site: Site) -> str:
    title = _("Partidos") + " — " + _(_TITLE).format(name=site.folder.resolve().name)
    body = el("nav", link("../index.html", _("Back to the standings"))) + el(
        "main",
        el("h1", esc(title))
        + table(_partidos_head(site), partido_rows(site, site.recs, "../"), {"id": "partidos"}),
        {"id": "contenido"},
    )
    return page(title, body, "../")


def faults_section(site: Site, incidents: dict[str, str]) -> str:
    frame = site.rep.frames["Descalificaciones"]
    head = [str(c) for c in frame.columns]
    rows = []
    known = {r.id for r in site.recs}
    for partido, mano, who, motivo, penalized, detail, incident in frame.itertuples(index=False):
        partido = str(partido)
        first = site.partido_link("", partido) if partido in known else esc(partido)
        file = incidents.get(str(incident or ""))
        cells = [
            el("td", first, {"data-col": "partido"}),
            el("td", "—" if mano is None or mano != mano else esc(int(mano)), {"data-col": "mano"}),
            el("td", site.player_link(str(who), ""), {"data-col": "entrant"}),
            el("td", esc(reason_name(str(motivo))), {"data-col": "motivo", "data-reason": motivo}),
            el("td", esc(_("yes") if penalized else _("no")), {"data-col": "penalizado"}),
            el("td", esc(detail), {"data-col": "detalle"}),
            el(
                "td",
                link(f"incidentes/{file}", _("incident report")) if file else "—",
                {"data-col": "incidente"},
            ),
        ]
        rows.append(el("tr", "".join(cells), {"class": "fault"}))
    inner = el("h2", esc(_("Faults")), {"id": "faltas-titulo"})
    if not rows:
        inner += el("p", esc(_("No faults.")))
    inner += table(head, rows, {"id": "faltas-tabla"}, _("Faults"), _("Faults table, scrolls sideways"))
    return el("section", inner, {"id": "faltas", "aria-labelledby": "faltas-titulo"})


def config_section(site: Site) -> str:
    frame = site.rep.frames["Configuración"]
    rows = [
        el("tr", el("th", esc(k), {"scope": "row"}) + el("td", esc(v)))
        for k, v in frame.itertuples(index=False)
    ]
    inner = el("h2", esc(_("Configuration")), {"id": "configuracion-titulo"}) + table(
        [str(c) for c in frame.columns], rows, {"id": "configuracion-tabla"}
    )
    return el("section", inner, {"id": "configuracion", "aria-labelledby": "configuracion-titulo"})


# ---------------------------------------------------------------- jugadores/<index>.html


def entrant_page(site: Site, entrant: Entrant) -> str:
    name = entrant.name
    title = _("{player}: partidos").format(player=name)
    pos = site.rep.posiciones
    row = pos[pos["entrant"] == name]
    summary = ""
    if not row.empty:
        r = row.iloc[0]
        summary = el(
            "p",
            esc(
                _("Rank {rank}; {rate} won ({low} – {high}, 95%).").format(
                    rank=int(r["puesto"]),
                    rate=shown("pct_ganados", r["pct_ganados"]),
                    low=shown("ic_bajo", r["ic_bajo"]),
                    high=shown("ic_alto", r["ic_alto"]),
                )
            ),
            {"class": "summary"},
        )
    rows = []
    for rec in site.recs:
        seats = [s for s, e in enumerate(rec.seats) if e == entrant.index]
        if not seats:
            continue
        won = any(s in rec.winners for s in seats)
        place = finishing_places(rec.ranking).get(seats[0], float(len(rec.players)))
        others = [p for s, p in enumerate(rec.players) if s not in seats]
        cells = [
            el("th", site.partido_link("../", rec.id), {"scope": "row", "data-col": "partido"}),
            el("td", ", ".join(site.player_link(p, "../") for p in others), {"data-col": "rivales"}),
            el("td", esc(_("won") if won else _("lost")), {"data-col": "resultado", "data-value": int(won)}),
            el("td", esc(shown("lugar", place)), {"data-col": "lugar", "data-value": raw(place)}),
            el("td", str(rec.manos), {"data-col": "manos", "data-value": rec.manos}),
        ]
        rows.append(el("tr", "".join(cells), {"data-partido": rec.id}))
    head = [site.h["partido"], _("Opponents"), _("Result"), _("Place"), site.h["manos"]]
    body = el("nav", link("../index.html", _("Back to the standings"))) + el(
        "main",
        el("h1", esc(title))
        + summary
        + table(head, rows, {"id": "partidos"}, _("Partidos"), _("Partidos table, scrolls sideways")),
        {"id": "contenido"},
    )
    return page(title, body, "../")


# ---------------------------------------------------------------- partidos/<id>.html


def event_texts(events: Sequence[dict[str, Any]]) -> list[list[str]]:
    """What each replay line says, in words (the game's terms): one list of lines per event."""
    start = events[0] if events and events[0].get("type") == "partido_start" else None
    before = len(list(narrate([start]))) if start else 0
    out = []
    for i, e in enumerate(events):
        try:
            lines = list(narrate([e] if i == 0 or start is None else [start, e], moves=True))
        except (KeyError, TypeError, IndexError, ValueError):
            lines = []
        if i and start is not None:
            lines = lines[before:]
        lines = [x.strip() for x in lines if x.strip()]
        if e.get("type") in ("disqualified", "penalized"):
            evidence = ", ".join(f"{k} {e[k]}" for k in e if k not in NOT_EVIDENCE)
            if evidence:
                lines.append(printable(_("Evidence: {evidence}").format(evidence=evidence)))
        out.append(lines)
    return out


def viewer_strings(game: str | None = None) -> dict[str, str]:
    """What the viewer's script writes, in the language in use: the house's words, then the words of
    ``game``'s renderer (its spec's ``viewer_words``)."""
    spec = games.spec(game) if game in games.names() else games.default()
    return {
        "step": _("Step {k} of {n}"),
        "start": _("Before the first line of the replay."),
        "play": _("Play"),
        "pause": _("Pause"),
        "out": _("out of the partido"),
        **{key: _(text) for key, text in spec.viewer_words.items()},
    }


def read_events(path: Path) -> tuple[list[dict[str, Any]], str]:
    """A replay's events and, when it cannot be read, the problem (and no events)."""
    try:
        return read_replay(path), ""
    except ReplayError as exc:
        return [], str(exc)


def published(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as the site shows them: ``partido_start`` without the players' folders
    (``players[].source``, a path on the referee's machine that names other students' folders)."""
    out = []
    for event in events:
        if event.get("type") == "partido_start" and isinstance(event.get("players"), list):
            players = [
                {k: v for k, v in p.items() if k != "source"} for p in event["players"] if isinstance(p, dict)
            ]
            event = {**event, "players": players}
        out.append(event)
    return out


def viewer_page(site: Site, rec: PartidoRecord) -> str:
    events, problem = read_events(site.folder / rec.replay)
    events = published(events)
    back = el(
        "nav",
        link("../index.html", _("Back to the standings"))
        + " · "
        + " · ".join(site.player_link(p, "../") for p in dict.fromkeys(rec.players)),
    )
    return replay_page(rec.id, events, problem, rec.players, rec.winners, rec.manos, back, "../")


def replay_page(
    partido: str,
    events: Sequence[dict[str, Any]],
    problem: str,
    entrants: Sequence[str],
    winner_seats: Sequence[int],
    manos: int,
    nav: str,
    root: str,
    head_extra: str = "",
) -> str:
    """A partido's viewer page from its replay's ``events`` (the seats named as its
    ``partido_start`` names them, else as ``entrants``); ``nav``: the markup above the viewer;
    ``root``: where the assets' folder is (see :func:`page`)."""
    start = events[0] if events and events[0].get("type") == "partido_start" else {}
    players = [p.get("name", "") if isinstance(p, dict) else p for p in start.get("players", [])]
    if not players:
        players = list(entrants)
    teams = start.get("teams") or []
    title = _("Partido {partido}").format(partido=partido)
    places = SEAT_PLACES.get(len(players), tuple(f"s{s}" for s in range(len(players))))
    seats = []
    for s, name in enumerate(players):
        team = next((i for i, t in enumerate(teams) if s in t), None)
        head = el("h2", el("span", esc(name), {"class": "name"}) + el("span", f" ({s})", {"class": "seatno"}))
        counter = el("p", "", {"class": "counter", "data-value": ""})
        hand = el("div", "", {"class": "hand", "aria-label": _("Hand of {player}").format(player=name)})
        seats.append(
            el(
                "section",
                head + counter + hand,
                {
                    "class": f"seat at-{places[s]}",  # not shown: markup
                    "data-seat": s,
                    "data-team": team,
                    "aria-label": _("Seat {seat}: {player}").format(seat=s, player=name),
                },
            )
        )
    centre = el("div", "", {"class": "centre", "id": "centre"})  # the game's renderer draws the table
    view = el("option", esc(_("Every hand")), {"value": "all"}) + "".join(
        el("option", esc(f"{name} ({s})"), {"value": s}) for s, name in enumerate(players)
    )
    buttons = [
        ("first", _("First"), "«"),
        ("prev", _("Previous"), "‹"),
        ("play", _("Play"), "▶"),
        ("next", _("Next"), "›"),
        ("last", _("Last"), "»"),
    ]
    controls = "".join(
        el(
            "button",
            el("span", icon, {"aria-hidden": "true"}) + " " + el("span", esc(label), {"class": "label"}),
            {"type": "button", "id": bid, "aria-pressed": "false" if bid == "play" else None},
        )
        for bid, label, icon in buttons
    )
    controls += el(
        "label", esc(_("Show the hands of")) + " " + el("select", view, {"id": "view-as"}), {"class": "view"}
    )
    help_text = _("Keys: → next, ← previous, Home first, End last, space play or pause.")
    winners = ", ".join(entrants[s] for s in winner_seats) or "—"
    summary = _("Players: {players}. Winners: {winners}. Manos: {manos}.").format(
        players=", ".join(entrants), winners=winners, manos=manos
    )
    main = el(
        "main",
        el("h1", esc(title))
        + el("p", esc(summary))
        + (el("p", esc(problem), {"class": "problem"}) if problem else "")
        + el("div", controls, {"class": "controls", "role": "group", "aria-label": _("Replay controls")})
        + el("p", esc(help_text), {"class": "keys"})
        + el("p", "", {"id": "status", "aria-live": "polite", "role": "status"})
        + el("div", "".join(seats) + centre, {"class": f"mesa seats-{len(players)}"})  # not shown: markup
        + el("h2", esc(_("What happened")), {"id": "log-title"})
        + el("ol", "", {"id": "log", "aria-labelledby": "log-title", "tabindex": "0"}),
        {"id": "viewer", "data-step": "0", "data-steps": len(events), "data-game": start.get("game", "")},
    )
    data = (
        json_block("replay-data", events)
        + json_block("replay-text", event_texts(events))
        + json_block("viewer-strings", viewer_strings(start.get("game") or games.default().name))
    )
    game = start.get("game") or games.default().name
    scripts = (renderer_name(game), "viewer.js") if game in games.names() else ("viewer.js",)
    return page(title, nav + main, root, scripts, data, head_extra)


def summary_line(paths: Sequence[Path], out: Path) -> str:
    """``Site: DIR/web/index.html (N files, X MB)``, in the language in use."""
    size = sum(p.stat().st_size for p in paths if p.is_file())
    return n_(
        "Site: {index} ({n} file, {mb} MB)",
        "Site: {index} ({n} files, {mb} MB)",
        len(paths),
    ).format(index=out / "index.html", n=len(paths), mb=f"{size / 1e6:.1f}")
