"""The one Django of the ``arena serve`` tests, under pytest-django: configured once per session.

Django can be set up only once per process, so the serve tests share one service folder and one
database. When pytest loads this conftest (only when it collects ``tests/serve``: the other tests never
import Django), :func:`pytest_configure` makes a temporary service folder and configures Django in it
(``arena.serve.boot.configure``: ``DJANGO_SETTINGS_MODULE=arena.serve.settings``, ``ARENA_SERVE_DIR``
the folder); pytest-django's ``django_db_setup`` (overridden here) migrates the database at the first
test that asks for it. A module of yours:

* marks the tests that touch the database, and pytest-django gives each a clean one:
  ``pytestmark = pytest.mark.django_db`` (or the ``db`` fixture) runs each test in a transaction
  rolled back at its end; ``@pytest.mark.django_db(transaction=True)`` (or ``transactional_db``)
  commits for real and empties every table at the test's end — for the tests whose rows must be
  seen from another thread or process (a waitress server in a thread, the ladder's workers, an
  upload's background check, a final's torneo, the worker process) or whose code closes its
  connection (``run_final``, the workers' loops: that would end the test's transaction). A test
  with neither cannot reach the database (pytest-django blocks it), so no row outlives its test:
  no prefixes, no deleting at a module's end;
* makes its rows in function-scoped fixtures (they run inside the test's transaction). A
  module-scoped fixture that must write rows (test_serve_watch's ladder, whose partido sandboxed
  players play once for twenty tests) takes ``django_db_blocker``, says why in a comment, and
  empties the tables at the module's end (``call_command("flush")``); files it writes under the
  folder stay for the module;
* asks for the folder with the session fixture ``serve_dir`` (``settings.DIR``: ``uploads/`` and the
  compiled catalog are there), and may use pytest-django's ``client``, ``admin_client``,
  ``settings``, ``mailoutbox`` and ``django_assert_max_num_queries`` fixtures;
* imports Django only inside its tests and fixtures (``pytest.importorskip("django")`` at the top if
  it needs Django everywhere): without the ``serve`` extra the fixtures skip.

At the end of every test that used the database this conftest also deletes the files the test
made under the folder's ``uploads/``, ``ladder/`` and ``finals/`` and clears Django's cache: SQLite
gives a rolled-back row's id again, and the next test's row must not find the old one's replay,
upload or cached answer. (The background work runs only in a test's own task worker, which ends
with the test: tests/serve/support.py's ``run_tasks``, ``task_worker``.) (An
in-process cache keyed by ids, as the standings' fits, is the module's to clear: test_serve_watch.)
The tests run in the order collected (pytest-django would move the database's tests first).

With ``DATABASE_URL`` set (``postgresql://user:pass@host:port/db``, as ``.ci/postgres`` sets it) the
tests use PostgreSQL: Django is pointed at a database of a unique name on that server, which
``django_db_setup`` creates (with the rights of the URL's role: it must be allowed to create
databases) and drops ``WITH (FORCE)`` at the end, so no two runs see each other's rows and a test's
stray threads cannot keep it. Without it, SQLite in the folder (``serve.sqlite3``: a file, so the
threads of a ``transaction=True`` test share it).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlunparse

import pytest

_STATE: dict[str, Any] = {}
"""What :func:`pytest_configure` did, for :func:`pytest_unconfigure` and the fixtures: ``folder``,
and with PostgreSQL ``url`` (the server's own database) and ``name`` (the tests')."""


def pytest_configure(config: pytest.Config) -> None:
    """Configure Django for the serve tests (once: pytest calls this when it loads this conftest)."""
    if "folder" in _STATE or importlib.util.find_spec("django") is None:
        return
    if importlib.util.find_spec("pytest_django") is None:
        raise pytest.UsageError("the serve tests need pytest-django: pip install '.[test]'")
    url = os.environ.get("DATABASE_URL")
    if url:
        _STATE["url"] = url
        _STATE["name"] = f"arena_test_{uuid.uuid4().hex[:12]}"
        # created by django_db_setup; subprocess servers of the tests inherit it
        os.environ["DATABASE_URL"] = _with_name(url, _STATE["name"])
    _STATE["folder"] = Path(tempfile.mkdtemp(prefix="arena-serve-tests-"))
    from arena.serve import boot

    boot.configure(_STATE["folder"])
    from django.test.utils import override_settings

    # Passwords hashed with MD5 here, not with the service's Argon2id (20 ms of CPU a password):
    # no test here is about the hash but test_serve_passwords (which sets the service's own list),
    # and the lockout's counts the hashes made. The browser tests' server, a process of its own,
    # keeps the service's hashers.
    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()
    # live.json looks at once whether its answer changed (the service waits 2 s between looks:
    # test_serve_watch's test_live_json_is_not_looked_at_again_within_live_fresh_s)
    override_settings(LIVE_FRESH_S=0).enable()


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = _STATE.pop("folder", None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    if "url" in _STATE:
        os.environ["DATABASE_URL"] = _STATE.pop("url")


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> Iterator[None]:
    """Keep the tests in the order collected: pytest-django moves the database's tests first (Django's
    order, for data that migrations make and a flush loses: ours make none), which would split a
    module (its module-scoped servers started twice) and move the serve tests ahead of the others."""
    order = {item.nodeid: i for i, item in enumerate(items)}
    yield
    items.sort(key=lambda item: order.get(item.nodeid, len(order)))


@pytest.fixture(scope="session")
def serve_dir() -> Path:
    """The service's folder (``settings.DIR``), Django configured; skips without Django."""
    pytest.importorskip("django")
    from django.conf import settings

    return Path(settings.DIR)


