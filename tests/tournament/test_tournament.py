"""Torneos end to end: identical results with 1 and 2 workers, kill -9 / Ctrl-C then --resume,
refusals, the log file, --max-faults, and no process left behind.

Entrants are copies of the deterministic sample players (and ``tests/bots/crash``).
The coordinator is run in-process (``arena.tournament.coordinator.execute`` or the click
command) or, to be killed, as ``python -m arena tournament`` in a subprocess.
Processes are told apart by a token in their environment, as in ``test_referee``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import shutil
import signal
import sqlite3
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.containment.process import descendants
from arena.tournament import coordinator as t
from arena.tournament.entrants import NoEntrants, collect_entrants
from arena.tournament.store import Store, StoreError
from tests.procs import leftover_players
from tests.torneos import (
    CONFIG,
    GOOD,
    OPTIONS,
    ROOT,
    assert_same,
    committed,
    coordinator,
    execute,
    outcome,
    resume,
    wait_for,
)

# ---------------------------------------------------------------- processes


def left_behind(token: str, players_only: bool = True, grace: float = 5.0) -> dict[int, str]:
    return leftover_players(token, grace, players_only)


@pytest.fixture(autouse=True)
def token(run_token: str) -> str:
    """This test's process token (see tests/procs.py): no player may outlive the test."""
    return run_token


# ---------------------------------------------------------------- tests


def test_one_and_two_workers_give_identical_results(players: Path, reference: Path, tmp_path: Path) -> None:
    stats = execute(tmp_path / "w1", players, CONFIG, 1)
    assert (stats.total, stats.committed, stats.withdrawn) == (8, 8, 0)
    assert_same(tmp_path / "w1", reference)


@pytest.mark.parametrize(("count", "delay"), [(1, 0.0), (3, 0.1), (5, 0.0)])
def test_kill_9_then_resume_equals_an_uninterrupted_run(
    players: Path, reference: Path, tmp_path: Path, token: str, count: int, delay: float
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out)
    workers: list[int] = []
    try:
        wait_for(out, count, proc)
        # Frozen at once, killed after the delay (its workers play on meanwhile): however slow this
        # process is under load, the coordinator commits nothing more than it had when it was stopped.
        os.kill(proc.pid, signal.SIGSTOP)
        time.sleep(delay)
        workers = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.communicate()
    assert not left_behind(token, players_only=False), "workers or players outlived the coordinator"
    for pid in workers:  # if this process adopted them (a subreaper), reap them
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    done = committed(out)
    assert count <= done < 8, "the kill came too late to test anything"
    output = resume(out)
    assert f"{done} de 8 partidos ya guardados, faltan {8 - done}" in output
    assert_same(out, reference)
    with Store.open(out) as store:
        assert [r["status"] for r in store.runs()] == ["running", "finished"]  # the killed run never ended


def test_ctrl_c_stops_cleanly_and_tells_how_to_resume(
    players: Path, reference: Path, tmp_path: Path, token: str
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out)
    try:
        wait_for(out, 2, proc)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole foreground group
        output, _ = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 130, output
    assert "Torneo interrumpido" in output
    assert f"arena tournament --resume {out}" in output
    assert not left_behind(token, players_only=False)
    assert not [p for p in (out / "replays").iterdir() if p.name.startswith(".tmp-")]
    with Store.open(out) as store:
        assert store.runs()[-1]["status"] == "interrupted"
    resume(out)
    assert_same(out, reference)


