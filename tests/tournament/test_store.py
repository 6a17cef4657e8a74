"""The store's schema 3 (each seat's figures a row of ``seats``, its reply times packed) against
the JSON of schemas 1 and 2: the same results and standings, and an older torneo goes on in its own."""

from __future__ import annotations

import dataclasses
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arena.referee.stats import FIELDS, partido_stats
from arena.results import report, standings
from arena.tournament.schedule import ScheduledPartido
from arena.tournament.store import (
    DB_NAME,
    SCHEMA_VERSION,
    Entrant,
    PartidoRecord,
    Store,
    now,
    pack_times,
    unpack_times,
)

NAMES = ["ana", "beto", "caro", "dani", "eva"]
PEOPLE = [Entrant(i, n, f"/players/{n}", "python", None, (), "0" * 64) for i, n in enumerate(NAMES)]

V2_PARTIDOS = """CREATE TABLE partidos (
    id TEXT PRIMARY KEY REFERENCES schedule(id), pos INTEGER NOT NULL UNIQUE, seed TEXT NOT NULL,
    seats TEXT NOT NULL, players TEXT NOT NULL, winners TEXT NOT NULL, ranking TEXT NOT NULL,
    manos INTEGER NOT NULL, porotos TEXT NOT NULL, move_ms TEXT NOT NULL, stats TEXT NOT NULL,
    replay TEXT NOT NULL,
    logs TEXT, worker TEXT, started TEXT NOT NULL, finished TEXT NOT NULL, committed TEXT NOT NULL)"""
"""``partidos`` as schemas 1 and 2 made it (pinned here: stores of those versions exist)."""


def schedule(n: int, seed: int = 3) -> list[ScheduledPartido]:
    rng = random.Random(seed)
    return [
        ScheduledPartido(k, f"p{k + 1:04d}", 100 + k, tuple(rng.sample(range(5), 4)), k, 0) for k in range(n)
    ]


def outcome(store: Store, p: ScheduledPartido, rng: random.Random) -> dict[str, Any]:
    """A finished partido as a worker reports it, with its replay (the partido_end line) in place."""
    order = rng.sample(range(4), 4)
    ranking = [order[:2], [order[2]], [order[3]]]
    faults = []
    if p.pos % 3 == 1:  # the last place reneged
        faults = [
            {"mano": 2, "seat": order[3], "reason": "renuncio", "detail": "jugó 1-copa", "penalized": False}
        ]
    places = {order[0]: 1.5, order[1]: 1.5, order[2]: 3.0, order[3]: 4.0}
    stats = [
        {
            **{f: rng.randint(0, 5) for f in FIELDS},
            "faults": [f["reason"] for f in faults if f["seat"] == s],
            "reply_cpu_ms": [round(rng.uniform(0, 3), 3) for _i in range(rng.randint(0, 4))],
            "won": places[s] < 2,
            "place": places[s],
        }
        for s in range(4)
    ]
    temp = store.temp_replay(p.id, "t")
    end = {"type": "partido_end", "winners": ranking[0], "ranking": ranking}
    temp.write_text(json.dumps({"type": "partido_start"}) + "\n" + json.dumps(end) + "\n")
    result = {
        "players": [NAMES[e] for e in p.seats],
        "winners": ranking[0],
        "ranking": ranking,
        "manos": 7,
        "scores": [rng.randint(0, 5) for _s in range(4)],
        "faults": faults,
        "reply_ms": [
            [round(rng.lognormvariate(0, 1), 3) for _i in range(rng.randint(0, 6))] for _s in range(4)
        ],
        "stats": stats,
    }
    return {
        "replay": str(temp),
        "result": result,
        "incidents": {},
        "logs": None,
        "worker": "w:1",
        "started": "s",
        "finished": "f",
    }


def torneo(folder: Path, version: int, partidos: int = 12) -> Path:
    """A torneo of ``partidos`` committed through :meth:`Store.commit`, in a store of ``version``."""
    plan = schedule(partidos)
    Store.create(folder, {"table_size": 4, "seed": 3}, PEOPLE, plan).close()
    if version < 3:
        db = sqlite3.connect(folder / DB_NAME)
        db.executescript(f"DROP TABLE seats; DROP TABLE partidos; {V2_PARTIDOS};")
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
        db.commit()
        db.close()
    rng = random.Random(8)
    with Store.open(folder) as store:
        assert store.version == version
        for p in plan:
            store.commit(p, outcome(store, p, rng))
    return folder


def unstamped(records: list[PartidoRecord]) -> list[PartidoRecord]:
    return [dataclasses.replace(r, committed="") for r in records]