@pytest.fixture(scope="session", autouse=True)
def _database_blocked(django_db_blocker: Any) -> Iterator[None]:
    """No database outside the tests that ask for it. pytest-django blocks it when Django is set up
    before its own ``pytest_configure`` (``pytest tests/serve``); not when this conftest is loaded
    later, in the collection of a whole run."""
    if django_db_blocker is None or django_db_blocker.is_active:
        yield
        return
    with django_db_blocker.block():
        yield


@pytest.fixture(scope="session")
def django_db_setup(serve_dir: Path, django_db_blocker: Any) -> Iterator[None]:
    """The test database: the folder's SQLite file, or the uniquely named PostgreSQL database, made
    here and dropped at the end; migrated."""
    from arena.serve import boot

    if "url" in _STATE:
        _create(_STATE["url"], _STATE["name"])
    try:
        with django_db_blocker.unblock():
            boot.migrate()
        yield
    finally:
        if "url" in _STATE:
            from django.db import connections

            connections.close_all()  # this thread's; a test's stray threads are forced out by the drop
            _drop(_STATE["url"], _STATE["name"])


ROWS_FILES = ("uploads", "ladder", "finals")
"""The service folder's files that belong to rows (a version's upload, a partido's replay, a final's
torneo), named by their ids."""


@pytest.fixture(autouse=True)
def _rows_files(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a test that used the database, the files it made in the folder's :data:`ROWS_FILES`
    deleted with its rows: the ids of rolled-back rows are given again (SQLite), and a new row must
    not find an old one's files. (What a module-scoped fixture made before the test stays.)"""
    folder = _STATE.get("folder")
    before = _files(folder) if folder is not None else set()
    yield
    used = request.node.get_closest_marker("django_db") or {"db", "transactional_db"} & set(
        request.fixturenames
    )
    if not used or folder is None:
        return
    from django.core.cache import cache

    cache.clear()  # live.json's answers, the reset's and the uploads' counts: of rows now gone
    made = _files(folder) - before
    for path in made:
        if path.parent not in made:  # the topmost new ones, with what they hold
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


def _files(folder: Path) -> set[Path]:
    return {path for name in ROWS_FILES for path in (folder / name).rglob("*")}


def _with_name(url: str, name: str) -> str:
    """``url`` naming the database ``name`` instead of its own."""
    return urlunparse(urlparse(url)._replace(path="/" + name))


def _admin(url: str):  # type: ignore[no-untyped-def]
    """An autocommit connection to the URL's own database (CREATE/DROP DATABASE cannot run in a
    transaction)."""
    psycopg = pytest.importorskip("psycopg", reason="DATABASE_URL is set but psycopg is not installed")
    return psycopg.connect(url.replace("postgres://", "postgresql://", 1), autocommit=True)


def _create(url: str, name: str) -> None:
    with _admin(url) as db:
        db.execute(f'CREATE DATABASE "{name}"')


def _drop(url: str, name: str) -> None:
    with _admin(url) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
