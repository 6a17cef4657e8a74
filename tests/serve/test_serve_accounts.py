"""``arena serve``: recovering accounts — the roster's pending links (shown again, copied, as CSV),
a new link per student (the old one stops working), password reset links from the instructor,
Django's password reset by email when SMTP is configured, the login lockout beside them, and
``arena serve manage DIR …`` (Django's management commands on DIR's database).

Each test's rows go at its end (tests/serve/conftest.py).
"""

from __future__ import annotations

import csv
import io
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.serve.support import logged_in

pytest.importorskip("django")

PREFIX = "acct-test-"
PASSWORD = "una-clave-larga-de-prueba-52"
NEW_PASSWORD = "otra-clave-larga-de-prueba-52"
ROSTER = (
    "First name,Last name,ID number,Email address\n"
    f"Ana,Núñez,@SUM(1+1),{PREFIX}ana@example.edu\n"
    f"Bruno,Paz,2002,{PREFIX}bruno@example.edu\n"
    f"Carla,Ruiz,2003,{PREFIX}carla@example.edu\n"
)
INSTRUCTOR = f"{PREFIX}profe"


pytestmark = pytest.mark.django_db  # each test's rows (and lockout counts) rolled back at its end


@pytest.fixture(autouse=True)
def service(serve_dir: Path) -> Path:
    """The shared service (tests/serve/conftest.py), the roster imported."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    sent = SimpleUploadedFile("roster.csv", ROSTER.encode(), content_type="text/csv")
    answer = logged_in(INSTRUCTOR, staff=True).post("/instructor/roster", {"roster": sent})
    assert answer.status_code == 200
    return serve_dir


def _student(name: str) -> Any:
    from arena.serve.accounts.models import Student

    return Student.objects.select_related("user").get(user__username=f"{PREFIX}{name}@example.edu")


def _pending(name: str) -> Any:
    from arena.serve.accounts.models import Invitation

    return Invitation.objects.get(user__username=f"{PREFIX}{name}@example.edu", used_at__isnull=True)


def _set(token: str, password: str, again: str | None = None) -> Any:
    from django.test import Client

    return Client().post(f"/invite/{token}", {"new_password1": password, "new_password2": again or password})


def _can_log_in(name: str, password: str) -> bool:
    from django.test import Client

    return Client().login(username=f"{PREFIX}{name}@example.edu", password=password)


# --- the roster's pending links


def test_the_links_are_shown_again_on_the_roster_with_a_copy_button() -> None:
    page = logged_in(INSTRUCTOR).get("/instructor/roster").content.decode()
    for name in ("ana", "bruno"):
        invitation = _pending(name)
        assert f"http://testserver/invite/{invitation.token}" in page
        assert f'data-copy="link-text-{invitation.pk}"' in page
        assert f'<code class="link" id="link-text-{invitation.pk}">' in page  # wraps in its cell
    assert re.search(r'<script src="/static/ladder/copy\.js" defer>', page)
    assert "/instructor/roster/links.csv" in page


def test_the_links_csv_has_one_inert_row_per_pending_link() -> None:
    answer = logged_in(INSTRUCTOR).get("/instructor/roster/links.csv")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/csv")
    assert answer["Cache-Control"] == "no-store"
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    mine = {row["Email address"]: row for row in rows if row["Email address"].startswith(PREFIX)}
    ana = mine[f"{PREFIX}ana@example.edu"]
    assert ana["Link"] == f"http://testserver/invite/{_pending('ana').token}"
    assert ana["ID number"] == "'@SUM(1+1)"  # a formula a spreadsheet would run: made inert
    assert ana["Name"] == "Ana Núñez" and ana["Issued (UTC)"]


@pytest.mark.parametrize("who", [None, f"{PREFIX}ana@example.edu"])
@pytest.mark.parametrize("page", ["/instructor/roster/links.csv", "/instructor/roster"])
def test_only_instructors_see_the_links(who: str | None, page: str) -> None:
    assert logged_in(who).get(page).status_code == 404


def test_a_student_cannot_issue_links() -> None:
    student = _student("bruno")
    before = _pending("bruno").token
    answer = logged_in(f"{PREFIX}ana@example.edu").post("/instructor/roster/links", {"student": student.pk})
    assert answer.status_code == 404
    assert _pending("bruno").token == before


def test_a_new_link_replaces_the_pending_one() -> None:
    from django.test import Client

    from arena.serve.accounts.models import AuditLog

    student = _student("bruno")
    old = _pending("bruno")
    answer = logged_in(INSTRUCTOR).post("/instructor/roster/links", {"student": student.pk})
    new = _pending("bruno")
    assert answer.status_code == 302 and answer["Location"] == f"/instructor/roster#link-{new.pk}"
    assert new.token != old.token
    assert Client().get(f"/invite/{old.token}").status_code == 404  # the old link no longer works
    assert Client().get(f"/invite/{new.token}").status_code == 200
    page = logged_in(INSTRUCTOR).get("/instructor/roster").content.decode()
    assert new.token in page and old.token not in page
    assert AuditLog.objects.filter(what=f"new link issued: {student.display_name}").exists() or (
        AuditLog.objects.filter(what=f"enlace nuevo emitido: {student.display_name}").exists()
    )


@pytest.mark.parametrize("sent", [{"student": "999999"}, {"student": "x"}, {}])
def test_a_bad_new_link_request_says_why_and_changes_nothing(sent: dict[str, str]) -> None:
    from arena.serve.accounts.models import Invitation

    before = set(Invitation.objects.values_list("token", flat=True))
    answer = logged_in(INSTRUCTOR).post("/instructor/roster/links", sent, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400
    page = answer.content.decode()
    assert 'class="error"' in page
    assert set(Invitation.objects.values_list("token", flat=True)) == before
    assert _pending("ana").token in page  # the list is still there


def test_a_bad_new_link_request_is_in_spanish_by_default() -> None:
    answer = logged_in(INSTRUCTOR).post("/instructor/roster/links", {"student": "999999"})
    assert "Ese estudiante no está en la lista." in answer.content.decode()


# --- password reset links from the instructor


def test_a_reset_link_sets_a_new_password_once() -> None:
    from django.test import Client

    token = _pending("ana").token
    assert _set(token, PASSWORD).status_code == 200  # the invitation: ana has a password
    assert _can_log_in("ana", PASSWORD)
    student = _student("ana")
    logged_in(INSTRUCTOR).post("/instructor/roster/links", {"student": student.pk})
    reset = _pending("ana")
    page = logged_in(INSTRUCTOR).get("/instructor/roster", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(rf'id="link-{reset.pk}">.*?<td>(password reset|cambio de contraseña)</td>', page)
    assert _can_log_in("ana", PASSWORD)  # the old password works until the link is used
    bad = _set(reset.token, NEW_PASSWORD, "something-else-entirely")
    assert bad.status_code == 200 and 'class="errorlist' in bad.content.decode()  # beside the field
    assert _can_log_in("ana", PASSWORD)  # nothing changed
    assert _set(reset.token, NEW_PASSWORD).status_code == 200
    assert _can_log_in("ana", NEW_PASSWORD) and not _can_log_in("ana", PASSWORD)
    assert Client().get(f"/invite/{reset.token}").status_code == 410
    assert reset.token not in logged_in(INSTRUCTOR).get("/instructor/roster").content.decode()


# --- Django's password reset by email


def test_the_reset_by_email_is_not_offered_without_smtp() -> None:
    from django.test import Client

    client = Client()
    assert client.get("/password_reset/").status_code == 404
    assert client.post("/password_reset/", {"email": f"{PREFIX}ana@example.edu"}).status_code == 404
    login = client.get("/login/").content.decode()
    assert "/password_reset/" not in login
    assert "Pedile a tu docente un enlace nuevo" in login


@pytest.fixture
def smtp(settings: Any, mailoutbox: list[Any]) -> list[Any]:
    """The reset by email on, its mails kept in memory (pytest-django's ``mailoutbox``: Django's
    locmem backend), its hourly limits fresh (they are counted in the cache)."""
    from django.core.cache import cache

    cache.clear()
    settings.PASSWORD_RESET_BY_EMAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return mailoutbox


def test_a_student_resets_their_password_by_email(smtp: list[Any]) -> None:
    from django.test import Client

    username = f"{PREFIX}bruno@example.edu"
    assert _set(_pending("bruno").token, PASSWORD).status_code == 200
    client = Client()
    assert "/password_reset/" in client.get("/login/").content.decode()
    unknown = client.post("/password_reset/", {"email": "nobody@example.edu"})
    assert unknown.status_code == 302 and not smtp  # says nothing of which addresses exist
    bad = client.post("/password_reset/", {"email": "not an address"})
    assert bad.status_code == 200 and 'class="errorlist' in bad.content.decode() and not smtp
    sent = client.post("/password_reset/", {"email": username})
    assert sent.status_code == 302 and sent["Location"] == "/password_reset/sent/"
    assert len(smtp) == 1 and smtp[0].to == [username]
    link = re.search(r"http://testserver(/reset/\S+/\S+/)", smtp[0].body)
    assert link, smtp[0].body
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200 and "new_password1" in form.content.decode()
    where = form.redirect_chain[-1][0]
    mismatch = client.post(where, {"new_password1": NEW_PASSWORD, "new_password2": "no-es-la-misma-clave"})
    assert mismatch.status_code == 200 and 'class="errorlist' in mismatch.content.decode()
    assert _student("bruno").user.check_password(PASSWORD)  # nothing changed (a login would void the link)
    done = client.post(where, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/reset/done/"
    assert _can_log_in("bruno", NEW_PASSWORD) and not _can_log_in("bruno", PASSWORD)
    again = Client().get(link.group(1), follow=True)  # the emailed link works once
    assert "new_password1" not in again.content.decode()


def test_the_reset_emails_are_rate_limited_per_mailbox_and_per_address(smtp: list[Any]) -> None:
    """No more than RESET_EMAILS_PER_HOUR mails to one mailbox (then the same page, nothing sent: no
    mail bomb, and nothing told of which addresses exist), and no more than RESET_REQUESTS_PER_HOUR
    requests from one address (then the form's own error says to wait)."""
    from django.conf import settings
    from django.test import Client

    username = f"{PREFIX}carla@example.edu"
    assert _set(_pending("carla").token, PASSWORD).status_code == 200
    client = Client()
    for _ in range(settings.RESET_EMAILS_PER_HOUR + 2):
        sent = client.post("/password_reset/", {"email": username.upper()}, REMOTE_ADDR="10.52.2.1")
        assert sent.status_code == 302 and sent["Location"] == "/password_reset/sent/"
    assert len(smtp) == settings.RESET_EMAILS_PER_HOUR
    left = settings.RESET_REQUESTS_PER_HOUR - settings.RESET_EMAILS_PER_HOUR - 2
    for n in range(left):
        other = client.post("/password_reset/", {"email": f"nobody{n}@example.edu"}, REMOTE_ADDR="10.52.2.1")
        assert other.status_code == 302
    refused = client.post("/password_reset/", {"email": "nobody@example.edu"}, REMOTE_ADDR="10.52.2.1")
    page = refused.content.decode()
    assert refused.status_code == 200 and 'class="errorlist' in page and "una hora" in page
    elsewhere = client.post("/password_reset/", {"email": "nobody@example.edu"}, REMOTE_ADDR="10.52.2.2")
    assert elsewhere.status_code == 302  # another address has its own hour
    assert len(smtp) == settings.RESET_EMAILS_PER_HOUR


# --- the login lockout beside the recovery pages


def test_the_lockout_still_holds_beside_the_reset_pages(smtp: list[Any]) -> None:
    """Axes counts failed logins only: the reset pages neither count as logins nor lift a lockout
    (the instructor lifts it in the admin); a locked-out student can still set a new password from
    the instructor's link, and the login stays locked from that address until the lockout ends."""
    from axes.models import AccessAttempt
    from django.conf import settings
    from django.test import Client

    username = f"{PREFIX}ana@example.edu"
    client = Client()
    for _ in range(3):  # the reset pages are no logins: nothing counted
        client.post("/password_reset/", {"email": username}, REMOTE_ADDR="10.52.0.1")
        client.post(
            f"/invite/{'x' * 43}", {"new_password1": "a", "new_password2": "b"}, REMOTE_ADDR="10.52.0.1"
        )
    assert not AccessAttempt.objects.filter(username=username).exists()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/login/", {"username": username, "password": "wrong"}, REMOTE_ADDR="10.52.0.1")
    locked = client.post("/login/", {"username": username, "password": NEW_PASSWORD}, REMOTE_ADDR="10.52.0.1")
    assert locked.status_code == 429
    student = _student("ana")
    logged_in(INSTRUCTOR).post("/instructor/roster/links", {"student": student.pk})
    assert _set(_pending("ana").token, PASSWORD).status_code == 200  # recovery works while locked
    still = client.post("/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR="10.52.0.1")
    assert still.status_code == 429  # the lockout is not lifted by a reset
    elsewhere = Client().post(
        "/login/", {"username": username, "password": PASSWORD}, REMOTE_ADDR="10.52.0.2"
    )
    assert elsewhere.status_code == 302  # from another address the new password logs in


# --- arena serve manage DIR …


def _manage(folder: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "ARENA_LANG": "en", **env}
    environ.pop("DATABASE_URL", None)  # the folder's own SQLite
    command = [sys.executable, "-m", "arena", "serve", "manage", str(folder), *args]
    return subprocess.run(command, capture_output=True, text=True, env=environ, timeout=120, check=False)


def test_manage_runs_djangos_commands_on_the_folders_database(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    assert _manage(folder, "migrate", "--verbosity", "0").returncode == 0
    made = _manage(
        folder,
        "createsuperuser",
        "--noinput",
        "--username",
        "otra-docente",
        "--email",
        "otra@example.edu",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )
    assert made.returncode == 0, made.stderr
    with sqlite3.connect(folder / "serve.sqlite3") as db:
        rows = db.execute(
            "SELECT is_superuser, password FROM auth_user WHERE username = 'otra-docente'"
        ).fetchall()
    assert rows and rows[0][0] == 1 and rows[0][1].startswith("argon2$argon2id$")  # the service's hasher
    unknown = _manage(folder, "changepassword", "nadie")
    assert unknown.returncode != 0 and "does not exist" in unknown.stderr
    collected = _manage(folder, "collectstatic", "--noinput")
    assert collected.returncode == 0, collected.stderr
    assert (folder / "static" / "admin" / "css" / "base.css").is_file()
    assert (folder / "static" / "ladder" / "copy.js").is_file()


@pytest.mark.parametrize("asked", [["--help"], ["-h"], []])
def test_manage_alone_or_with_help_says_how_to_use_it(tmp_path: Path, asked: list[str]) -> None:
    environ = {**os.environ, "ARENA_LANG": "en"}
    command = [sys.executable, "-m", "arena", "serve", "manage", *asked]
    answer = subprocess.run(command, capture_output=True, text=True, env=environ, timeout=120, check=False)
    assert answer.returncode == 0, answer.stderr
    assert answer.stdout.startswith("Usage: arena serve manage DIR COMMAND")
    assert "changepassword" in answer.stdout
    assert "does not exist" not in answer.stderr


def test_manage_needs_an_existing_folder(tmp_path: Path) -> None:
    answer = _manage(tmp_path / "missing", "migrate")
    assert answer.returncode == 2 and "does not exist" in answer.stderr
    assert not (tmp_path / "missing").exists()


def test_a_wrong_login_says_so_once_and_names_the_field_as_the_email() -> None:
    from django.test import Client

    sent = {"username": "nadie@example.edu", "password": "mal"}
    page = Client().post("/login/", sent, REMOTE_ADDR="10.52.3.1")
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count("El correo y la contraseña no coinciden") == 1, text
    assert "Correo (o nombre de usuario)" in text and "Nombre de usuario" not in text


def test_the_roster_s_students_table_names_its_columns() -> None:
    text = logged_in(INSTRUCTOR, staff=True).get("/instructor/roster").content.decode()
    header = text[text.index("<h2>Estudiantes</h2>") :]
    assert "<th>Estudiante</th><th>Correo</th><th>Versiones</th><th>Enlace</th>" in header
