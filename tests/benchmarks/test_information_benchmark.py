"""``benchmarks/experiments/information.py``, run as a script (tests import nothing from benchmarks/):
its ``--check`` finds that maestro told some true hands is told exactly those, in the bazas asked."""

from __future__ import annotations

import re

from tests.benchmark_scripts import benchmark_lines, run_benchmark


def test_maestro_told_some_true_hands_is_told_exactly_those_in_the_bazas_asked() -> None:
    out = benchmark_lines("experiments/information.py", "--check")
    assert out[0] == "check: reveal items parse as whose hands in which bazas", out
    assert out[-1] == "check: maestro told some true hands is told exactly those, in the bazas asked", out
    told = {
        m[1]: (int(m[2]), int(m[3]))
        for m in map(re.compile(r"check: (\S+): (\d+) hands told, (\d+) dealt").fullmatch, out)
        if m
    }
    assert set(told) == {"all", "a_mas@3-", "random_legal@1-2"}, out
    assert told["all"][1] == 0  # every opponent in every baza: the omniscient bound
    assert all(n_told > 0 for n_told, _ in told.values())
    assert told["a_mas@3-"][1] > 0 and told["random_legal@1-2"][1] > 0  # the rest is dealt, not told


def test_a_bad_run_stops_with_the_usage() -> None:
    done = run_benchmark("experiments/information.py", check=False)
    assert done.returncode == 2 and "give --reveal ITEMS, --posterior or --check" in done.stderr
