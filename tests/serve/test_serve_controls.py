"""``arena serve``: the instructor's controls of a ladder and the student's choice of version.

Open and close a ladder, pause its workers, a deadline after which uploads are refused with a
clear message (and nothing is recorded), withdraw a version with a reason the student reads (and
reinstate it), every action in the audit log; a student chooses which clean version plays. The
versions' folders are copies of sample players, made clean without an upload.
"""

from __future__ import annotations

import io
import threading
import time
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in

PREFIX = "controls-test-"
SAMPLES = ("a_mas", "a_menos", "random_legal")


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _client(username: str, staff: bool = False, csrf: bool = False) -> Any:
    return logged_in(PREFIX + username, staff, csrf)


def _ladder() -> Any:
    """A ladder of Tute de a dos (two seats: its partidos are quick), open, with no deadline."""
    from arena.serve.ladder.models import Ladder

    ladder, _new = Ladder.objects.get_or_create(game="tute-dos")
    ladder.open, ladder.paused, ladder.deadline = True, False, None
    ladder.save()
    return ladder


def _student(name: str) -> Any:
    from django.contrib.auth import get_user_model

    from arena.serve.ladder.models import Student

    user, _new = get_user_model().objects.get_or_create(username=PREFIX + name)
    return Student.objects.get_or_create(user=user, defaults={"display_name": f"Autora {name}"})[0]


def _clean_version(service: Path, ladder: Any, name: str, sample: str = "random_legal") -> Any:
    """A clean version of ``name``'s, a copy of a Tute de a dos sample."""
    return clean_version(service, PREFIX + name, f"Autora {name}", ladder, ROOT / "sample_dos" / sample)


def _zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("jugador/player.py", "x = 1\n")
    return buffer.getvalue()


def _upload(client: Any, ladder: Any) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    sent = SimpleUploadedFile("jugador.zip", _zip(), content_type="application/zip")
    return client.post("/upload", {"player": sent, "ladder": str(ladder.pk)})


def _audited(text: str) -> bool:
    from arena.serve.ladder.models import AuditLog

    return AuditLog.objects.filter(what__contains=text).exists()


@pytest.mark.django_db
def test_the_controls_are_the_instructor_s_only(service: Path) -> None:
    ladder = _ladder()
    student = _client("eva")
    assert student.get(f"/instructor/ladders/{ladder.pk}").status_code == 404
    assert student.post(f"/instructor/ladders/{ladder.pk}", {"action": "close"}).status_code == 404
    ladder.refresh_from_db()
    assert ladder.open
    page = _client("profe", staff=True).get(f"/instructor/ladders/{ladder.pk}")
    assert page.status_code == 200 and "Cerrar la liga" in page.content.decode()


@pytest.mark.django_db
def test_every_control_needs_the_csrf_token(service: Path) -> None:
    ladder = _ladder()
    response = _client("profe", staff=True, csrf=True).post(
        f"/instructor/ladders/{ladder.pk}", {"action": "close"}
    )
    assert response.status_code == 403
    ladder.refresh_from_db()
    assert ladder.open


@pytest.mark.django_db
def test_a_closed_ladder_refuses_uploads_and_records_nothing(service: Path) -> None:
    from arena.serve.ladder.models import Version

    ladder = _ladder()
    profe = _client("profe", staff=True)
    assert profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "close"}).status_code == 302
    ladder.refresh_from_db()
    assert not ladder.open and _audited("liga cerrada: tute-dos")
    student = _client("eva")
    _student("eva")
    before = Version.objects.count()
    response = _upload(student, ladder)
    assert response.status_code == 403
    assert "Esa liga está cerrada: no acepta subidas." in response.content.decode()
    assert Version.objects.count() == before
    assert profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "open"}).status_code == 302
    ladder.refresh_from_db()
    assert ladder.open and _audited("liga abierta: tute-dos")


