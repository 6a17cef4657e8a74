"""The student's API is typed (issue 49): what mypy and an editor see is what a player imports.

``arena.sdk`` (Tute Cabrero), ``arena.parejas.sdk`` and ``arena.dos.sdk`` — with ``arena.cards``,
``arena.rules``, ``arena.engine`` and each game's ``rules`` and ``engine`` — are real modules that
re-export, with ``__all__``, the very objects of their homes under ``arena.games``. A fresh
``arena new`` player of every game, in both languages, imports only its game's public module and
passes ``mypy --strict``; so do the sample players.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena import games
from arena.cli import main
from tests.paths import ROOT

SAMPLES = ("sample_players", "sample_pairs", "sample_dos")

PUBLIC = {
    "arena.sdk": "arena.games.cabrero.sdk",
    "arena.cards": "arena.games.common.cards",
    "arena.rules": "arena.games.cabrero.rules",
    "arena.engine": "arena.games.cabrero.engine",
    "arena.parejas.sdk": "arena.games.parejas.sdk",
    "arena.parejas.rules": "arena.games.parejas.rules",
    "arena.parejas.engine": "arena.games.parejas.engine",
    "arena.dos.sdk": "arena.games.dos.sdk",
    "arena.dos.rules": "arena.games.dos.rules",
    "arena.dos.engine": "arena.games.dos.engine",
}
"""Each public module and the module whose names it re-exports."""


def mypy(*args: str | Path, cwd: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` over ``args``; folders of ``player.py`` files are told apart by their path.

    ``arena`` itself is followed silently, as an installed package is: run from a checkout, mypy
    would find the source folder beside the samples and hold the package to ``--strict`` too."""
    command = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent"]
    command += ["--explicit-package-bases", "--cache-dir", str(cache)]
    return subprocess.run(
        [str(a) for a in (*command, *args)], cwd=cwd, capture_output=True, text=True, timeout=600
    )


@pytest.mark.parametrize(("public", "home"), PUBLIC.items())
def test_a_public_module_is_a_real_module_that_re_exports_its_homes_objects(public: str, home: str) -> None:
    module, origin = importlib.import_module(public), importlib.import_module(home)
    assert module is not origin and module.__name__ == public  # no sys.modules alias
    assert module.__all__ and len(set(module.__all__)) == len(module.__all__)
    for name in module.__all__:
        assert getattr(module, name) is getattr(origin, name), name
    # Every name a module defines is in __all__ (nothing public is left out by accident).
    defined = {n for n in vars(module) if not n.startswith("_")}
    assert defined == set(module.__all__)


def test_every_game_names_its_public_sdk_first_and_hints_with_it() -> None:
    for spec in games.specs():
        public = spec.sdk_modules[0]
        assert public in PUBLIC and not public.startswith("arena.games."), spec.name
        assert spec.player_hint.startswith(public + "."), spec.name
        player = spec.player_hint.rpartition(".")[2]
        assert player in importlib.import_module(public).__all__


def arena_imports(source: str) -> set[str]:
    """The ``arena`` modules a file imports."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m.split(".")[0] == "arena"}


def new_players(parent: Path) -> list[Path]:
    """A fresh ``arena new`` player of every game, in Spanish and in English, under ``parent``."""
    folders = []
    for spec in games.specs():
        for lang in ("es", "en"):
            where = parent / f"{spec.short}_{lang}"
            args = ["--lang", lang, "new", "ana", "--dir", str(where), "--game", spec.short]
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 0, result.output
            folders.append(where / "ana")
    return folders


def test_a_new_player_imports_only_its_games_public_module(tmp_path: Path) -> None:
    for folder in new_players(tmp_path):
        short = folder.parent.name.rpartition("_")[0]
        source = (folder / "player.py").read_text(encoding="utf-8")
        assert arena_imports(source) == {games.spec(short).sdk_modules[0]}, source


def test_a_new_player_of_every_game_passes_mypy_strict(tmp_path: Path) -> None:
    players = tmp_path / "players"
    new_players(players)
    done = mypy(*sorted(p.name for p in players.iterdir()), cwd=players, cache=tmp_path / "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"in {2 * len(games.specs())} source files" in done.stdout


def test_the_sample_players_pass_mypy_strict(tmp_path: Path) -> None:
    """The same check as ``.ci/run``'s, with the project's mypy settings (``pyproject.toml``)."""
    done = mypy(*SAMPLES, cwd=ROOT, cache=tmp_path / "mypy")
    assert done.returncode == 0, done.stdout + done.stderr
