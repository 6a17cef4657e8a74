"""Nothing lost or left (issue 16, point 5).

``arena play`` never replaces a replay it did not name for this partido; a torneo's folder,
once its coordinator is gone (finished, or killed and resumed), holds its results and nothing
else (no ``torneo.lock``, no SQLite ``-wal``/``-shm``), while the lock still keeps a second
coordinator out; the progress line counts from the torneo's start and labels its times.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import io
import os
import signal
import sqlite3
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.cli import partido as partido_cli
from arena.cli.progress import BarProgress, LineProgress
from arena.cli.torneo import tournament
from arena.containment.process import descendants
from arena.referee.replay import read_replay
from arena.seeds import new_key
from arena.tournament import store as store_module
from arena.tournament.schedule import make_schedule
from arena.tournament.store import Entrant, Store, StoreError
from tests.procs import leftover_players
from tests.torneos import GOOD, ROOT, assert_same, committed, coordinator, resume, wait_for

RESULTS = ["csv", "replays", "standings.xlsx", "torneo.log", "torneo.sqlite", "web"]
"""What a torneo run by ``arena tournament`` leaves in its folder (``web``: the results site)."""


@pytest.fixture(autouse=True)
def token(run_token: str) -> str:
    """No player may outlive a test (see tests/procs.py)."""
    return run_token


def names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def journal_mode(folder: Path) -> str:
    db = sqlite3.connect(f"file:{folder / 'torneo.sqlite'}?mode=ro", uri=True)
    try:
        return db.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        db.close()


def invoke(*args: Any) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


# ---------------------------------------------------------------- arena play: replay names


class Frozen(dt.datetime):
    """A clock stopped at one second: every partido starts in it."""

    @classmethod
    def now(cls, tz: Any = None) -> Frozen:
        return cls(2024, 5, 1, 12, 0, 0)


@pytest.fixture
def same_second(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """``arena play`` run in ``tmp_path`` with its clock stopped; returns its replay folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(partido_cli, "dt", SimpleNamespace(datetime=Frozen))
    return tmp_path / "results" / "partidos"


def play(*extra: Any) -> Any:
    players = [ROOT / "sample_players" / n for n in GOOD]
    return invoke("play", *players, "--in-process", "--quiet", *extra)


def test_two_partidos_in_the_same_second_with_the_same_seed_keep_both_replays(same_second: Path) -> None:
    first, second = play("--seed", 777), play("--seed", 777)
    assert first.exit_code == second.exit_code == 0, first.output + second.output
    names_ = ["20240501-120000-2-seed777.jsonl", "20240501-120000-seed777.jsonl"]
    assert names(same_second) == names_
    assert f"Replay: {Path('results/partidos') / names_[1]}" in first.output
    assert f"Replay: {Path('results/partidos') / names_[0]}" in second.output
    for name in names_:
        assert read_replay(same_second / name)[-1]["type"] == "partido_end"
        assert (same_second / name).stat().st_mode & 0o777 == 0o600

    # a file already there under the next name (a partido of another process, or the user's) stays
    (same_second / "20240501-120000-3-seed777.jsonl").write_text("mine\n")
    third = play("--seed", 777)
    assert third.exit_code == 0, third.output
    assert (same_second / "20240501-120000-3-seed777.jsonl").read_text() == "mine\n"
    assert "Replay: results/partidos/20240501-120000-4-seed777.jsonl" in third.output


def test_a_named_replay_is_replaced_and_a_partido_that_never_began_leaves_no_file(
    same_second: Path, tmp_path: Path
) -> None:
    """``--replay FILE`` writes FILE as asked, like any output option (``--replay /dev/null`` too)."""
    mine = tmp_path / "mine.jsonl"
    mine.write_text("old\n")
    done = play("--seed", 5, "--replay", mine)
    assert done.exit_code == 0, done.output
    assert read_replay(mine)[-1]["type"] == "partido_end"

    failed = invoke("play", *(tmp_path / f"nobody-{i}" for i in range(3)), "--quiet")
    assert failed.exit_code == 1
    assert not same_second.exists() or names(same_second) == []


def test_new_names_are_made_exclusively(same_second: Path) -> None:
    made = [partido_cli._new_replay(same_second, "seedabc") for _ in range(4)]
    assert [p.name for p in made] == [
        "20240501-120000-seedabc.jsonl",
        *(f"20240501-120000-{n}-seedabc.jsonl" for n in (2, 3, 4)),
    ]
    assert all(p.stat().st_size == 0 for p in made)
    (same_second / "20240501-120000-5-seedabc.jsonl.logs").mkdir()  # logs of a replay since deleted
    assert partido_cli._new_replay(same_second, "seedabc").name == "20240501-120000-6-seedabc.jsonl"
    demos = [partido_cli._new_folder(same_second.parent, "demo") for _ in range(2)]
    assert [d.name for d in demos] == ["demo-20240501-120000", "demo-20240501-120000-2"]