@pytest.mark.django_db(transaction=True)  # the upload accepted is checked in a thread of its own
@pytest.mark.sandbox  # the upload accepted before the deadline is checked in the background: in the sandbox
def test_after_the_deadline_uploads_are_refused_with_the_date(service: Path) -> None:
    from arena.serve.ladder.models import Version

    ladder = _ladder()
    profe = _client("profe", staff=True)
    bad = profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "deadline", "deadline": "mañana"})
    assert bad.status_code == 400 and "El plazo tiene que ser una fecha" in bad.content.decode()
    past = "2020-03-01T12:30"
    assert (
        profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "deadline", "deadline": past}).status_code
        == 302
    )
    ladder.refresh_from_db()
    assert ladder.deadline is not None and f"{ladder.deadline:%Y-%m-%d %H:%M}" == "2020-03-01 12:30"
    assert _audited("plazo de tute-dos: 2020-03-01 12:30 UTC")
    student = _client("eva")
    _student("eva")
    before = Version.objects.count()
    response = _upload(student, ladder)
    assert response.status_code == 403
    assert "El plazo de la liga tute-dos venció el 2020-03-01 12:30 UTC" in response.content.decode()
    assert Version.objects.count() == before
    # a deadline still ahead is shown to the students and lets the upload through
    from django.utils import timezone

    ahead = (timezone.now() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "deadline", "deadline": ahead})
    assert "subidas hasta el" in student.get("/me").content.decode()
    accepted = _upload(student, ladder)
    assert accepted.status_code == 302
    new = Version.objects.filter(student__user__username=PREFIX + "eva").order_by("-number").first()
    assert new is not None and new.ladder_id == ladder.pk
    profe.post(f"/instructor/ladders/{ladder.pk}", {"action": "deadline", "deadline": ""})
    ladder.refresh_from_db()
    assert ladder.deadline is None


@pytest.mark.django_db
def test_a_withdrawn_version_stops_playing_and_its_author_reads_why(service: Path) -> None:
    from arena.serve.ladder.worker import active_ids

    ladder = _ladder()
    version = _clean_version(service, ladder, "flor")
    assert version.pk in active_ids(ladder)
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}"
    silent = profe.post(url, {"action": "withdraw", "version": version.pk, "reason": " "})
    assert silent.status_code == 400 and "Decí por qué se retira la versión" in silent.content.decode()
    reason = "Lee archivos de otros jugadores"
    assert profe.post(url, {"action": "withdraw", "version": version.pk, "reason": reason}).status_code == 302
    assert version.pk not in active_ids(ladder)
    assert _audited(f"versión retirada: Autora flor, versión {version.number}: {reason}")
    author = _client("flor")
    assert reason in author.get("/me").content.decode()
    assert reason in author.get(f"/versions/{version.pk}").content.decode()
    assert profe.post(url, {"action": "reinstate", "version": version.pk}).status_code == 302
    assert version.pk in active_ids(ladder)
    assert _audited(f"versión restituida: Autora flor, versión {version.number}")
    other = profe.post(url, {"action": "withdraw", "version": 10**9, "reason": "x"})
    assert other.status_code == 400 and "Elegí una versión de esta liga." in other.content.decode()


@pytest.mark.django_db
def test_a_student_chooses_which_clean_version_plays(service: Path) -> None:
    from arena.serve.ladder.models import Version
    from arena.serve.ladder.worker import active_ids

    ladder = _ladder()
    first = _clean_version(service, ladder, "gala", "random_legal")
    second = _clean_version(service, ladder, "gala", "basico")
    broken = Version.objects.create(student=first.student, ladder=ladder, number=3, status=Version.BROKEN)
    assert second.pk in active_ids(ladder) and first.pk not in active_ids(ladder)  # the last clean one
    gala = _client("gala")
    assert gala.post(f"/versions/{first.pk}/choose").status_code == 302
    assert first.pk in active_ids(ladder) and second.pk not in active_ids(ladder)
    assert _audited(f"elegida para jugar: Autora gala, versión {first.number}")
    refused = gala.post(f"/versions/{broken.pk}/choose")
    assert refused.status_code == 400 and "Solo puede jugar una versión limpia" in refused.content.decode()
    assert first.pk in active_ids(ladder)
    # another student cannot choose for her: the version does not exist for them
    assert _client("eva").post(f"/versions/{second.pk}/choose").status_code == 404
    assert first.pk in active_ids(ladder)
    assert gala.get(f"/versions/{second.pk}/choose").status_code == 405


