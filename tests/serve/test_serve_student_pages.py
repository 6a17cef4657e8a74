"""``arena serve``: the pages a student returns to (issue 52) — their versions with what each did,
a version's partidos (opponents, place, result, replay) and its strength and place as an SVG chart,
the standings' latest partidos with their places and the deal key behind a toggle, the instructor
sent to their own page.

The partidos are model rows made directly (no referee): four students' versions on a Tute cabrero
ladder, Ana's version at every table. Each test's rows go at its end (tests/serve/conftest.py).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.serve.support import logged_in

PREFIX = "pages-test-"
GAME = "tute-cabrero"
PARTIDOS = 60
"""Ana's partidos: more than a page of the version's list (50)."""

pytestmark = pytest.mark.django_db  # each test's rows rolled back at its end


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    return serve_dir


def _client(username: str = "", staff: bool = False) -> Any:
    return logged_in(PREFIX + username if username else None, staff)


def _partidos(ladder: Any, versions: list[Any], count: int, replay: str = "") -> list[Any]:
    """``count`` done partidos of the four ``versions``: the seats rotate; Ana (versions[0]) wins
    every third, is second in the others; the second and third places tie every fifth."""
    from django.utils import timezone

    from arena.serve.ladder.models import LadderPartido, Seat

    start = timezone.now()
    made = []
    tables = []
    for k in range(count):
        shift = k % 4
        table = [v.pk for v in versions[shift:] + versions[:shift]]
        ana = table.index(versions[0].pk)
        others = [s for s in range(4) if s != ana]
        first, rest = (ana, others) if k % 3 == 0 else (others[0], [ana, *others[1:]])
        groups = [[first], [rest[0], rest[1]], [rest[2]]] if k % 5 == 0 else [[first], *[[s] for s in rest]]
        tables.append(table)
        made.append(
            LadderPartido(
                ladder=ladder,
                status=LadderPartido.DONE,
                ranking=groups,
                winners=[first],
                replay=replay,
                finished_at=start + timedelta(seconds=k),
            )
        )
    created = LadderPartido.objects.bulk_create(made)
    Seat.objects.bulk_create(
        Seat(partido=p, version_id=v, position=i)
        for p, t in zip(created, tables, strict=True)
        for i, v in enumerate(t)
    )
    return created


@pytest.fixture
def ladder(service: Path) -> Any:
    """A Tute cabrero ladder: Ana's, Bruno's, Carla's and Darío's versions, 60 partidos, the newest
    with a replay on disk."""
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.ladder.models import Ladder
    from arena.serve.submissions.models import Version

    made = Ladder.objects.create(game=GAME, open=True)
    versions = []
    for name in ("ana", "bruno", "carla", "dario"):
        user = get_user_model().objects.create_user(PREFIX + name)
        student = Student.objects.create(user=user, display_name=f"Autora {name}")
        versions.append(Version.objects.create(student=student, ladder=made, number=1, status=Version.CLEAN))
    made.versions = versions
    made.ana, made.bruno = versions[0], versions[1]
    made.partidos_made = _partidos(made, versions, PARTIDOS - 1)
    replay = service / "ladder" / str(made.pk) / "pages-test.jsonl"
    replay.parent.mkdir(parents=True, exist_ok=True)
    replay.write_text('{"type": "partido_start", "players": []}\n', encoding="utf-8")
    made.last = _partidos(made, versions, 1, replay=str(replay))[0]
    return made


def _svgs(page: str) -> list[ET.Element]:
    return [ET.fromstring(found) for found in re.findall(r"<svg\b.*?</svg>", page, re.S)]


def test_the_student_s_page_sums_up_each_version_s_partidos(ladder: Any) -> None:
    page = _client("ana").get("/me").content.decode()
    assert f'href="/versions/{ladder.ana.pk}#partidos">{PARTIDOS}</a>' in page
    wins = sum(1 for k in range(PARTIDOS - 1) if k % 3 == 0) + 1  # the last one: k = 0
    assert f'<td class="number">{wins}</td>' in page


def test_a_version_s_page_lists_its_partidos_with_opponents_place_and_result(ladder: Any) -> None:
    client = _client("ana")
    page = client.get(f"/versions/{ladder.ana.pk}").content.decode()
    rows = re.findall(r"<tr( class=\"won\")?><td>(\d+)</td>", page)
    assert len(rows) == 50  # the first page, newest first
    assert int(rows[0][1]) == ladder.last.pk and rows[0][0]  # won
    # the newest partido: opponents named, its replay linked; Ana first of 4
    names = '<span class="name">Autora bruno #1</span>, <span class="name">Autora carla #1</span>'
    assert names + ', <span class="name">Autora dario #1</span>' in page
    assert f'href="/partidos/{ladder.last.pk}/"' in page
    assert "1 de 4" in page and "ganó" in page and "perdió" in page and "2 de 4" in page
    assert "2 de 4 (empatado)" in page  # every fifth that Ana does not win
    older = client.get(f"/versions/{ladder.ana.pk}?page=2").content.decode()
    assert len(re.findall(r"<tr( class=\"won\")?><td>(\d+)</td>", older)) == PARTIDOS - 50
    assert "Página 2 de 2 (60 partidos)" in older


def test_the_chart_of_strength_and_place_is_svg_in_the_reader_s_language(ladder: Any) -> None:
    client = _client("ana")
    charts = _svgs(client.get(f"/versions/{ladder.ana.pk}").content.decode())
    assert len(charts) == 2
    svg = "{http://www.w3.org/2000/svg}"
    titles = [c.findtext(f"{svg}title") for c in charts]
    assert titles == ["Fuerza a lo largo de sus partidos", "Puesto a lo largo de sus partidos"]
    for c in charts:
        line = c.find(f"{svg}polyline")
        assert line is not None
        points = line.get("points", "").split()
        assert 2 <= len(points) <= 80  # sampled
        texts = [t.text for t in c.iter(f"{svg}text")]
        assert "los partidos de la versión" in texts  # the x axis's label
    assert "Puesto" in [t.text for t in charts[1].iter(f"{svg}text")]
    english = _client("ana")
    english.cookies["django_language"] = "en"
    charts = _svgs(english.get(f"/versions/{ladder.ana.pk}").content.decode())
    assert [c.findtext(f"{svg}title") for c in charts] == [
        "Strength over its partidos",
        "Place over its partidos",
    ]


def test_the_pages_read_the_partidos_in_a_fixed_number_of_queries(ladder: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(client: Any, url: str) -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    client = _client("ana")
    url = f"/versions/{ladder.ana.pk}"
    before = (queries(client, "/me"), queries(client, url), queries(client, url + "?page=2"))
    _partidos(ladder, ladder.versions, 30)
    after = (queries(client, "/me"), queries(client, url), queries(client, url + "?page=2"))
    assert after == before, (before, after)
    assert max(before) <= 15


def test_another_student_sees_neither_the_version_nor_its_partidos(ladder: Any) -> None:
    bruno = _client("bruno")
    assert bruno.get(f"/versions/{ladder.ana.pk}").status_code == 404
    assert bruno.get(f"/versions/{ladder.ana.pk}?page=2").status_code == 404
    mine = bruno.get("/me").content.decode()
    assert f"/versions/{ladder.ana.pk}" not in mine and f"/versions/{ladder.bruno.pk}" in mine
    assert _client().get(f"/versions/{ladder.ana.pk}").status_code == 302  # to the login
    assert _client("teacher", staff=True).get(f"/versions/{ladder.ana.pk}").status_code == 200


def test_the_instructor_is_sent_to_the_ladders_not_told_they_are_no_student(ladder: Any) -> None:
    teacher = _client("teacher", staff=True)
    answer = teacher.get("/me")
    assert answer.status_code == 302 and answer["Location"] == "/instructor/ladders"
    assert "no es de un estudiante" not in teacher.get("/me", follow=True).content.decode()


def test_the_latest_partidos_show_their_places_and_the_key_behind_a_toggle(ladder: Any) -> None:
    import json

    client = _client("eva")
    page = client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert f'<details class="key" data-id="{ladder.last.pk}"><summary>Clave del reparto</summary>' in page
    assert f"<code>{ladder.last.seed}</code></details>" in page
    assert '<li class="winner">1. Autora ana #1</li>' in page
    # the seats' names are never broken inside, on a phone (the table scrolls sideways instead)
    assert '<td><span class="name">Autora ' in page and '</span>, <span class="name">Autora ' in page
    assert 'id="updated"' in page and "actualizado hace 0 s" in page
    data = json.loads(client.get(f"/ladders/{ladder.pk}/live.json").content)
    newest = next(p for p in data["partidos"] if p["id"] == ladder.last.pk)
    assert newest["winners"] == ["Autora ana #1"]
    assert [g["place"] for g in newest["places"]] == [1, 2, 4]  # the second and third tie
    assert newest["places"][0]["names"] == ["Autora ana #1"]
    assert isinstance(data["at"], float)


def test_the_style_sheet_keeps_tables_and_the_final_s_output_on_a_phone() -> None:
    css = _client("eva").get("/style.css").content.decode()
    assert "overflow-x: auto" in css and "pre.wide { white-space: pre; }" in css
    assert "code.link { word-break: break-all; }" in css  # the roster's pending links wrap


def test_the_live_script_counts_the_age_and_keeps_the_key_folded() -> None:
    script = _client("eva").get("/ladders/live.js").content.decode()
    assert 'getElementById("updated")' in script and 'createElement("details")' in script
    assert "p.places" in script
    assert 'span.className = "name"' in script  # the seats' names, as the page's own


def test_the_final_s_output_is_a_block_that_scrolls_not_wraps(ladder: Any) -> None:
    from arena.serve.finals.models import FinalTorneo

    line = "1  Autora ana        " + "  ".join(["0.88"] * 30)  # wider than any phone, or page
    final = FinalTorneo.objects.create_frozen(
        [v.pk for v in ladder.versions],
        ladder=ladder,
        options={"grades": "10/1"},
        status=FinalTorneo.FAILED,
        progress=line,
        error="stopped",
    )
    try:
        page = _client("teacher", staff=True).get(f"/instructor/ladders/{ladder.pk}/final").content.decode()
    finally:
        final.delete()
    assert f'<pre class="wide">{line}</pre>' in page
