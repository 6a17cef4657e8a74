"""Running a benchmark script from a test: tests import nothing from ``benchmarks/`` (issue 49).

A test of a benchmark runs it as a subprocess (its ``--check`` mode, where it has one, checks its
own instrument) and reads the lines it prints. See benchmarks/README.md.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def run_benchmark(script: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``python benchmarks/<script> ARGS`` from the checkout (``script``: e.g. ``performance/engine.py``),
    with this checkout's ``arena`` first on the path; its output as text."""
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        check=check,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def benchmark_lines(script: str, *args: str) -> list[str]:
    """The lines a benchmark run prints on its standard output (it must exit 0)."""
    done = run_benchmark(script, *args, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()
