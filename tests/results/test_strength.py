"""arena.results.strength: the reference field, the duplicate schedule, rates, the bootstrap, the gap."""

from __future__ import annotations

import math

import pytest

from arena.results.strength import (
    FIELD,
    DealResult,
    bootstrap,
    duplicate_schedule,
    gap_closed,
    gap_closed_interval,
    lost_per_100,
    reference_field,
    seating,
    subject_seat,
    table,
)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_the_field_fills_the_table_from_the_reference_players(size: int) -> None:
    field = reference_field(size)
    assert len(field) == size - 1
    assert set(field) <= set(FIELD)
    assert field[:2] == ("a_mas", "a_menos")
    assert table("yo", size) == ("yo", *field)


def test_a_table_of_two_is_refused() -> None:
    with pytest.raises(ValueError, match="no Tute Cabrero table"):
        reference_field(2)


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_the_duplicate_schedule_seats_every_entrant_in_every_seat_of_every_deal(size: int) -> None:
    schedule = duplicate_schedule(size, deals=3, first_deal=7)
    assert len(schedule) == 3 * size
    entrants = tuple(f"e{i}" for i in range(size))
    for deal in (7, 8, 9):
        rotations = [g.rotation for g in schedule if g.deal == deal]
        assert sorted(rotations) == list(range(size))
        for e in entrants:  # each entrant sits in each seat exactly once over the deal's rotations
            seats = sorted(seating(entrants, k).index(e) for k in rotations)
            assert seats == list(range(size))


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_the_subject_seat_is_where_the_rotation_puts_the_first_entrant(size: int) -> None:
    entrants = table("yo", size)
    for k in range(size):
        assert seating(entrants, k)[subject_seat(size, k)] == "yo"


def test_lost_per_100_and_its_interval() -> None:
    rate = lost_per_100(25, 100)
    assert rate.value == 25.0
    assert rate.lo < 25.0 < rate.hi
    assert str(rate) == f"25.0 [{rate.lo:.1f}, {rate.hi:.1f}]"
    assert math.isnan(lost_per_100(0, 0).value)


def test_gap_closed_of_known_numbers() -> None:
    assert gap_closed(42.0, 42.0, 14.0) == 0.0
    assert gap_closed(42.0, 14.0, 14.0) == 1.0
    assert gap_closed(42.2, 24.0, 14.2) == pytest.approx(0.65)
    assert gap_closed(40.0, 10.0, 20.0) == pytest.approx(1.5)  # better than the bound
    assert math.isnan(gap_closed(20.0, 10.0, 20.0))  # no gap to close


def test_the_bootstrap_interval_contains_the_point_estimate() -> None:
    samples = [float(x % 7) for x in range(50)]
    mean = sum(samples) / len(samples)
    lo, hi = bootstrap(samples, lambda s: sum(s) / len(s), draws=500, seed=3)
    assert lo <= mean <= hi
    assert lo < hi
    assert bootstrap(samples, lambda s: sum(s) / len(s), draws=500, seed=3) == (lo, hi)  # reproducible


def test_the_gap_interval_over_deals() -> None:
    deals = [DealResult(10 + d % 3, 24, 6 + d % 2, 24, 3 + d % 4, 24) for d in range(30)]
    x, lo, hi = gap_closed_interval(deals, draws=500)
    r = sum(d.random_lost for d in deals)
    s = sum(d.subject_lost for d in deals)
    o = sum(d.omniscient_lost for d in deals)
    assert x == pytest.approx((r - s) / (r - o))
    assert lo <= x <= hi
