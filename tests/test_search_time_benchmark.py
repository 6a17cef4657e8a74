"""benchmarks/search_time.py: each variant's searched moves are timed, the collector's share counted,
and the rollouts per ms compared in the same run."""

from __future__ import annotations

import pytest

from benchmarks.search_time import Times, check, report, run


def test_each_variant_times_its_searched_moves_and_the_collector() -> None:
    out = run(["maestro:6", "maestro:6+pause_gc=0"], 3, [1], 2002, progress=False)
    paused, collecting = out["maestro:6"], out["maestro:6+pause_gc=0"]
    for times in (paused, collecting):
        assert len(times.move_ms) > 10 and times.rollouts > 0 and times.search_ms > 0
        assert times.gc_ms <= sum(times.move_ms)
    assert paused.gc_ms == 0.0  # nothing collected while a search of its runs
    lines = report(out)
    assert lines[0].startswith("maestro:6: ") and "moves searched" in lines[0]
    assert lines[-1].startswith("rollouts per ms of search, maestro:6+pause_gc=0 / maestro:6: ")


def test_a_line_counts_the_moves_over_the_budget() -> None:
    times = Times(move_ms=[100.0, 305.0, 320.0, 400.0], gc_ms=50.0, rollouts=2000, search_ms=800.0)
    line = times.line("x")
    assert "4 moves searched" in line and "max 400" in line and "over 310: 2" in line
    assert "garbage collector 4.4% of the move time" in line
    assert times.rate == pytest.approx(2.5)
    assert Times().line("y") == "y: no move searched"


@pytest.mark.parametrize(
    ("variant", "said"),
    [
        ("nadie", "--variants: nadie: "),
        ("maestro:x", "--variants: maestro:x: "),
        ("maestro:5+nope=2", "maestro:5+nope=2: maestro has no setting 'nope'"),
    ],
)
def test_a_bad_variant_stops_before_any_partido_with_one_line(variant: str, said: str) -> None:
    with pytest.raises(SystemExit) as stopped:
        check(["maestro", variant], 2002)
    message = str(stopped.value)
    assert message.startswith(said) and "\n" not in message
