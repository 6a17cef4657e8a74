"""The ladder's background work (:mod:`arena.serve.tasks`): its partidos, on the queue ``partidos``,
and the pruning of old partidos' files, on the queue ``checks``.

There are always W :func:`play_partidos` tasks ready or running (``--workers W``: :func:`keep_playing`
at the start), each enqueueing its successor at its end, at once when it played, else
:data:`IDLE_SECONDS` later; the work is :func:`arena.serve.ladder.worker.play_next`.
"""

from __future__ import annotations

import os
from datetime import timedelta
from typing import Any

from django.utils import timezone
from django_tasks import task

from arena.serve.tasks import CHECKS, PARTIDOS, forget_successful, keep

IDLE_SECONDS = 2.0
"""How long after a round without a partido to play its successor runs."""
PLAYERS_ENV = "ARENA_SERVE_PLAYERS"  # not shown
"""How many :func:`play_partidos` tasks the server keeps (``--workers W``), set for the workers."""
SCHEDULER_ENV = "ARENA_SERVE_SCHEDULER"  # not shown
"""The Dask scheduler (``arena serve --scheduler``) the partido tasks play on, set for the workers."""


def _use_scheduler() -> None:
    """In a worker of ``arena serve --scheduler``, connect to the cluster once (lazily)."""
    from arena.serve.ladder import worker

    address = os.environ.get(SCHEDULER_ENV)
    if address and worker._cluster is None:
        from arena.serve.ladder.cluster import connect

        worker.use_cluster(connect(address))


@task(queue_name=PARTIDOS)
def play_partidos() -> int:
    """A partido of each open ladder not paused (:func:`arena.serve.ladder.worker.play_next`), then
    this task again: at once when one was played, else :data:`IDLE_SECONDS` later; how many played."""
    from django.db import close_old_connections

    from arena.serve.ladder.models import Ladder
    from arena.serve.ladder.worker import play_next

    played = 0
    try:
        close_old_connections()
        _use_scheduler()
        for ladder in Ladder.objects.filter(open=True, paused=False).order_by("id"):
            played += play_next(ladder) is not None
    finally:  # even when the machine failed (tried again later) or the worker is stopping: W stay W
        later = None if played else timezone.now() + timedelta(seconds=IDLE_SECONDS)
        play_partidos.using(run_after=later).enqueue()
    return played


@task(queue_name=CHECKS)
def prune_files() -> None:
    """The files of the partidos no version keeps deleted (:func:`arena.serve.ladder.storage.prune`),
    the old successful runs of the ladder's repeating tasks (one a partido, one every idle moment:
    :func:`forget_finished`), and the play tasks topped up to the server's W (:data:`PLAYERS_ENV`:
    a chain whose successor could not be enqueued is made again); then this task again
    :data:`arena.serve.ladder.storage.PRUNE_EVERY_S` seconds later."""
    from arena.serve.ladder import storage

    try:
        storage.prune()
        forget_finished()
        players = os.environ.get(PLAYERS_ENV)
        if players:  # a successor that could not be enqueued (the database away a moment) made again
            keep_playing(int(players))
    finally:
        prune_files.using(run_after=timezone.now() + timedelta(seconds=storage.PRUNE_EVERY_S)).enqueue()


def forget_finished(before: Any = None) -> int:
    """Delete the successful runs of :func:`play_partidos` and :func:`prune_files` finished before
    ``before`` (default: :data:`arena.serve.tasks.FORGET_AFTER` ago); how many."""
    return forget_successful((play_partidos.module_path, prune_files.module_path), before)


def keep_playing(workers: int) -> int:
    """Exactly ``workers`` :func:`play_partidos` tasks ready or running (``--workers W``); the change."""
    return keep(play_partidos, workers)


def resume(workers: int) -> dict[str, int]:
    """At the start: the partidos left *playing* queued again, ``workers`` players, one prune."""
    from arena.serve.ladder.worker import requeue_interrupted

    done = {"partidos": requeue_interrupted(), "players": keep_playing(workers)}
    keep(prune_files, 1 if workers else 0)
    return done
