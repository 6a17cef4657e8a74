"""``arena serve``, the first slice: roster, invitations, uploads checked in the background, authorization.

Django's test client against a real database (SQLite in a temporary folder, or PostgreSQL with
``DATABASE_URL``: tests/serve/conftest.py configures it once for every serve module); the checks run
the sample opponents in the sandbox. Each test's rows go at its end (pytest-django).
"""

from __future__ import annotations

import io
import re
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT

pytest.importorskip("django")
pytest.importorskip("waitress")

CLEAN_PLAYER = ROOT / "sample_players" / "random_legal"
ROSTER = (
    "Nombre,Apellido(s),Número de ID,Dirección de correo\n"
    "Ana María,Núñez,1001,ana@example.edu\n"
    "Bruno,Paz,1002,bruno@example.edu\n"
)
PASSWORD = "una-clave-larga-de-prueba-42"


# Each test's rows rolled back at its end; the uploads checked in the background (a thread of their
# own, which sees only committed rows) committed, and every table emptied at the test's end.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _zip(folder: Path | None = None, files: dict[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        if folder is not None:
            for path in sorted(folder.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    zf.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}")
        for name, text in (files or {}).items():
            zf.writestr(name, text)
    return buffer.getvalue()


def _instructor():  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model
    from django.test import Client

    users = get_user_model()
    user = users.objects.filter(username="profe").first() or users.objects.create_user(
        "profe", password=PASSWORD, is_staff=True
    )
    client = Client()
    client.force_login(user)
    return client


