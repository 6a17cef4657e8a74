"""``benchmarks/performance/engine.py``, run as a script (tests import nothing from benchmarks/): its
``--check`` finds that its two playout loops share out every point, and its lines keep their form."""

from __future__ import annotations

import re

from tests.benchmark_scripts import benchmark_lines

LOOPS = ("bare loop", "search playouts")


def test_both_playouts_share_out_every_point() -> None:
    """120 card points and the 10 de última, plus 20 or 40 a canto (at three players less the card
    left out of the deal), in more than 180 of 200 manos at each size (a tute stops a mano short)."""
    out = benchmark_lines("performance/engine.py", "--check")
    assert out[-1] == "check: both loops share out every point", out
    line = re.compile(
        r"(bare loop|search playouts), (\d) players: every point shared out in (\d+) of 200 manos"
    )
    counts = {(m[1], int(m[2])): int(m[3]) for m in map(line.fullmatch, out[:-1]) if m}
    assert set(counts) == {(loop, n) for loop in LOOPS for n in (3, 4, 5, 6)}, out
    assert all(full > 180 for full in counts.values()), out


def test_the_benchmark_prints_its_ratios() -> None:
    out = benchmark_lines("performance/engine.py", "--seconds", "0.6", "--slice", "0.1")
    assert re.fullmatch(r"manos/s: \d+; bare loop: \d+; ratio: \d+\.\d\d×", out[-1]), out
    assert re.fullmatch(
        r"search playouts \(Mano\.play, unchecked\): manos/s: \d+; ratio to the bare loop: \d+\.\d\d×",
        out[-2],
    ), out
