"""``arena serve``: the instructor's controls of a ladder and the student's choice of version.

Open and close a ladder, pause its workers, a deadline after which uploads are refused with a
clear message (and nothing is recorded), withdraw a version with a reason the student reads (and
reinstate it), every action in the audit log; a student chooses which clean version plays. The
versions' folders are copies of sample players, made clean without an upload.
"""

from __future__ import annotations

import io
import time
import zipfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in, run_tasks, task_worker

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

    from arena.serve.accounts.models import Student

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
    from arena.serve.accounts.models import AuditLog

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
    from arena.serve.submissions.models import Version

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


@pytest.mark.django_db(transaction=True)  # the upload accepted is checked by a task worker
@pytest.mark.sandbox  # the upload accepted before the deadline is checked in the background: in the sandbox
def test_after_the_deadline_uploads_are_refused_with_the_date(service: Path) -> None:
    from arena.serve.submissions.models import Version

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
    from arena.serve.ladder.worker import active_ids
    from arena.serve.submissions.models import Version

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


@pytest.mark.django_db(transaction=True)  # the ladder's task worker
@pytest.mark.sandbox
def test_a_paused_ladder_plays_nothing_until_resumed(service: Path) -> None:
    from django_tasks_db.models import DBTaskResult

    from arena.serve import tasks as serve_tasks
    from arena.serve.ladder import tasks
    from arena.serve.ladder.models import LadderPartido

    ladder = _ladder()
    _clean_version(service, ladder, "hebe", "random_legal")
    _clean_version(service, ladder, "ines", "basico")
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}"
    assert profe.post(url, {"action": "pause"}).status_code == 302
    assert _audited("liga en pausa: tute-dos")
    LadderPartido.objects.filter(ladder=ladder).delete()
    DBTaskResult.objects.all().delete()
    assert tasks.keep_playing(1) == 1
    try:
        with task_worker("partidos"):
            time.sleep(3.0)  # more than a task's idle pause: it has looked at the ladders at least once
            assert not LadderPartido.objects.filter(ladder=ladder).exists()
            assert serve_tasks.pending(tasks.play_partidos).count() == 1  # its successor, a moment later
            assert profe.post(url, {"action": "resume"}).status_code == 302
            assert _audited("liga reanudada: tute-dos")
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                if LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).exists():
                    break
                time.sleep(0.5)
        done = LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).first()
        assert done is not None and done.error == "" and len(done.version_ids) == 2
        assert serve_tasks.pending(tasks.play_partidos).count() == 1  # one task played: always one ready
    finally:
        DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)  # the task worker closes its connection between tasks
def test_the_play_tasks_are_kept_at_w(service: Path) -> None:
    from django.utils import timezone
    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from arena.serve import tasks as serve_tasks
    from arena.serve.ladder import tasks
    from arena.serve.ladder.models import Ladder

    DBTaskResult.objects.all().delete()

    def playing() -> Any:
        return serve_tasks.pending(tasks.play_partidos)

    assert tasks.keep_playing(3) == 3 and playing().count() == 3
    assert tasks.keep_playing(3) == 0 and playing().count() == 3  # a restart with the same W adds none
    assert {r.queue_name for r in playing()} == {"partidos"}
    one = playing().first()
    assert one is not None
    DBTaskResult.objects.filter(pk=one.pk).update(status=TaskResultStatus.RUNNING)  # a worker killed in it
    assert tasks.keep_playing(1) == -2 and playing().count() == 1  # W shrank: the extra ready ones go
    assert playing().get().pk == one.pk
    assert serve_tasks.reset_interrupted() == 1 and playing().get().status == TaskResultStatus.READY
    # each run enqueues its successor: nothing to play (no open ladder here), so a moment later
    Ladder.objects.filter(open=True).update(paused=True)
    try:
        assert run_tasks("partidos", most=1) == 1
    finally:
        Ladder.objects.filter(open=True).update(paused=False)
    DBTaskResult.objects.filter(pk=one.pk, status=TaskResultStatus.SUCCESSFUL).get()
    successor = playing().get()
    assert successor.pk != one.pk and successor.status == TaskResultStatus.READY
    assert successor.run_after > timezone.now()  # idle: not at once
    assert run_tasks("partidos") == 0  # not ready yet
    assert tasks.forget_finished() == 0  # the run just finished is kept a while (the admin shows it)
    assert tasks.forget_finished(timezone.now() + timedelta(seconds=1)) == 1
    assert not DBTaskResult.objects.filter(pk=one.pk).exists() and playing().count() == 1
    assert tasks.keep_playing(0) == -1 and not playing().exists()  # --workers 0: nothing played


