"""Torneos on a Dask cluster (``--scheduler``): bundles, the remote task, and a real cluster.

The cluster tests start a real ``dask scheduler`` and two ``dask worker`` processes
(one thread each) on 127.0.0.1, and stop them at the end of the module. They play
the small torneo of ``test_tournament`` and compare it with the local runner's:
uninterrupted, with one worker killed (SIGKILL, its whole process group) in the
middle of a partido, and with the coordinator stopped (``kill -9``, Ctrl-C) and
the torneo resumed on the cluster. The others need no cluster: bundles, the
remote task in this process, the one-line errors of the command.

The scheduler runs with ``allowed-failures`` 0: a task whose worker dies fails at
once with ``KilledWorker``, so the coordinator's own resubmission is what replays
the partido (Dask's rescheduling, with the default 3, would hide it).

Skipped, with the reason, where the ``distributed`` extra is not installed.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.containment.process import descendants
from arena.referee.connection import Limits
from arena.tournament import coordinator as t
from arena.tournament.backend import BackendError
from arena.tournament.cluster import bundles, remote
from arena.tournament.entrants import collect_entrants
from arena.tournament.store import Store
from arena.tournament.worker import PartidoTask
from tests.paths import ROOT
from tests.procs import TOKEN_VAR, kill_and_reap, leftover_players, read
from tests.torneos import CONFIG, GOOD, OPTIONS, TIMES, assert_same, committed

HAVE_DASK = importlib.util.find_spec("distributed") is not None
needs_dask = pytest.mark.skipif(
    not HAVE_DASK, reason="the distributed extra is not installed: pip install '.[distributed]'"
)
pytestmark = pytest.mark.usefixtures("run_token")


# ---------------------------------------------------------------- bundles (no Dask needed)


def test_a_bundle_is_named_by_its_content(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    shutil.copytree(ROOT / "sample_players" / "a_mas", folder)
    (folder / "data").mkdir()
    (folder / "data" / "tabla.txt").write_text("1 2 3\n")
    (folder / "run.sh").write_text("#!/bin/sh\n")
    (folder / "run.sh").chmod(0o755)
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"\0")
    (folder / "fuera").symlink_to("/etc/hostname")  # a link out of the folder stays out
    digest, data = bundles.pack(folder)
    assert hashlib.sha256(data).hexdigest() == digest
    os.utime(folder / "player.py", (0, 12345))
    (folder / "__pycache__" / "y.pyc").write_bytes(b"\1")
    assert bundles.pack(folder) == (digest, data), "times and caches do not change a bundle"
    copy = tmp_path / "copia"
    shutil.copytree(folder, copy, symlinks=True)
    assert bundles.pack(copy)[0] == digest, "the same files give the same bundle anywhere"
    (copy / "data" / "tabla.txt").write_text("1 2 4\n")
    assert bundles.pack(copy)[0] != digest

    cache = tmp_path / "cache"
    cache.mkdir()
    unpacked = bundles.unpack(digest, data, cache)
    assert unpacked == cache / digest
    assert sorted(str(p.relative_to(unpacked)) for p in unpacked.rglob("*")) == [
        "data",
        "data/tabla.txt",
        "player.py",
        "run.sh",
    ]
    assert (unpacked / "player.py").read_bytes() == (folder / "player.py").read_bytes()
    assert os.access(unpacked / "run.sh", os.X_OK) and not os.access(unpacked / "player.py", os.X_OK)
    assert not (unpacked / "player.py").stat().st_mode & 0o222, "the cache is read-only"
    assert bundles.unpack(digest, data, cache) == unpacked, "unpacked once"
    assert [p.name for p in cache.iterdir()] == [digest], "no temporary folder left"


def test_a_damaged_or_unsafe_bundle_is_refused(tmp_path: Path) -> None:
    digest, data = bundles.pack(ROOT / "sample_players" / "a_mas")
    cache = tmp_path / "cache"
    cache.mkdir()
    forged = data.replace(b"import", b"imqort")
    with pytest.raises(bundles.BundleError, match="sus bytes no coinciden con su nombre"):
        bundles.unpack(digest, forged, cache)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        info = tarfile.TarInfo("../escape.py")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    evil = buf.getvalue()
    with pytest.raises(bundles.BundleError, match="solo se admiten archivos y carpetas comunes"):
        bundles.unpack(hashlib.sha256(evil).hexdigest(), evil, cache)
    assert list(cache.iterdir()) == [] and not (tmp_path / "escape.py").exists()


def test_the_remote_task_refuses_what_it_must_not_play(
    players: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(bundles.CACHE_VAR, str(tmp_path / "cache"))
    specs = tuple(collect_entrants([players / n for n in GOOD]))
    packed = [bundles.pack(s.folder) for s in specs]
    digests = [d for d, _ in packed]
    task = PartidoTask("p0001", 7, specs, CONFIG.rules, Limits(10_000, 3_000), "/nonexistent", "bwrap")
    forged = {d: b + b"\0" for d, b in packed}
    out = remote.play_remote(replace(task, mechanism="none"), digests, forged)
    assert "sus bytes no coinciden con su nombre" in out["problem"] and out["files"] is None
    with pytest.raises(BackendError, match="sus bytes no coinciden con su nombre"):
        remote.materialize(out, tmp_path)
    monkeypatch.setattr("arena.containment.sandbox.bwrap_works", lambda: False)
    out = remote.play_remote(task, digests, dict(packed))
    assert "corre sus jugadores bajo bwrap, que ahí no funciona" in out["problem"]
    out = remote.check_remote(specs[0], digests[0], packed[0][1], Limits(), "bwrap")
    assert "que ahí no funciona" in out["problem"]
    out = {"problem": None, "arena": ("0.0.1", "0" * 64), "worker": "h:1", "records": []}
    with pytest.raises(BackendError, match=r"h:1 corre tute-arena 0\.0\.1 .* instalá el mismo tute-arena"):
        remote.accept(out)


def test_the_remote_task_plays_like_a_local_worker(
    players: Path, reference: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In this process: the files come back as bytes and commit as a local worker's would."""
    monkeypatch.setenv(bundles.CACHE_VAR, str(tmp_path / "cache"))
    with Store.open(reference) as store:
        config = t.Config.from_store(store.config())
        first = store.scheduled()[0]
        specs = collect_entrants([players])
    task = PartidoTask(
        first.id,
        first.seed,
        tuple(specs[e] for e in first.seats),
        config.rules,
        config.limits,
        "/nonexistent",
        config.sandbox,
    )
    packed = [bundles.pack(s.folder) for s in task.specs]
    out = remote.play_remote(task, [d for d, _ in packed], dict(packed))
    assert out["problem"] is None and out["error"] is None and out["records"]
    replays = tmp_path / "replays"
    replays.mkdir()
    local = remote.materialize(out, replays)
    assert Path(local["replay"]).parent == replays and Path(local["replay"]).name.startswith(".tmp-p0001-")
    lines = [json.loads(x) for x in Path(local["replay"]).read_text().splitlines()]
    want = [json.loads(x) for x in (reference / "replays" / "p0001.jsonl").read_text().splitlines()]
    for e in lines + want:
        for key in TIMES:  # measured, so different each run
            e.pop(key, None)
    assert lines == want, "the replay names the entrants' own folders, not the cache"
    assert sorted(p.name for p in Path(local["logs"]).iterdir()) == sorted(
        p.name for p in (reference / "replays" / "p0001.jsonl.logs").iterdir()
    )


