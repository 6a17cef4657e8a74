"""The demo torneo (``arena tournament`` with no folder and only the sample players): a budget per
move that keeps it to about a minute, said on screen; any other torneo keeps its limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.cli import torneo
from arena.referee.players import find_player
from tests.paths import ROOT


def test_the_sample_players_alone_get_the_demo_budget_said_on_screen(
    capsys: pytest.CaptureFixture[str],
) -> None:
    specs = [find_player(ROOT / "sample_players" / n) for n in ("a_mas", "fuerte", "random_legal")]
    assert torneo._demo_move_ms(specs, ROOT / "sample_players", 1000) == torneo.DEMO_MOVE_MS
    said = capsys.readouterr().out
    assert "100 ms de CPU por jugada" in said and "piensan 30 ms" in said and "--move-ms 1000" in said


def test_a_torneo_with_any_other_player_keeps_its_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mine = tmp_path / "ana"
    mine.mkdir()
    (mine / "player.py").write_text((ROOT / "sample_players" / "a_mas" / "player.py").read_text())
    specs = [find_player(ROOT / "sample_players" / "a_mas"), find_player(mine)]
    assert torneo._demo_move_ms(specs, ROOT / "sample_players", 1000) == 1000
    assert capsys.readouterr().out == ""


def test_the_demo_partido_runs_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``arena demo`` outside the checkout: the samples beside (or inside) the package."""
    from click.testing import CliRunner

    from arena.cli import main

    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(main, ["demo", "--seed", "3", "--out", "d"], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert (tmp_path / "d" / "partido-1.jsonl").is_file() and not (tmp_path / "sample_players").exists()
