"""The proof game's tests: ``nim_game`` importable, and registered in this process through its entry
point (as an installed distribution would be) for the tests of this folder only."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import games
from tests.newgame import register

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True, scope="module")
def nim_registered(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The entry point on ``sys.path`` and the registry read again; both undone afterwards."""
    site = str(register.dist_info(tmp_path_factory.mktemp("site")))
    sys.path.insert(0, site)
    games.specs.cache_clear()
    try:
        yield
    finally:
        sys.path.remove(site)
        games.specs.cache_clear()
