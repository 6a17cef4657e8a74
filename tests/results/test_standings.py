"""Standings, head to head, faults and the workbook, against hand-computed values."""

from __future__ import annotations

import copy
import csv
import itertools
import math
import statistics
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena import i18n
from arena.referee.stats import finishing_places, partido_stats
from arena.results.collusion import suspicions
from arena.results.export import SHEETS, headers, sheet_frames, write_csvs, write_workbook
from arena.results.standings import (
    faults_table,
    head_to_head,
    pairwise_table,
    partidos_table,
    spread,
    standings,
    tally,
    wilson,
)
from tests.helpers import audited


def seat_stats(won: bool, place: float, manos: int, lost: int, porotos: int, **extra: Any) -> dict[str, Any]:
    base = {
        "manos": manos,
        "manos_perdidas": lost,
        "porotos_perdidos": porotos,
        "capotes": 0,
        "tutes": 0,
        "cantos": 0,
        "faults": [],
        "reply_ms": [],
        "won": won,
        "place": place,
    }
    return {**base, **extra}


# Two partidos among ana, beto, caro, dani (3 a table), outcomes chosen by hand.
RECORDS = [
    {  # p1: ana and beto win; caro eliminated
        "partido": "p1",
        "seed": 11,
        "players": ["ana", "beto", "caro"],
        "winners": [0, 1],
        "ranking": [[0, 1], [2]],
        "manos": 6,
        "faults": [],
        "replay": "replays/p1.jsonl",
        "stats": [
            seat_stats(True, 1.5, 6, 2, 2, cantos=2, reply_ms=[1.0, 3.0]),
            seat_stats(True, 1.5, 6, 1, 1, capotes=1, reply_ms=[2.0]),
            seat_stats(False, 3.0, 6, 4, 4, tutes=1, reply_ms=[5.0, 7.0, 9.0]),
        ],
    },
    {  # p2: dani disqualified for a renuncio in mano 2; ana and caro win
        "partido": "p2",
        "seed": 12,
        "players": ["caro", "dani", "ana"],
        "winners": [0, 2],
        "ranking": [[0, 2], [1]],
        "manos": 2,
        "faults": [
            {
                "mano": 2,
                "seat": 1,
                "reason": "renuncio",
                "penalized": False,
                "detail": "played 1-copa",
                "incident": "replays/p2.incident-1-dani.txt",
            }
        ],
        "replay": "replays/p2.jsonl",
        "stats": [
            seat_stats(True, 1.5, 1, 0, 0),
            seat_stats(False, 3.0, 1, 1, 1, faults=["renuncio"]),
            seat_stats(True, 1.5, 1, 1, 1, reply_ms=[4.0]),
        ],
    },
]
ENTRANTS = ["ana", "beto", "caro", "dani"]


def row(df: Any, name: str) -> dict[str, Any]:
    return df[df["entrant"] == name].iloc[0].to_dict()


def test_wilson_interval_hand_values() -> None:
    low, high = wilson(1, 2)
    assert (round(low, 4), round(high, 4)) == (0.0945, 0.9055)
    low, high = wilson(2, 2)
    assert (round(low, 4), round(high, 4)) == (0.3424, 1.0)
    assert wilson(0, 0) == (0.0, 0.0)


def test_finishing_places_share_ties() -> None:
    assert finishing_places([[0, 1], [2], [3, 4]]) == {0: 1.5, 1: 1.5, 2: 3.0, 3: 4.5, 4: 4.5}


