"""Fixtures of the containment tests: the staging folder an unprivileged uid can enter, and a machine
kept busy by other processes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def stage() -> Iterator[Path]:
    """A fresh folder under /tmp that an unprivileged uid can enter (0755); removed afterwards."""
    root = Path(tempfile.mkdtemp(prefix="tute-containment-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def busy_machine() -> Iterator[None]:
    """Both cores (and more) kept busy by other processes for the test's duration."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(6)]
    try:
        yield
    finally:
        for p in spinners:
            p.kill()
            p.wait()
