"""A torneo's standings from its store: the tables, the workbook, the CSVs, the terminal table.

Works on a finished torneo, one still running (the store is read, never locked),
or one interrupted: only committed partidos count.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from arena import games, i18n, inert
from arena.i18n import N_, _, n_, shown
from arena.referee.replay import read_replay
from arena.referee.stats import FIELDS, partido_stats
from arena.results import collusion, export, ranking, standings, students
from arena.results.students import LeftOut, Student
from arena.tournament.schedule import seating_balance
from arena.tournament.store import (
    NO_START,
    TIMES_DTYPE,
    TIMES_PER_MS,
    PartidoRecord,
    Store,
    exclusion_kind,
    shown_config,
)

WORKBOOK = "standings.xlsx"
"""The workbook in the default language (Spanish)."""
WORKBOOK_IN = "standings-{lang}.xlsx"
"""The workbook in another language: an English one never overwrites the Spanish one."""
WORKBOOK_EN = WORKBOOK_IN.format(lang="en")
CSV_DIR = "csv"


@dataclass
class Report:
    """Everything the standings show, and how complete they are."""

    posiciones: pd.DataFrame
    frames: dict[str, pd.DataFrame]
    scheduled: int
    committed: int
    withdrawn: int
    separation: list[str]
    """What the order establishes, in words (:func:`arena.results.standings.separation_lines`)."""
    suspicion: list[str] = field(default_factory=list)
    """One line on the pairs flagged for collusion or soft play (:func:`suspicion_line`)."""
    students: dict[str, Student] = field(default_factory=dict)
    """Each entrant's student (full name, Moodle id) by entrant name, when an import made its folder."""
    left_out: list[LeftOut] = field(default_factory=list)
    """The students whose submissions are no entrants (left out: could not start, ...): no grade."""

    @property
    def complete(self) -> bool:
        return self.committed + self.withdrawn >= self.scheduled


def _stats(store: Store, rec: PartidoRecord) -> list[dict[str, Any]]:
    """Per-seat figures: as stored at commit, with the reply times; from the replay if missing."""
    if not rec.stats:
        return partido_stats(read_replay(store.dir / rec.replay))
    return [{**seat, "reply_ms": list(rec.reply_ms[s])} for s, seat in enumerate(rec.stats)]


def records(store: Store, figures: bool = True) -> list[dict[str, Any]]:
    """The committed partidos as the standings' records (see :data:`arena.results.standings.RECORD_KEYS`).

    A partido's seed is shown only once a keyed torneo is complete: under
    ``--duplicate`` it is also the deal of rotations still to be played. Without ``figures``,
    no ``stats`` (much faster: count them with :func:`tally`).
    """
    scheduled, committed, withdrawn = store.counts()
    secret = _(KEY_SECRET) if store.deal_key() is not None and committed + withdrawn < scheduled else None
    game = games.spec(store.config().get("game") or games.default().name)
    losses = None if figures or not game.loss_count else store.seat_losses(game.loss_count)
    out = []
    for rec in store.results(figures):
        record: dict[str, Any] = {
            "partido": rec.id,
            "seed": secret or rec.seed,
            "players": rec.players,
            "winners": rec.winners,
            "ranking": rec.ranking,
            "manos": rec.manos,
            "faults": [
                {
                    "mano": f.mano,
                    "seat": f.seat,
                    "reason": f.reason,
                    "penalized": f.penalized,
                    "detail": shown(f.detail),
                    "incident": f.incident or "",
                }
                for f in rec.faults
            ],
            "replay": rec.replay,
        }
        if losses is not None and rec.id in losses:  # what each seat gave up, without the stats
            record["losses"] = losses[rec.id]
        if figures:
            record["stats"] = _stats(store, rec)
        out.append(record)
    return out


