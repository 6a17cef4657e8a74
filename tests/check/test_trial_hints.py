"""What ``arena check`` says to a new user's first mistakes: a program not built, and a renuncio's
reply timed like any other (trial reports)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena import i18n
from arena.cli import main
from arena.referee import diagnose
from tests.paths import BOTS

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

FAST = ["--move-ms", "300", "--init-ms", "3000"]


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_a_java_player_not_compiled_is_told_to_run_javac(tmp_path: Path) -> None:
    r = arena("check", BOTS / "trial_java_unbuilt", "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code == 1, r.output
    assert "✗ hello: Error: Could not find or load main class Bot" in r.output
    assert "pista: ¿compilaste? javac Bot.java (en la carpeta del jugador)" in r.output
    with i18n.speaking("en"):
        assert (
            i18n._("did you compile it? {javac} (in the player's folder)").format(javac="javac Bot.java")
            == "did you compile it? javac Bot.java (in the player's folder)"
        )


def test_a_c_player_not_built_is_told_how_to_build_it(tmp_path: Path) -> None:
    r = arena("check", BOTS / "trial_c_unbuilt", "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code != 0
    assert "no se encontró el comando './bot' — ¿compilaste? p. ej. cc -O2 -o bot bot.c" in r.output


def test_the_build_command_is_guessed_only_for_a_missing_relative_program(tmp_path: Path) -> None:
    assert diagnose.build_command(tmp_path, "./bot") is None  # no source: nothing to suggest
    (tmp_path / "main.cpp").write_text("int main() {}\n")
    assert diagnose.build_command(tmp_path, "./bot") == "c++ -O2 -o bot main.cpp"
    (tmp_path / "Makefile").write_text("bot:\n")
    assert diagnose.build_command(tmp_path, "./bot") == "make"
    assert diagnose.build_command(tmp_path, "java") is None  # a program on PATH
    assert diagnose.build_command(tmp_path, "/usr/bin/bot") is None


def test_java_not_built_reads_the_jvm_words() -> None:
    assert diagnose.java_not_built("Error: Could not find or load main class Bot\n") == "javac Bot.java"
    assert diagnose.java_not_built("Caused by: java.lang.ClassNotFoundException: app.Main\n") == (
        "javac Main.java"
    )
    assert diagnose.java_not_built('Exception in thread "main" java.lang.NullPointerException\n') is None


def test_a_renuncio_reply_counts_in_the_time_per_play(tmp_path: Path) -> None:
    # seed 3: its first play is already a renuncio (it had no timed play at all before the fix)
    r = arena("check", BOTS / "renuncio", "--partidos", "1", "--seed", "3", "--out", tmp_path, *FAST)
    assert "descalificado: renuncio — " in r.output
    assert "sin jugadas" not in r.output
    assert "Reloj por jugada (1 jugada)" in r.output
