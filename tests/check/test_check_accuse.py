"""``arena check --renuncio accuse``: a renuncio nobody accuses is no fault, yet the student is told."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from tests.paths import ROOT

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

WARNING = re.compile(r"^Aviso: tu jugador hizo (\d+) renuncios? \(", re.M)


def _check(sample: str, out: Path) -> str:
    args = ["check", str(ROOT / "sample_players" / sample), "--renuncio", "accuse", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--seed", "7", "--partidos", "3"], catch_exceptions=False)
    assert result.exit_code == 0, result.output  # under accuse a renuncio is no fault
    assert "Resultado: LIMPIO" in result.output
    return result.output


def test_unaccused_renuncios_are_counted_in_one_warning(tmp_path: Path) -> None:
    output = _check("tramposo", tmp_path)  # it cheats where nobody accuses: the check's opponents
    found = WARNING.findall(output)
    assert len(found) == 1, output
    marked = sum(
        text.count('"renuncio":true')
        for text in (p.read_text(encoding="utf-8") for p in tmp_path.rglob("partido-*.jsonl"))
    )
    assert int(found[0]) >= 1
    assert int(found[0]) <= marked  # its own, never the opponents'


def test_a_player_of_legal_cards_gets_no_such_warning(tmp_path: Path) -> None:
    assert not WARNING.search(_check("vigilante", tmp_path))