class _Lost(Exception):
    """Stands for ``distributed.KilledWorker``."""


class _Future:
    """A finished Dask future, failed with ``error`` or holding ``value``."""

    def __init__(self, error: Exception | None = None, value: Any = None) -> None:
        self.error, self.value = error, value
        self.status = "error" if error else "finished"

    def done(self) -> bool:
        return True

    def exception(self) -> Exception | None:
        return self.error

    def result(self, timeout: float | None = None) -> Any:
        if self.error:
            raise self.error
        return self.value

    def add_done_callback(self, fn: Any) -> None:
        fn(self)

    def release(self) -> None:
        pass


def test_a_lost_task_is_submitted_again_a_bounded_number_of_times() -> None:
    from arena.tournament.cluster import backend as dask_backend

    backend = object.__new__(dask_backend.DaskBackend)  # no cluster: only what handles use
    backend.lost_errors, backend.wake, backend.live, backend.address = (_Lost,), threading.Event(), set(), "x"
    outcomes = [_Future(_Lost("1")), _Future(_Lost("2")), _Future(value={"ok": 1})]
    handle = dask_backend.DaskHandle(backend, "p0001", lambda: outcomes.pop(0), lambda v: v)
    assert backend.wait([handle], 1.0) == {handle} and handle.resubmits == 2
    assert handle.result() == {"ok": 1} and handle.result() == {"ok": 1}, "one result, however often asked"

    submitted: list[int] = []

    def lost() -> _Future:
        submitted.append(1)
        return _Future(_Lost("again"))

    handle = dask_backend.DaskHandle(backend, "p0002", lost, lambda v: v)
    assert backend.wait([handle], 1.0) == {handle}
    assert len(submitted) == 1 + dask_backend.RESUBMITS
    with pytest.raises(_Lost):
        handle.result()
    bug = dask_backend.DaskHandle(backend, "p0003", lambda: _Future(ValueError("bug")), lambda v: v)
    assert bug.done() and bug.resubmits == 0, "only lost workers are worth another try"


# ---------------------------------------------------------------- the command line


