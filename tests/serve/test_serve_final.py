"""``arena serve``: the instructor's final torneo of a ladder.

Starting one freezes the ladder's active versions (later uploads and choices do not change it),
plays ``arena tournament`` between copies of their folders to *done*, and gives the workbook, the
site's zip and the grades CSV for Moodle to the instructors only; a final left *running* by a
stopped server is played on at the next start (its task ready again,
``arena.serve.startup.resume``); a broken option is refused with a clear message.
The versions' folders are copies of sample players, made clean without an upload; the torneo is
tiny (3 players, tables of 3: one partido).
"""

from __future__ import annotations

import csv
import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import logged_in, run_tasks

PREFIX = "final-test-"
GAME = "tute-cabrero"
STUDENTS = {"ana": "a_mas", "bruno": "a_menos", "carla": "random_legal"}
"""Each student's sample player (their first version)."""


# Each test's rows rolled back at its end; the finals' (played in a thread of their own, which sees
# only committed rows) committed, and every table emptied at the test's end.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _run_finals() -> int:
    """The finals enqueued (``run_final``), played here as a worker of the queue finals plays them."""
    return run_tasks("finals")


def _client(username: str | None, staff: bool = False, csrf: bool = False) -> Any:
    return logged_in(PREFIX + username if username is not None else None, staff, csrf)


def _ladder() -> Any:
    """The Tute Cabrero ladder, closed (no worker plays it: only its final does)."""
    from arena.serve.ladder.models import Ladder

    return Ladder.objects.get_or_create(game=GAME, defaults={"open": False})[0]


def _version(service: Path, ladder: Any, name: str, sample: str, marker: str | None = None) -> Any:
    """A clean version of ``name``'s (a student with an email and a roster id), a copy of a sample."""
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.submissions.models import Version

    user, _new = get_user_model().objects.get_or_create(username=PREFIX + name)
    student = Student.objects.get_or_create(
        user=user,
        defaults={
            "display_name": f"Autora {name.capitalize()} Núñez",
            "email": f"{name}@example.edu",
            "roster_id": f"id-{name}",
        },
    )[0]
    number = student.versions.count() + 1
    home = service / "uploads" / f"final-{student.pk}" / str(number) / sample
    shutil.rmtree(home, ignore_errors=True)
    shutil.copytree(ROOT / "sample_players" / sample, home, ignore=shutil.ignore_patterns("__pycache__"))
    if marker:
        (home / marker).write_text("una versión nueva\n", encoding="utf-8")
    return Version.objects.create(
        student=student, ladder=ladder, number=number, folder=str(home), status=Version.CLEAN
    )


def _versions(service: Path, ladder: Any) -> dict[str, Any]:
    """Each student's first version, made once."""
    from arena.serve.submissions.models import Version

    made = {}
    for name, sample in STUDENTS.items():
        found = Version.objects.filter(student__user__username=PREFIX + name, number=1).first()
        made[name] = found or _version(service, ladder, name, sample)
    return made


def _audited(text: str) -> bool:
    from arena.serve.accounts.models import AuditLog

    return AuditLog.objects.filter(what__contains=text).exists()


def test_places_map_to_grades_as_the_instructor_writes_them() -> None:
    from arena.serve.finals.final import FinalError, grade_scale, safe_name

    linear = grade_scale("10/1")
    assert [linear(p, 3) for p in (1, 2, 3)] == [10.0, 5.5, 1.0]
    assert grade_scale("")(1, 1) == 10.0  # the default, 10 for the first
    assert grade_scale("10,5 / 4")(3, 3) == 4.0 and grade_scale("10,5/4")(1, 3) == 10.5
    table = grade_scale("1=10, 2=9,5; 3=8")
    assert [table(p, 4) for p in (1, 2, 3, 4)] == [10.0, 9.5, 8.0, None]
    for bad in ("diez", "1=", "0=10", "10/"):
        with pytest.raises(FinalError, match="10/1"):
            grade_scale(bad)
    taken: set[str] = set()
    assert safe_name("Ana María Núñez", taken) == "ana-maria-nunez"
    assert safe_name("Ana  María Núñez!", taken) == "ana-maria-nunez-2"
    assert safe_name("../..", taken) == "student"