def _roster():  # type: ignore[no-untyped-def]
    """The roster imported once (the second time the same students are refused); their links."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from arena.serve.accounts.models import Invitation, Student

    if not Student.objects.filter(email="ana@example.edu").exists():
        csv = SimpleUploadedFile("participantes.csv", ROSTER.encode("utf-8"), content_type="text/csv")
        response = _instructor().post("/instructor/roster", {"roster": csv})
        assert response.status_code == 200
    invitations = Invitation.objects.select_related("user").filter(student__isnull=False)
    return {i.user.username: i for i in invitations}


def _student(username: str):  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model
    from django.test import Client

    _roster()
    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _upload(client, data: bytes, name: str = "jugador.zip"):  # type: ignore[no-untyped-def]
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post("/upload", {"player": SimpleUploadedFile(name, data, content_type="application/zip")})


def _checked(version_id: int, seconds: float = 40.0):  # type: ignore[no-untyped-def]
    """The version once checked: its upload enqueued the check, a worker of the queue checks runs it."""
    from arena.serve.submissions.models import Version
    from tests.serve.support import run_tasks

    run_tasks("checks")

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        version = Version.objects.get(pk=version_id)
        if version.status != Version.CHECKING:
            return version
        time.sleep(0.2)
    raise AssertionError(f"version {version_id} still being checked after {seconds} s")


def test_migrations_match_the_models() -> None:
    from django.core.management import call_command

    call_command("makemigrations", "ladder", "--check", "--dry-run", verbosity=0)


def test_the_pages_catalog_translates_every_message() -> None:
    from babel.messages.pofile import read_po

    from arena.serve import boot
    from arena.serve.messages import messages

    with boot.CATALOG.open("rb") as f:
        catalog = read_po(f, locale="es")
    pages = messages()  # read once: it reads every file of the pages
    missing = [f"{where}: {msgid!r}" for msgid, where in pages.items() if catalog.get(msgid) is None]
    missing += [f"untranslated {e.id!r}" for e in catalog if e.id and not e.string]
    assert not missing, "not in arena/serve/locale/es/LC_MESSAGES/django.po:\n" + "\n".join(missing)
    stale = [e.id for e in catalog if e.id and e.id not in pages]
    assert not stale, f"in django.po but no longer in the pages: {stale}"


def test_a_template_message_with_a_percent_sign_is_translated() -> None:
    """Django looks a template's ``%`` up doubled: the catalog holds it so (the final page's
    *Until separated* checkbox was left in English)."""
    from django.template import engines
    from django.utils import translation

    message = "Until separated: more partidos until consecutive places are separated at 95%"
    source = '{% load i18n %}{% translate "' + message + '" %}'
    with translation.override("es"):
        text = engines["django"].from_string(source).render()
    assert text.startswith("Hasta separar:") and text.endswith(" al 95%"), text


def test_pages_speak_spanish_by_default_and_english_on_request() -> None:
    from django.test import Client

    assert "Entrar" in Client().get("/login/").content.decode()
    # the browser's language is not a choice: a course in Spanish stays in Spanish
    assert "Entrar" in Client(headers={"accept-language": "en"}).get("/login/").content.decode()
    chooser = Client()
    chosen = chooser.post("/i18n/setlang/", {"language": "en", "next": "/login/"})
    assert chosen.status_code == 302 and chosen["Location"] == "/login/"
    page = chooser.get("/login/")
    assert "Log in" in page.content.decode() and page["Content-Language"] == "en"
    unknown = Client()
    unknown.cookies["django_language"] = "xx"
    assert "Entrar" in unknown.get("/login/").content.decode()


def test_roster_import_creates_students_and_invitation_links() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from arena.serve.accounts.models import AuditLog, Student

    invitations = _roster()
    assert set(invitations) == {"ana@example.edu", "bruno@example.edu"}
    ana = Student.objects.get(email="ana@example.edu")
    assert (ana.display_name, ana.roster_id) == ("Ana María Núñez", "1001")
    assert not ana.user.has_usable_password()
    assert AuditLog.objects.filter(who__username="profe", what__startswith="lista importada: 2").exists()
    again = SimpleUploadedFile("participantes.csv", ROSTER.encode("utf-8"), content_type="text/csv")
    page = _instructor().post("/instructor/roster", {"roster": again}).content.decode()
    assert "ana@example.edu ya está en la lista" in page
    assert Student.objects.count() == 2


def test_roster_page_shows_one_link_per_new_student() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv = SimpleUploadedFile("p.csv", b"First name,Last name,Email address\nCarla,Ruiz,carla@example.edu\n")
    page = _instructor().post("/instructor/roster", {"roster": csv}).content.decode()
    from arena.serve.accounts.models import Invitation

    token = Invitation.objects.get(user__username="carla@example.edu").token
    assert f"http://testserver/invite/{token}" in page


def test_an_invitation_sets_a_password_once() -> None:
    from django.test import Client

    invitation = _roster()["bruno@example.edu"]
    client = Client()
    url = f"/invite/{invitation.token}"
    assert client.get(url).status_code == 200
    done = client.post(url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 200
    assert Client().login(username="bruno@example.edu", password=PASSWORD)
    again = client.post(url, {"new_password1": "otra-clave-larga-99", "new_password2": "otra-clave-larga-99"})
    assert again.status_code == 410
    assert client.get(url).status_code == 410
    assert not Client().login(username="bruno@example.edu", password="otra-clave-larga-99")
    assert Client().get("/invite/no-such-token").status_code == 404


@pytest.mark.django_db(transaction=True)  # checked by a task worker
@pytest.mark.sandbox
@pytest.mark.slow
def test_a_clean_upload_ends_clean_and_a_broken_one_says_why() -> None:
    from arena.serve.submissions.models import Version

    ana = _student("ana@example.edu")
    response = _upload(ana, _zip(CLEAN_PLAYER))
    assert response.status_code == 302
    clean_id = int(response.url.rsplit("/", 1)[1])
    broken = _upload(ana, _zip(files={"roto/player.py": 'raise RuntimeError("roto a propósito")\n'}))
    broken_id = int(broken.url.rsplit("/", 1)[1])
    from django_tasks_db.models import DBTaskResult

    from arena.serve.submissions import tasks as submissions_tasks

    # each upload enqueued its check (on commit) for a worker of the queue checks
    path = submissions_tasks.check_version.module_path
    checks = DBTaskResult.objects.filter(task_path=path, queue_name="checks")
    assert sorted(r["args"][0] for r in checks.values_list("args_kwargs", flat=True)) == [clean_id, broken_id]
    assert Version.objects.get(pk=clean_id).status == Version.CHECKING
    clean, bad = _checked(clean_id), _checked(broken_id)
    assert {r.status for r in checks} == {"SUCCESSFUL"}  # once each, in the admin's task results
    assert clean.status == Version.CLEAN, clean.report
    assert (clean.number, bad.number) == (1, 2)
    assert bad.status == Version.BROKEN
    assert "RuntimeError: roto a propósito" in bad.report
    page = ana.get(f"/versions/{broken_id}").content.decode()
    assert "roto a propósito" in page
    mine = ana.get("/me").content.decode()
    assert f"/versions/{clean_id}" in mine and "limpia" in mine


def test_an_upload_that_is_no_player_is_refused_with_the_reason() -> None:
    from arena.serve.submissions.models import Version

    ana = _student("ana@example.edu")
    response = _upload(ana, _zip(files={"notas.txt": "nada"}))
    version = Version.objects.get(pk=int(response.url.rsplit("/", 1)[1]))
    assert version.status == Version.BROKEN
    assert "player.py" in version.report
    assert _upload(ana, b"not a zip at all").status_code == 302
    tar = _upload(ana, b"x", name="jugador.tar")  # one file that is not a zip: a player's only file
    assert tar.status_code == 302
    assert "player.py" in Version.objects.get(pk=int(tar.url.rsplit("/", 1)[1])).report


@pytest.mark.django_db(transaction=True)  # checked by a task worker
@pytest.mark.sandbox  # the upload is checked as the one above: the sample opponents play in the sandbox
@pytest.mark.slow
def test_the_player_s_files_can_be_uploaded_without_a_zip() -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from arena.serve.submissions.models import Version

    ana = _student("ana@example.edu")
    files = [
        SimpleUploadedFile(name, text.encode())
        for name, text in (
            ("player.py", (CLEAN_PLAYER / "player.py").read_text()),
            ("../../notas.txt", "mías\n"),
        )
    ]
    response = ana.post("/upload", {"player": files})
    assert response.status_code == 302
    version = _checked(int(response.url.rsplit("/", 1)[1]))
    assert version.status == Version.CLEAN, version.report
    folder = Path(version.folder)
    assert sorted(p.name for p in folder.iterdir() if p.name != "__pycache__") == ["notas.txt", "player.py"]
    assert folder.name == "jugador" and "uploads" in folder.parts  # inside the version's folder
    mixed = [SimpleUploadedFile("player.py", b"x"), SimpleUploadedFile("otro.zip", _zip(CLEAN_PLAYER))]
    refused = ana.post("/upload", {"player": mixed})
    assert refused.status_code == 400 and "Subí un solo .zip" in refused.content.decode()
    many = [SimpleUploadedFile(f"f{i}.py", b"x") for i in range(51)]
    assert ana.post("/upload", {"player": many}).status_code == 400


PUBLIC = {
    "home", "style", "login", "logout", "invite", "me", "upload", "password_reset", "password_reset_done",
    "password_reset_confirm", "password_reset_complete", "standings", "live", "live_script", "partido",
    "replay", "viewer_asset", "set_language",
}
"""The addresses any logged-in student may open (each checks its own object); every other one, a new
one included, must refuse a student who does not own what it names (default-deny)."""


def _patterns(resolver: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    from django.urls import URLResolver

    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if not route.startswith("admin/"):  # the admin: checked whole, below
                yield from _patterns(entry, route)
        else:
            yield route, entry


def test_every_address_refuses_another_student_unless_it_is_public() -> None:
    from django.urls import get_resolver

    from arena.serve.accounts.models import Student
    from arena.serve.submissions.models import Version

    _upload(_student("ana@example.edu"), _zip(files={"x.txt": "x"}))
    theirs = Version.objects.filter(student=Student.objects.get(email="ana@example.edu")).first()
    assert theirs is not None
    bruno = _student("bruno@example.edu")
    checked = []
    for route, entry in _patterns(get_resolver()):
        if entry.name in PUBLIC:
            continue
        url = "/" + re.sub(r"<int:\w+>", str(theirs.pk), re.sub(r"<(?:str:|path:)?\w+>", "x", route))
        for answer in (bruno.get(url), bruno.post(url, {})):
            assert answer.status_code in (302, 403, 404, 405), (url, answer.status_code)
            if answer.status_code == 302:
                assert "login" in answer["Location"], (url, answer["Location"])
        checked.append(entry.name)
    assert {"version", "version_files", "choose", "roster", "links_csv", "final_site_index"} <= set(checked)
    admin = bruno.get("/admin/")
    assert admin.status_code == 302 and "login" in admin["Location"]


def test_another_student_gets_404_for_a_version_and_for_the_roster() -> None:
    from arena.serve.accounts.models import Student
    from arena.serve.submissions.models import Version

    _upload(_student("ana@example.edu"), _zip(files={"x.txt": "x"}))  # no player: refused at once
    ana = Student.objects.get(email="ana@example.edu")
    theirs = Version.objects.filter(student=ana).first()
    assert theirs is not None
    bruno = _student("bruno@example.edu")
    assert bruno.get(f"/versions/{theirs.pk}").status_code == 404
    assert bruno.get("/instructor/roster").status_code == 404
    assert bruno.post("/instructor/roster", {}).status_code == 404
    assert f"/versions/{theirs.pk}" not in bruno.get("/me").content.decode()
    assert _student("ana@example.edu").get(f"/versions/{theirs.pk}").status_code == 200
    assert _instructor().get(f"/versions/{theirs.pk}").status_code == 200
    from django.test import Client

    assert Client().get(f"/versions/{theirs.pk}").status_code == 302  # to the login page


def test_csrf_is_enforced_on_post() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from arena.serve.submissions.models import Version

    _roster()
    client = Client(enforce_csrf_checks=True)
    client.force_login(get_user_model().objects.get(username="ana@example.edu"))
    before = Version.objects.count()
    assert _upload(client, _zip(CLEAN_PLAYER)).status_code == 403
    assert Version.objects.count() == before
    invitation = _roster()["ana@example.edu"]
    response = Client(enforce_csrf_checks=True).post(
        f"/invite/{invitation.token}", {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )
    assert response.status_code == 403


def test_the_instructor_link_works_once() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from arena.cli.serve import INSTRUCTOR, instructor_link

    link = instructor_link("http://127.0.0.1:8000")
    assert link is not None and link.startswith("http://127.0.0.1:8000/invite/")
    assert instructor_link("http://127.0.0.1:8000") == link  # the same account, the same unused link
    path = link.removeprefix("http://127.0.0.1:8000")
    client = Client()
    assert client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD}).status_code == 200
    assert client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD}).status_code == 410
    assert instructor_link("http://127.0.0.1:8000") is None
    assert get_user_model().objects.filter(is_superuser=True).count() == 1
    instructor = Client()
    assert instructor.login(username=INSTRUCTOR, password=PASSWORD)
    assert instructor.get("/instructor/roster").status_code == 200
    assert instructor.get("/admin/").status_code == 200


def test_settings_read_a_postgresql_url() -> None:
    from arena.serve.settings import database

    db = database("postgresql://arena:s%40cret@db.example:5433/ladder", Path("/x"))
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "ladder",
        "USER": "arena",
        "PASSWORD": "s@cret",
        "HOST": "db.example",
        "PORT": "5433",
        "CONN_MAX_AGE": 600,  # each web thread keeps its connection
        "CONN_HEALTH_CHECKS": True,
    }
    sqlite = database(None, Path("/x"))
    assert sqlite["NAME"] == "/x/serve.sqlite3" and sqlite["CONN_MAX_AGE"] == 600


def test_the_secret_key_is_kept_private(service: Path) -> None:
    key = service / "secret_key"
    assert key.stat().st_mode & 0o777 == 0o600
    from django.conf import settings

    assert key.read_text().strip() == settings.SECRET_KEY
    assert settings.SESSION_COOKIE_HTTPONLY and settings.LANGUAGE_CODE == "es"


def test_every_page_carries_the_site_s_content_security_policy() -> None:
    from django.test import Client

    from arena.results.web import CSP

    for page, client in (("/login/", Client()), ("/me", _student("ana@example.edu"))):
        response = client.get(page)
        assert response.status_code == 200 and response["Content-Security-Policy"] == CSP, page
        assert response["X-Content-Type-Options"] == "nosniff" and "<style>" not in response.content.decode()
    style = Client().get("/style.css")
    assert style.status_code == 200 and style["Content-Type"].startswith("text/css")


def test_uploads_are_never_served_and_are_rate_limited(service: Path) -> None:
    from django.test import override_settings

    ana = _student("ana@example.edu")
    for place in ("/uploads/1/1/upload.zip", f"/{service.name}/uploads/1/1/upload.zip", "/static/../uploads"):
        assert ana.get(place).status_code == 404, place
    from arena.serve.submissions.models import Version

    made = Version.objects.filter(student__user__username="ana@example.edu").count()
    with override_settings(UPLOADS_PER_HOUR=made):
        refused = _upload(ana, _zip(files={"notas.txt": "nada"}))
    assert refused.status_code == 429 and "como mucho" in refused.content.decode()
    assert Version.objects.filter(student__user__username="ana@example.edu").count() == made
