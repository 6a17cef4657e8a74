"""The service's worker processes: they run the background tasks, beside the web server.

``arena serve --workers W`` starts W processes for the queue ``partidos`` (each plays one partido at a
time), ``settings.CHECKERS`` for ``checks`` and one for ``finals`` (:func:`start_all`); each is a fresh
interpreter (spawn) running django-tasks-db's ``db_worker`` on its queue
(:mod:`arena.serve.tasks`), so no referee shares an interpreter lock with the pages or with
another referee. Each dies with the server (``PR_SET_PDEATHSIG``); a task a killed worker left
*running* is run again at the next start (:func:`arena.serve.startup.resume`), and since a
partido's result is saved only with *done* in one transaction, none is lost or counted twice.
They run at a lower CPU priority than the pages (niceness ``ARENA_SERVE_WORKER_NICE``, default 10),
and so does everything they start: the referees' players, whose cgroups weigh as that niceness.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import time
from multiprocessing.process import BaseProcess
from pathlib import Path

PR_SET_PDEATHSIG = 1
WORKER_NICE = 10
"""The worker processes' default niceness: the pages win the CPU over the referees and players."""
INTERVAL_S = {"partidos": 0.5, "checks": 1.0, "finals": 2.0}
"""How often an idle worker of each queue looks for a task (``db_worker --interval``): a partido worker
is rarely idle (each play task enqueues its successor); the checks' and the finals' workers mostly
are, and each look takes SQLite's write lock a moment, so they look less often (an upload's check
starts within a second)."""
GRACE_S = {"partidos": 30.0, "checks": 30.0, "finals": 2.0}
"""How long a stopping worker may finish its task before it is killed: a partido or a check ends
within it; a final's ``arena tournament`` is stopped (SIGTERM, its committed partidos kept) and
played on with ``--resume`` at the next start."""


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


def serve_queue(folder: str, queue: str) -> None:
    """A worker process's body: Django on ``folder``, django-tasks-db's ``db_worker`` on ``queue``
    until SIGTERM or SIGINT (the task running finished first), at a lower CPU priority than the pages
    (:func:`worker_niceness`)."""
    _die_with_parent()
    _be_nicer(worker_niceness())
    from arena.serve import boot

    boot.configure(folder)
    from django.core.management import call_command
    from django_tasks_db.management.commands import db_worker

    handlers = db_worker.Worker.configure_signals

    def configure_signals(worker: db_worker.Worker) -> None:
        handlers(worker)
        # A terminal's Ctrl-C reaches the whole process group: the server then asks each worker to
        # stop (SIGTERM, once), which ends the task running first; a second signal would cut it.
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    db_worker.Worker.configure_signals = configure_signals  # type: ignore[method-assign,assignment]
    call_command(
        "db_worker",
        queue_name=queue,
        interval=INTERVAL_S.get(queue, 1.0),
        startup_delay=False,
        reload=False,
        verbosity=0,
        worker_id=f"{queue}-{os.getpid()}",
    )


def start(folder: Path, queue: str = "partidos") -> BaseProcess:
    """Start a worker process for ``queue`` of the service in ``folder`` (a fresh interpreter: spawn)."""
    process = multiprocessing.get_context("spawn").Process(
        target=serve_queue,
        args=(str(folder), queue),
        name=f"arena-serve-{queue}",  # not shown
        daemon=True,
    )
    process.start()
    return process


def start_all(folder: Path, workers: int, checkers: int = 1) -> list[BaseProcess]:
    """The service's workers: ``workers`` for the partidos, ``checkers`` for the checks, one for the
    finals."""
    queues = ["partidos"] * workers + ["checks"] * max(1, checkers) + ["finals"]
    return [start(folder, queue) for queue in queues]


def stop(process: BaseProcess, grace: float = 30.0) -> None:
    """Ask the worker process to stop, then kill it if it has not after ``grace`` seconds."""
    stop_all([process], grace)


def stop_all(processes: list[BaseProcess], grace: float | None = None) -> None:
    """Ask every worker process to stop at once (SIGTERM: each ends its task), then kill those still
    running after their grace (``grace``, else :data:`GRACE_S` by queue)."""
    for process in processes:
        if process.is_alive() and process.pid is not None:
            process.terminate()
    start = time.monotonic()
    for process in processes:
        queue = (process.name or "").removeprefix("arena-serve-")
        allowed = grace if grace is not None else GRACE_S.get(queue, 30.0)
        process.join(max(0.0, allowed - (time.monotonic() - start)))
        if process.is_alive():
            process.kill()
            process.join(5)