# ---------------------------------------------------------------- the store: lock, WAL


def small_store(folder: Path) -> Store:
    entrants = [Entrant(i, f"e{i}", f"/e{i}", "python", None, (), "x") for i in range(3)]
    return Store.create(folder, {}, entrants, make_schedule(3, 3, 1, new_key()))


def test_the_lock_keeps_a_second_writer_out_and_goes_with_the_first(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    first = small_store(folder)
    first.lock()
    first.begin_run(1)
    assert (folder / "torneo.lock").read_text() == f"{os.getpid()}\n"
    second = Store.open(folder)
    with pytest.raises(StoreError, match="ya hay otro arena tournament corriendo en esta carpeta"):
        second.lock()
    second.close()  # it never held the lock: it leaves the running writer's files alone
    assert {"torneo.lock", "torneo.sqlite-wal", "torneo.sqlite-shm"} <= set(names(folder))
    first.close()
    assert names(folder) == ["replays", "torneo.sqlite"]
    assert journal_mode(folder) == "delete"
    with Store.open(folder) as again:  # resumable: the lock is made again
        again.lock()
        assert (folder / "torneo.lock").exists()
        assert again.runs()[0]["status"] == "running"
    assert names(folder) == ["replays", "torneo.sqlite"]


@pytest.mark.parametrize("taken_again", [False, True])
def test_a_lock_file_removed_under_a_waiting_writer_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, taken_again: bool
) -> None:
    """The race of removing a lock file: B opens it, A removes it and lets go, B locks the old file.

    B must see that the name is gone (or is another file, locked by C) and start over: never two
    holders at once.
    """
    monkeypatch.setattr(store_module, "SETTLE_S", 0.2)  # others have it open: closes settle nothing
    folder = tmp_path / "t"
    a = small_store(folder)
    a.lock()
    c = Store.open(folder)
    real_flock = fcntl.flock
    calls = []

    def flock(fd: int, op: int) -> None:
        calls.append(fd)
        if len(calls) == 1:  # B has opened A's lock file: A finishes now, C may start
            a.close()
            if taken_again:
                c.lock()
        real_flock(fd, op)

    b = Store.open(folder)
    monkeypatch.setattr(fcntl, "flock", flock)
    if taken_again:
        with pytest.raises(StoreError, match="ya hay otro arena tournament corriendo"):
            b.lock()
        assert c._lock is not None
        assert os.path.samestat(os.fstat(c._lock), os.stat(folder / "torneo.lock"))
    else:
        b.lock()
        assert b._lock is not None
        assert os.path.samestat(os.fstat(b._lock), os.stat(folder / "torneo.lock"))
    monkeypatch.setattr(fcntl, "flock", real_flock)
    b.close()
    c.close()
    assert names(folder) == ["replays", "torneo.sqlite"]


def test_read_only_opens_leave_nothing_and_never_disturb_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "t"
    small_store(folder).close()
    assert names(folder) == ["replays", "torneo.sqlite"]
    with Store.open(folder, readonly=True) as reader:
        assert reader.counts() == (1, 0, 0)
    assert names(folder) == ["replays", "torneo.sqlite"]

    writer = Store.open(folder)
    writer.lock()
    run = writer.begin_run(1)
    with Store.open(folder, readonly=True) as reader:  # arena standings while the torneo runs
        writer.end_run(run, "finished")  # the writer goes on writing meanwhile
        assert reader.runs()[0]["status"] == "finished"
    writer.close()
    assert names(folder) == ["replays", "torneo.sqlite"]

    # A reader still open when the writer closes: SQLite keeps WAL mode (after a short wait)...
    monkeypatch.setattr(store_module, "SETTLE_S", 0.3)
    writer = Store.open(folder)
    writer.lock()
    writer.begin_run(1)
    reader = Store.open(folder, readonly=True)
    reader.counts()
    started = time.monotonic()
    writer.close()
    assert time.monotonic() - started < 5
    reader.close()
    assert names(folder) == ["replays", "torneo.sqlite", "torneo.sqlite-shm", "torneo.sqlite-wal"]
    assert (folder / "torneo.sqlite-wal").stat().st_size == 0  # checkpointed all the same
    # ...and the next writer to close (a resume, here without a torneo to play) removes them
    Store.open(folder).close()
    assert names(folder) == ["replays", "torneo.sqlite"]


# ---------------------------------------------------------------- torneos end to end


