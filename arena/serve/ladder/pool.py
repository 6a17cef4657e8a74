"""The ladder's worker process: it plays the partidos and checks the uploads, beside the web server.

``arena serve --workers W`` (W ≥ 1) starts one such process (:func:`start`): its W threads play
partidos (:func:`arena.serve.ladder.worker.run_workers`) and a watcher checks every version left
*checking* (:func:`arena.serve.submissions.checking.watch`), so the referees' Python never shares an
interpreter lock with the pages. It dies with the server (``PR_SET_PDEATHSIG``), and since every
result is saved only as *done* in one transaction, a killed pair loses no committed partido: at the
next start the partidos left *playing* are played again and the versions left *checking* checked.
It runs at a lower CPU priority than the pages (niceness ``ARENA_SERVE_WORKER_NICE``, default 10),
and so does everything it starts: the referees' players, whose cgroups weigh as that niceness.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import threading
from multiprocessing.process import BaseProcess
from pathlib import Path

PR_SET_PDEATHSIG = 1
WORKER_NICE = 10
"""The worker process's default niceness: the pages win the CPU over the referees and players."""


def _die_with_parent() -> None:
    """Ask the kernel for SIGKILL when the server that started this process dies (Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the server's stop still ends it
        pass


def worker_niceness() -> int:
    """How much nicer than the web server the worker process runs: ``ARENA_SERVE_WORKER_NICE``
    (default 10; 0 to share the CPU evenly)."""
    try:
        return max(0, min(19, int(os.environ.get("ARENA_SERVE_WORKER_NICE", str(WORKER_NICE)))))
    except ValueError:
        return WORKER_NICE


def _be_nicer(increment: int) -> None:
    """Lower this process's CPU priority by ``increment`` (it and all it starts, the referees' players
    included: their cgroups take the niceness over, :func:`arena.containment.cgroups._inherit_niceness`)."""
    if increment:
        with contextlib.suppress(OSError):
            os.nice(increment)


def serve_workers(folder: str, workers: int, scheduler: str | None = None) -> None:
    """The worker process's body: Django on ``folder``, ``workers`` players of partidos (on the Dask
    cluster at ``scheduler`` if given), the checks, until SIGTERM or SIGINT; at a lower CPU priority
    than the pages (:func:`worker_niceness`)."""
    _die_with_parent()
    _be_nicer(worker_niceness())
    from arena.serve import boot

    boot.configure(folder)
    from arena.serve.ladder.worker import run_workers, use_cluster
    from arena.serve.submissions import checking

    if scheduler:
        from arena.serve.ladder.cluster import connect

        use_cluster(connect(scheduler))

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_args: stop.set())
    threads = [*run_workers(workers, stop), checking.watch_in_thread(stop)]
    while not stop.wait(1.0):
        pass
    for thread in threads:
        thread.join(timeout=30)


def start(folder: Path, workers: int, scheduler: str | None = None) -> BaseProcess:
    """Start the worker process for the service in ``folder`` (a fresh interpreter: spawn)."""
    process = multiprocessing.get_context("spawn").Process(
        target=serve_workers, args=(str(folder), workers, scheduler), name="arena-serve-workers", daemon=True
    )
    process.start()
    return process


def stop(process: BaseProcess, grace: float = 30.0) -> None:
    """Ask the worker process to stop, then kill it if it has not after ``grace`` seconds."""
    if process.is_alive() and process.pid is not None:
        process.terminate()
        process.join(grace)
    if process.is_alive():
        process.kill()
        process.join(5)
