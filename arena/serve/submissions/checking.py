"""A version's check in the background: ``arena check`` against the samples, in the sandbox."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

log = logging.getLogger(__name__)

_turns: threading.BoundedSemaphore | None = None
_turns_made = threading.Lock()


def _checkers() -> threading.BoundedSemaphore:
    """The turns of the checks: ``settings.CHECKERS`` at once."""
    global _turns
    from django.conf import settings

    with _turns_made:
        if _turns is None:
            _turns = threading.BoundedSemaphore(max(1, settings.CHECKERS))
        return _turns


def check_version(version_id: int) -> None:
    """Check the player of version ``version_id`` (when a turn is free) and record its status and report."""
    with _checkers():
        _check(version_id)


def _check(version_id: int) -> None:
    from django.conf import settings
    from django.db import close_old_connections, connection

    from arena.check.checker import check_player
    from arena.serve.submissions.models import Version

    close_old_connections()
    try:
        version = Version.objects.get(pk=version_id)
        if version.status != Version.CHECKING:  # checked meanwhile (the watcher saw it just before)
            return
        folder = Path(version.folder)
        lines: list[str] = []
        clean = False
        try:
            report = check_player(
                folder,
                partidos=settings.CHECK_PARTIDOS,
                say=lines.append,
                out=Path(settings.DIR) / "uploads" / str(version.student_id) / str(version.number) / "check",
                **({"game": version.ladder.game} if version.ladder_id else {}),
            )
            clean = report.clean
        except Exception as exc:  # the player cannot run, the machine cannot check: the report says which
            lines.append(str(exc))
        version.status = Version.CLEAN if clean else Version.BROKEN
        version.report = "\n".join(str(line) for line in lines)
        version.save(update_fields=["status", "report"])
    finally:
        connection.close()


def resume_checks() -> list[threading.Thread]:
    """Check again the versions a stopped server left *checking*; the checks' threads."""
    from arena.serve.submissions.models import Version

    pending = list(
        Version.objects.filter(status=Version.CHECKING)
        .exclude(folder="")
        .order_by("id")
        .values_list("pk", flat=True)
    )
    return [start(version_id) for version_id in pending]


WATCH_SECONDS = 1.0
"""How often the worker process looks for versions to check."""


def watch(stop: threading.Event) -> None:
    """Check every version left *checking* (a new upload, or one a stopped server left) until
    ``stop`` is set: the worker process's checker, ``settings.CHECKERS`` at a time."""
    from django.db import close_old_connections

    from arena.serve.submissions.models import Version

    started: dict[int, threading.Thread] = {}
    while not stop.is_set():
        try:
            close_old_connections()
            pending = Version.objects.filter(status=Version.CHECKING).exclude(folder="").order_by("id")
            for version_id in pending.values_list("pk", flat=True):
                if version_id not in started or not started[version_id].is_alive():
                    started[version_id] = start(version_id)
        except Exception:  # the database went away for a moment: tried again
            log.exception("checks")  # not shown
        stop.wait(WATCH_SECONDS)


def watch_in_thread(stop: threading.Event) -> threading.Thread:
    """:func:`watch` in a daemon thread of its own."""
    thread = threading.Thread(target=watch, args=(stop,), name="checks", daemon=True)
    thread.start()
    return thread


def start(version_id: int) -> threading.Thread:
    """Check version ``version_id`` in a thread of its own."""
    thread = threading.Thread(
        target=check_version, args=(version_id,), name=f"check-{version_id}", daemon=True
    )
    thread.start()
    return thread