def test_reply_times_are_kept_to_the_microsecond() -> None:
    times = [0.0, 0.001, 0.123, 1.5, 987.654, 123456.789]
    assert unpack_times(pack_times(times)) == tuple(times)
    assert len(pack_times(times)) == 4 * len(times) and pack_times([]) == b""
    assert unpack_times(pack_times([0.0004, 2.0006])) == (0.0, 2.001)  # what the referee never sends
    assert unpack_times(pack_times([-1.0, 1e10])) == (0.0, 4294967.295)  # kept in range


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_store_reads_back_what_schema_3_does(tmp_path: Path, version: int) -> None:
    new, old = torneo(tmp_path / "new", SCHEMA_VERSION), torneo(tmp_path / "old", version)
    with Store.open(new, readonly=True) as a, Store.open(old, readonly=True) as b:
        records = a.results()
        assert unstamped(records) == unstamped(b.results())
        assert unstamped(a.results(figures=False)) == unstamped(b.results(figures=False))
        assert b.seat_totals() is None and b.reply_times() is None
    assert any(r.faults for r in records) and any(r.stats[0]["reply_cpu_ms"] for r in records)
    assert all(r.reply_ms and len(r.stats) == 4 for r in records)
    lean = unstamped(records)[0]
    assert dataclasses.replace(lean, stats=(), reply_ms=()) == unstamped(Store.open(new).results(False))[0]
    db = sqlite3.connect(old / DB_NAME)  # resumed in its own version: JSON, no seats table
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(version),)
    move_ms, stats = db.execute("SELECT move_ms, stats FROM partidos ORDER BY pos").fetchone()
    db.close()
    assert json.loads(move_ms) == [list(m) for m in records[0].reply_ms]
    assert json.loads(stats) == list(records[0].stats)


def test_the_sums_of_the_store_are_the_counts_of_the_records(tmp_path: Path) -> None:
    with Store.open(torneo(tmp_path / "t", SCHEMA_VERSION, partidos=30), readonly=True) as store:
        summed = report.tally(store)
        counted = standings.tally(report.records(store), NAMES)
    assert summed is not None
    assert (summed.seats, summed.won, summed.place, summed.counts) == (
        counted.seats,
        counted.won,
        counted.place,
        counted.counts,
    )
    assert summed.ms == [pytest.approx(x, rel=1e-12, nan_ok=True) for x in counted.ms]
    assert summed.cpu_ms == [pytest.approx(x, rel=1e-12, nan_ok=True) for x in counted.cpu_ms]
    assert sum(summed.seats) == 4 * 30


@pytest.mark.parametrize("version", [1, 2])
def test_the_standings_of_an_older_store_are_the_same(tmp_path: Path, version: int) -> None:
    built = []
    for name, v in (("new", SCHEMA_VERSION), ("old", version)):
        with Store.open(torneo(tmp_path / name, v), readonly=True) as store:
            built.append(report.build(store, resamples=20))
    new, old = built
    pd.testing.assert_frame_equal(new.posiciones, old.posiciones, check_exact=False, rtol=1e-12)
    for sheet in set(new.frames) - {"Configuración"}:  # its dates differ
        pd.testing.assert_frame_equal(new.frames[sheet], old.frames[sheet], check_exact=False, rtol=1e-12)


def test_a_result_without_figures_is_counted_from_its_replay(tmp_path: Path) -> None:
    plan = schedule(1)
    with Store.create(tmp_path / "t", {"table_size": 4}, PEOPLE, plan) as store:
        events = [
            {"type": "partido_start", "players": [{"seat": s} for s in range(4)]},
            {"type": "mano_start", "hands": [["1-oro"]] * 4},
            {"type": "played", "seat": 2, "card": "1-oro", "ms": 2.5, "cpu_ms": 1.25},
            {"type": "mano_end", "outcome": "capote", "tricks": [0, 0, 10, 0], "losers": [0, 1, 3]},
            {"type": "partido_end", "winners": [2], "ranking": [[2], [0, 1, 3]]},
        ]
        work = outcome(store, plan[0], random.Random(1))
        Path(work["replay"]).write_text("".join(json.dumps(e) + "\n" for e in events))
        work["result"].update(winners=[2], ranking=[[2], [0, 1, 3]], faults=[], stats=[])
        store.commit(plan[0], work)
        (rec,) = store.results()
    expected = [{k: v for k, v in seat.items() if k != "reply_ms"} for seat in partido_stats(events)]
    assert list(rec.stats) == expected and rec.stats[2]["capotes"] == 1


def test_a_snapshot_sees_one_moment_while_a_coordinator_commits(tmp_path: Path) -> None:
    plan = schedule(2)
    Store.create(tmp_path / "t", {"table_size": 4}, PEOPLE, plan).close()
    rng = random.Random(2)
    with Store.open(tmp_path / "t") as writer, Store.open(tmp_path / "t", readonly=True) as reader:
        writer.commit(plan[0], outcome(writer, plan[0], rng))
        with reader.snapshot():
            before = len(reader.results())
            writer.commit(plan[1], outcome(writer, plan[1], rng))
            assert (len(reader.results()), reader.counts()[1]) == (before, 1)
            assert sum(t["seats"] for t in (reader.seat_totals() or {}).values()) == 4
        assert len(reader.results()) == 2


def test_commits_stamp_their_time(tmp_path: Path) -> None:
    before = now()
    with Store.open(torneo(tmp_path / "t", SCHEMA_VERSION, partidos=1), readonly=True) as store:
        (rec,) = store.results()
    assert rec.committed >= before and (rec.started, rec.finished, rec.worker) == ("s", "f", "w:1")
