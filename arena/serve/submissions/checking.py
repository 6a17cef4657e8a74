"""A version's check: ``arena check`` against the samples, in the sandbox.

Run by a worker of the queue ``checks`` (:func:`arena.serve.submissions.tasks.check_version`, enqueued
when an upload is committed), ``settings.CHECKERS`` at a time."""

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


def shown_to_student(report: str, folder: Path, service: Path) -> str:
    """``report`` without the server's paths: the player's folder named as the student named it
    (``jugador/bot.py``), anything else under the service's folder as ``DIR``."""
    return report.replace(f"{folder.parent}/", "").replace(str(service), "DIR")


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
        if version.status != Version.CHECKING:  # checked meanwhile (a task of it run twice)
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
        version.report = shown_to_student("\n".join(str(line) for line in lines), folder, Path(settings.DIR))
        version.save(update_fields=["status", "report"])
    finally:
        connection.close()
