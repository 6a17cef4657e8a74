"""Small torneos for the tests: the entrants, the reference run, and helpers to compare runs.

Registered as a pytest plugin (``conftest.py``), so the ``players`` and ``reference``
fixtures serve every test module that plays torneos.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.results import separate
from arena.tournament import coordinator as t
from arena.tournament.entrants import collect_entrants
from arena.tournament.store import Store

ROOT = Path(__file__).resolve().parent.parent
GOOD = ("random_legal", "a_mas", "a_menos")
OPTIONS = ["--table-size", "3", "--rounds", "2", "--seed", "11", "--move-ms", "3000", "--init-ms", "10000"]
CONFIG = t.Config(table_size=3, rounds=2, seed=11, move_ms=3000, init_ms=10_000)
"""The small torneo most tests play: 4 entrants, 4 tables of 3, twice: 8 partidos."""


@pytest.fixture(scope="module")
def players(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copies of the deterministic sample players, and a fourth (random_legal again, renamed)."""
    root = tmp_path_factory.mktemp("players")
    for name in GOOD:
        shutil.copytree(ROOT / "sample_players" / name, root / name)
    shutil.copytree(ROOT / "sample_players" / "random_legal", root / "azar")
    return root


@pytest.fixture(scope="module")
def reference(players: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small torneo played once, uninterrupted, with 2 workers."""
    out = tmp_path_factory.mktemp("reference") / "torneo"
    execute(out, players, CONFIG, 2)
    return out


def execute(out: Path, players: Path | list[Path], config: t.Config, workers: int, **kw: Any) -> t.RunStats:
    specs = collect_entrants(players if isinstance(players, list) else [players])
    if config.until_separated:
        kw.setdefault("more", separate.next_batch)  # as the command does
    return t.execute(out, specs, config, workers, None, t.plan(config, len(specs)), **kw)


def outcome(folder: Path) -> list[tuple[Any, ...]]:
    """What a torneo decided, partido by partido (no times)."""
    with Store.open(folder) as store:
        return [
            (
                r.id,
                r.seed,
                r.seats,
                r.players,
                r.winners,
                r.ranking,
                r.manos,
                r.scores,
                [(f.mano, f.seat, f.entrant, f.reason, f.penalized) for f in r.faults],
            )
            for r in store.results()
        ] + [(w.partido, w.entrants, w.reason) for w in store.withdrawn()]


TIMES = ("ms", "cpu_ms", "elapsed_ms")
"""Measured times on replay lines: they differ from run to run (and with the machine's load)."""


def comparable(replay: Path) -> list[dict[str, Any]]:
    """A replay file's events as two runs of one partido must agree on: without the measured times
    (:data:`TIMES`) or the players' folders (``partido_start``'s ``players[].source``)."""
    out = []
    for line in replay.read_text().splitlines():
        event = {k: v for k, v in json.loads(line).items() if k not in TIMES}
        if event["type"] == "partido_start":
            event["players"] = [{k: v for k, v in p.items() if k != "source"} for p in event["players"]]
        out.append(event)
    return out


def replays(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """Every committed replay's events, without the measured times (:data:`TIMES`)."""
    out = {}
    with Store.open(folder) as store:
        for r in store.results():
            events = [json.loads(line) for line in (folder / r.replay).read_text().splitlines()]
            for e in events:
                for key in TIMES:
                    e.pop(key, None)
            out[r.id] = events
    return out


def evidence(*folders: Path, cap: int = 4000, most: int = 40) -> str:
    """The incident reports and non-empty player stderr logs under ``folders``, for a failure message.

    Incidents first; each file cut to its last ``cap`` characters, at most ``most`` files.
    """
    files = [p for f in folders for p in sorted(f.rglob("*.incident-*.txt"))]
    files += [p for f in folders for p in sorted(f.rglob("*.stderr.log"))]
    parts = []
    for path in files:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            text = f"(unreadable: {exc})"
        if path.suffix == ".log" and not text.strip():
            continue
        if len(parts) == most:
            parts.append(f"----- ... and more under {', '.join(map(str, folders))}")
            break
        parts.append(f"----- {path}\n{text[-cap:]}")
    return "incident files and player logs:\n" + ("\n".join(parts) if parts else "(none)")


def assert_same(folder: Path, reference: Path) -> None:
    """``folder`` decided exactly what ``reference`` did; on a difference, shows both runs' incidents."""
    assert outcome(folder) == outcome(reference), evidence(folder, reference)
    assert replays(folder) == replays(reference), evidence(folder, reference)
    names = sorted(p.name for p in (folder / "replays").iterdir())
    assert names == sorted(p.name for p in (reference / "replays").iterdir()), "stray or missing files"


def committed(folder: Path) -> int:
    try:
        db = sqlite3.connect(f"file:{folder / 'torneo.sqlite'}?mode=ro", uri=True, timeout=1)
        try:
            return db.execute("SELECT COUNT(*) FROM partidos").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def coordinator(players: Path, out: Path, *extra: str, **kw: Any) -> subprocess.Popen[str]:
    """``python -m arena tournament`` in a subprocess (its own session), for killing."""
    argv = [sys.executable, "-m", "arena", "tournament", str(players), "--out", str(out), *OPTIONS]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [*argv, "--workers", "2", *extra],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        **kw,
    )


def wait_for(folder: Path, count: int, proc: subprocess.Popen[str], timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while committed(folder) < count:
        assert proc.poll() is None, f"the torneo ended early: {proc.communicate()[0]}"
        assert time.monotonic() < deadline, "no progress"
        time.sleep(0.02)


def resume(folder: Path, workers: int = 2) -> str:
    result = CliRunner().invoke(tournament, ["--resume", str(folder), "--workers", str(workers)])
    assert result.exit_code == 0, result.output
    return result.output
