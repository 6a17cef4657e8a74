"""What ``arena serve`` does at its start, before any worker runs: the background work a stopped or
killed server left, taken up again (docs/serve.md, *Background work*)."""

from __future__ import annotations


def resume(workers: int) -> dict[str, int]:
    """The interrupted tasks ready again (:func:`arena.serve.tasks.reset_interrupted`), then each app's
    own: the partidos left playing queued again and the ladder's ``workers`` players, a check for
    every version left *checking*, a final's task for every final left unfinished, each only when it
    has none (a worker stopped by force marks its task failed); what was done, counted."""
    from arena.serve.finals import tasks as finals
    from arena.serve.ladder import tasks as ladder
    from arena.serve.submissions import tasks as submissions
    from arena.serve.tasks import reset_interrupted

    done = {"tasks": reset_interrupted()}
    done["checks"] = submissions.resume()
    done["finals"] = finals.resume()
    done.update(ladder.resume(workers))
    return done