@pytest.mark.django_db(transaction=True)  # the ladder's worker threads
@pytest.mark.sandbox
def test_a_paused_ladder_plays_nothing_until_resumed(service: Path) -> None:
    from arena.serve.ladder.models import LadderPartido
    from arena.serve.ladder.worker import run_workers

    ladder = _ladder()
    _clean_version(service, ladder, "hebe", "random_legal")
    _clean_version(service, ladder, "ines", "basico")
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}"
    assert profe.post(url, {"action": "pause"}).status_code == 302
    assert _audited("liga en pausa: tute-dos")
    LadderPartido.objects.filter(ladder=ladder).delete()
    stop = threading.Event()
    threads = run_workers(1, stop)
    try:
        time.sleep(3.0)  # more than a worker's idle pause: it has looked at the ladders at least once
        assert not LadderPartido.objects.filter(ladder=ladder).exists()
        assert profe.post(url, {"action": "resume"}).status_code == 302
        assert _audited("liga reanudada: tute-dos")
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).exists():
                break
            time.sleep(0.5)
        done = LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).first()
        assert done is not None and done.error == "" and len(done.versions) == 2
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=120)
    assert not any(t.is_alive() for t in threads)


@pytest.mark.django_db(transaction=True)  # checked in threads of their own
@pytest.mark.sandbox
def test_a_version_left_checking_by_a_stopped_server_is_checked_at_start(service: Path) -> None:
    from arena.serve.ladder.checking import resume_checks
    from arena.serve.ladder.models import Version

    ladder = _ladder()
    version = _clean_version(service, ladder, "juana", "basico")
    Version.objects.filter(pk=version.pk).update(status=Version.CHECKING, report="")
    threads = resume_checks()
    assert version.pk in {int(t.name.removeprefix("check-")) for t in threads}
    for thread in threads:
        thread.join(timeout=300)
    version.refresh_from_db()
    assert version.status == Version.CLEAN and version.report


@pytest.mark.django_db(transaction=True)  # the worker is a process of its own
@pytest.mark.sandbox
def test_the_worker_process_checks_the_uploads_plays_and_stops(service: Path) -> None:
    from arena.serve.ladder import pool
    from arena.serve.ladder.models import LadderPartido, Version

    ladder = _ladder()
    LadderPartido.objects.filter(ladder=ladder).delete()
    waiting = _clean_version(service, ladder, "kira", "basico")
    Version.objects.filter(pk=waiting.pk).update(status=Version.CHECKING)  # as an upload leaves it
    _clean_version(service, ladder, "lola", "random_legal")
    process = pool.start(service, 1)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            waiting.refresh_from_db()
            played = LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE)
            if waiting.status != Version.CHECKING and any(waiting.pk in p.versions for p in played):
                break
            assert process.is_alive()
            time.sleep(0.5)
        assert waiting.status == Version.CLEAN and waiting.report
        assert LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).exists()
    finally:
        pool.stop(process)
    assert not process.is_alive() and process.exitcode == 0


@pytest.mark.django_db
@pytest.mark.sandbox
def test_with_a_scheduler_the_partidos_are_played_on_the_dask_cluster(service: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the distributed extra is not installed")
    from arena.serve.ladder import cluster, worker
    from arena.serve.ladder.models import LadderPartido
    from tests.tournament.test_distributed import Cluster

    ladder = _ladder()
    LadderPartido.objects.filter(ladder=ladder).delete()
    _clean_version(service, ladder, "mora", "basico")
    _clean_version(service, ladder, "nina", "random_legal")
    dask = Cluster(tmp_path, 1)
    backend = cluster.connect(dask.address)
    try:
        worker.use_cluster(backend)
        partido = worker.play_next(ladder)
    finally:
        worker.use_cluster(None)
        backend.close()
        dask.close()
    assert partido is not None and partido.status == LadderPartido.DONE and partido.error == ""
    assert len(partido.ranking) >= 1 and partido.winners
    from arena.serve.ladder.storage import plain, read_bytes

    replay = Path(partido.replay)  # compressed once done
    assert plain(replay) == worker.replay_path(partido) and b"partido_start" in read_bytes(replay)
    logs = Path(f"{plain(replay)}.logs")
    assert logs.is_dir() and sorted(p.name for p in logs.iterdir())  # the players' stderr came back
    assert not list(replay.parent.glob(".*"))  # no temporary file left beside it


def test_an_unreachable_scheduler_is_one_line_before_anything_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed", reason="the distributed extra is not installed")
    pytest.importorskip("django")
    from click.testing import CliRunner

    from arena.cli.serve import serve_cmd

    monkeypatch.setattr("arena.tournament.cluster.backend.CONNECT_S", 0.5)  # nothing listens: no wait

    result = CliRunner().invoke(serve_cmd, [str(tmp_path / "data"), "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 1
    assert result.output.startswith("Error: no se puede llegar al scheduler de Dask en tcp://127.0.0.1:9")
    assert len(result.output.strip().splitlines()) == 1 and not (tmp_path / "data").exists()
