"""``benchmarks/experiments/search_time.py``, run as a script (tests import nothing from benchmarks/):
each variant's searched moves are timed, the collector's share counted, and the rollouts per ms
compared in the same run; a bad variant stops before any partido, with one line."""

from __future__ import annotations

import re

import pytest

from tests.benchmark_scripts import benchmark_lines, run_benchmark

LINE = re.compile(
    r"(?P<name>\S+): (?P<moves>\d+) moves searched; ms a move median \d+, p95 \d+, max \d+, over 310: \d+; "
    r"garbage collector (?P<gc>\d+\.\d)% of the move time; rollouts per ms of search (?P<rate>\d+\.\d\d)"
)


def test_each_variant_times_its_searched_moves_and_the_collector() -> None:
    variants = "maestro:6,maestro:6+pause_gc=0"
    out = benchmark_lines(
        "experiments/search_time.py",
        "--variants",
        variants,
        "--size",
        "3",
        "--deals",
        "1",
        "--first-seed",
        "1",
    )
    assert (
        out[0]
        == "search time: 3 players, deals 1-1 in every rotation, variants maestro:6, maestro:6+pause_gc=0"
    )
    paused, collecting = (LINE.fullmatch(line) for line in out[1:3])
    assert paused and collecting, out
    assert (paused["name"], collecting["name"]) == ("maestro:6", "maestro:6+pause_gc=0")
    for times in (paused, collecting):
        assert int(times["moves"]) > 10 and float(times["rate"]) > 0
    assert paused["gc"] == "0.0"  # nothing collected while a search of its runs
    assert re.fullmatch(
        r"rollouts per ms of search, maestro:6\+pause_gc=0 / maestro:6: \d+\.\d\d×", out[-1]
    ), out


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        ("nadie", "--variants: nadie: "),
        ("maestro:x", "--variants: maestro:x: "),
        ("maestro:5+nope=2", "maestro:5+nope=2: maestro has no setting 'nope'"),
    ],
)
def test_a_bad_variant_stops_before_any_partido_with_one_line(variant: str, said: str) -> None:
    done = run_benchmark("experiments/search_time.py", "--variants", f"maestro,{variant}", check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr
