"""The service's background work as django-tasks' tasks, kept in its own database (no broker).

Three queues, each served by worker processes that ``arena serve`` starts
(:mod:`arena.serve.ladder.pool`, each running django-tasks-db's ``db_worker``):

* ``checks``: :func:`check_version`, enqueued when an upload is committed (and :func:`prune_files`,
  the old partidos' files deleted every :data:`arena.serve.ladder.storage.PRUNE_EVERY_S` seconds);
* ``partidos``: :func:`play_partidos`, a partido of each open ladder; there are always W of them
  ready or running (``--workers W``: :func:`keep_playing` at the start), each enqueueing its successor
  at its end, at once when it played, else :data:`IDLE_SECONDS` later;
* ``finals``: :func:`run_final`, enqueued when the instructor starts (or retries) a final torneo.

They are thin wrappers: the work is :func:`arena.serve.ladder.checking.check_version`,
:func:`arena.serve.ladder.worker.play_next` and :func:`arena.serve.ladder.final.run_final`.

A task is a row (django-tasks-db's ``DBTaskResult``, in the admin): enqueued it persists. A worker
killed mid-task (SIGKILL, a power cut) leaves it *running*; :func:`resume` (at ``arena serve``'s start,
before any worker runs) sends such tasks back to *ready*, the partidos left *playing* back to
*queued* (:func:`arena.serve.ladder.worker.requeue_interrupted`), and enqueues again what a forced
stop left without a task (a version still *checking*, a final still *queued* or *running*: its
``run_final`` plays on with ``arena tournament --resume`` when its store exists).
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django_tasks import task

log = logging.getLogger(__name__)

CHECKS, PARTIDOS, FINALS = "checks", "partidos", "finals"
"""The queues (``settings.TASKS``)."""
IDLE_SECONDS = 2.0
"""How long after a round without a partido to play its successor runs."""
FORGET_AFTER = timedelta(hours=1)
"""How long the successful runs of :func:`play_partidos` and :func:`prune_files` are kept (in the
admin) before :func:`prune_files` deletes them; the checks', the finals' and every failed run stay."""
SCHEDULER_ENV = "ARENA_SERVE_SCHEDULER"  # not shown
"""The Dask scheduler (``arena serve --scheduler``) the partido tasks play on, set for the workers."""


@task(queue_name=CHECKS)
def check_version(version_id: int) -> None:
    """Check version ``version_id`` (:func:`arena.serve.ladder.checking.check_version`)."""
    from arena.serve.ladder import checking

    checking.check_version(version_id)


@task(queue_name=FINALS)
def run_final(final_id: int) -> None:
    """Play final ``final_id`` to its end (:func:`arena.serve.ladder.final.run_final`)."""
    from arena.serve.ladder import final

    final.run_final(final_id)


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
    and the old runs of the repeating tasks (:data:`FORGET_AFTER`); then this task again
    :data:`arena.serve.ladder.storage.PRUNE_EVERY_S` seconds later."""
    from arena.serve.ladder import storage

    try:
        storage.prune()
        forget_finished()
    finally:
        prune_files.using(run_after=timezone.now() + timedelta(seconds=storage.PRUNE_EVERY_S)).enqueue()


# ---------------------------------------------------------------- at the start


def _results() -> Any:
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects


def pending(which: Any) -> Any:
    """The rows of task ``which`` ready or running (not finished)."""
    from django_tasks.base import TaskResultStatus

    return _results().filter(
        task_path=which.module_path, status__in=(TaskResultStatus.READY, TaskResultStatus.RUNNING)
    )


def _keep(which: Any, n: int) -> int:
    """Exactly ``n`` of task ``which`` ready or running: the missing enqueued, the extra ready ones
    deleted (the latest first); how many were added (negative: removed)."""
    from django_tasks.base import TaskResultStatus

    with transaction.atomic():
        rows = pending(which)
        have = rows.count()
        for _i in range(n - have):
            which.enqueue()
        if have > n:
            extra = rows.filter(status=TaskResultStatus.READY).order_by("-enqueued_at")
            ids = list(extra.values_list("pk", flat=True)[: have - n])
            _results().filter(pk__in=ids).delete()
            return -len(ids)
    return max(0, n - have)


def forget_finished(before: Any = None) -> int:
    """Delete the successful runs of the repeating tasks finished before ``before`` (default:
    :data:`FORGET_AFTER` ago): one a partido, one every idle moment; how many."""
    from django_tasks.base import TaskResultStatus

    before = before or timezone.now() - FORGET_AFTER
    done = _results().filter(
        task_path__in=(play_partidos.module_path, prune_files.module_path),
        status=TaskResultStatus.SUCCESSFUL,
        finished_at__lt=before,
    )
    return int(done.delete()[0])


def keep_playing(workers: int) -> int:
    """Exactly ``workers`` :func:`play_partidos` tasks ready or running (``--workers W``); the change."""
    return _keep(play_partidos, workers)


def reset_interrupted() -> int:
    """The tasks a killed worker left *running* back to *ready* (run again from the start); how many.
    Only while no worker runs (``arena serve``'s start)."""
    from django_tasks.base import TaskResultStatus

    return (
        _results()
        .filter(status=TaskResultStatus.RUNNING)
        .update(status=TaskResultStatus.READY, started_at=None)
    )


def _args(which: Any) -> set[int]:
    """The first arguments of the pending rows of task ``which``."""
    return {row["args"][0] for row in pending(which).values_list("args_kwargs", flat=True) if row.get("args")}


def resume(workers: int) -> dict[str, int]:
    """At ``arena serve``'s start, before any worker runs: the interrupted tasks ready again, the
    partidos left playing queued again, a task for every version left *checking* and every final left
    *queued* or *running* that has none (a worker stopped by force marks its task failed), the
    ladder's ``workers`` players and the prune; what was done, counted."""
    from arena.serve.ladder.models import FinalTorneo, Version
    from arena.serve.ladder.worker import requeue_interrupted

    done = {"tasks": reset_interrupted(), "partidos": requeue_interrupted()}
    checking = Version.objects.filter(status=Version.CHECKING).exclude(folder="")
    queued = _args(check_version)
    missing = [pk for pk in checking.order_by("id").values_list("pk", flat=True) if pk not in queued]
    for pk in missing:
        check_version.enqueue(pk)
    done["checks"] = len(missing)
    unfinished = FinalTorneo.objects.filter(status__in=(FinalTorneo.QUEUED, FinalTorneo.RUNNING))
    queued = _args(run_final)
    missing = [pk for pk in unfinished.order_by("id").values_list("pk", flat=True) if pk not in queued]
    for pk in missing:
        run_final.enqueue(pk)
    done["finals"] = len(missing)
    done["players"] = keep_playing(workers)
    _keep(prune_files, 1 if workers else 0)
    return done
