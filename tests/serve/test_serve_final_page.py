"""``arena serve``: the final's page shows its grades as a table, row by row the grades CSV's (one
function makes both: :func:`arena.serve.finals.final.graded`), with the place each student's grade
is of ("shared with place N" when the standings do not separate them from a better one) and the
rule in one line; and it links to the final's results site, served read-only to instructors only,
only files under the torneo's ``web/``.

No torneo is played: a torneo of committed results is written (:func:`tests.results.test_grades.torneo`:
ana first in every partido, beto and caro tied after her), its standings and site built from it.
"""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.serve.support import logged_in

PREFIX = "final-page-test-"
GAME = "tute-cabrero"
NAMES = ("ana", "beto", "caro")

pytestmark = pytest.mark.django_db  # each test's rows rolled back at its end


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    return serve_dir


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The final's torneo and its site, written and built once for the module (files, no rows: each
    test's :func:`final` copies them to its own final's folder)."""
    from arena.results.web import build_site
    from tests.results.test_grades import torneo

    folders = {name: tmp_path_factory.mktemp("players") / name for name in NAMES}
    folder = tmp_path_factory.mktemp("final-page") / "torneo"
    torneo(folder, folders, [["ana"], ["beto", "caro"]], 8, table=3)
    build_site(folder)
    return folder


@pytest.fixture
def final(service: Path, site: Path) -> Any:
    """A done final of ana, beto and caro, its torneo and its site in ``DIR/finals/<id>/final``."""
    import shutil

    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.finals import final as finals
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.models import Ladder
    from arena.serve.submissions.models import Version

    ladder = Ladder.objects.get_or_create(game=GAME, defaults={"open": False})[0]
    players = {}
    for name in NAMES:
        user = get_user_model().objects.get_or_create(username=PREFIX + name)[0]
        student = Student.objects.create(
            user=user, display_name=f"Alumna {name}", email=f"{name}@example.edu", roster_id=f"id-{name}"
        )
        version = Version.objects.create(
            student=student, ladder=ladder, number=1, folder="/nowhere", status=Version.CLEAN
        )
        players[name] = {"student": student.pk, "version": version.pk}
    done = FinalTorneo.objects.create_frozen(
        [p["version"] for p in players.values()],
        ladder=ladder,
        status=FinalTorneo.DONE,
        options={"grades": "10/1", "players": players},
    )
    shutil.rmtree(finals.torneo_dir(done), ignore_errors=True)  # a rolled-back final's of the same id
    shutil.copytree(site, finals.torneo_dir(done), symlinks=True)
    placed = finals.standings_places(done)
    done.options = {
        **done.options,
        "places": {name: place for name, (place, _at) in placed.items()},
        "grade_places": {name: at for name, (_place, at) in placed.items()},
    }
    done.save(update_fields=["options"])
    (service / "outside.html").write_text("<p>not the site's</p>", encoding="utf-8")
    return done


class _Table(HTMLParser):
    """The rows of the table ``id="grades"`` of a page: each cell's text."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.inside = False
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("id", "grades") in attrs:
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(re.sub(r"\s+", " ", "".join(self.cell)).strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def _instructor(english: bool = False) -> Any:
    client = logged_in(PREFIX + "teacher", staff=True)
    if english:
        client.cookies["django_language"] = "en"
    return client


def _table(final: Any, english: bool = False) -> list[list[str]]:
    answer = _instructor(english).get(f"/instructor/ladders/{final.ladder_id}/final")
    assert answer.status_code == 200
    parser = _Table()
    parser.feed(answer.content.decode())
    return parser.rows


def test_the_table_is_the_grades_csv_row_by_row(final: Any) -> None:
    answer = _instructor().get(f"/instructor/finals/{final.pk}/grades.csv")
    assert answer.status_code == 200
    downloaded = list(csv.DictReader(io.StringIO(answer.content.decode())))
    head, *rows = _table(final)
    assert head == ["Estudiante", "Puesto", "Calificado como el puesto", "Nota"]
    assert len(rows) == len(downloaded) == len(NAMES)
    for (student, place, _of, grade), row in zip(rows, downloaded, strict=True):
        assert student == "Alumna " + row["Email address"].split("@")[0]
        assert (place, grade) == (row["Final torneo place"], row["Final torneo grade"])


def test_tied_students_show_the_same_grade_and_the_shared_note(final: Any) -> None:
    from arena.serve.finals import final as finals

    rows = {r[0]: r[1:] for r in _table(final)[1:]}
    assert rows["Alumna ana"] == ["1", "1", "10"]
    (beto_place, beto_of, beto), (caro_place, caro_of, caro) = rows["Alumna beto"], rows["Alumna caro"]
    assert beto == caro == "5.5"  # the grade of place 2, not one of them that of place 3
    worse = max(beto_place, caro_place)
    assert worse == "3"
    notes = {beto_of, caro_of}
    assert notes == {"2", "compartida con el puesto 2"}
    english = {r[0]: r[2] for r in _table(final, english=True)[1:]}
    assert sorted([english["Alumna beto"], english["Alumna caro"]]) == ["2", "shared with place 2"]
    assert [r["grade"] for r in finals.graded(final)] == [10.0, 5.5, 5.5]


def test_the_page_says_the_rule_in_either_language(final: Any) -> None:
    url = f"/instructor/ladders/{final.ladder_id}/final"
    spanish = _instructor().get(url).content.decode()
    english = _instructor(english=True).get(url).content.decode()
    assert "Los estudiantes que las posiciones no separan reciben la misma nota" in spanish
    assert "Students the standings do not separate get the same grade" in english
    assert f'href="/instructor/finals/{final.pk}/site/"' in spanish


def test_the_site_is_served_to_instructors(final: Any) -> None:
    client = _instructor()
    index = client.get(f"/instructor/finals/{final.pk}/site/")
    assert index.status_code == 200
    assert index["Content-Type"] == "text/html; charset=utf-8"
    assert "default-src 'none'" in index["Content-Security-Policy"]
    page = b"".join(index.streaming_content).decode()
    assert "<html" in page
    assert client.get(f"/instructor/finals/{final.pk}/site/index.html").status_code == 200
    css = client.get(f"/instructor/finals/{final.pk}/site/assets/site.css")
    assert css.status_code == 200
    assert css["Content-Type"] == "text/css; charset=utf-8"
    viewer = re.search(r'href="(partidos/[^"]+\.html)"', page)
    assert viewer is not None
    assert client.get(f"/instructor/finals/{final.pk}/site/{viewer.group(1)}").status_code == 200


@pytest.mark.parametrize("who", [None, "student"])
def test_the_site_is_nobody_else_s(final: Any, who: str | None) -> None:
    client = logged_in(PREFIX + who if who else None)
    for url in (f"/instructor/finals/{final.pk}/site/", f"/instructor/finals/{final.pk}/site/index.html"):
        assert client.get(url).status_code in (403, 404)


@pytest.mark.parametrize(
    "name",
    [
        "../outside.html",
        "../../../../outside.html",
        "partidos/../../../../../outside.html",
        "%2e%2e/%2e%2e/%2e%2e/%2e%2e/outside.html",
        "..%2f..%2f..%2f..%2foutside.html",
        "./index.html",
        "partidos//x.html",
        "..\\..\\index.html",
        "partidos",
        "missing.html",
    ],
)
def test_a_path_out_of_the_site_is_not_found(final: Any, name: str) -> None:
    from arena.results.web import WEB_DIR
    from arena.serve.finals import final as finals

    assert (finals.torneo_dir(final) / WEB_DIR / "../../../../outside.html").resolve().is_file()  # there
    answer = _instructor().get(f"/instructor/finals/{final.pk}/site/{name}")
    assert answer.status_code in (403, 404)


def test_a_link_out_of_the_site_is_not_followed(final: Any, service: Path) -> None:
    from arena.results.web import WEB_DIR
    from arena.serve.finals import final as finals

    link = finals.torneo_dir(final) / WEB_DIR / "escape.html"
    link.symlink_to(service / "outside.html")
    try:
        assert finals.site_file(final, "escape.html") is None
        assert _instructor().get(f"/instructor/finals/{final.pk}/site/escape.html").status_code == 404
    finally:
        link.unlink()


def test_a_final_not_done_has_no_site(final: Any) -> None:
    from arena.serve.finals.models import FinalTorneo

    running = FinalTorneo.objects.create_frozen(
        final.versions.all(), ladder=final.ladder, status=FinalTorneo.RUNNING, options=final.options
    )
    try:
        assert _instructor().get(f"/instructor/finals/{running.pk}/site/").status_code == 404
    finally:
        running.delete()


def test_an_earlier_final_stays_linked_once_a_new_one_starts(final: Any) -> None:
    from arena.serve.finals.models import FinalTorneo

    FinalTorneo.objects.create_frozen(
        final.versions.all(), ladder=final.ladder, status=FinalTorneo.RUNNING, options=final.options
    )
    text = _instructor().get(f"/instructor/ladders/{final.ladder_id}/final").content.decode()
    earlier = text[text.index("Finales anteriores") :]
    for link in ("site/", "workbook", "grades.csv"):
        assert f"/instructor/finals/{final.pk}/{link}" in earlier
