"""``arena serve``: what an outside red team found (issue 48) — the login's lockout after repeated
failures, the grades CSV's fields made inert as the workbook's, and the replays served without the
players' folders (``players[].source``: a path on the server naming a student's upload).

No player runs here: the final torneo and the ladder partido are rows made by hand, the replay a
file written by the test. Each test's rows go at its end (tests/serve/conftest.py).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.serve.support import logged_in

PREFIX = "security-test-"
GAME = "tute-parejas"
PASSWORD = "una-clave-bien-larga-48"
INJECTION = "@SUM(1+1)*cmd|' /C calc'!A0"


pytestmark = pytest.mark.django_db  # each test's rows (and lockout counts) rolled back at its end


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _user(name: str) -> str:
    """A new account (its user name returned) whose password is :data:`PASSWORD`."""
    from django.contrib.auth import get_user_model

    username = f"{PREFIX}{name}@example.edu"
    get_user_model().objects.create_user(username, password=PASSWORD)
    return username


def _login(client: Any, username: str, password: str, address: str, **headers: str) -> Any:
    sent = {"username": username, "password": password}
    return client.post("/login/", sent, REMOTE_ADDR=address, **headers)


# --- the login's lockout


@pytest.fixture
def hashes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The user names whose password Django's ModelBackend checked (one password hash each)."""
    from django.contrib.auth.backends import ModelBackend

    checked: list[str] = []
    original = ModelBackend.authenticate

    def counted(self: Any, request: Any, username: str | None = None, **kwargs: Any) -> Any:
        checked.append(username or "")
        return original(self, request, username=username, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counted)
    return checked


