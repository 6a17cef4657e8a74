"""Intake: every folder accounted for, a submission that cannot start left out, the rest play."""

from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from arena import games
from arena.cli.torneo import tournament
from arena.tournament import entrants
from arena.tournament.entrants import survey, with_samples
from arena.tournament.store import NO_START, NOT_A_PLAYER, Store
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"
OPTIONS = ["--table-size", "3", "--rounds", "1", "--seed", "3", "--workers", "2", "--move-ms", "3000"]


def _field(root: Path) -> Path:
    """Three good players, one that cannot start, and folders that are no player."""
    field = root / "entregas"
    for name in ("a_mas", "a_menos", "random_legal"):
        shutil.copytree(SAMPLES / name, field / name)
    (field / "roto").mkdir()
    (field / "roto" / "player.py").write_text("import modulo_que_no_existe\n")
    (field / "kevin" / "kevin").mkdir(parents=True)
    shutil.copy(SAMPLES / "a_mas" / "player.py", field / "kevin" / "kevin" / "player.py")
    (field / "vacía").mkdir()
    (field / "texto").mkdir()
    (field / "texto" / "LEEME.txt").write_text("hola")
    (field / ".git").mkdir()  # hidden: not a submission
    return field


def test_every_folder_that_is_no_player_is_named_with_why_and_the_fix(tmp_path: Path) -> None:
    field = _field(tmp_path)
    (field / "doble" / "a").mkdir(parents=True)
    (field / "doble" / "b").mkdir()
    (field / "doble" / "a" / "player.py").write_text("")
    (field / "doble" / "b" / "player.toml").write_text('command = ["x"]')
    (field / "mal_toml").mkdir()
    (field / "mal_toml" / "player.toml").write_text("command = [")
    found, skipped = survey([field])
    assert sorted(s.name for s in found) == ["a_mas", "a_menos", "random_legal", "roto"]
    why = {s.folder.name: s.reason for s in skipped}
    assert why["kevin"] == "el jugador está anidado en kevin/kevin/: mové su contenido a kevin/"
    assert why["vacía"] == "carpeta vacía"
    assert why["texto"] == "sin player.py ni player.toml (tiene: LEEME.txt)"
    assert why["doble"].startswith("2 puntos de entrada posibles (doble/a/, doble/b/)")
    assert "TOML inválido" in why["mal_toml"]
    assert ".git" not in why


def test_a_field_is_filled_with_sample_players_up_to_a_table(tmp_path: Path) -> None:
    shutil.copytree(SAMPLES / "a_mas", tmp_path / "ana")
    (only,), _ = survey([tmp_path])
    filled = with_samples([only], 4, SAMPLES)
    assert len(filled) == 4 and filled[0].name == "ana"
    assert with_samples(filled, 4, SAMPLES) == filled  # a full table is left alone


@pytest.mark.usefixtures("run_token")
def test_a_submission_that_cannot_start_is_left_out_and_the_torneo_runs_for_the_rest(tmp_path: Path) -> None:
    field = _field(tmp_path)
    out = tmp_path / "torneo"
    result = CliRunner().invoke(tournament, [str(field), "--out", str(out), *OPTIONS])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(x.startswith("No es jugador: ") and "kevin" in x and "mové su contenido" in x for x in lines)
    assert any(x.startswith("No es jugador: ") and x.endswith("carpeta vacía") for x in lines)
    assert any(x.startswith("Queda fuera del torneo: roto — no arranca: ") for x in lines)
    assert "Se juega entre los 3 restantes: 1 partido." in lines
    with Store.open(out) as store:
        assert [e.name for e in store.entrants()] == ["a_mas", "a_menos", "random_legal"]
        kinds = {Path(folder).name: kind for folder, kind, _ in store.exclusions()}
        assert (store.counts()[1], kinds["roto"], kinds["kevin"]) == (1, NO_START, NOT_A_PLAYER)
    wb = openpyxl.load_workbook(out / "standings.xlsx")
    faults = list(wb["Descalificaciones"].iter_rows(min_row=2, values_only=True))
    assert [(f[2], f[3]) for f in faults] == [("roto", NO_START)] and "modulo_que_no_existe" in faults[0][5]
    conf = {r[0]: r[1] for r in wb["Configuración"].iter_rows(min_row=2, values_only=True)}
    assert "modulo_que_no_existe" in conf[f"fuera del torneo ({NO_START}): roto"]
    assert conf[f"fuera del torneo ({NOT_A_PLAYER}): vacía"] == "carpeta vacía"


@pytest.mark.usefixtures("run_token")
def test_stop_on_broken_keeps_the_strict_behaviour(tmp_path: Path) -> None:
    field = _field(tmp_path)
    out = tmp_path / "torneo"
    result = CliRunner().invoke(tournament, [str(field), "--out", str(out), *OPTIONS, "--stop-on-broken"])
    assert result.exit_code == 1
    assert "estos jugadores no arrancan: " in result.output and "modulo_que_no_existe" in result.output
    assert not (out / "torneo.sqlite").exists()


@pytest.mark.usefixtures("run_token")
def test_too_few_left_to_fill_a_table_is_one_line(tmp_path: Path) -> None:
    field = tmp_path / "pocos"
    for name in ("a_mas", "a_menos"):
        shutil.copytree(SAMPLES / name, field / name)
    (field / "roto").mkdir()
    (field / "roto" / "player.py").write_text("import modulo_que_no_existe\n")
    result = CliRunner().invoke(tournament, [str(field), "--out", str(tmp_path / "t"), *OPTIONS])
    assert result.exit_code == 1
    assert "solo arrancan 2 jugadores, menos que una mesa de 3" in result.output


GAMES = [(g, games.spec(g).samples) for g in games.names()]


@pytest.mark.parametrize(("game", "kind"), GAMES)
def test_every_games_samples_are_found_outside_the_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, kind: str
) -> None:
    """A torneo with no path, run from a folder with no samples: the game's samples beside the package
    (a checkout), else inside it (an installed wheel: hatch_build.py puts ``sample_*/`` there)."""
    monkeypatch.chdir(tmp_path)
    mine, samples = entrants.default_folders(game)
    assert samples == ROOT / kind
    found, _skipped = entrants.collect_intake([], (mine, samples))
    assert len(found) >= 2 and all(s.folder.parent == ROOT / kind for s in found)

    wheel = tmp_path / "site-packages" / "arena"  # the wheel's layout: nothing beside the package
    shutil.copytree(ROOT / kind, wheel / kind, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(entrants, "PACKAGE", wheel)
    mine, samples = entrants.default_folders(game)
    assert samples == wheel / kind
    found, _skipped = entrants.collect_intake([], (mine, samples))
    assert {s.name for s in found} == {s.name for s in survey([ROOT / kind])[0]}
    assert len(entrants.with_samples([], 2, kind=Path(kind))) == 2

    (tmp_path / kind).mkdir()  # a copy in the current folder comes first
    shutil.copytree(ROOT / kind / found[0].name, tmp_path / kind / found[0].name)
    assert entrants.default_folders(game)[1] == Path(kind)


@pytest.mark.usefixtures("run_token")
@pytest.mark.parametrize(("game", "kind"), GAMES)
def test_the_demo_torneo_of_every_game_runs_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, kind: str
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        tournament, ["--game", game, "--out", "t", "--partidos", "1", "--seed", "3", "--lang", "en"]
    )
    assert result.exit_code == 0, result.output
    assert "Demo torneo of the sample players" in result.output
    assert not (tmp_path / kind).exists()
