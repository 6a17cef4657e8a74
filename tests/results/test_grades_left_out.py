"""``arena standings DIR --grades FILE`` names the students whose submissions are no entrants (the
torneo left them out: they could not start; or their folder came after it began) and gives each a
row with an empty grade, which Moodle's upload of the worksheet skips."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from arena.intake.submissions import import_archive
from arena.results import grades, students
from arena.tournament.store import NO_START, Store
from tests.intake.test_submissions import PLAYER, archive, sub
from tests.results.test_grades import imported, run, torneo, worksheet

BROKEN = b"x = 1\nif x\n    pass\n"
WHY = "player.py, line 2: SyntaxError: expected ':'\n  if x\n      ^"


def _import(tmp_path: Path, name: str, ident: int, text: bytes) -> Path:
    zipped = archive(tmp_path / f"{ident}.zip", [(sub(name, ident, "player.py"), text)])
    (done,) = import_archive(zipped, tmp_path / "players")
    assert done.imported and done.folder
    return (tmp_path / "players" / done.folder).resolve()


@pytest.fixture
def course(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three students and a hand-made folder play; Elena Ruiz's submission could not start (left out
    at start); Fede Gil's came after the torneo began."""
    players = imported(tmp_path)
    elena = _import(tmp_path, "Elena Ruiz", 505, BROKEN)
    create = Store.create.__func__  # type: ignore[attr-defined]

    def with_paths(cls: type[Store], folder: Path, config: dict[str, Any], *args: Any, **kw: Any) -> Store:
        return create(cls, folder, {**config, "paths": [str(tmp_path / "players")]}, *args, **kw)

    monkeypatch.setattr(Store, "create", classmethod(with_paths))
    folder = torneo(
        tmp_path / "torneo", players, [["ana_núñez"], ["beto_díaz"], ["caro_pérez"], ["muestra"]], 8
    )
    with Store.open(folder) as store:
        store.record_exclusions([(str(elena), NO_START, WHY)])
    _import(tmp_path, "Fede Gil", 606, PLAYER)
    return folder


def test_students_without_a_grade_are_named_and_get_an_empty_row(course: Path, tmp_path: Path) -> None:
    out = tmp_path / "notas.csv"
    done = run("standings", str(course), "--grades", str(out))
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert f"Notas de 3 alumnos escritas en {out} (escala 10/1)." in lines
    assert "Sin nota: Elena Ruiz (505): no arranca — player.py, line 2: SyntaxError: expected ':'" in lines
    fede = tmp_path / "players" / "fede_gil"
    assert f"Sin nota: Fede Gil (606): no está en el torneo: {fede} llegó después de que empezara" in lines
    assert (
        f"Sus filas en {out} tienen la nota vacía, que la subida a Moodle deja como está: "
        "poneles la nota a mano en Moodle."
    ) in lines
    rows = {r["Full name"]: r for r in worksheet(out)}
    assert list(rows) == ["Ana Núñez", "Beto Díaz", "Caro Pérez", "Elena Ruiz", "Fede Gil"]
    assert rows["Ana Núñez"]["Grade"] == "10"
    for name, ident in [("Elena Ruiz", "505"), ("Fede Gil", "606")]:
        assert rows[name]["Identifier"] == f"Participant {ident}"
        assert rows[name]["Grade"] == "" and rows[name]["Torneo place"] == ""
        assert rows[name]["Last modified (grade)"] == rows["Ana Núñez"]["Last modified (grade)"]

    english = run("standings", str(course), "--grades", str(out), "--lang", "en")
    assert "No grade: Elena Ruiz (505): cannot start — player.py, line 2: SyntaxError: expected ':'" in (
        english.output.splitlines()
    )
    assert f"Their rows in {out} have an empty grade, which Moodle's upload leaves alone" in english.output


def test_the_left_out_student_is_kept_with_the_torneo(course: Path, tmp_path: Path) -> None:
    run("standings", str(course))  # reads the markers, keeps them in students.json
    shutil.rmtree(tmp_path / "players")  # archived, say, after the torneo
    with Store.open(course, readonly=True) as store:
        left = students.left_out(store)
    assert [(lo.student.name, lo.student.id, lo.kind) for lo in left] == [("Elena Ruiz", "505", NO_START)]
    line = grades.no_grade_line(left[0])
    assert line == "Sin nota: Elena Ruiz (505): no arranca — player.py, line 2: SyntaxError: expected ':'"


def test_no_row_and_no_line_when_every_student_plays(tmp_path: Path) -> None:
    players = imported(tmp_path)
    folder = torneo(
        tmp_path / "torneo", players, [["ana_núñez"], ["beto_díaz"], ["caro_pérez"], ["muestra"]], 8
    )
    out = tmp_path / "notas.csv"
    done = run("standings", str(folder), "--grades", str(out))
    assert "Sin nota" not in done.output and "nota vacía" not in done.output
    assert len(worksheet(out)) == 3


def test_a_student_disqualified_in_every_partido_is_named_with_the_grade_of_its_place() -> None:
    posiciones = pd.DataFrame(
        {
            "entrant": ["ana", "luis", "rita", "nadie"],
            "partidos": [6, 6, 4, 0],
            "retiradas": [0, 0, 2, 0],
            "dq_crash": [0, 5, 4, 0],
            "dq_timeout": [1, 1, 0, 0],
            "pen_timeout": [3, 0, 0, 0],
        }
    )
    assert grades.disqualified_throughout(posiciones) == {"luis": 6, "rita": 6}
    posiciones.loc[1, "dq_timeout"] = math.nan  # a column no partido of its filled
    assert grades.disqualified_throughout(posiciones) == {"rita": 6}


def test_the_line_of_a_student_disqualified_throughout(
    course: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(grades, "disqualified_throughout", lambda _pos: {"caro_pérez": 8})
    out = tmp_path / "notas.csv"
    done = run("standings", str(course), "--grades", str(out))
    line = "Descalificado en todos sus partidos: Caro Pérez (303), 8 de 8; su nota es la del puesto 3 ("
    assert any(
        x.startswith(line) and x.endswith("): revisá su bot (arena check)") for x in done.output.splitlines()
    )
    assert {r["Full name"]: r["Torneo place"] for r in worksheet(out)}["Caro Pérez"] == "3"  # graded as ever