def stop(proc: Any) -> None:
    """Kill -9 a coordinator started by :func:`tests.torneos.coordinator`; its workers follow it."""
    os.kill(proc.pid, signal.SIGSTOP)
    workers = descendants(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    for pid in workers:  # if this process adopted them (a subreaper), reap them
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def end(proc: Any) -> None:
    """After a test, pass or fail: the coordinator is gone."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGCONT)
        proc.kill()
        proc.communicate()


def test_a_finished_torneo_holds_only_its_results_and_keeps_a_second_coordinator_out(
    players: Path, reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out)
    try:
        wait_for(out, 2, proc)
        os.kill(proc.pid, signal.SIGSTOP)  # it still runs (stopped): it holds the lock
        try:
            second = CliRunner().invoke(tournament, ["--resume", str(out), "--workers", "1"])
            assert second.exit_code == 1, second.output
            assert f"{out}: ya hay otro arena tournament corriendo en esta carpeta" in second.output
            shown = invoke("standings", out)  # read-only, while the torneo runs
            assert shown.exit_code == 0, shown.output
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        output, _ = proc.communicate(timeout=600)
    finally:
        end(proc)
    assert proc.returncode == 0, output
    assert "Torneo terminado" in output
    assert names(out) == RESULTS
    assert journal_mode(out) == "delete"
    assert_same(out, reference)
    shown = invoke("standings", out, "--csv")
    assert shown.exit_code == 0, shown.output
    assert names(out) == RESULTS


def test_kill_9_then_resume_leaves_only_the_results(
    players: Path, reference: Path, tmp_path: Path, token: str
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out)
    try:
        wait_for(out, 2, proc)
        stop(proc)
    finally:
        end(proc)
    assert not leftover_players(token, 5.0, False), "workers or players outlived the coordinator"
    done = committed(out)
    assert 2 <= done < 8, "the kill came too late to test anything"
    assert "torneo.lock" in names(out)  # left by the killed coordinator, unlocked by the kernel
    shown = invoke("standings", out)  # reads what was committed, from the WAL the kill left
    assert shown.exit_code == 0, shown.output
    output = resume(out)
    assert f"{done} de 8 partidos ya guardados, faltan {8 - done}" in output
    assert names(out) == RESULTS
    assert_same(out, reference)
    assert names(out) == RESULTS


# ---------------------------------------------------------------- the progress line


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_plain_lines_count_from_the_torneos_start_and_label_the_times() -> None:
    clock, out = Clock(), io.StringIO()
    progress = LineProgress(out, clock)
    progress.start(80, 30)  # a resumed torneo: 30 partidos settled by an earlier run
    clock.t += 61
    progress.tick()  # a minute without a partido: a line all the same, no rate yet
    for _ in range(50):
        clock.t += 0.4
        progress.advance()
    progress.finish()
    lines = out.getvalue().splitlines()
    assert lines[0] == "Partidos: 30/80 (38%), transcurrido 1 min 01 s en esta ejecución"
    assert lines[1] == (
        "Partidos: 35/80 (44%), transcurrido 1 min 03 s en esta ejecución, 0.08 por segundo, faltan ~9 min"
    )
    assert lines[-1] == "Partidos: 80/80 (100%), transcurrido 1 min 21 s en esta ejecución, 0.62 por segundo"
    assert len(lines) == 11  # one every tenth of the 50 to play, and the first


def test_a_fresh_torneo_and_its_extra_batches_share_one_run_clock() -> None:
    clock, out = Clock(), io.StringIO()
    progress = LineProgress(out, clock)
    progress.start(8, 0)
    for _ in range(8):
        clock.t += 5
        progress.advance()
    progress.finish()
    progress.phase("separando 3.º/4.º: 82%")
    progress.start(12, 8)  # --until-separated: 4 more, counted on from 8
    for _ in range(4):
        clock.t += 5
        progress.advance()
    lines = out.getvalue().splitlines()
    assert lines[0] == "Partidos: 1/8 (12%), transcurrido 5 s, 0.20 por segundo, faltan ~35 s"
    assert lines[7] == "Partidos: 8/8 (100%), transcurrido 40 s, 0.20 por segundo"
    assert lines[8] == "Partidos más: separando 3.º/4.º: 82%"
    assert lines[9] == "Partidos: 9/12 (75%), transcurrido 45 s, 0.20 por segundo, faltan ~15 s"
    assert lines[-1] == "Partidos: 12/12 (100%), transcurrido 1 min 00 s, 0.20 por segundo"


def test_the_bar_says_the_same_in_one_line_redrawn(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    for columns, roomy in ((120, True), (80, False)):
        monkeypatch.setenv("COLUMNS", str(columns))
        out = io.StringIO()
        bar = BarProgress(out, clock)
        bar.start(80, 30)
        clock.t += 80
        for _ in range(20):
            bar.advance()
        bar.finish()
        drawn = out.getvalue()
        assert drawn.endswith("\n") and drawn.count("\n") == 1
        frames = drawn[:-1].split("\r")[1:]
        assert len(frames) == 21 and all(len(f) <= columns - 1 for f in frames)
        last = frames[-1].rstrip()
        assert last.startswith("Partidos [")
        tail = "50/80 (62%), transcurrido 1 min 20 s en esta ejecución, faltan ~2 min"
        assert last.endswith(tail if roomy else "50/80, transcurrido 1 min 20 s, faltan ~2 min")  # fits 79