def test_every_standings_figure() -> None:
    df = standings(RECORDS, ENTRANTS)
    ana = row(df, "ana")
    assert (ana["partidos"], ana["ganados"], ana["pct_ganados"]) == (2, 2, 1.0)
    assert (round(ana["ic_bajo"], 4), ana["ic_alto"]) == (0.3424, 1.0)
    assert ana["lugar_medio"] == 1.5
    assert (ana["manos"], ana["manos_perdidas"]) == (7, 3)
    assert ana["porotos_100"] == pytest.approx(300 / 7)
    assert (ana["cantos"], ana["capotes"], ana["tutes"]) == (2, 0, 0)
    assert ana["ms_mediana"] == 3.0  # 1, 3, 4
    beto = row(df, "beto")
    assert (beto["partidos"], beto["ganados"], beto["capotes"], beto["lugar_medio"]) == (1, 1, 1, 1.5)
    caro = row(df, "caro")
    assert (caro["partidos"], caro["ganados"], caro["pct_ganados"], caro["tutes"]) == (2, 1, 0.5, 1)
    assert caro["lugar_medio"] == 2.25 and caro["porotos_100"] == pytest.approx(400 / 7)
    assert caro["ms_mediana"] == 7.0 and caro["ms_p95"] == pytest.approx(8.8)  # 5, 7, 9 inclusive
    dani = row(df, "dani")
    assert (dani["partidos"], dani["ganados"], dani["dq_renuncio"], dani["dq_timeout"]) == (1, 0, 1, 0)
    assert math.isnan(dani["ms_mediana"])
    # order: the Plackett–Luce strength; two partidos won of two put ana on top, dani last
    assert list(df["puesto"]) == [1, 2, 3, 4]
    assert df.iloc[0]["entrant"] == "ana" and df.iloc[-1]["entrant"] == "dani"
    assert list(df["fuerza"]) == sorted(df["fuerza"], reverse=True)
    assert set(df["grupo"]) == {"a"}  # two partidos separate nobody
    assert all(1 <= int(p.split("–")[0]) <= int(p.split("–")[-1]) <= 4 for p in df["puestos_95"])


def test_an_entrant_without_partidos_is_listed() -> None:
    df = standings(RECORDS[:1], ENTRANTS)
    dani = row(df, "dani")
    assert dani["partidos"] == 0 and math.isnan(dani["pct_ganados"])


def test_head_to_head_by_hand() -> None:
    h2h = head_to_head(RECORDS, ENTRANTS)
    assert h2h.loc["ana", "caro"] == 0.5  # ahead in p1, tied in p2
    assert h2h.loc["caro", "ana"] == 0.0
    assert h2h.loc["ana", "beto"] == 0.0  # tied in p1
    assert h2h.loc["caro", "dani"] == 1.0
    assert math.isnan(h2h.loc["beto", "dani"])  # never met
    assert math.isnan(h2h.loc["ana", "ana"])