def tally(store: Store) -> standings.Tally | None:
    """Each entrant's figures as the store sums them (schema 3; its reply times made an array an
    entrant at a time, never Python floats), by entrant index; None for an older store (count the
    records' ``stats``)."""
    totals = store.seat_totals()
    times = store.reply_times()
    if totals is None or times is None:
        return None
    index = [e.index for e in store.entrants()]
    sums = [totals.get(e, {}) for e in index]
    keys = sorted({*FIELDS, *(k for t in sums for k in t)} - TOTALS)
    counted = standings.Tally(
        [int(t.get("seats", 0)) for t in sums],
        [int(t.get("won", 0)) for t in sums],
        [float(t.get("place", 0.0)) for t in sums],
        {f: [int(t.get(f, 0)) for t in sums] for f in keys},
        [],
        [],
    )
    for e in index:
        wall, cpu = times.pop(e, ([], []))
        counted.ms.append(_spread(wall))
        counted.cpu_ms.append(_spread(cpu))
    return counted


TOTALS = frozenset({"seats", "won", "place"})
"""The keys of the store's sums that are not counts."""


def _spread(blobs: list[bytes]) -> tuple[float, float]:
    """Median and p95 (ms) of an entrant's packed reply times (:func:`arena.tournament.store.pack_times`)."""
    times = np.frombuffer(b"".join(blobs), dtype=TIMES_DTYPE)
    return standings.spread(times, TIMES_PER_MS)


KEY_ROW = N_("deal key")
"""The Configuración row of the deal key, marked for the catalog (show it with ``_(KEY_ROW)``)."""
KEY_SECRET = N_("secret until the torneo is over")
"""What is shown of a keyed torneo's key and seeds before it is complete (``_(KEY_SECRET)``)."""


def deal_key_shown(store: Store) -> str:
    """What may be shown of the deal key: the key once the torneo is complete, else that it is secret."""
    key = store.deal_key()
    if key is None:
        return _("none: explicit seed {seed} (predictable deals)").format(seed=store.config().get("seed"))
    scheduled, committed, withdrawn = store.counts()
    return key if committed + withdrawn >= scheduled else _(KEY_SECRET)


def configuration(store: Store) -> dict[str, Any]:
    """The Configuración sheet: every parameter, plus version, dates, counts and the deal key row."""
    from arena import __version__

    conf = shown_config(store.config())
    runs = store.runs()
    scheduled, committed, withdrawn = store.counts()
    conf[_("arena_version (standings)")] = __version__
    if runs:
        conf[_("first run")] = runs[0]["started"]
        conf[_("last run")] = runs[-1]["started"]
        conf[_("last run ended")] = runs[-1]["ended"] or _("(running or interrupted)")
    conf[_("partidos scheduled")] = scheduled
    conf[_("partidos committed")] = committed
    conf[_("partidos withdrawn")] = withdrawn
    for folder, kind, reason in store.exclusions():
        row = _("out of the torneo ({kind}): {folder}").format(
            kind=exclusion_kind(kind), folder=Path(folder).name
        )
        conf[row] = shown(reason)
    conf[_(SEATING_ROW)] = seating_design(store)
    conf[_(KEY_ROW)] = deal_key_shown(store)  # so that anyone can re-check the replays, once it is over
    return conf


SEATING_ROW = N_("seating design")
"""The Configuración row (and ``arena standings`` line) that says how the tables were seated."""


def seating_design(store: Store) -> str:
    """How the torneo's tables were seated and how even that came out, in the language in use."""
    config = store.config()
    k = int(config["table_size"])
    scheduled = store.scheduled()
    b = seating_balance(len(store.entrants()), k, (p.seats for p in scheduled))
    if config.get("duplicate"):
        design = (
            _("duplicate: each deal played in all 6 orders of its 3 players")
            if k == 3
            else _(
                "duplicate: each deal played in the {k} rotations of one circular order, chosen so "
                "that who plays right after whom evens out over the deals"
            ).format(k=k)
        )
    else:
        design = _(
            "balanced: each entrant in every seat about equally often, and each pair of neighbours "
            "in both directions (A right after B as often as B after A)"
        )
    return _(
        "{design}; measured: an entrant's seats differ by at most {position} partidos, the two "
        "directions of a pair of neighbours by at most {neighbours}, A right after B {fewest} to {most}"
    ).format(design=design, position=b.position, neighbours=b.neighbours, fewest=b.fewest, most=b.most)