def test_the_final_is_the_instructor_s_only(service: Path) -> None:
    from arena.serve.finals.models import FinalTorneo

    ladder = _ladder()
    _versions(service, ladder)
    url = f"/instructor/ladders/{ladder.pk}/final"
    for who in (_client("ana"), _client(None)):
        assert who.get(url).status_code == 404
        assert who.post(url, {"action": "start"}).status_code == 404
    assert not FinalTorneo.objects.filter(ladder=ladder).exists()
    refused = _client("profe", staff=True, csrf=True).post(url, {"action": "start"})
    assert refused.status_code == 403 and not FinalTorneo.objects.filter(ladder=ladder).exists()
    page = _client("profe", staff=True).get(url)
    assert page.status_code == 200 and "Congelar las versiones y empezar" in page.content.decode()
    admin = _client("profe", staff=True).get(f"/instructor/ladders/{ladder.pk}").content.decode()
    assert f'href="/instructor/ladders/{ladder.pk}/final"' in admin


@pytest.mark.django_db(transaction=True)  # run_final closes its thread's connection when done
def test_a_broken_option_is_refused_with_a_clear_message(service: Path) -> None:
    from arena.serve.finals import final
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.submissions.models import Version

    ladder = _ladder()
    made = _versions(service, ladder)
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}/final"
    bad = profe.post(url, {"action": "start", "partidos": "cero"})
    assert bad.status_code == 400
    assert "El número de partidos tiene que ser un número entero" in bad.content.decode()
    bad = profe.post(url, {"action": "start", "grades": "diez"})
    assert bad.status_code == 400 and "Las notas tienen que ser" in bad.content.decode()
    assert 'value="diez"' in bad.content.decode()  # the form keeps what was written
    with pytest.raises(final.FinalError, match="no a 7"):
        final.freeze(ladder, {"table_size": 7})
    assert not FinalTorneo.objects.filter(ladder=ladder).exists()
    # a version whose folder is gone when the torneo starts: the final fails and says which
    frozen = final.freeze(ladder, {})
    gone = made["bruno"]
    Version.objects.filter(pk=gone.pk).update(folder=str(service / "nowhere"))
    try:
        final.run_final(frozen.pk)
    finally:
        Version.objects.filter(pk=gone.pk).update(folder=gone.folder)
    frozen.refresh_from_db()
    assert frozen.status == FinalTorneo.FAILED
    assert f"La carpeta de la versión {gone.pk}" in frozen.error
    page = profe.get(url).content.decode()
    assert "ya no está" in page and 'value="retry"' in page


