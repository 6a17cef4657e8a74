"""Standings of a tournament as pandas tables, from its committed partidos.

Input: partido records (plain dicts, see :data:`RECORD_KEYS`) in schedule order.
Output: the tables of the results workbook — ``posiciones`` (standings),
``partidos``, ``enfrentamientos`` (head to head) and ``descalificaciones``.

Order of the standings: the strength of :mod:`arena.results.ranking` (a Plackett–Luce
model fitted to every partido's full ranking at once, forfeits included), with
each entrant's 95% place interval, the probability that it is stronger than the
next one, and group letters for places the partidos do not separate.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

import pandas as pd

from arena.engine import FAULT_REASONS
from arena.i18n import n_
from arena.referee.stats import finishing_places
from arena.results import ranking

RECORD_KEYS = ("partido", "seed", "players", "winners", "ranking", "manos", "faults", "replay", "stats")
"""A partido record: ``players`` are entrant names by seat; ``faults`` dicts with mano, seat,
reason, detail, incident; ``stats`` the per-seat dicts of :func:`arena.referee.stats.partido_stats`."""

Z95 = 1.959963984540054


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n`` (0, 0 when n = 0)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _p95(values: Sequence[float]) -> float:
    if not values:
        return math.nan
    if len(values) == 1:
        return float(values[0])
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


PENALIZABLE = ("renuncio", "false_canto")
"""The faults that ``--renuncio penalize`` turns into penalties (the mano lost, two porotos)."""


def outcomes(
    records: Sequence[dict[str, Any]], forfeits: Sequence[dict[str, Any]], entrants: Sequence[str]
) -> list[ranking.Outcome]:
    """Every partido's ranking by entrant index, and every forfeit (the withdrawn last, the rest tied)."""
    index = {name: i for i, name in enumerate(entrants)}
    out = []
    for rec in records:
        groups = tuple(tuple(index[rec["players"][s]] for s in g) for g in rec["ranking"])
        out.append(ranking.Outcome(groups, rec["partido"]))
    for f in forfeits:
        gone = [index[n] for n in f["withdrawn"]]
        rest = tuple(index[n] for n in f["players"] if index[n] not in gone)
        out.append(ranking.Outcome(tuple(g for g in (rest, tuple(gone)) if g), f["partido"]))
    return out


def standings(
    records: Sequence[dict[str, Any]],
    entrants: Sequence[str],
    forfeits: Sequence[dict[str, Any]] = (),
    resamples: int = ranking.RESAMPLES,
) -> pd.DataFrame:
    """One row per entrant (every entrant, even with no partido yet), best first.

    ``forfeits``: partidos not played because entrants were withdrawn (``--max-faults``):
    dicts with ``partido``, ``players`` (names by seat) and ``withdrawn`` (names). Each counts
    as a last place of the withdrawn, in the order as in % ganados and the average place.
    """
    rows = []
    fit = ranking.places(outcomes(records, forfeits, entrants), len(entrants), resamples)
    seats: dict[str, list[tuple[dict[str, Any], int]]] = {name: [] for name in entrants}
    for rec in records:  # one pass: a course of 10^5 partidos must not be read once per entrant
        for seat, who in enumerate(rec["players"]):
            seats[who].append((rec, seat))
    forfeited: dict[str, list[dict[str, Any]]] = {name: [] for name in entrants}
    for f in forfeits:
        for who in f["withdrawn"]:
            forfeited[who].append(f)
    for i, name in enumerate(entrants):
        mine = seats[name]
        lost = forfeited[name]
        stats = [rec["stats"][seat] for rec, seat in mine]
        faults = [f for rec, seat in mine for f in rec["faults"] if f["seat"] == seat]
        played = len(mine)
        counted = played + len(lost)
        won = sum(1 for s in stats if s["won"])
        low, high = wilson(won, counted)
        places = [finishing_places(rec["ranking"]).get(seat, len(rec["players"])) for rec, seat in mine]
        places += [float(len(f["players"])) for f in lost]
        manos = sum(s["manos"] for s in stats)
        porotos = sum(s["porotos_perdidos"] for s in stats)
        times = [t for s in stats for t in s["move_ms"]]
        cpu = [t for s in stats for t in s.get("move_cpu_ms", [])]
        row: dict[str, Any] = {
            "entrant": name,
            "grupo": fit.group[i],
            "puestos_95": _span(fit.low[i], fit.high[i]),
            "partidos": played,
            "retiradas": len(lost),
            "ganados": won,
            "pct_ganados": won / counted if counted else math.nan,
            "ic_bajo": low if counted else math.nan,
            "ic_alto": high if counted else math.nan,
            "lugar_medio": statistics.fmean(places) if places else math.nan,
            "manos": manos,
            "manos_perdidas": sum(s["manos_perdidas"] for s in stats),
            "porotos_100": 100 * porotos / manos if manos else math.nan,
            "capotes": sum(s["capotes"] for s in stats),
            "tutes": sum(s["tutes"] for s in stats),
            "cantos": sum(s["cantos"] for s in stats),
        }
        for reason in FAULT_REASONS:
            row[f"dq_{reason}"] = sum(1 for f in faults if f["reason"] == reason and not f.get("penalized"))
        for reason in PENALIZABLE:
            row[f"pen_{reason}"] = sum(1 for f in faults if f["reason"] == reason and f.get("penalized"))
        row["ms_mediana"] = statistics.median(times) if times else math.nan
        row["ms_p95"] = _p95(times)
        row["cpu_ms_mediana"] = statistics.median(cpu) if cpu else math.nan
        row["cpu_ms_p95"] = _p95(cpu)
        row["fuerza"] = fit.theta[i]
        row["p_delante"] = fit.ahead[i]
        row["faltan"] = fit.needed[i] if fit.needed[i] is not None else math.nan
        rows.append(row)
    df = pd.DataFrame(rows).reindex(fit.order).reset_index(drop=True)
    df.insert(0, "puesto", range(1, len(df) + 1))
    df.attrs["resamples"] = fit.resamples
    return df


