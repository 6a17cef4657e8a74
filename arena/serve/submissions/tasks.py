"""The submissions' background work (:mod:`arena.serve.tasks`): a version's check, on the queue ``checks``."""

from __future__ import annotations

from django_tasks import task

from arena.serve.tasks import CHECKS, enqueue_missing


@task(queue_name=CHECKS)
def check_version(version_id: int) -> None:
    """Check version ``version_id`` (:func:`arena.serve.submissions.checking.check_version`)."""
    from arena.serve.submissions import checking

    checking.check_version(version_id)


def resume() -> int:
    """A check enqueued for every version left *checking* that has none; how many."""
    from arena.serve.submissions.models import Version

    checking = Version.objects.filter(status=Version.CHECKING).exclude(folder="")
    return enqueue_missing(check_version, checking.order_by("id").values_list("pk", flat=True))
