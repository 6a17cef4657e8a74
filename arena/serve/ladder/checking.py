"""A version's check in the background: ``arena check`` against the samples, in the sandbox."""

from __future__ import annotations

import threading
from pathlib import Path


def check_version(version_id: int) -> None:
    """Check the player of version ``version_id`` and record its status and report."""
    from django.conf import settings
    from django.db import close_old_connections, connection

    from arena.referee.check import check_player
    from arena.serve.ladder.models import Version

    close_old_connections()
    try:
        version = Version.objects.get(pk=version_id)
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


def start(version_id: int) -> threading.Thread:
    """Check version ``version_id`` in a thread of its own."""
    thread = threading.Thread(
        target=check_version, args=(version_id,), name=f"check-{version_id}", daemon=True
    )
    thread.start()
    return thread