def forfeits(store: Store) -> list[dict[str, Any]]:
    """The partidos not played because entrants were withdrawn, for the standings (forfeits)."""
    if not store.counts()[2]:
        return []
    names = [e.name for e in store.entrants()]
    seats = {p.id: p.seats for p in store.scheduled()}
    return [
        {
            "partido": w.partido,
            "players": [names[e] for e in seats[w.partido]],
            "withdrawn": [names[e] for e in w.entrants],
        }
        for w in store.withdrawn()
    ]


def _with_exclusions(faults: pd.DataFrame, store: Store) -> pd.DataFrame:
    """The faults, then a row for each submission left out because it could not start."""
    rows = [
        {
            "partido": "—",
            "mano": None,
            "entrant": Path(folder).name,
            "motivo": exclusion_kind(kind),
            "penalizado": False,
            "detalle": shown(reason),
            "incidente": "",
        }
        for folder, kind, reason in store.exclusions()
        if kind == NO_START
    ]
    if not rows:
        return faults
    return pd.concat([faults, pd.DataFrame(rows, columns=faults.columns)], ignore_index=True)


@contextlib.contextmanager
def _no_cycles() -> Iterator[None]:
    """Python's cycle collector paused: the tables of 10⁵ partidos are millions of objects and no
    cycles, and each of its passes would walk them all (it took half the reading time)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _audit(store: Store, entrants: list[str]) -> tuple[pd.DataFrame | None, list[str]]:
    """The Auditoría sheet and its line, when ``arena audit`` was run on the torneo (else None, [])."""
    from arena.results import peek
    from arena.results.tell import tells

    partidos = peek.partidos_of(store)
    found = peek.kept(store.dir, partidos)
    if found is None:
        return None, []
    decisions, timed = found
    verdicts = peek.verdicts(partidos, decisions, entrants)
    told = tells(peek.replies_by_entrant(partidos, timed), entrants)
    flagged = [v.entrant for v in verdicts if v.flagged] + [t.entrant for t in told if t.flagged]
    if flagged:
        line = _("Audit: {players} to look at (a peek or a time tell); see the Auditoría sheet.").format(
            players=", ".join(dict.fromkeys(flagged))
        )
    else:
        line = _("Audit: no peek and no time tell beyond chance ({n} of {total} partidos audited).").format(
            n=len(decisions), total=len(partidos)
        )
    return peek.frame(verdicts, told), [line]


def build(store: Store, resamples: int = ranking.RESAMPLES) -> Report:
    """Compute every table from the store (one consistent read), in the language in use."""
    with _no_cycles():
        return _build(store, resamples)


def _build(store: Store, resamples: int) -> Report:
    with store.snapshot():
        entrants = [e.name for e in store.entrants()]
        counted = tally(store)
        recs = records(store, figures=counted is None)
        lost = forfeits(store)
        conf = configuration(store)
        exclusions = _with_exclusions(standings.faults_table(recs), store)
        scheduled, committed, withdrawn = store.counts()
        accused = store.accusation_totals()
        accuse = store.config().get("rules", {}).get("renuncio") == "accuse"
        game = games.spec(store.config().get("game") or games.default().name)
        who = students.of(store)
        left = students.left_out(store, who)
    students.keep(store, who, left)
    pos = standings.standings(recs, entrants, lost, resamples, counted, game)
    pos = with_students(pos, who)
    if accuse or accused:
        after = game.figures[-1].key if game.figures else "manos_perdidas"
        pos = standings.with_accusations(pos, {entrants[e]: t for e, t in accused.items()}, after)
    theta = pos.set_index("entrant")["fuerza"].reindex(entrants).to_numpy(dtype=float)
    sospechas = collusion.suspicions(recs, entrants, theta, loss=game.loss_count)
    auditoria, peeking = _audit(store, entrants)
    frames = export.sheet_frames(
        pos,
        standings.partidos_table(recs),
        standings.head_to_head(recs, entrants),
        exclusions,
        conf,
        pares=standings.pairwise_table(pos),
        sospechas=sospechas,
        auditoria=auditoria,
    )
    separation = standings.separation_lines(pos)
    lines = [suspicion_line(sospechas), *peeking]
    return Report(pos, frames, scheduled, committed, withdrawn, separation, lines, who, left)


STUDENT_COLUMNS = ("estudiante", "id_moodle")
"""The Posiciones columns (after Jugador) naming each entrant's student: blank without one."""


