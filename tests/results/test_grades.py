"""Grades from the standings (``arena standings DIR --grades FILE``, the ladder's final) and the
students' names in every table of the standings.

The torneos here are made of committed results (no player process): their entrants' folders come from
a real import of a Moodle archive, and one is a folder made by hand.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from arena.cli import main
from arena.intake.submissions import import_archive
from arena.referee.stats import FIELDS
from arena.results import grades, report, standings, students, web
from arena.tournament.schedule import ScheduledPartido
from arena.tournament.store import Entrant, Store
from tests.intake.test_submissions import PLAYER, archive, sub

STUDENTS = {
    "ana_núñez": ("Ana Núñez", "101"),
    "beto_díaz": ("Beto Díaz", "202"),
    "caro_pérez": ("Caro Pérez", "303"),
}
"""The students by the folder the import makes (the entrant's name)."""


def imported(tmp_path: Path) -> dict[str, Path]:
    """Player folders by entrant name: three imported from a Moodle archive, one made by hand."""
    into = tmp_path / "players"
    zipped = archive(
        tmp_path / "entregas.zip",
        [(sub(name, int(ident), "player.py"), PLAYER) for name, ident in STUDENTS.values()],
    )
    done = import_archive(zipped, into)
    assert all(o.imported for o in done), [o.text() for o in done]
    (into / "muestra").mkdir()
    (into / "muestra" / "player.py").write_bytes(PLAYER)
    assert sorted(str(o.folder) for o in done) == sorted(STUDENTS)
    return {**{name: (into / name).resolve() for name in STUDENTS}, "muestra": (into / "muestra").resolve()}


def torneo(
    folder: Path, players: dict[str, Path], order: list[list[str]], partidos: int, table: int = 4
) -> Path:
    """A complete torneo of ``partidos`` tables of ``table``, each ranked by ``order`` (groups of
    entrant names, best first; those at the table keep their group: a group is a tie)."""
    names = list(players)
    entrants = [Entrant(i, n, str(players[n]), "python", None, (), "0" * 64) for i, n in enumerate(names)]
    rng = random.Random(5)
    plan = [
        ScheduledPartido(k, f"p{k + 1:04d}", 100 + k, tuple(rng.sample(range(len(names)), table)), k, 0)
        for k in range(partidos)
    ]
    Store.create(folder, {"table_size": table, "seed": 3}, entrants, plan).close()
    with Store.open(folder) as store:
        for p in plan:
            seated = [names[e] for e in p.seats]
            ranking = [[s for s, who in enumerate(seated) if who in g] for g in order]
            ranking = [g for g in ranking if g]
            place = {s: 1.0 + k for k, g in enumerate(ranking) for s in g}
            stats = [
                {**dict.fromkeys(FIELDS, 0), "faults": [], "won": place[s] == 1, "place": place[s]}
                for s in range(table)
            ]
            temp = store.temp_replay(p.id, "t")
            end = {"type": "partido_end", "winners": ranking[0], "ranking": ranking}
            start = {
                "type": "partido_start",
                "players": [{"seat": s, "name": who} for s, who in enumerate(seated)],
            }
            temp.write_text(json.dumps(start) + "\n" + json.dumps(end) + "\n")
            result: dict[str, Any] = {
                "players": seated,
                "winners": ranking[0],
                "ranking": ranking,
                "manos": 5,
                "scores": [0] * table,
                "faults": [],
                "reply_ms": [[1.0] for _s in range(table)],
                "stats": stats,
            }
            work = {"replay": str(temp), "result": result, "incidents": {}, "logs": None}
            store.commit(p, {**work, "worker": "w:1", "started": "s", "finished": "f"})
    return folder


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ana first always; beto and caro tied always; the hand-made folder last."""
    base = tmp_path_factory.mktemp("course")
    return torneo(
        base / "torneo",
        imported(base),
        [["ana_núñez"], ["beto_díaz", "caro_pérez"], ["muestra"]],
        24,
        table=3,
    )


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_the_standings_name_each_student_everywhere(course: Path) -> None:
    done = run("standings", str(course), "--csv")
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    head = next(line for line in lines if line.startswith("Puesto"))
    assert re.split(r" {2,}", head)[3:6] == ["Jugador", "Alumno", "Id de Moodle"]
    ana = next(line for line in lines if line.startswith("1 "))
    assert "ana_núñez" in ana and "Ana Núñez" in ana and " 101 " in ana
    muestra = next(line for line in lines if " muestra" in line)
    assert "Núñez" not in muestra and "101" not in muestra

    pos = openpyxl.load_workbook(course / "standings.xlsx")["Posiciones"]
    header = [c.value for c in pos[1]]
    at = header.index("Jugador")
    assert header[at + 1 : at + 3] == ["Alumno", "Id de Moodle"]
    rows = {r[at]: r[at + 1 : at + 3] for r in pos.iter_rows(min_row=2, values_only=True)}
    assert rows["ana_núñez"] == ("Ana Núñez", "101")
    assert rows["muestra"] in ((None, None), ("", ""))  # blank
    assert pos.freeze_panes == f"{openpyxl.utils.get_column_letter(at + 3)}2"  # the student in view

    table = list(csv.DictReader((course / "csv" / "posiciones.csv").open(encoding="utf-8")))
    by_player = {r["Jugador"]: r for r in table}
    assert (by_player["caro_pérez"]["Alumno"], by_player["caro_pérez"]["Id de Moodle"]) == (
        "Caro Pérez",
        "303",
    )
    assert by_player["muestra"]["Alumno"] == "" and by_player["muestra"]["Id de Moodle"] == ""

    web.build_site(course)
    page = (course / "web" / "index.html").read_text(encoding="utf-8")
    assert "Beto Díaz" in page and 'data-col="id_moodle"' in page


def test_the_names_are_kept_with_the_torneo_once_read(tmp_path: Path) -> None:
    base = tmp_path
    players = imported(base)
    folder = torneo(base / "torneo", players, [["ana_núñez"], ["beto_díaz"], ["caro_pérez"], ["muestra"]], 8)
    with Store.open(folder, readonly=True) as store:
        report.build(store, resamples=20)
    shutil.rmtree(base / "players")  # archived, say, after the torneo
    with Store.open(folder, readonly=True) as store:
        rep = report.build(store, resamples=20)
    assert {n: (s.name, s.id) for n, s in rep.students.items()} == {
        "ana_núñez": ("Ana Núñez", "101"),
        "beto_díaz": ("Beto Díaz", "202"),
        "caro_pérez": ("Caro Pérez", "303"),
    }
    assert (folder / students.INDEX).stat().st_mode & 0o077 == 0


def test_a_torneo_of_no_submission_shows_no_student_columns_in_the_terminal(tmp_path: Path) -> None:
    players = imported(tmp_path)
    hand = {"muestra": players["muestra"]}
    for name in ("x", "y", "z"):
        shutil.copytree(players["muestra"], tmp_path / name)
        hand[name] = (tmp_path / name).resolve()
    folder = torneo(tmp_path / "torneo", hand, [["x"], ["y"], ["z"], ["muestra"]], 8)
    done = run("standings", str(folder), "--csv")
    assert "Alumno" not in done.output
    assert list(pd.read_csv(folder / "csv" / "posiciones.csv")["Alumno"].isna()) == [True] * 4


def worksheet(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


def test_grades_are_a_moodle_worksheet_of_the_students_with_ties_graded_alike(
    course: Path, tmp_path: Path
) -> None:
    out = tmp_path / "notas.csv"
    done = run("standings", str(course), "--grades", str(out))
    assert done.exit_code == 0, done.output
    assert f"Notas de 3 alumnos escritas en {out} (escala 10/1)." in done.output.splitlines()
    rows = worksheet(out)
    assert list(rows[0]) == ["Identifier", "Full name", "Torneo place", "Grade", "Last modified (grade)"]
    by_name = {r["Full name"]: r for r in rows}
    assert set(by_name) == {"Ana Núñez", "Beto Díaz", "Caro Pérez"}  # the hand-made folder: no row
    assert by_name["Ana Núñez"]["Identifier"] == "Participant 101"
    assert by_name["Ana Núñez"]["Grade"] == "10"  # first in every partido: separated from the rest
    assert by_name["Beto Díaz"]["Grade"] == by_name["Caro Pérez"]["Grade"]  # tied in every partido
    places = sorted([by_name["Beto Díaz"]["Torneo place"], by_name["Caro Pérez"]["Torneo place"]])
    assert places == ["2", "3"]
    assert by_name["Beto Díaz"]["Grade"] == "7"  # place 2 of 4 on 10/1: the best place of the two
    shares = "1 alumno comparte la nota de un puesto mejor, del que la clasificación no lo separa; "
    fix = f"más partidos los separarían: arena tournament --resume {course} --until-separated"
    assert shares + fix in done.output

    again = run("standings", str(course), "--grades", str(out), "--scale", "1=10, 2=8,5; 3=6")
    assert "(escala 1=10, 2=8,5; 3=6)" in again.output
    assert {r["Full name"]: r["Grade"] for r in worksheet(out)} == {
        "Ana Núñez": "10",
        "Beto Díaz": "8.5",
        "Caro Pérez": "8.5",
    }


def test_a_name_in_the_worksheet_is_never_a_formula() -> None:
    rows = [grades.Graded("x", 1, 1, 10.0), grades.Graded("y", 2, 2, 1.0), grades.Graded("z", 3, 3, None)]
    text = grades.worksheet(rows, {"x": ("=HYPERLINK(1)", "5"), "y": ("Ana\x1b[2J", "6")})
    found = list(csv.reader(io.StringIO(text)))
    assert [r[:4] for r in found[1:]] == [
        ["Participant 5", "'=HYPERLINK(1)", "1", "10"],
        ["Participant 6", "Ana\\x1b[2J", "2", "1"],
    ]


def test_the_scale_goes_with_grades_and_must_be_one(course: Path, tmp_path: Path) -> None:
    alone = run("standings", str(course), "--scale", "10/1")
    assert alone.exit_code == 2 and "--scale va con --grades" in alone.output
    bad = run("standings", str(course), "--grades", str(tmp_path / "g.csv"), "--scale", "diez")
    assert bad.exit_code == 2 and "mejor/peor" in bad.output
    assert not (tmp_path / "g.csv").exists()


def test_the_bug_of_the_ladder_final_two_alike_graded_alike(tmp_path: Path) -> None:
    """Three entrants at one table, 6 partidos: ana first each time, beto and caro second three times
    each ("look equal"). Places 2 and 3 once gave 5.5 and 1; now the same grade."""
    players = {n: tmp_path / n for n in ("ana", "beto", "caro")}
    rows = []
    for k in range(6):
        second, third = ("beto", "caro") if k % 2 else ("caro", "beto")
        rows.append(
            {"partido": f"p{k}", "players": ["ana", second, third], "ranking": [[0], [1], [2]], "faults": []}
        )
    records = [{**r, "stats": [_seat(1 + s) for s in range(3)]} for r in rows]
    pos = standings.standings(records, list(players), resamples=200)
    graded = {g.entrant: g for g in grades.graded(pos, "10/1")}
    assert graded["beto"].grade == graded["caro"].grade
    assert {graded["beto"].place, graded["caro"].place} == {2, 3}
    assert graded["beto"].grade in (10.0, 5.5)  # 5.5 when ana is separated from them, else all alike
    assert graded["ana"].grade == 10.0


def _seat(place: int) -> dict[str, Any]:
    return {
        **dict.fromkeys(FIELDS, 0),
        "faults": [],
        "won": place == 1,
        "place": float(place),
        "reply_ms": [],
    }


def test_the_scale_reads_as_the_ladder_s_always_did() -> None:
    linear = grades.scale("10/1")
    assert [linear(p, 3) for p in (1, 2, 3)] == [10.0, 5.5, 1.0]
    assert grades.scale("")(1, 1) == 10.0
    assert grades.scale("10,5 / 4")(3, 3) == 4.0
    table = grades.scale("1=10, 2=9,5; 3=8")
    assert [table(p, 5) for p in (1, 2, 3, 4)] == [10.0, 9.5, 8.0, None]
    for bad in ("diez", "1=10, x", "0=10"):
        with pytest.raises(grades.ScaleError):
            grades.scale(bad)
    assert [grades.shown(g) for g in (10.0, 7.0, 5.5, 1 / 3, None)] == ["10", "7", "5.5", "0.33", ""]


@st.composite
def relations(draw: st.DrawFn) -> tuple[int, set[tuple[int, int]]]:
    """A number of places and which pairs (i < j) the standings separate."""
    n = draw(st.integers(1, 9))
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    apart = draw(st.sets(st.sampled_from(pairs))) if pairs else set()
    return n, apart


@pytest.mark.fast_examples(50)
@given(relations(), st.sampled_from(["10/1", "100/0", "1=10, 2=9, 3=8", "7/7"]))
def test_grades_never_rise_and_are_alike_where_the_standings_do_not_separate(
    relation: tuple[int, set[tuple[int, int]]], text: str
) -> None:
    n, apart = relation
    first = grades.runs(lambda i, j: (min(i, j), max(i, j)) in apart, n)
    scale = grades.scale(text)
    graded = [scale(first[i] + 1, n) for i in range(n)]
    assert first == sorted(first) and all(first[i] <= i for i in range(n))  # runs of consecutive places
    assert all(first[i] in (i, first[i - 1]) for i in range(1, n))
    for i in range(n):
        for j in range(i + 1, n):
            if (i, j) not in apart:
                assert first[i] == first[j] and graded[i] == graded[j]
    known = [g for g in graded if g is not None]
    if text != "1=10, 2=9, 3=8":
        assert known == sorted(known, reverse=True)  # never rising down the order
    # the finest such cut: every run's start is forced apart from all before it, or it is the first
    for i in range(1, n):
        if first[i] == i:
            assert all((a, b) in apart for a in range(i) for b in range(i, n))


@pytest.mark.fast_examples(30)
@given(st.data())
def test_the_grades_of_any_standings_follow_their_separation(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 5))
    names = [f"e{i}" for i in range(n)]
    rng = random.Random(data.draw(st.integers(0, 10_000)))
    records = []
    for k in range(data.draw(st.integers(4, 30))):
        seated = rng.sample(names, min(3, n))
        cut = rng.randint(1, len(seated))  # a tie of the first ``cut`` now and then
        ranking = (
            [list(range(cut))] + [[s] for s in range(cut, len(seated))]
            if rng.random() < 0.3
            else [[s] for s in range(len(seated))]
        )
        places = {s: 1.0 + g for g, group in enumerate(ranking) for s in group}
        records.append({
            "partido": f"p{k}",
            "players": seated,
            "ranking": ranking,
            "faults": [],
            "stats": [_seat(int(places[s])) for s in range(len(seated))],
        })  # fmt: skip
    pos = standings.standings(records, names, resamples=50)
    graded = grades.graded(pos, "10/1")
    values = [g.grade for g in graded]
    assert values == sorted(values, reverse=True)
    pairs = standings.pairs_of(pos)
    assert pairs is not None
    rows = len(pos)
    for i in range(rows):
        for j in range(i + 1, rows):
            tied = pos["fuerza"].iloc[i] == pos["fuerza"].iloc[j]
            if pos["grupo"].iloc[i] and pos["grupo"].iloc[j] and (tied or not pairs.separated(i, j)):
                assert values[i] == values[j], (pos[["entrant", "grupo", "fuerza"]], values)