@pytest.mark.django_db(transaction=True)  # the task worker closes its connection between tasks
def test_the_prune_makes_a_broken_chain_of_play_tasks_again(
    service: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A play task whose successor could not be enqueued (the database away a moment) ends its chain;
    the prune (every 10 minutes) tops the play tasks up to the server's W again."""
    from django_tasks_db.models import DBTaskResult

    from arena.serve import tasks as serve_tasks
    from arena.serve.ladder import tasks

    DBTaskResult.objects.all().delete()
    monkeypatch.setenv(tasks.PLAYERS_ENV, "2")  # as arena serve --workers 2 sets it for its workers
    tasks.keep_playing(2)
    first = serve_tasks.pending(tasks.play_partidos).first()
    assert first is not None
    first.delete()  # a chain broken
    assert serve_tasks.pending(tasks.play_partidos).count() == 1
    tasks.prune_files.enqueue()
    assert run_tasks("checks", most=1) == 1
    assert serve_tasks.pending(tasks.play_partidos).count() == 2
    DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)  # checked by a task worker
@pytest.mark.sandbox
def test_a_version_left_checking_by_a_stopped_server_is_checked_at_start(service: Path) -> None:
    from django_tasks_db.models import DBTaskResult

    from arena.serve import startup
    from arena.serve.submissions import tasks as submissions_tasks
    from arena.serve.submissions.models import Version

    DBTaskResult.objects.all().delete()
    ladder = _ladder()
    version = _clean_version(service, ladder, "juana", "basico")
    Version.objects.filter(pk=version.pk).update(status=Version.CHECKING, report="")
    assert startup.resume(0)["checks"] >= 1  # no task of it (a server of before, a forced stop): enqueued
    checks = DBTaskResult.objects.filter(task_path=submissions_tasks.check_version.module_path)
    assert [r["args"] for r in checks.values_list("args_kwargs", flat=True)].count([version.pk]) == 1
    assert startup.resume(0)["checks"] == 0  # once
    assert run_tasks("checks") >= 1
    version.refresh_from_db()
    assert version.status == Version.CLEAN and version.report
    DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)  # the worker is a process of its own
@pytest.mark.sandbox
def test_a_check_survives_its_worker_killed_and_is_done_once(service: Path) -> None:
    import os
    import signal

    from django_tasks.base import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from arena.serve import startup
    from arena.serve.ladder import pool
    from arena.serve.submissions import tasks as submissions_tasks
    from arena.serve.submissions.models import Version

    DBTaskResult.objects.all().delete()
    ladder = _ladder()
    version = _clean_version(service, ladder, "kora", "basico")
    Version.objects.filter(pk=version.pk).update(status=Version.CHECKING, report="")
    queued = submissions_tasks.check_version.enqueue(version.pk)  # as an upload enqueues it
    process = pool.start(service, "checks")
    try:
        deadline = time.monotonic() + 120
        row = DBTaskResult.objects.get(pk=queued.id)
        while row.status == TaskResultStatus.READY and time.monotonic() < deadline:
            assert process.is_alive()
            time.sleep(0.05)
            row.refresh_from_db()
        assert row.status == TaskResultStatus.RUNNING
        assert process.pid is not None
        os.kill(process.pid, signal.SIGKILL)  # mid-check, as a power cut
        process.join(30)
    finally:
        pool.stop(process)
    row.refresh_from_db()
    version.refresh_from_db()
    assert row.status == TaskResultStatus.RUNNING and version.status == Version.CHECKING
    assert startup.resume(0)["tasks"] == 1  # the next start: ready again, the same task
    row.refresh_from_db()
    assert row.status == TaskResultStatus.READY
    assert run_tasks("checks") == 1  # no second task was made for it
    row.refresh_from_db()
    version.refresh_from_db()
    assert row.status == TaskResultStatus.SUCCESSFUL and len(row.worker_ids) == 2
    assert version.status == Version.CLEAN and version.report
    assert DBTaskResult.objects.filter(task_path=submissions_tasks.check_version.module_path).count() == 1
    DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)  # the workers are processes of their own
