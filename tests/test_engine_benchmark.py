"""``benchmarks/engine.py``: its three loops play real manos, and its output lines keep their form."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.engine import bare_mano, playout_mano  # noqa: E402


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_both_playouts_share_out_every_point(n: int) -> None:
    """120 card points and the 10 de última, plus 20 or 40 a canto (at three players less the card
    left out of the deal); a tute stops a mano short, and is rare."""
    rng = random.Random(n)
    left_out = (0, 2, 3, 4, 10, 11) if n == 3 else (0,)
    for play in (bare_mano, playout_mano):
        full = 0
        for _ in range(200):
            scores = [s for s in play(rng, n) if s is not None]
            assert len(scores) == min(n, 5)
            extra = sum(scores) - 130
            full += any(extra + p >= 0 and (extra + p) % 20 == 0 for p in left_out)
        assert full > 180, play.__name__


def test_the_benchmark_prints_its_ratios() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "engine.py"), "--seconds", "0.6", "--slice", "0.1"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout.splitlines()
    assert re.fullmatch(r"manos/s: \d+; bare loop: \d+; ratio: \d+\.\d\d×", out[-1]), out
    assert re.fullmatch(
        r"search playouts \(Mano\.play, unchecked\): manos/s: \d+; ratio to the bare loop: \d+\.\d\d×",
        out[-2],
    ), out