def test_partidos_and_faults_tables() -> None:
    p = partidos_table(RECORDS)
    assert list(p["partido"]) == ["p1", "p2"]
    assert p.iloc[1]["ganadores"] == "caro, ana" and p.iloc[1]["faltas"] == "dani: renuncio"
    assert p.iloc[0]["posiciones"] == "ana, beto | caro"
    f = faults_table(RECORDS)
    assert f.to_dict("records") == [
        {
            "partido": "p2",
            "mano": 2,
            "entrant": "dani",
            "motivo": "renuncio",
            "penalizado": False,
            "detalle": "played 1-copa",
            "incidente": "replays/p2.incident-1-dani.txt",
        }
    ]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_workbook_sheets_headers_values_chart_and_csvs(lang: str, tmp_path: Path) -> None:
    df = standings(RECORDS, ENTRANTS)
    config = {"seed": 7, "ruleset": "cabrero-2002", "variants": [], "sandbox": "none"}
    with i18n.speaking(lang):
        frames = sheet_frames(
            df,
            partidos_table(RECORDS),
            head_to_head(RECORDS, ENTRANTS),
            faults_table(RECORDS),
            config,
            pares=pairwise_table(df),
            sospechas=suspicions(RECORDS, ENTRANTS, [0.0] * len(ENTRANTS)).rename(
                columns={"partidos": "juntos"}
            ),
            auditoria=audited(ENTRANTS),
        )
        path = write_workbook(frames, tmp_path / "standings.xlsx")
        h = headers()
    assert h["entrant"] == {"es": "Jugador", "en": "Player"}[lang]
    wb = openpyxl.load_workbook(path)
    assert tuple(wb.sheetnames) == SHEETS
    ws = wb["Posiciones"]
    top = openpyxl.utils.range_boundaries(ws.auto_filter.ref)[1]  # the header row, under the caption
    head = [c.value for c in ws[top]]
    assert head[:5] == [h["puesto"], h["entrant"], h["grupo"], h["puestos_95"], h["partidos"]]
    assert ws.freeze_panes == f"C{top + 1}" and ws.auto_filter.ref
    assert all(c.font.bold for c in ws[top])
    col = head.index(h["pct_ganados"]) + 1
    assert ws.cell(top + 1, col).value == 1.0 and ws.cell(top + 1, col).number_format == "0.0%"
    assert ws.cell(top + 1, head.index(h["entrant"]) + 1).value == "ana"
    assert ws.conditional_formatting  # the colour scale on the rate
    charts = ws._charts
    assert len(charts) == 1 and charts[0].series[0].errBars is not None
    assert wb["Descalificaciones"].cell(2, 3).value == "dani"
    conf = {r[0]: r[1] for r in wb["Configuración"].iter_rows(min_row=2, values_only=True)}
    assert conf["seed"] == "7" and conf["sandbox"] == "none"
    # the CSVs hold the same tables
    paths = write_csvs(frames, tmp_path / "csv")
    assert [p.name for p in paths] == [
        "posiciones.csv",
        "partidos.csv",
        "enfrentamientos.csv",
        "descalificaciones.csv",
        "configuracion.csv",
        "pares.csv",
        "sospechas.csv",
        "auditoria.csv",
    ]
    for sheet in SHEETS:  # every table's header on row 1: pandas reads each sheet as it is
        read = pd.read_excel(path, sheet_name=sheet)
        assert not any(str(c).startswith("Unnamed") for c in read.columns), sheet
    assert list(pd.read_excel(path, sheet_name="Posiciones")[h["entrant"]]) == list(df["entrant"])
    with paths[0].open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == head
    assert [r[1] for r in rows[1:]] == list(df["entrant"])


def test_partido_stats_from_a_replay() -> None:
    events = [
        {"type": "partido_start", "players": [{"seat": s} for s in range(3)]},
        {"type": "mano_start", "hands": [["1-oro"], ["2-oro"], ["3-oro"]]},
        {"type": "sang", "seat": 0, "canto": "cuarenta"},
        {"type": "played", "seat": 0, "card": "1-oro", "ms": 2.5, "cpu_ms": 1.25},
        {"type": "mano_end", "outcome": "capote", "tricks": [13, 0, 0], "losers": [0]},
        {"type": "mano_start", "hands": [["1-oro"], ["2-oro"], ["3-oro"]]},
        {"type": "sang", "seat": 1, "canto": "tute"},
        {"type": "mano_end", "outcome": "tute", "tricks": [1, 1, 0], "losers": [0, 2]},
        {"type": "mano_start", "hands": [["1-oro"], ["2-oro"], ["3-oro"]]},
        {"type": "penalized", "seat": 2, "reason": "renuncio"},
        {"type": "mano_end", "outcome": "penalty", "tricks": [0, 0, 0], "losers": [2]},
        {"type": "mano_start", "hands": [["1-oro"], ["2-oro"], ["3-oro"]]},
        {"type": "disqualified", "seat": 0, "reason": "timeout"},
        {"type": "mano_end", "outcome": "void", "tricks": [0, 0, 0], "losers": []},
        {"type": "partido_end", "winners": [1, 2], "ranking": [[1, 2], [0]]},
    ]
    s = partido_stats(events)
    assert [x["manos"] for x in s] == [3, 3, 3]  # the void mano does not count
    assert [x["manos_perdidas"] for x in s] == [2, 0, 2]
    assert [x["porotos_perdidos"] for x in s] == [2, 0, 3]  # the penalty costs two
    assert [x["capotes"] for x in s] == [1, 0, 0] and [x["cantos"] for x in s] == [1, 0, 0]
    assert [x["tutes"] for x in s] == [0, 1, 0]
    assert [x["faults"] for x in s] == [["timeout"], [], ["renuncio"]]
    assert [x["won"] for x in s] == [False, True, True] and [x["place"] for x in s] == [3.0, 1.5, 1.5]
    assert s[0]["reply_ms"] == [2.5] and s[0]["reply_cpu_ms"] == [1.25]
    with pytest.raises(ValueError, match="se cortó antes de terminar"):
        partido_stats(events[:-1])