@pytest.mark.sandbox
def test_the_worker_processes_check_the_uploads_play_and_stop(service: Path) -> None:
    from django_tasks_db.models import DBTaskResult

    from arena.serve import startup
    from arena.serve import tasks as serve_tasks
    from arena.serve.ladder import pool, tasks
    from arena.serve.ladder.models import LadderPartido
    from arena.serve.submissions import tasks as submissions_tasks
    from arena.serve.submissions.models import Version

    DBTaskResult.objects.all().delete()
    ladder = _ladder()
    LadderPartido.objects.filter(ladder=ladder).delete()
    waiting = _clean_version(service, ladder, "kira", "basico")
    Version.objects.filter(pk=waiting.pk).update(status=Version.CHECKING)  # as an upload leaves it
    submissions_tasks.check_version.enqueue(waiting.pk)  # and its check, enqueued
    _clean_version(service, ladder, "lola", "random_legal")
    startup.resume(1)
    processes = pool.start_all(service, 1)
    assert sorted(p.name for p in processes) == [
        "arena-serve-checks",
        "arena-serve-finals",
        "arena-serve-partidos",
    ]
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            waiting.refresh_from_db()
            played = LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE)
            if waiting.status != Version.CHECKING and any(waiting.pk in p.version_ids for p in played):
                break
            assert all(p.is_alive() for p in processes)
            time.sleep(0.5)
        assert waiting.status == Version.CLEAN and waiting.report
        assert LadderPartido.objects.filter(ladder=ladder, status=LadderPartido.DONE).exists()
    finally:
        pool.stop_all(processes)
    assert all(not p.is_alive() and p.exitcode == 0 for p in processes)  # each ended its task, then stopped
    assert serve_tasks.pending(tasks.play_partidos).count() == 1  # W stay W
    DBTaskResult.objects.all().delete()


@pytest.mark.django_db(transaction=True)  # the task worker closes its connection between tasks
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


def test_a_partido_worker_connects_to_the_scheduler_once_when_named(
    service: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.serve.ladder import cluster, tasks, worker

    made: list[str] = []
    monkeypatch.setattr(cluster, "connect", lambda address: made.append(address) or f"backend {address}")
    monkeypatch.delenv(tasks.SCHEDULER_ENV, raising=False)
    tasks._use_scheduler()
    assert worker._cluster is None and made == []  # no --scheduler: played here
    monkeypatch.setenv(tasks.SCHEDULER_ENV, "tcp://10.0.0.9:8786")  # as arena serve --scheduler sets it
    try:
        tasks._use_scheduler()
        tasks._use_scheduler()
        assert worker._cluster == "backend tcp://10.0.0.9:8786" and made == ["tcp://10.0.0.9:8786"]
    finally:
        worker.use_cluster(None)


@pytest.mark.django_db
def test_the_admin_shows_the_task_results(service: Path) -> None:
    from django_tasks_db.models import DBTaskResult

    from arena.serve.ladder import tasks

    DBTaskResult.objects.all().delete()
    tasks.keep_playing(1)
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_superuser(PREFIX + "admin", email="", password=None)
    client = logged_in(admin.username)
    page = client.get("/admin/django_tasks_database/dbtaskresult/")
    assert page.status_code == 200 and "play_partidos" in page.content.decode()
    DBTaskResult.objects.all().delete()


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