def _span(low: int, high: int) -> str:
    """A place interval as shown: ``2–4``, or ``3`` when it is one place ("" without partidos)."""
    if not low:
        return ""
    return str(low) if low == high else f"{low}–{high}"


def separation_lines(df: pd.DataFrame) -> list[str]:
    """What the order establishes, in words (in the language in use): which consecutive places are
    not separated, and about how many more partidos each would take."""
    rows = df[df["grupo"] != ""]
    if rows.empty:
        return []
    per_player = round(statistics.median(rows["partidos"] + rows["retiradas"]))
    groups = [g for _key, g in rows.groupby("grupo", sort=False)]
    lines = []
    for g in groups:
        if len(g) < 2:
            continue
        first, last = int(g["puesto"].iloc[0]), int(g["puesto"].iloc[-1])
        more = g["faltan"].iloc[:-1].dropna()
        hint = int(more.max()) if not more.empty else None
        if not hint:
            line = n_(
                "Places {first} to {last} are not separated with {per_player} partido per player.",
                "Places {first} to {last} are not separated with {per_player} partidos per player.",
                per_player,
            )
        elif hint <= 2:
            line = n_(
                "Places {first} to {last} are not separated with {per_player} partido per player; "
                "one or two more per player would be needed.",
                "Places {first} to {last} are not separated with {per_player} partidos per player; "
                "one or two more per player would be needed.",
                per_player,
            )
        else:
            line = n_(
                "Places {first} to {last} are not separated with {per_player} partido per player; "
                "about {more} more per player would be needed.",
                "Places {first} to {last} are not separated with {per_player} partidos per player; "
                "about {more} more per player would be needed.",
                per_player,
            )
        lines.append(line.format(first=first, last=last, per_player=per_player, more=hint))
    if not lines:
        return [
            n_(
                "Every place is separated at 95% with {per_player} partido per player.",
                "Every place is separated at 95% with {per_player} partidos per player.",
                per_player,
            ).format(per_player=per_player)
        ]
    return lines


def partidos_table(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per committed partido."""
    rows = []
    for rec in records:
        names = rec["players"]
        rows.append(
            {
                "partido": rec["partido"],
                "semilla": rec["seed"],
                "jugadores": ", ".join(names),
                "posiciones": " | ".join(", ".join(names[s] for s in g) for g in rec["ranking"]),
                "ganadores": ", ".join(names[s] for s in rec["winners"]),
                "manos": rec["manos"],
                "faltas": "; ".join(f"{names[f['seat']]}: {f['reason']}" for f in rec["faults"]),
                "replay": rec["replay"],
            }
        )
    return pd.DataFrame(rows, columns=[*PARTIDO_COLUMNS])


PARTIDO_COLUMNS = ("partido", "semilla", "jugadores", "posiciones", "ganadores", "manos", "faltas", "replay")


def head_to_head(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> pd.DataFrame:
    """Row A, column B: the share of the partidos A and B played together in which A finished ahead."""
    ahead = {(a, b): 0 for a in entrants for b in entrants}
    shared = dict(ahead)
    for rec in records:
        place = {s: k for k, group in enumerate(rec["ranking"]) for s in group}
        names = rec["players"]
        for s, a in enumerate(names):
            for t, b in enumerate(names):
                if s != t:
                    shared[a, b] += 1
                    ahead[a, b] += place[s] < place[t]
    data = {b: [ahead[a, b] / shared[a, b] if shared[a, b] else math.nan for a in entrants] for b in entrants}
    return pd.DataFrame(data, index=pd.Index(list(entrants), name="entrant"))


def faults_table(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Every fault: partido, mano, entrant, reason, whether it was a penalty (``--renuncio
    penalize``: the player went on) or a disqualification, detail, incident file."""
    rows = [
        {
            "partido": rec["partido"],
            "mano": f["mano"],
            "entrant": rec["players"][f["seat"]],
            "motivo": f["reason"],
            "penalizado": bool(f.get("penalized")),
            "detalle": f["detail"],
            "incidente": f.get("incident") or "",
        }
        for rec in records
        for f in rec["faults"]
    ]
    columns = ["partido", "mano", "entrant", "motivo", "penalizado", "detalle", "incidente"]
    return pd.DataFrame(rows, columns=columns)
