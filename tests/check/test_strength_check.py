"""``arena check PLAYER --strength``: duplicate partidos against the reference field, the samples
beside it on the same deals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.check import strength as sc
from arena.cli import main
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"


def test_the_schedule_is_whole_deals_in_every_rotation() -> None:
    games = sc.schedule(10, 4)  # 10 partidos: three deals of four rotations
    assert len(games) == 12
    assert {(g.deal, g.rotation) for g in games} == {(d, k) for d in (1, 2, 3) for k in range(4)}
    assert len(sc.schedule(1, 6)) == 6


def test_every_rotation_seats_the_subject_somewhere_else() -> None:
    seats = {sc.strength.subject_seat(5, k) for k in range(5)}
    assert seats == set(range(5))
    for k in range(5):
        assert sc._rotated(["s", "a", "b", "c", "d"], k)[sc.strength.subject_seat(5, k)] == "s"


@pytest.mark.sandbox
def test_a_sample_measured_as_a_student_gets_its_own_figures_on_the_same_deals() -> None:
    """a_menos in its own process, in the sandbox, scores exactly what the a_menos sample scores
    in-process on the same deals: the two paths see the same cards and the same field."""
    games = sc.schedule(4, 4)
    mine = sc.measure_player(SAMPLES / "a_menos", SAMPLES, games, 4)
    theirs = sc.measure_sample("a_menos", SAMPLES, games, 4)
    assert mine.partidos == theirs.partidos == 4
    assert (mine.manos, mine.lost, mine.won) == (theirs.manos, theirs.lost, theirs.won)
    assert mine.manos > 0 and not mine.faults


@pytest.mark.sandbox
@pytest.mark.slow
def test_the_command_reports_the_player_beside_the_samples(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["check", str(SAMPLES / "random_legal"), "--strength", "--partidos", "3", "--table-size", "3"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Fuerza de random_legal: 3 partidos de 3" in out
    mine = re.search(r"random_legal: ([\d.]+) \[([\d.]+), ([\d.]+)\] manos perdidas cada 100", out)
    assert mine is not None and float(mine[2]) <= float(mine[1]) <= float(mine[3])
    beside = re.search(r"Los jugadores de ejemplo en los mismos repartos: (.*)", out)
    assert beside is not None
    figures = dict(item.rsplit(" ", 1) for item in beside[1].split("; "))
    assert {"random_legal", "a_menos", "a_mas", "fuerte"} <= set(figures)
    assert float(figures["random_legal"]) == float(mine[1])  # the same player, the same deals
    assert "Partidos: " in out  # the progress


def test_too_many_partidos_without_strength_is_one_line() -> None:
    result = CliRunner().invoke(main, ["check", str(SAMPLES / "a_mas"), "--partidos", "60"])
    assert result.exit_code == 2 and "como mucho 50 sin --strength" in result.output