def test_repeated_wrong_passwords_lock_the_account_out_from_that_address(hashes: list[str]) -> None:
    from django.conf import settings
    from django.test import Client

    username = _user("dora")
    limit = settings.AXES_FAILURE_LIMIT
    client = Client()
    for _attempt in range(limit - 1):
        wrong = _login(client, username, "no-es-la-clave", "10.48.0.1")
        assert wrong.status_code == 200 and "no coinciden" in wrong.content.decode()
    locked = _login(client, username, "no-es-la-clave", "10.48.0.1")
    assert locked.status_code == 429
    minutes = settings.AXES_COOLOFF_TIME.total_seconds() / 60
    assert locked["Retry-After"] == str(round(60 * minutes))
    page = locked.content.decode()
    assert "bloqueada desde tu dirección" in page and f"{round(minutes)} minutos" in page
    assert 'name="password"' in page  # the login page, with its form
    assert locked["Content-Security-Policy"].startswith("default-src 'none'")
    assert len(hashes) == limit
    # locked: even the right password is refused, and no password is hashed any more; a forged
    # X-Forwarded-For changes nothing (the address is the connection's)
    for i in range(3):
        again = _login(client, username, PASSWORD, "10.48.0.1", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
        assert again.status_code == 429
    assert len(hashes) == limit
    assert client.get("/me").status_code == 302  # not logged in
    # in English when chosen
    english = Client()
    english.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    said = _login(english, username, PASSWORD, "10.48.0.1").content.decode()
    assert "Too many failed logins: this account is locked from your address for" in said
    # the student, from elsewhere, is not locked out by those guesses
    elsewhere = Client()
    assert _login(elsewhere, username, PASSWORD, "10.48.0.2").status_code == 302
    assert elsewhere.get("/me").status_code == 200


def test_an_unknown_user_name_is_locked_out_alike() -> None:
    """The lockout does not tell which accounts exist."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    answers = [
        _login(client, f"{PREFIX}nadie@example.edu", "x", "10.48.0.3").status_code
        for _attempt in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]


def test_a_successful_login_forgets_the_failures() -> None:
    from django.conf import settings
    from django.test import Client

    username = _user("elena")
    few = settings.AXES_FAILURE_LIMIT - 1
    for _attempt in range(few):
        assert _login(Client(), username, "mal", "10.48.0.4").status_code == 200
    assert _login(Client(), username, PASSWORD, "10.48.0.4").status_code == 302
    for _attempt in range(few):
        assert _login(Client(), username, "mal", "10.48.0.4").status_code == 200


# --- the grades CSV


def test_the_grades_csv_fields_are_inert_as_the_workbooks() -> None:
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.models import Ladder
    from arena.serve.submissions.models import Version

    ladder = Ladder.objects.create(game=GAME, open=False)
    ids = {"ana": INJECTION, "bruno": "=1+2", "carla": "12345678"}
    players = {}
    for name, roster_id in ids.items():
        user = get_user_model().objects.create_user(f"{PREFIX}{name}@example.edu")
        student = Student.objects.create(
            user=user, display_name=name, email=f"{name}@example.edu", roster_id=roster_id
        )
        version = Version.objects.create(student=student, ladder=ladder, number=1, status=Version.CLEAN)
        players[name] = {"student": student.pk, "version": version.pk}
    final = FinalTorneo.objects.create_frozen(
        [p["version"] for p in players.values()],
        ladder=ladder,
        options={"players": players, "places": {"ana": 1, "bruno": 2, "carla": 3}, "grades": "10/1"},
        status=FinalTorneo.DONE,
    )
    response = logged_in(PREFIX + "profe", staff=True).get(f"/instructor/finals/{final.pk}/grades.csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    by_email = {row[0]: row for row in rows[1:]}
    assert by_email["ana@example.edu"][1] == "'" + INJECTION  # text, as the workbook's CSVs write it
    assert by_email["bruno@example.edu"][1] == "'=1+2"
    assert by_email["carla@example.edu"][1:] == ["12345678", "3", "1"]  # numbers as they are
    assert [row[2:] for row in rows[1:]] == [["1", "10"], ["2", "5.5"], ["3", "1"]]
    assert not any(field.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for field in row)


# --- the replays


def _partido(service: Path, lines: list[str]) -> Any:
    """A done partido of Rosa's and Saúl's (sides of Tute por parejas) whose replay holds ``lines``."""
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.submissions.models import Version

    ladder = Ladder.objects.get_or_create(game=GAME, defaults={"open": True})[0]
    versions = []
    for name, shown in (("rosa", "Rosa G"), ("saul", "Saúl P")):
        user, _new = get_user_model().objects.get_or_create(username=f"{PREFIX}{name}@example.edu")
        student, _new = Student.objects.get_or_create(user=user, defaults={"display_name": shown})
        found = Version.objects.filter(student=student, ladder=ladder).first()
        versions.append(
            found or Version.objects.create(student=student, ladder=ladder, number=1, status=Version.CLEAN)
        )
    partido = LadderPartido.objects.create_seated(
        ladder=ladder, versions=[v.pk for v in versions], status=LadderPartido.DONE
    )
    path = service / "ladder" / "security-test" / f"{partido.pk}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    partido.replay = str(path)
    partido.save(update_fields=["replay"])
    return partido


def _line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def test_a_served_replay_names_no_folder_and_no_path_of_the_server(service: Path) -> None:
    folders = {"rosa": "rosa_garcia_bot", "saul": "saul_perez_bot"}
    uploads = service / "uploads"
    players = [
        {"seat": s, "name": f"{folder}#2" if s > 1 else folder, "source": str(uploads / "7" / "1" / folder)}
        for s, folder in enumerate([folders["rosa"], folders["saul"], folders["rosa"], folders["saul"]])
    ]
    start = {
        "type": "partido_start",
        "partido": "ladder-1-1",
        "seed": "clave",
        "game": GAME,
        "teams": [[0, 2], [1, 3]],
        "players": players,
    }
    rest = [_line({"type": "partido_end", "winners": [0, 2], "ranking": [[0, 2], [1, 3]]})]
    partido = _partido(service, [_line(start), *rest])
    stored = Path(partido.replay).read_bytes()
    for who, staff in (("rosa@example.edu", False), ("eva@example.edu", False), ("profe", True)):
        client = logged_in(PREFIX + who, staff)
        text = client.get(f"/partidos/{partido.pk}/replay")
        assert text.status_code == 200
        body = text.content.decode()
        for secret in (*folders.values(), str(service), '"source"'):
            assert secret not in body, (who, secret)
        first, *others = body.splitlines()
        shown = json.loads(first)
        assert shown["players"] == [
            {"seat": 0, "name": "Rosa G #1"},
            {"seat": 1, "name": "Saúl P #1"},
            {"seat": 2, "name": "Rosa G #1"},
            {"seat": 3, "name": "Saúl P #1"},
        ]
        assert {k: v for k, v in shown.items() if k != "players"} == {
            k: v for k, v in start.items() if k != "players"
        }
        assert others == rest  # the other lines as they are
        page = client.get(f"/partidos/{partido.pk}/")
        assert page.status_code == 200
        assert not any(secret in page.content.decode() for secret in (*folders.values(), str(service)))
    assert Path(partido.replay).read_bytes() == stored  # the file kept as the referee wrote it


def test_a_broken_replay_s_viewer_does_not_show_its_path(service: Path) -> None:
    partido = _partido(service, ["not a replay"])
    page = logged_in(PREFIX + "eva@example.edu").get(f"/partidos/{partido.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"{partido.pk}.jsonl:1" in text and str(service) not in text


def test_a_check_report_shows_no_server_path() -> None:
    from arena.serve.submissions.checking import shown_to_student

    folder = Path("/srv/arena/uploads/7/2/player/jugador")
    report = f"Error: {folder}/bot.py, línea 3\nregistros en /srv/arena/uploads/7/2/check/logs"
    shown = shown_to_student(report, folder, Path("/srv/arena"))
    assert shown == "Error: jugador/bot.py, línea 3\nregistros en DIR/uploads/7/2/check/logs"
    assert "/srv/arena" not in shown