def test_scheduler_without_the_extra_is_one_line(
    players: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    out = tmp_path / "torneo"
    result = CliRunner().invoke(
        tournament, [str(players), "--out", str(out), "--scheduler", "tcp://127.0.0.1:1"]
    )
    assert result.exit_code == 1
    assert (
        result.output
        == "Error: --scheduler necesita el extra distributed: pip install 'tute-arena[distributed]'\n"
    )
    assert not out.exists()
    result = CliRunner().invoke(tournament, [str(players), "--scheduler", "tcp://h:1", "--workers", "2"])
    assert result.exit_code == 2 and "--workers es para esta máquina" in result.output


@needs_dask
def test_an_unreachable_scheduler_is_one_line(
    players: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("arena.tournament.cluster.backend.CONNECT_S", 0.5)
    out = tmp_path / "torneo"
    result = CliRunner().invoke(
        tournament, [str(players), "--out", str(out), "--scheduler", "tcp://127.0.0.1:9"]
    )
    assert result.exit_code == 1, result.output
    assert result.output.splitlines()[-1].startswith(
        "Error: no se puede llegar al scheduler de Dask en tcp://127.0.0.1:9"
    )
    assert not out.exists()


# ---------------------------------------------------------------- a real cluster


def _address(scheduler_file: Path) -> str | None:
    """The scheduler's address once its file is written whole."""
    with contextlib.suppress(OSError, ValueError, KeyError):
        return json.loads(scheduler_file.read_text())["address"]
    return None


class Cluster:
    """``dask scheduler`` and ``dask worker`` processes on 127.0.0.1, each in its own session."""

    def __init__(self, folder: Path, workers: int) -> None:
        self.folder = folder
        self.token = uuid.uuid4().hex
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            TOKEN_VAR: self.token,  # every player the workers start carries it
            "ARENA_PASS_ENV": TOKEN_VAR,
            bundles.CACHE_VAR: str(folder / "bundles"),
            "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0",
        }
        self.procs: list[subprocess.Popen[bytes]] = []
        file = folder / "scheduler.json"
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file", file
        )
        deadline = time.monotonic() + 30
        while not (address := _address(file)):
            assert self.scheduler.poll() is None and time.monotonic() < deadline, (
                "the scheduler did not start"
            )
            time.sleep(0.05)
        self.address = address
        self.workers = [self.start_worker() for _ in range(workers)]
        self.wait_workers(workers)

    def _start(self, what: str, *args: Any) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{what}-{len(self.procs)}.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "dask", what, *map(str, args), "--no-dashboard"],
            cwd=self.folder,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def start_worker(self) -> subprocess.Popen[bytes]:
        return self._start(
            "worker",
            self.address,
            "--nthreads",
            "1",
            "--nworkers",
            "1",
            "--host",
            "127.0.0.1",
            "--local-directory",
            self.folder / "scratch",
        )

    def wait_workers(self, n: int, timeout: float = 30) -> None:
        from distributed import Client

        with Client(self.address, timeout=10, set_as_default=False) as client:
            deadline = time.monotonic() + timeout
            while len(client.scheduler_info()["workers"]) != n:
                assert time.monotonic() < deadline, f"the cluster did not reach {n} workers"
                time.sleep(0.05)

    def playing(self, proc: subprocess.Popen[bytes]) -> bool:
        """Whether the worker ``proc`` (a nanny and its worker) has a player running now.

        A player of a partido carries both marks; the worker's warm-start server (and its bwrap),
        which outlives the partidos, carries ``ARENA_PLAYER=1`` only, never the run's token.
        """
        marks = (b"ARENA_PLAYER=1", f"{TOKEN_VAR}={self.token}".encode())
        return any(
            all(mark in env for mark in marks)
            for env in (read(f"/proc/{pid}/environ") or b"" for pid in descendants(proc.pid))
        )

    @staticmethod
    def signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
        """Signal ``proc``'s process group, only while ``proc`` is not reaped.

        Once reaped, its pid (and group id) may be anyone's: pids wrap (at 32768 on some machines).
        """
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        self.signal_group(proc, signal.SIGKILL)
        proc.wait()

    def close(self) -> None:
        for proc in reversed(self.procs):  # the workers first, then the scheduler
            self.signal_group(proc, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill(proc)
        for pid in leftover_players(self.token, grace=2.0, players_only=False):
            kill_and_reap(pid)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    if not HAVE_DASK:
        pytest.skip("the distributed extra is not installed: pip install '.[distributed]'")
    c = Cluster(tmp_path_factory.mktemp("cluster"), 2)
    try:
        yield c
    finally:
        c.close()


@pytest.fixture
def clean(cluster: Cluster) -> Iterator[Cluster]:
    """The cluster, checked afterwards: no player left on its workers."""
    yield cluster
    left = leftover_players(cluster.token, grace=5.0)
    for pid in left:
        kill_and_reap(pid)
    assert not left, f"player processes left behind on the workers: {left}"


def on_cluster(out: Path, players: Path, cluster: Cluster) -> t.RunStats:
    specs = collect_entrants([players])
    return t.execute(out, specs, CONFIG, 1, None, t.plan(CONFIG, len(specs)), scheduler=cluster.address)


@needs_dask
def test_the_cluster_gives_the_local_results(
    players: Path, reference: Path, tmp_path: Path, clean: Cluster
) -> None:
    out = tmp_path / "torneo"
    stats = on_cluster(out, players, clean)
    assert (stats.total, stats.committed, stats.withdrawn) == (8, 8, 0)
    assert_same(out, reference)
    log = (out / "torneo.log").read_text()
    for p in (f"p{i:04d}" for i in range(1, 9)):
        assert len(re.findall(rf"dask@\S+\[\d+\] INFO arena.tournament.worker: {p} empieza", log)) == 1, log
        assert len(re.findall(rf"dask@\S+\[\d+\] INFO arena.tournament.worker: {p} terminado", log)) == 1, log
    with Store.open(out) as store:
        doers = {r.worker for r in store.results()}
        assert store.runs()[-1]["workers"] == 2
    pids = {pid for w in clean.workers for pid in descendants(w.pid)}
    assert {int(d.rsplit(":", 1)[1]) for d in doers} <= pids, "the partidos were played on the workers"


@needs_dask
def test_a_worker_killed_mid_partido_changes_nothing(
    players: Path, reference: Path, tmp_path: Path, clean: Cluster
) -> None:
    out = tmp_path / "torneo"
    killed: list[int] = []
    stop = threading.Event()

    def killer() -> None:  # once a partido is committed, kill the first worker caught playing
        while not stop.is_set():
            if committed(out) >= 1:
                for w in clean.workers:
                    if not clean.playing(w):
                        continue
                    clean.signal_group(w, signal.SIGSTOP)  # frozen: it cannot finish the partido now
                    if clean.playing(w):  # still mid-partido once frozen (a loaded machine is slow)
                        killed.append(committed(out))
                        clean.kill(w)
                        clean.workers.remove(w)
                        return
                    clean.signal_group(w, signal.SIGCONT)  # it had just finished: another try
            time.sleep(0.005)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        stats = on_cluster(out, players, clean)
    finally:
        stop.set()
        thread.join()
        if len(clean.workers) < 2:
            clean.workers.append(clean.start_worker())
    assert killed and killed[0] < 8, "the kill came too late to test anything"
    assert stats.committed == 8
    assert_same(out, reference)  # nothing lost, nothing counted twice, same results
    assert re.search(
        r"MainProcess\[\d+\] WARNING arena.dask: p\d{4} se envía de nuevo \(1\)",
        (out / "torneo.log").read_text(),
    )
    clean.wait_workers(2)


@needs_dask
@pytest.mark.parametrize(
    ("how", "status"),
    [(signal.SIGKILL, "running"), (signal.SIGINT, "interrupted")],
    ids=["kill-9", "ctrl-c"],
)
def test_a_distributed_torneo_stopped_then_resumed(
    players: Path, reference: Path, tmp_path: Path, clean: Cluster, how: signal.Signals, status: str
) -> None:
    """The coordinator killed (kill -9) or stopped (Ctrl-C) after 2 partidos; --resume on the cluster."""
    out = tmp_path / "torneo"
    argv = [sys.executable, "-m", "arena", "tournament", str(players), "--out", str(out), *OPTIONS]
    proc = subprocess.Popen(
        [*argv, "--scheduler", clean.address],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while committed(out) < 2:
            assert proc.poll() is None, f"the torneo ended early: {proc.communicate()[0]}"
            assert time.monotonic() < deadline, "no progress"
            time.sleep(0.01)
        os.killpg(proc.pid, how)
        output = proc.communicate(timeout=30)[0]
    finally:
        proc.kill()
    done = committed(out)
    assert 2 <= done < 8, f"the stop came too late to test anything: {output}"
    if how == signal.SIGINT:
        assert proc.returncode == 130, output
        assert f"Para continuar: arena tournament --resume {out} --scheduler {clean.address}" in output
        assert not [p for p in (out / "replays").iterdir() if p.name.startswith(".tmp-")]
    result = CliRunner().invoke(tournament, ["--resume", str(out), "--scheduler", clean.address])
    assert result.exit_code == 0, result.output
    assert f"{done} de 8 partidos ya guardados, faltan {8 - done}" in result.output
    assert "partidos en el clúster Dask tcp://127.0.0.1:" in result.output
    assert_same(out, reference)
    with Store.open(out) as store:
        assert [r["status"] for r in store.runs()] == [status, "finished"]
