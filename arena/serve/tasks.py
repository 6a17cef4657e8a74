"""The service's background work as django-tasks' tasks, kept in its own database (no broker).

Three queues, each served by worker processes that ``arena serve`` starts
(:mod:`arena.serve.ladder.pool`, each running django-tasks-db's ``db_worker``), each app defining its
own tasks in its ``tasks.py``:

* ``checks``: :func:`arena.serve.submissions.tasks.check_version`, enqueued when an upload is
  committed (and :func:`arena.serve.ladder.tasks.prune_files`, the old partidos' files deleted every
  :data:`arena.serve.ladder.storage.PRUNE_EVERY_S` seconds);
* ``partidos``: :func:`arena.serve.ladder.tasks.play_partidos`, a partido of each open ladder; there
  are always W of them ready or running (``--workers W``), each enqueueing its successor at its end;
* ``finals``: :func:`arena.serve.finals.tasks.run_final`, enqueued when the instructor starts (or
  retries) a final torneo.

A task is a row (django-tasks-db's ``DBTaskResult``, in the admin): enqueued it persists. A worker
killed mid-task (SIGKILL, a power cut) leaves it *running*; :func:`arena.serve.startup.resume` (at
``arena serve``'s start, before any worker runs) sends such tasks back to *ready*, and each app
enqueues again what a forced stop left without a task (the partidos left *playing*, a version
still *checking*, a final still *queued* or *running*: its ``run_final`` plays on with
``arena tournament --resume``).

This module holds what the apps' tasks share: the queues' names, the pending rows of a task, keeping
exactly n of one, the interrupted ones made ready again. It imports no app (they import it).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

CHECKS, PARTIDOS, FINALS = "checks", "partidos", "finals"
"""The queues (``settings.TASKS``)."""
FORGET_AFTER = timedelta(hours=1)
"""How long the successful runs of the repeating tasks (the ladder's) are kept (in the admin) before
:func:`forget_successful` deletes them; the checks', the finals' and every failed run stay."""


def _results() -> Any:
    from django_tasks_db.models import DBTaskResult

    return DBTaskResult.objects


def pending(which: Any) -> Any:
    """The rows of task ``which`` ready or running (not finished)."""
    from django_tasks.base import TaskResultStatus

    return _results().filter(
        task_path=which.module_path, status__in=(TaskResultStatus.READY, TaskResultStatus.RUNNING)
    )


def keep(which: Any, n: int) -> int:
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


def enqueue_missing(which: Any, wanted: Any) -> int:
    """Enqueue task ``which`` for each id of ``wanted`` (in order) that has no pending row; how many."""
    rows = pending(which).values_list("args_kwargs", flat=True)
    queued = {row["args"][0] for row in rows if row.get("args")}
    missing = [pk for pk in wanted if pk not in queued]
    for pk in missing:
        which.enqueue(pk)
    return len(missing)


def forget_successful(paths: Any, before: Any = None) -> int:
    """Delete the successful runs of the tasks at ``paths`` finished before ``before`` (default:
    :data:`FORGET_AFTER` ago); how many."""
    from django_tasks.base import TaskResultStatus

    before = before or timezone.now() - FORGET_AFTER
    done = _results().filter(task_path__in=paths, status=TaskResultStatus.SUCCESSFUL, finished_at__lt=before)
    return int(done.delete()[0])


def reset_interrupted() -> int:
    """The tasks a killed worker left *running* back to *ready* (run again from the start); how many.
    Only while no worker runs (``arena serve``'s start)."""
    from django_tasks.base import TaskResultStatus

    return (
        _results()
        .filter(status=TaskResultStatus.RUNNING)
        .update(status=TaskResultStatus.READY, started_at=None)
    )
