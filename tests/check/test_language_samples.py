"""The samples in other languages (``sample_languages/``): each is built in a copy, as its README
says, and ``arena check`` finds it clean under the default limits and containment (bubblewrap with
the syscall filter), every card of it from the request's ``legal``. The repository's folders are
never built in: the build outputs go to the test's own copy."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.tournament import entrants
from tests.paths import ROOT

LANGUAGES = ROOT / "sample_languages"

SAMPLES = {
    # folder: (the tools it needs, the build command its README gives)
    "java_basico": (("javac", "java"), ["javac", "Bot.java"]),
    "c_basico": (("cc",), ["cc", "-O2", "-o", "bot", "bot.c"]),
}
ARTEFACTS = ("*.class", "bot")
"""What a build writes (never copied from the repository's folder, never written there)."""

BUILD_TIMEOUT_S = 120


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def built(name: str, dest: Path) -> Path:
    """A copy of sample ``name`` in ``dest``, built there as its README says (skips without the toolchain)."""
    tools, build = SAMPLES[name]
    lacking = [t for t in tools if shutil.which(t) is None]
    if lacking:
        pytest.skip(f"{name} needs {', '.join(lacking)} on PATH to build and run")
    folder = dest / name
    shutil.copytree(LANGUAGES / name, folder, ignore=shutil.ignore_patterns(*ARTEFACTS))
    done = subprocess.run(build, cwd=folder, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
    assert done.returncode == 0, f"{' '.join(build)} failed:\n{done.stdout}{done.stderr}"
    return folder


def replays(out: Path) -> list[list[dict[str, object]]]:
    """The replays ``arena check`` wrote to ``out``, each as its list of lines."""
    files = sorted(out.glob("partido-*.jsonl"))
    assert files, f"no replay in {out}"
    return [[json.loads(line) for line in f.read_text().splitlines() if line] for f in files]


def seat_of(replay: list[dict[str, object]], name: str) -> int:
    players = replay[0]["players"]
    assert isinstance(players, list)
    return next(p["seat"] for p in players if p["name"] == name)


def repository_files() -> set[Path]:
    return {p.relative_to(LANGUAGES) for p in LANGUAGES.rglob("*")}


@pytest.mark.usefixtures("run_token")  # starts player processes
@pytest.mark.parametrize("name", SAMPLES)
def test_a_language_sample_builds_and_checks_clean(name: str, tmp_path: Path) -> None:
    before = repository_files()
    folder = built(name, tmp_path / "build")
    out = tmp_path / "out"
    r = arena("check", folder, "--out", out)  # the default limits and --sandbox auto, as a student runs it
    assert r.exit_code == 0, r.output
    assert "Resultado: LIMPIO ✓" in r.output
    assert len(re.findall(r"^Partido \d: .* sin faltas$", r.output, re.M)) == 3
    assert re.search(r"CPU por jugada \(\d+ jugadas\): .* \(límite 1000 ms de CPU\)", r.output)
    for replay in replays(out):
        faults = [e for e in replay if e["type"] in ("disqualified", "penalized")]
        assert not faults, faults
        seat = seat_of(replay, name)
        assert [e for e in replay if e["type"] == "played" and e["seat"] == seat], "it played no card"
        assert replay[-1]["type"] == "partido_end"
    assert repository_files() == before, "the build wrote into the repository"


@pytest.mark.usefixtures("run_token")  # starts player processes
@pytest.mark.parametrize("name", SAMPLES)
def test_a_language_sample_plays_only_cards_of_legal(name: str, tmp_path: Path) -> None:
    """Under ``--renuncio accuse`` the referee accepts a renuncio and marks its ``played`` line: none
    of the sample's may carry the mark, and it answers the end-of-mano ``review`` requests."""
    folder = built(name, tmp_path / "build")
    out = tmp_path / "out"
    r = arena("check", folder, "--out", out, "--renuncio", "accuse", "--partidos", "2")
    assert r.exit_code == 0, r.output
    assert "Resultado: LIMPIO ✓" in r.output
    for replay in replays(out):
        seat = seat_of(replay, name)
        mine = [e for e in replay if e["type"] == "played" and e["seat"] == seat]
        assert mine and not [e for e in mine if e.get("renuncio")], mine
        assert not [e for e in replay if e["type"] in ("disqualified", "penalized")]


def test_the_language_samples_are_found_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beside the package in a checkout, inside it in a wheel (hatch_build.py ships every
    ``sample_*/``), like the other samples' folders."""
    monkeypatch.chdir(tmp_path)
    assert entrants.sample_folder("sample_languages") == LANGUAGES
    wheel = tmp_path / "site-packages" / "arena"
    shutil.copytree(LANGUAGES, wheel / "sample_languages", ignore=shutil.ignore_patterns(*ARTEFACTS))
    monkeypatch.setattr(entrants, "PACKAGE", wheel)
    found = entrants.sample_folder("sample_languages")
    assert found == wheel / "sample_languages"
    assert {p.name for p in found.iterdir() if p.is_dir()} >= set(SAMPLES)
    hook = (ROOT / "hatch_build.py").read_text()
    assert 'glob("sample_*")' in hook, "hatch_build.py no longer ships every sample_*/ folder"