def with_students(posiciones: pd.DataFrame, who: dict[str, Student]) -> pd.DataFrame:
    """The standings with each entrant's student's full name and Moodle id after its name."""
    out = posiciones.copy()
    at = list(out.columns).index("entrant") + 1
    found = [who.get(str(name)) for name in out["entrant"]]
    names = [s.name if s else "" for s in found]
    ids = [s.id if s else "" for s in found]
    out.insert(at, "estudiante", pd.Series(names, index=out.index, dtype=object))
    out.insert(at + 1, "id_moodle", pd.Series(ids, index=out.index, dtype=object))
    return out


def suspicion_line(sospechas: pd.DataFrame) -> str:
    """The terminal's one line on collusion: the pairs flagged (B seems to play for A), or none."""
    flagged = sospechas[sospechas["sospecha"].astype(bool)]
    tested = int(sospechas["p"].notna().sum())
    if flagged.empty:
        return n_(
            "Suspicions of collusion: none beyond chance ({tested} pair of players tested).",
            "Suspicions of collusion: none beyond chance ({tested} pairs of players tested).",
            tested,
        ).format(tested=tested)
    pairs = ", ".join(
        _("{b} for {a}").format(a=inert.printable(str(a)), b=inert.printable(str(b)))
        for a, b in zip(flagged["a"], flagged["b"], strict=True)
    )
    return n_(
        "Suspicions of collusion: {n} pair to look at (B playing for A?): {pairs}; see the Sospechas sheet. "
        "Not an accusation.",
        "Suspicions of collusion: {n} pairs to look at (B playing for A?): {pairs}; see the Sospechas sheet. "
        "Not an accusation.",
        len(flagged),
    ).format(n=len(flagged), pairs=pairs)


def workbook_name() -> str:
    """The workbook's file name in the language in use: ``standings.xlsx`` in Spanish (the default),
    ``standings-en.xlsx`` in English, so that one never overwrites the other."""
    lang = i18n.language()
    return WORKBOOK if lang == i18n.DEFAULT else WORKBOOK_IN.format(lang=lang)


def write(report: Report, folder: Path, csv: bool = True) -> list[Path]:
    """(Re)write ``standings.xlsx`` (``standings-en.xlsx`` in English) and the CSVs in ``folder``;
    returns the files written."""
    h = export.headers()
    caption = export.default_captions(h, set(report.frames["Posiciones"].columns))
    captions = {"Posiciones": [*report.separation, *caption["Posiciones"]]}
    if "Sospechas" in report.frames:
        captions["Sospechas"] = [*report.suspicion, *caption["Sospechas"]]
    with _no_cycles():
        paths = [export.write_workbook(report.frames, folder / workbook_name(), captions)]
        if csv:
            paths += export.write_csvs(report.frames, folder / CSV_DIR)
    return paths