def test_tied_winners_rank_equal_and_above_the_players_they_beat() -> None:
    records = [{**RECORDS[0], "players": ["a", "b", "c"], "ranking": [[0, 1], [2]]}]
    records.append({**RECORDS[0], "partido": "p9", "players": ["a", "b", "d"], "ranking": [[0, 1], [2]]})
    df = standings(records, ["a", "b", "c", "d"], resamples=50)
    strength = dict(zip(df["entrant"], df["fuerza"], strict=True))
    assert strength["a"] == pytest.approx(strength["b"], abs=1e-6)
    assert strength["a"] > strength["c"] and strength["a"] > strength["d"]


def test_cpu_time_per_move_stands_beside_wall_time() -> None:
    records = [
        {
            **RECORDS[0],
            "stats": [
                {**s, "reply_cpu_ms": cpu}
                for s, cpu in zip(RECORDS[0]["stats"], [[0.5, 1.5], [], [2.0, 4.0, 6.0]], strict=True)
            ],
        },
    ]
    df = standings(records, ["ana", "beto", "caro"])
    ana, beto, caro = (row(df, n) for n in ("ana", "beto", "caro"))
    assert ana["cpu_ms_mediana"] == 1.0 and ana["ms_mediana"] == 2.0
    assert math.isnan(beto["cpu_ms_mediana"])  # not measured: shown empty, never as zero
    assert caro["cpu_ms_mediana"] == 4.0 and caro["cpu_ms_p95"] == pytest.approx(5.8)


@given(st.lists(st.integers(0, 10**7), max_size=60))
def test_spread_is_the_median_and_p95_of_statistics(micro: list[int]) -> None:
    ms = [us / 1000 for us in micro]
    if not ms:
        assert all(math.isnan(x) for x in spread(ms) + spread(micro, 1000))
        return
    p95 = ms[0] if len(ms) == 1 else statistics.quantiles(ms, n=20, method="inclusive")[-1]
    assert spread(ms) == (statistics.median(ms), p95)  # the very same floats
    assert spread(micro, 1000) == pytest.approx((statistics.median(ms), p95), rel=1e-12, abs=1e-12)


def test_figures_counted_apart_give_the_same_standings() -> None:
    counted = tally(RECORDS, ENTRANTS)
    bare = [{k: v for k, v in rec.items() if k != "stats"} for rec in copy.deepcopy(RECORDS)]
    together = standings(RECORDS, ENTRANTS, resamples=50)
    assert standings(bare, ENTRANTS, resamples=50, counted=counted).equals(together)
    assert counted.seats == [2, 1, 2, 1] and counted.ms[2] == (7.0, pytest.approx(8.8))


def test_head_to_head_of_tables_of_several_sizes_by_brute_force() -> None:
    names = ["a", "b", "c", "d", "e"]
    records = [
        {"players": ["a", "b", "c"], "ranking": [[2], [0, 1]]},
        {"players": ["d", "a", "e", "b"], "ranking": [[1], [3], [0, 2]]},
        {"players": ["c", "e", "a", "d"], "ranking": [[0, 1, 2, 3]]},
        {"players": ["b", "a", "c"], "ranking": [[0], [1], [2]]},
    ]
    ahead = {(x, y): 0 for x in names for y in names}
    met = dict(ahead)
    for rec in records:
        group = {s: k for k, g in enumerate(rec["ranking"]) for s in g}
        for s, t in itertools.permutations(range(len(rec["players"])), 2):
            met[rec["players"][s], rec["players"][t]] += 1
            ahead[rec["players"][s], rec["players"][t]] += group[s] < group[t]
    h2h = head_to_head(records, names)
    for x, y in itertools.product(names, names):
        expected = ahead[x, y] / met[x, y] if met[x, y] else math.nan
        assert h2h.loc[x, y] == pytest.approx(expected, nan_ok=True), (x, y)
