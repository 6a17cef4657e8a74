"""The one Django of the ``arena serve`` tests: configured once per session, for every test_serve* module.

Django can be set up only once per process, so the serve test modules share one service folder and
one database. This folder's conftest configures Django (``boot.configure`` + ``boot.migrate``)
before the first test of any ``tests/serve/test_serve*.py`` module runs, whatever the order the
modules run in, alone or together. A module of yours:

* asks for the folder with the session fixture ``serve_dir`` (the service's folder, ``settings.DIR``:
  ``uploads/`` and the compiled catalog are there) — or asks for nothing: the setup is automatic;
* gives its rows a prefix of its own (``PREFIX = "final-test-"`` for the usernames) and deletes what it
  made at its end, so that the other modules see an empty database; for instance::

      @pytest.fixture(scope="module", autouse=True)
      def rows(serve_dir: Path) -> Iterator[None]:
          yield
          get_user_model().objects.filter(username__startswith=PREFIX).delete()  # and their ladders

  (students, invitations and versions go with their user; audit rows and ladders do not;
  :func:`tests.serve.support.clean_up` deletes them all);
* imports Django only inside its tests and fixtures (``pytest.importorskip("django")`` at the top
  if it needs Django everywhere): without the ``serve`` extra the fixture skips.

With ``DATABASE_URL`` set (``postgresql://user:pass@host:port/db``, as ``.ci/postgres`` sets it) the
tests use PostgreSQL: the fixture creates a database of its own on that server (a unique name, with
the rights of the URL's role: it must be allowed to create databases), points Django at it and drops
it at the end, so no two runs see each other's rows. Without it, SQLite in the folder.
"""

from __future__ import annotations

import importlib.util
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import pytest

SERVE_MODULES = "test_serve"
"""The test modules whose names start so get Django configured before their first test."""


@pytest.fixture(scope="session")
def serve_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Django configured and migrated once for the session; the service's folder."""
    pytest.importorskip("django")
    url = os.environ.get("DATABASE_URL")
    if not url:
        yield _configure(tmp_path_factory)
        return
    with pytest.MonkeyPatch.context() as env:
        name = f"arena_test_{uuid.uuid4().hex[:12]}"
        _create(url, name)
        try:
            env.setenv("DATABASE_URL", _with_name(url, name))
            yield _configure(tmp_path_factory)
        finally:
            from django.db import connections

            connections.close_all()  # this thread's; a test's stray threads are forced out by the drop
            _drop(url, name)


@pytest.fixture(scope="module", autouse=True)
def _serve_module(request: pytest.FixtureRequest) -> None:
    """Set Django up before any fixture of a test_serve* module (they may need the database)."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    if module.startswith(SERVE_MODULES) and importlib.util.find_spec("django") is not None:
        request.getfixturevalue("serve_dir")


def _configure(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from arena.serve import boot

    folder = boot.configure(tmp_path_factory.mktemp("serve"))
    boot.migrate()
    from django.test.utils import override_settings

    # Passwords hashed with MD5 here, not with the service's Argon2id (20 ms of CPU a password):
    # no test here is about the hash but test_serve_passwords (which sets the service's own list),
    # and the lockout's counts the hashes made. The browser tests' server, a process of its own,
    # keeps the service's hashers.
    override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()
    # live.json looks at once whether its answer changed (the service waits 2 s between looks:
    # test_serve_watch's test_live_json_is_not_looked_at_again_within_live_fresh_s)
    override_settings(LIVE_FRESH_S=0).enable()
    return folder


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
