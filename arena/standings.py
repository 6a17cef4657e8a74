"""Standings of a tournament as pandas tables, from its committed partidos.

Input: partido records (plain dicts, see :data:`RECORD_KEYS`) in schedule order.
Output: the tables of the results workbook — ``posiciones`` (standings),
``partidos``, ``enfrentamientos`` (head to head) and ``descalificaciones``.

Order of the standings: the conservative rating μ−3σ (openskill's Plackett–Luce
model over every partido's ranking, in schedule order), then % of partidos won,
then the average finishing place (lower first), then the name.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

import pandas as pd

from arena.rules import FAULT_REASONS

RECORD_KEYS = ("partido", "seed", "players", "winners", "ranking", "manos", "faults", "replay", "stats")
"""A partido record: ``players`` are entrant names by seat; ``faults`` dicts with mano, seat,
reason, detail, incident; ``stats`` the per-seat dicts of :func:`arena.stats.partido_stats`."""

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


def _strict_orders(ranking: Sequence[Sequence[int]]) -> list[list[int]]:
    """Strict orders of the seats, each tie group rotated cyclically: every member of a tie
    takes every place of it once (a group of k gives k orders; groups multiply)."""
    orders: list[list[int]] = [[]]
    for group in ranking:
        rotations = [list(group[i:]) + list(group[:i]) for i in range(len(group))] or [[]]
        orders = [o + r for o in orders for r in rotations]
    return orders


def ratings(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> dict[str, tuple[float, float]]:
    """(μ, σ) by entrant from every partido's ranking, Plackett–Luce, in the given order.

    openskill 6's Plackett–Luce mishandles tied ranks (a tied winner can end below the
    player it beat: openskill.py issues #155 and #173), so a partido with ties is rated as
    the average of its strict orders, each tie group rotated (see :func:`_strict_orders`).
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in entrants}
    for rec in records:
        names = rec["players"]
        orders = _strict_orders(rec["ranking"])
        sums = {s: [0.0, 0.0] for order in orders[:1] for s in order}
        for order in orders:
            teams = [[current[names[s]]] for s in order]
            rated = model.rate(teams, ranks=list(range(len(order))))
            for s, team in zip(order, rated, strict=True):
                sums[s][0] += team[0].mu
                sums[s][1] += team[0].sigma
        for s, (mu, sigma) in sums.items():
            current[names[s]] = model.rating(mu=mu / len(orders), sigma=sigma / len(orders), name=names[s])
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def standings(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> pd.DataFrame:
    """One row per entrant (every entrant, even with no partido yet), best first."""
    rows = []
    rating = ratings(records, entrants)
    for name in entrants:
        mine = [(rec, seat) for rec in records for seat, who in enumerate(rec["players"]) if who == name]
        stats = [rec["stats"][seat] for rec, seat in mine]
        played = len(mine)
        won = sum(1 for s in stats if s["won"])
        low, high = wilson(won, played)
        manos = sum(s["manos"] for s in stats)
        porotos = sum(s["porotos_perdidos"] for s in stats)
        times = [t for s in stats for t in s["move_ms"]]
        cpu = [t for s in stats for t in s.get("move_cpu_ms", [])]
        mu, sigma = rating[name]
        row: dict[str, Any] = {
            "entrant": name,
            "partidos": played,
            "ganados": won,
            "pct_ganados": won / played if played else math.nan,
            "ic_bajo": low if played else math.nan,
            "ic_alto": high if played else math.nan,
            "lugar_medio": statistics.fmean(s["place"] for s in stats) if stats else math.nan,
            "manos": manos,
            "manos_perdidas": sum(s["manos_perdidas"] for s in stats),
            "porotos_100": 100 * porotos / manos if manos else math.nan,
            "capotes": sum(s["capotes"] for s in stats),
            "tutes": sum(s["tutes"] for s in stats),
            "cantos": sum(s["cantos"] for s in stats),
        }
        for reason in FAULT_REASONS:
            row[f"dq_{reason}"] = sum(s["faults"].count(reason) for s in stats)
        row["ms_mediana"] = statistics.median(times) if times else math.nan
        row["ms_p95"] = _p95(times)
        row["cpu_ms_mediana"] = statistics.median(cpu) if cpu else math.nan
        row["cpu_ms_p95"] = _p95(cpu)
        row["mu"] = mu
        row["sigma"] = sigma
        row["rating"] = mu - 3 * sigma
        rows.append(row)
    df = pd.DataFrame(rows)
    df = df.sort_values(
        ["rating", "pct_ganados", "lugar_medio", "entrant"],
        ascending=[False, False, True, True],
        na_position="last",
        kind="mergesort",
    ).reset_index(drop=True)
    df.insert(0, "puesto", range(1, len(df) + 1))
    return df


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
    """Every fault: partido, mano, entrant, reason, detail, incident file."""
    rows = [
        {
            "partido": rec["partido"],
            "mano": f["mano"],
            "entrant": rec["players"][f["seat"]],
            "motivo": f["reason"],
            "detalle": f["detail"],
            "incidente": f.get("incident") or "",
        }
        for rec in records
        for f in rec["faults"]
    ]
    return pd.DataFrame(rows, columns=["partido", "mano", "entrant", "motivo", "detalle", "incidente"])
