"""``benchmarks/experiments/regret.py``, run as a script (tests import nothing from benchmarks/): its
``--check`` finds that variants read as maestro's settings, the judge rates every candidate, and the
regret of a choice is its loss rate above the picked best's (and ``fuerte:50`` is no variant)."""

from __future__ import annotations

from tests.benchmark_scripts import benchmark_lines


def test_variants_the_regret_and_the_judge_hold() -> None:
    out = benchmark_lines("experiments/regret.py", "--check")
    assert out == [
        "check: variants read as maestro's settings and search on a copy",
        "check: the regret of a choice is its rate above the picked best's",
        "check: the judge rated every candidate of 6 real positions",
        "check: variants, regret and the judge hold",
    ]
