"""Fixtures shared by the test modules."""

from __future__ import annotations

import signal
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

from arena import i18n
from tests.procs import TOKEN_VAR, kill_and_reap, leftover_players

# tests.torneos: the players and reference fixtures of the torneo tests, in several folders. A folder's
# own fixtures are in its conftest.py (tests/serve/: the one Django, ``serve_dir``; tests/containment/:
# the staging folder and the busy machine).
pytest_plugins = ["tests.torneos"]

# No time limit per example: on a loaded machine a fast example can still take long.
settings.register_profile("arena", deadline=None)
settings.load_profile("arena")

# Started in the background by a non-interactive shell, this process inherits SIGINT ignored, and
# so would the torneos the tests start and interrupt with Ctrl-C: make it interruptible again.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


SANDBOX_FIXTURES = frozenset({"run_token", "player_processes"})
"""A test whose fixtures include one of these starts player processes (``sandbox``, hence ``slow``)."""
BROWSER_FIXTURES = frozenset({"driver"})
"""A test whose fixtures include one of these drives a headless browser (``browser``, hence ``slow``)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Markers from each test's fixtures (their whole closure): ``sandbox`` (it starts player
    processes: :func:`run_token` or :func:`player_processes`), ``browser`` (a headless browser), and
    ``slow`` for both, so that ``pytest -m "not slow"`` is the fast tier (the rules, the engines, the
    results). Also ``slow``: the ``[thorough]`` runs of hypothesis tests (:func:`pytest_generate_tests`)
    and the few tests marked by hand, each with a comment saying why."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if fixtures & SANDBOX_FIXTURES:
            item.add_marker(pytest.mark.sandbox)
        if fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("sandbox") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A hypothesis test marked ``fast_examples(n)`` (itself or its module) that asks for more than ``n``
    examples is two: ``[fast]`` runs ``n`` of them, in the fast tier; ``[thorough]`` runs every example
    its settings ask for, and is ``slow``. Any other test runs as it is."""
    marker = metafunc.definition.get_closest_marker("fast_examples")
    if marker is None or not getattr(metafunc.function, "is_hypothesis_test", False):
        return
    (fast,) = marker.args
    full = _settings_of(metafunc.function)
    if full is not None and full.max_examples <= fast:
        return
    tiers = [pytest.param(fast, id="fast"), pytest.param(None, id="thorough", marks=pytest.mark.slow)]
    metafunc.parametrize("hypothesis_examples", tiers, indirect=True)


def _settings_of(test: Any) -> settings | None:
    """The settings a hypothesis test runs with: ``@given`` reads them from this attribute at each call."""
    return getattr(test, "_hypothesis_internal_use_settings", None)


@pytest.fixture(autouse=True)
def hypothesis_examples(request: pytest.FixtureRequest) -> Iterator[None]:
    """The ``[fast]`` run of a test marked ``fast_examples(n)``: its own settings, with ``n`` examples
    (:func:`pytest_generate_tests`). Every other test runs as it is."""
    fast = getattr(request, "param", None)
    full = _settings_of(request.function) if fast is not None else None
    if full is None:  # not a fast run (or hypothesis keeps its settings elsewhere now: all of them)
        yield
        return
    request.function._hypothesis_internal_use_settings = settings(full, max_examples=fast)
    try:
        yield
    finally:
        request.function._hypothesis_internal_use_settings = full


@pytest.fixture(scope="module")
def player_processes() -> None:
    """Asked for by a module-scoped fixture that starts player processes (a torneo played once for
    the module's tests): every test using that fixture is then marked ``sandbox`` and ``slow``."""


@pytest.fixture(autouse=True)
def spanish() -> Iterator[None]:
    """Every test starts in the default language, Spanish, whatever the shell's ARENA_LANG; a test
    that switches (``i18n.use("en")``, ``--lang en`` in process) cannot leak it to the next. (A
    module's fixture must not take this name: it would switch this one off for the module.)"""
    i18n.use(i18n.DEFAULT)
    yield
    i18n.use(i18n.DEFAULT)  # not "the one before": a module's fixture may have switched it before


@pytest.fixture
def run_token(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Mark this test's player processes; afterwards none may be alive (they are killed if so).

    Modules that start players use it for every test: ``pytestmark = pytest.mark.usefixtures("run_token")``.
    """
    token = uuid.uuid4().hex
    monkeypatch.setenv(TOKEN_VAR, token)
    monkeypatch.setenv("ARENA_PASS_ENV", TOKEN_VAR)  # through the players' clean environment
    yield token
    left = leftover_players(token)
    for pid in left:
        kill_and_reap(pid)
    assert not left, f"player processes left behind: {left}"
