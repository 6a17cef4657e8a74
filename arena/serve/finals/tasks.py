"""The finals' background work (:mod:`arena.serve.tasks`): a final torneo, on the queue ``finals``."""

from __future__ import annotations

from django_tasks import task

from arena.serve.tasks import FINALS, enqueue_missing


@task(queue_name=FINALS)
def run_final(final_id: int) -> None:
    """Play final ``final_id`` to its end (:func:`arena.serve.finals.final.run_final`)."""
    from arena.serve.finals import final

    final.run_final(final_id)


def resume() -> int:
    """A task enqueued for every final left *queued* or *running* that has none (its ``run_final``
    plays on with ``arena tournament --resume`` when its store exists); how many."""
    from arena.serve.finals.models import FinalTorneo

    unfinished = FinalTorneo.objects.filter(status__in=(FinalTorneo.QUEUED, FinalTorneo.RUNNING))
    return enqueue_missing(run_final, unfinished.order_by("id").values_list("pk", flat=True))