def test_a_non_empty_folder_is_refused_and_left_alone(players: Path, reference: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    result = CliRunner().invoke(tournament, [str(players), "--out", str(other), *OPTIONS])
    assert result.exit_code == 1
    assert f"{other} no está vacía. No se cambió nada; elegí otro --out." in result.output
    assert [p.name for p in other.iterdir()] == ["notes.txt"]

    before = {p: p.stat().st_mtime_ns for p in reference.rglob("*")}
    result = CliRunner().invoke(tournament, [str(players), "--out", str(reference), *OPTIONS])
    assert result.exit_code == 1
    assert "es un torneo; seguilo con --resume" in result.output
    assert {p: p.stat().st_mtime_ns for p in reference.rglob("*")} == before


def test_resume_takes_the_options_from_the_folder(reference: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(tournament, ["--resume", str(reference), "--seed", "3", "--table-size", "4"])
    assert result.exit_code == 2
    assert "sacá --table-size, --seed" in result.output or "sacá --seed, --table-size" in result.output
    result = CliRunner().invoke(tournament, ["--resume", str(tmp_path)])
    assert result.exit_code == 1
    assert f"{tmp_path}: no es la carpeta de un torneo (no tiene torneo.sqlite)" in result.output
    result = CliRunner().invoke(tournament, ["--resume"])
    assert result.exit_code == 2
    assert "--resume necesita la carpeta del torneo" in result.output


def test_a_finished_torneo_resumes_to_nothing(reference: Path) -> None:
    before = outcome(reference)
    output = resume(reference)
    assert "8 de 8 partidos ya guardados, faltan 0" in output
    assert "Torneo terminado: 0 partidos jugados" in output
    assert outcome(reference) == before


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_the_log_file_holds_every_worker_and_partido(players: Path, tmp_path: Path, method: str) -> None:
    config = t.Config(table_size=3, rounds=1, seed=5, move_ms=3000)
    out = tmp_path / "torneo"
    execute(out, players, config, 2, context=multiprocessing.get_context(method))
    log = (out / "torneo.log").read_text()
    workers = set(re.findall(r"Process-\d+\[(\d+)\] INFO arena.tournament.worker: worker listo", log))
    assert len(workers) == 2, log
    for p in ("p0001", "p0002", "p0003", "p0004"):
        assert len(re.findall(rf"\[(\d+)\] INFO arena.tournament.worker: {p} empieza", log)) == 1, log
        assert len(re.findall(rf"\[(\d+)\] INFO arena.tournament.worker: {p} terminado", log)) == 1, log
    doers = set(re.findall(r"\[(\d+)\] INFO arena.tournament.worker: p\d+ terminado", log))
    assert doers <= workers
    assert "MainProcess" in log and "fin de la ejecución: terminada, 4 partidos nuevos" in log


def test_max_faults_withdraws_a_crashing_bot_in_schedule_order(players: Path, tmp_path: Path) -> None:
    field = tmp_path / "field"
    for name in GOOD:
        shutil.copytree(players / name, field / name)
    shutil.copytree(ROOT / "tests" / "bots" / "crash", field / "crash")
    out = tmp_path / "torneo"
    result = CliRunner().invoke(tournament, [str(field), "--out", str(out), *OPTIONS, "--max-faults", "2"])
    assert result.exit_code == 0, result.output
    with Store.open(out) as store:
        crash = next(e.index for e in store.entrants() if e.name == "crash")
        theirs = [p.id for p in store.scheduled() if crash in p.seats]
        results = {r.id: r for r in store.results()}
        withdrawn = store.withdrawn()
    assert len(theirs) == 6
    assert [p for p in theirs if p in results] == theirs[:2]  # disqualified twice, then withdrawn
    assert [w.partido for w in withdrawn] == theirs[2:]
    assert all(w.entrants == (crash,) and w.reason == "max-faults" for w in withdrawn)
    assert len(results) == 8 - 4
    for pid in theirs[:2]:
        (fault,) = results[pid].faults
        assert (fault.entrant, fault.reason, fault.penalized) == (crash, "crash", False)
        assert fault.incident == f"replays/{pid}.incident-{results[pid].seats.index(crash)}-crash.txt"
        assert (out / fault.incident).is_file()
    assert "4 no jugados por retiro" in result.output
    assert "crash: retirado tras 2 descalificaciones" in result.output
    # the standings row: puesto, grupo, puesto 95%, jugador, partidos (played and forfeited), ganados,
    # % [IC], lugar medio, porotos, desc., penaliz.: withdrawn after 2 disqualifications, it ranks last
    row = next(line.split() for line in result.output.splitlines() if line.split()[3:4] == ["crash"])
    shown = (row[0], row[4], row[5], row[6], row[8], row[10], row[11])
    assert shown == ("4", "6", "0", "0%", "3.00", "2", "0")


def test_entrants_default_to_players_then_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "players").mkdir()
    for name in GOOD:
        shutil.copytree(ROOT / "sample_players" / name, tmp_path / "sample_players" / name)
    assert [s.name for s in collect_entrants([])] == sorted(GOOD)
    shutil.copytree(ROOT / "sample_players" / "a_mas", tmp_path / "players" / "ana")
    assert [s.name for s in collect_entrants([])] == ["ana"]
    twice = collect_entrants(
        [tmp_path / "players", tmp_path / "players" / "ana", tmp_path / "sample_players"]
    )
    assert [s.name for s in twice] == ["ana", "a_mas", "a_menos", "random_legal"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(NoEntrants, match="empty: no tiene ninguna carpeta de jugador"):
        collect_entrants([tmp_path / "empty"])


def test_fewer_entrants_than_a_table_is_refused_before_anything_is_made(
    players: Path, tmp_path: Path
) -> None:
    out = tmp_path / "torneo"
    result = CliRunner().invoke(
        tournament, [str(players / "azar"), str(players / "a_mas"), "--out", str(out)]
    )
    assert result.exit_code == 1
    assert "las mesas de 4 necesitan al menos 4 jugadores, y hay 2" in result.output
    assert not out.exists()


def test_store_refuses_foreign_and_damaged_folders(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no existe esa carpeta"):
        Store.open(tmp_path / "absent")
    with pytest.raises(StoreError, match=r"no es la carpeta de un torneo \(no tiene torneo.sqlite\)"):
        Store.open(tmp_path)
    (tmp_path / "torneo.sqlite").write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match="no es el almacén de un torneo de tute-arena"):
        Store.open(tmp_path)
    (tmp_path / "torneo.sqlite").unlink()
    db = sqlite3.connect(tmp_path / "torneo.sqlite")
    db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('format', 'something-else')")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="no es el almacén de un torneo de tute-arena"):
        Store.open(tmp_path)
