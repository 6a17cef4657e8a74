"""The web process wins the CPU over the referees: the ladder's worker process, and the players it
starts, run at a lower CPU priority (issue 52).

The worker process lowers its own niceness (``ARENA_SERVE_WORKER_NICE``, default 10) before anything
else; the processes it starts inherit it, and the players' cgroups, scheduled as groups, take the
same weight from it (:func:`arena.containment.cgroups._inherit_niceness`)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.paths import ROOT


def _niceness(pid: int) -> int:
    """A process's niceness, read from /proc/<pid>/stat (field 19)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2 :].split()[16])


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Iterator[Path]:
    yield serve_dir


@pytest.mark.django_db(transaction=True)  # the worker process reads (and may write) the database
def test_the_worker_process_is_nicer_than_the_server(service: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.serve.ladder import pool

    monkeypatch.delenv("ARENA_SERVE_WORKER_NICE", raising=False)
    assert pool.worker_niceness() == pool.WORKER_NICE == 10
    mine = _niceness(os.getpid())
    process = pool.start(service, "partidos")
    try:
        assert process.pid is not None
        deadline = time.monotonic() + 60
        seen = mine
        while time.monotonic() < deadline and process.is_alive():
            seen = _niceness(process.pid)
            if seen != mine:
                break
            time.sleep(0.05)
        assert seen == min(19, mine + 10)
        assert _niceness(os.getpid()) == mine  # the server itself is unchanged
    finally:
        pool.stop(process)


def test_the_worker_niceness_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.serve.ladder import pool

    monkeypatch.setenv("ARENA_SERVE_WORKER_NICE", "0")
    assert pool.worker_niceness() == 0
    monkeypatch.setenv("ARENA_SERVE_WORKER_NICE", "40")
    assert pool.worker_niceness() == 19
    monkeypatch.setenv("ARENA_SERVE_WORKER_NICE", "much")
    assert pool.worker_niceness() == pool.WORKER_NICE


CGROUP_PROBE = """
import os, sys
from arena.containment import cgroups
h = cgroups.detect()
if h is None:
    print("none")
    sys.exit(0)
os.nice(int(sys.argv[1]))
try:
    run = cgroups._run_folders(h)
    if h.version == 2:
        print("v2", (run["unified"] / "cpu.weight.nice").read_text().strip())
    else:
        print("v1", (run["cpu"] / "cpu.shares").read_text().strip())
finally:
    cgroups.remove_run()
"""


@pytest.mark.parametrize("nice", [0, 10])
def test_the_players_cgroups_weigh_as_the_referee_s_niceness(nice: int) -> None:
    """A referee at niceness 10 makes its players' run cgroup weigh as one task at niceness 10
    (v1 ``cpu.shares`` 110, v2 ``cpu.weight.nice`` 10); at 0, the default weight is left alone."""
    done = subprocess.run(
        [sys.executable, "-c", CGROUP_PROBE, str(nice)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0 and "Permission denied" in done.stderr:
        pytest.skip("the cgroup hierarchy is not writable here")
    assert done.returncode == 0, done.stderr
    found = done.stdout.split()
    if found == ["none"]:
        pytest.skip("no cgroup hierarchy is writable here")
    version, value = found
    base = os.getpriority(os.PRIO_PROCESS, 0)
    total = min(19, base + nice)
    if total <= 0:
        assert value in ("1024", "0")  # v1's default shares, v2's default niceness
    elif version == "v1":
        from arena.containment.cgroups import NICE_WEIGHTS

        assert value == str(NICE_WEIGHTS[total])
    else:
        assert value == str(total)