def terminal_table(report: Report) -> str:
    """The standings as a plain text table for the terminal (names shown inert), in the language in use."""
    h = export.headers()
    df = report.posiciones
    if df.empty:
        return _("(no entrants)")
    game = games.spec(df.attrs.get("game") or games.default().name)
    first = game.figures[0] if game.figures else None
    named = has_students(df)
    rows = []
    for _i, r in df.iterrows():
        dq = int(sum(r[c] for c in df.columns if c.startswith("dq_")))
        pen = int(sum(r[c] for c in df.columns if c.startswith("pen_")))
        pct = (
            "—"
            if math.isnan(r["pct_ganados"])
            else (f"{r['pct_ganados']:.0%} [{r['ic_bajo']:.0%}–{r['ic_alto']:.0%}]")
        )
        rows.append(
            [
                str(r["puesto"]),
                r["grupo"] or "—",
                r["puestos_95"] or "—",
                inert.printable(str(r["entrant"])),
                *([inert.printable(str(r["estudiante"])), str(r["id_moodle"])] if named else []),
                str(r["partidos"] + r["retiradas"]),
                str(r["ganados"]),
                pct,
                _num(r["lugar_medio"], "{:.2f}"),
                *([_num(r[first.key], _python_format(first.number_format))] if first else []),
                str(dq),
                str(pen),
            ]
        )
    head = [
        h["puesto"],
        h["grupo"],
        h["puestos_95"],
        h["entrant"],
        *([h["estudiante"], h["id_moodle"]] if named else []),
        _("Partidos"),
        h["ganados"],
        _("{rate} [95% CI]").format(rate=h["pct_ganados"]),
        h["lugar_medio"],
        *([h[first.key]] if first else []),
        _("DQ"),
        _("Pen."),
    ]
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    lines = [
        "  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip() for line in [head, *rows]
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    after = ["", *report.suspicion] if report.suspicion else []
    return "\n".join([*report.separation, "", *lines, _(ORDER_LINE), *after])


def has_students(posiciones: pd.DataFrame) -> bool:
    """Whether some entrant of ``posiciones`` has a student (the terminal and the site show the
    student columns only then; the workbook and the CSVs always have them)."""
    return "id_moodle" in posiciones.columns and bool((posiciones["id_moodle"] != "").any())


ORDER_LINE = N_(
    "Ordered by estimated strength (Plackett–Luce over each partido's full ranking: every place counts, "
    "and against whom), not by wins: a player can stand above one with more wins."
)
"""The line under the terminal table: what orders it (the workbook's Notas and the site say it too)."""


def _python_format(number_format: str) -> str:
    """An Excel number format (``0.0``) as a Python one (``{:.1f}``)."""
    places = len(number_format.partition(".")[2])
    return f"{{:.{places}f}}"


def _num(value: float, fmt: str) -> str:
    return "—" if isinstance(value, float) and math.isnan(value) else fmt.format(value)


def progress_line(report: Report) -> str:
    """How far the torneo is, in the language in use: ``52 of 80 partidos played (complete)``."""
    state = _("complete") if report.complete else _("running or interrupted")
    figures = {"played": report.committed, "scheduled": report.scheduled, "state": state}
    if report.withdrawn:
        return n_(
            "{played} of {scheduled} partidos played, {withdrawn} withdrawn ({state})",
            "{played} of {scheduled} partidos played, {withdrawn} withdrawn ({state})",
            report.withdrawn,
        ).format(withdrawn=report.withdrawn, **figures)
    return _("{played} of {scheduled} partidos played ({state})").format(**figures)


def withdrawal_lines(store: Store) -> list[str]:
    """One line per entrant withdrawn by --max-faults: ``ana: withdrawn after 3 disqualifications``."""
    withdrawn = sorted({e for w in store.withdrawn() for e in w.entrants})
    if not withdrawn:
        return []
    names = {e.index: e.name for e in store.entrants()}
    dq = {e: 0 for e in withdrawn}
    for rec in store.results(figures=False):
        for e in rec.disqualified_entrants:
            if e in dq:
                dq[e] += 1
    return [
        n_(
            "{player}: withdrawn after {n} disqualification",
            "{player}: withdrawn after {n} disqualifications",
            dq[e],
        ).format(player=inert.printable(names[e]), n=dq[e])
        for e in withdrawn
    ]
