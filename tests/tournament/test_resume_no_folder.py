"""``arena tournament --resume DIR`` on a folder that is not there: a torneo interrupted at start-up
(Ctrl-C before its store was made) removes the folder it made, and the error says what to do."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli.torneo import tournament


def test_resume_of_a_folder_that_is_not_there_says_to_run_the_command_again(tmp_path: Path) -> None:
    out = tmp_path / "results" / "curso"
    result = CliRunner().invoke(tournament, ["--resume", str(out)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == [
        f"Error: {out}: no existe esa carpeta; un torneo interrumpido antes de empezar no guardó nada: "
        "corré de nuevo el comando que lo empezó, sin --resume"
    ]
    assert not out.exists()


def test_resume_of_a_folder_that_is_not_there_in_english(tmp_path: Path) -> None:
    out = tmp_path / "curso"
    result = CliRunner().invoke(tournament, ["--resume", str(out), "--lang", "en"])
    assert result.exit_code == 1
    assert "no such folder; a torneo interrupted before it began saved nothing" in result.output
    assert "without --resume" in result.output
