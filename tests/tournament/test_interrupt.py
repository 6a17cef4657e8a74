"""Ctrl-C at any moment of ``arena tournament`` — while it loads, checks its players, boots the
workers, makes its folder, plays the first partidos — exits 130, leaves no process behind, and
leaves a folder that ``--resume`` finishes, or none (or one a new torneo replaces).

The coordinator runs as ``python -m arena tournament`` in its own session and gets SIGINT as a
terminal sends it (to the whole process group). The half-made folder of a start-up killed while
its store was being made is built by hand (``kill -9`` at that moment is a matter of luck).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.tournament import coordinator as t
from arena.tournament.entrants import collect_entrants
from arena.tournament.store import DB_NAME, Store
from tests.procs import leftover_players
from tests.torneos import CONFIG, OPTIONS, assert_same, coordinator, resume, wait_for

MOMENTS = ["at once", "0.5 s", "2 s", "folder made", "first partido"]
"""When SIGINT comes: right after the process starts (Python still loading), at 0.5 s and 2 s (the
command loading, the workers booting, the players checked: on a loaded machine, any of these), the
moment the torneo's folder appears (its store being made), and once the first partido is saved."""


PYTHON_STARTING = "Could not import runpy module"
"""What the interpreter says when SIGINT lands while it starts (``python -m``: before ``runpy``)."""


def _interrupt(proc: subprocess.Popen[str], out: Path, moment: str) -> None:
    if moment == "folder made":
        deadline = time.monotonic() + 120
        while not out.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the folder never appeared"
            time.sleep(0.001)
    elif moment == "first partido":
        wait_for(out, 1, proc)
    elif moment != "at once":
        time.sleep(float(moment.split()[0]))
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: the whole foreground group


@pytest.mark.parametrize("moment", MOMENTS)
def test_ctrl_c_at_any_moment_exits_130_and_leaves_a_folder_to_resume_or_none(
    players: Path, reference: Path, tmp_path: Path, run_token: str, moment: str
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out)
    try:
        _interrupt(proc, out, moment)
        output, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
    starting = moment == "at once" and (proc.returncode == -signal.SIGINT or PYTHON_STARTING in output)
    if starting:
        # SIGINT before Python had set its handler: the process dies of the signal itself, which
        # a shell reports as 130 as well; or while the interpreter itself starts (before any code of
        # ours runs: Python prints its own traceback and exits 1, seen under load); nothing was made
        assert not out.exists()
    else:
        assert proc.returncode == 130, output
        assert "Traceback" not in output, output  # not from the coordinator, its forkserver or workers
    assert not leftover_players(run_token, players_only=False), "processes outlived the coordinator"
    if (out / DB_NAME).exists():  # the store was made: --resume finishes the torneo
        assert f"arena tournament --resume {out}" in output, output
        refused = CliRunner().invoke(tournament, [str(players), "--out", str(out), *OPTIONS])
        assert refused.exit_code == 1 and "es un torneo; seguilo con --resume" in refused.output
        resume(out)
    else:  # nothing was saved, and nothing is in the way of the same command
        assert "no se guardó nada" in output or starting, output
        assert not out.exists() or t.half_made(out), sorted(p.name for p in out.iterdir())
        again = CliRunner().invoke(tournament, [str(players), "--out", str(out), *OPTIONS, "--workers", "2"])
        assert again.exit_code == 0, again.output
    assert_same(out, reference)


def _half_made(out: Path) -> None:
    """What a start-up killed (kill -9) while making its store leaves: the set-up folder with a
    store not yet moved into place, and an empty ``replays/``."""
    setup = out / t.SETUP_NAME
    (setup / "replays").mkdir(parents=True)
    db = sqlite3.connect(setup / f".tmp-{DB_NAME}")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    db.commit()
    db.close()
    (out / "replays").mkdir()


def test_a_half_made_folder_is_recognised_and_made_anew(players: Path, tmp_path: Path) -> None:
    out = tmp_path / "torneo"
    _half_made(out)
    assert t.half_made(out) and t.check_empty(out)
    result = CliRunner().invoke(tournament, ["--resume", str(out)])
    assert result.exit_code == 1
    assert "quedó a medio hacer por un arranque interrumpido" in result.output
    assert "Empezá el torneo de nuevo sin --resume" in result.output
    specs = collect_entrants([players])
    with t.create(out, CONFIG, specs, t.plan(CONFIG, len(specs))) as store:
        assert store.counts() == (8, 0, 0)
    assert sorted(p.name for p in out.iterdir()) == ["replays", DB_NAME]
    assert not t.half_made(out)
    (out / t.SETUP_NAME).mkdir()  # killed once the store was in place, before it was cleared away
    assert not t.half_made(out)
    store, _config, _specs, _warnings = t.open_for_resume(out)
    store.close()
    assert sorted(p.name for p in out.iterdir()) == ["replays", DB_NAME]


def test_a_folder_with_anything_else_is_not_half_made(tmp_path: Path) -> None:
    out = tmp_path / "torneo"
    _half_made(out)
    (out / "notes.txt").write_text("mine")
    assert not t.half_made(out)
    with pytest.raises(t.TournamentError, match="no está vacía"):
        t.check_empty(out)
    (out / "notes.txt").unlink()
    (out / "replays" / "p0001.jsonl").write_text("{}\n")  # a replays/ with something in it
    assert not t.half_made(out)


def test_interrupted_while_making_the_store_leaves_nothing(
    players: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def ctrl_c(self: Store, rows: object) -> None:
        raise KeyboardInterrupt

    specs = collect_entrants([players])
    schedule = t.plan(CONFIG, len(specs))
    monkeypatch.setattr(Store, "record_exclusions", ctrl_c)
    rows = [("x", "no es jugador", "vacía")]
    with pytest.raises(KeyboardInterrupt):
        t.create(tmp_path / "new", CONFIG, specs, schedule, rows)
    assert not (tmp_path / "new").exists()  # made here: removed
    (tmp_path / "given").mkdir()
    with pytest.raises(KeyboardInterrupt):
        t.create(tmp_path / "given", CONFIG, specs, schedule, rows)
    assert list((tmp_path / "given").iterdir()) == []  # given empty: left empty
    monkeypatch.undo()
    with t.create(tmp_path / "given", CONFIG, specs, schedule, rows) as store:
        assert store.exclusions() == rows  # recorded with the store, before it is in place
