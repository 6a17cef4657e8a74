"""Helpers of the ``arena serve`` test modules: logged-in clients, clean versions (the Django they
share: this folder's ``conftest.py``), and a free port and whether one answers (for the tests that
start a real server)."""

from __future__ import annotations

import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def logged_in(username: str | None, staff: bool = False, csrf: bool = False) -> Any:
    """A Django test client logged in as ``username`` (the user made when new, staff if ``staff``);
    not logged in when None or empty; checking CSRF tokens when ``csrf``."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client(enforce_csrf_checks=csrf)
    if username:
        users = get_user_model()
        user = users.objects.filter(username=username).first()
        if user is None:
            user = users.objects.create_user(username, is_staff=staff)
        client.force_login(user)
    return client


def clean_version(
    folder: Path, username: str, display_name: str, ladder: Any, player: Path, **student: str
) -> Any:
    """A new clean version of ``username``'s (the user and the student made when new, with
    ``display_name`` and the ``student`` fields), of ``ladder``, whose folder is a copy of the
    player folder ``player`` under the service ``folder``'s uploads, as an upload leaves it."""
    import shutil

    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.submissions.models import Version

    user, _new = get_user_model().objects.get_or_create(username=username)
    found, _new = Student.objects.get_or_create(user=user, defaults={"display_name": display_name, **student})
    number = found.versions.count() + 1
    home = folder / "uploads" / str(found.pk) / str(number) / "player" / player.name
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(player, home, ignore=shutil.ignore_patterns("__pycache__"))
    return Version.objects.create(
        student=found, ladder=ladder, number=number, folder=str(home), status=Version.CLEAN
    )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (just now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _worker(queues: tuple[str, ...], batch: bool, interval: float = 0.2, max_tasks: int | None = None) -> Any:
    """django-tasks-db's worker (``db_worker``'s) of ``queues``, not started, its signals untouched."""
    from django_tasks_db.management.commands.db_worker import Worker

    return Worker(
        queue_names=list(queues),
        interval=interval,
        batch=batch,
        backend_name="default",
        startup_delay=False,
        max_tasks=max_tasks,
        worker_id=f"test-{uuid.uuid4().hex[:8]}",
        excluded_queue_names=[],
    )


def run_tasks(*queues: str, most: int | None = None) -> int:
    """Run here, one after another, the tasks ready in ``queues`` (as ``db_worker --batch``) until
    none is (or ``most`` ran); how many ran."""
    worker = _worker(queues, batch=True, max_tasks=most)
    worker.run()
    return int(worker._run_tasks)


@contextmanager
def task_worker(*queues: str) -> Iterator[Any]:
    """A worker of ``queues`` in a thread of the test process while the block runs (then stopped,
    its task finished first)."""
    from django.db import connection

    worker = _worker(queues, batch=False)

    def run() -> None:
        try:
            worker.run()
        finally:
            connection.close()

    thread = threading.Thread(target=run, name="tasks-" + ",".join(queues), daemon=True)
    thread.start()
    try:
        yield worker
    finally:
        worker.running = False
        thread.join(300)
        assert not thread.is_alive()