@pytest.mark.django_db(transaction=True)  # played by a task worker
@pytest.mark.sandbox
def test_a_final_freezes_the_versions_plays_to_done_and_gives_its_downloads(service: Path) -> None:
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.worker import active_ids

    ladder = _ladder()
    made = _versions(service, ladder)
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}/final"
    started = profe.post(url, {"action": "start", "grades": "10/4", "workers": "1"})
    assert started.status_code == 302
    final = FinalTorneo.objects.get(ladder=ladder)
    assert sorted(final.versions.values_list("pk", flat=True)) == sorted(v.pk for v in made.values())
    assert _audited(f"torneo final empezado: {GAME}, 3 versiones")
    # a later upload (ana's new version plays in the ladder now) changes nothing of the final
    newer = _version(service, ladder, "ana", "random_legal", marker="nueva.txt")
    assert newer.pk in active_ids(ladder)
    from django_tasks_db.models import DBTaskResult

    from arena.serve.finals import tasks as finals_tasks

    queued = DBTaskResult.objects.get(task_path=finals_tasks.run_final.module_path)  # enqueued on commit
    assert queued.queue_name == "finals" and queued.args_kwargs["args"] == [final.pk]
    assert _run_finals() == 1
    final.refresh_from_db()
    assert final.status == FinalTorneo.DONE, final.error
    assert sorted(final.versions.values_list("pk", flat=True)) == sorted(v.pk for v in made.values())
    players = Path(final.folder) / "players"
    assert sorted(p.name for p in players.iterdir()) == [
        "autora-ana-nunez",
        "autora-bruno-nunez",
        "autora-carla-nunez",
    ]
    assert (players / "autora-ana-nunez" / "player.py").is_file()
    assert not (players / "autora-ana-nunez" / "nueva.txt").exists()
    assert final.options["players"]["autora-ana-nunez"]["version"] == made["ana"].pk
    assert "Torneo terminado" in final.progress
    page = profe.get(url).content.decode()
    for end in ("workbook", "site.zip", "grades.csv"):
        assert f'href="/instructor/finals/{final.pk}/{end}"' in page
    workbook = profe.get(f"/instructor/finals/{final.pk}/workbook")
    assert workbook.status_code == 200 and "attachment" in workbook["Content-Disposition"]
    assert workbook["Content-Disposition"].endswith('.xlsx"')
    assert b"".join(workbook.streaming_content)[:2] == b"PK"
    site = profe.get(f"/instructor/finals/{final.pk}/site.zip")
    assert site.status_code == 200 and "attachment" in site["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(b"".join(site.streaming_content))) as zf:
        assert "web/index.html" in zf.namelist()
    grades = profe.get(f"/instructor/finals/{final.pk}/grades.csv")
    assert grades.status_code == 200 and "attachment" in grades["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(grades.content.decode())))
    assert sorted(r["Email address"] for r in rows) == [f"{n}@example.edu" for n in sorted(STUDENTS)]
    assert {r["ID number"] for r in rows} == {f"id-{n}" for n in STUDENTS}
    assert sorted(r["Final torneo place"] for r in rows) == ["1", "2", "3"]
    places, shared = final.options["places"], final.options["grade_places"]
    # the grade of the best place among those the standings do not separate (arena.results.grades)
    linear = {1: "10", 2: "7", 3: "4"}
    for r in rows:
        name = f"autora-{r['Email address'].split('@')[0]}-nunez"
        assert r["Final torneo place"] == str(places[name])
        assert shared[name] <= places[name] and r["Final torneo grade"] == linear[shared[name]]
    # the instructor maps the places again: place 3 gets no grade
    assert profe.post(url, {"action": "grades", "grades": "1=10, 2=9"}).status_code == 302
    assert _audited(f"notas del torneo final de {GAME}: 1=10, 2=9")
    again = list(
        csv.DictReader(io.StringIO(profe.get(f"/instructor/finals/{final.pk}/grades.csv").content.decode()))
    )
    table = {1: "10", 2: "9", 3: ""}
    for r in again:
        name = f"autora-{r['Email address'].split('@')[0]}-nunez"
        assert r["Final torneo grade"] == table[shared[name]]
    for who in (_client("ana"), _client(None)):
        for end in ("workbook", "site.zip", "grades.csv"):
            response = who.get(f"/instructor/finals/{final.pk}/{end}")
            assert response.status_code != 200
            if who.session.get("_auth_user_id"):
                assert response.status_code == 404


@pytest.mark.django_db(transaction=True)  # played by a task worker
@pytest.mark.sandbox
def test_a_final_left_running_is_played_on_at_start(service: Path) -> None:
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from arena.serve import startup
    from arena.serve.finals import final
    from arena.serve.finals import tasks as finals_tasks
    from arena.serve.finals.models import FinalTorneo

    DBTaskResult.objects.all().delete()
    ladder = _ladder()
    _versions(service, ladder)
    left = final.freeze(ladder, {"workers": 1})  # frozen, its task never made (a forced stop)
    FinalTorneo.objects.filter(pk=left.pk).update(status=FinalTorneo.RUNNING)
    assert startup.resume(0)["finals"] == 1
    assert _run_finals() == 1
    left.refresh_from_db()
    assert left.status == FinalTorneo.DONE, left.error
    assert final.site_zip(left).is_file() and final.workbook(left) is not None
    # its worker killed after its store was made: the task, running, is ready again at the next
    # start, and arena tournament --resume finishes it
    final.site_zip(left).unlink()
    FinalTorneo.objects.filter(pk=left.pk).update(status=FinalTorneo.RUNNING, progress="")
    DBTaskResult.objects.filter(task_path=finals_tasks.run_final.module_path).update(status=TaskResultStatus.RUNNING)
    assert startup.resume(0) | {"players": 0} == {
        "tasks": 1,
        "partidos": 0,
        "checks": 0,
        "finals": 0,
        "players": 0,
    }
    assert _run_finals() == 1
    left.refresh_from_db()
    assert left.status == FinalTorneo.DONE, left.error
    assert "Reanudando el torneo" in left.progress and final.site_zip(left).is_file()
    assert startup.resume(0)["finals"] == 0 and _run_finals() == 0
