"""``arena serve``: every POST goes through a Django form (each app's ``forms.py``), and bad input
gets the form's own error beside its field, the page again with the user's input, and nothing stored.

For each form: a view test posting bad input (the error in the ``errorlist`` right after the field's
input, the status, no row written, no file left) and unit tests of its ``clean`` rules.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in

pytestmark = pytest.mark.django_db

PREFIX = "forms-test-"


@pytest.fixture
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _client(username: str, staff: bool = False) -> Any:
    return logged_in(PREFIX + username, staff)


def _student(name: str) -> Any:
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student

    user, _new = get_user_model().objects.get_or_create(username=PREFIX + name)
    return Student.objects.get_or_create(user=user, defaults={"display_name": f"Autora {name}"})[0]


def _ladder(game: str = "tute-dos") -> Any:
    from arena.serve.ladder.models import Ladder

    ladder, _new = Ladder.objects.get_or_create(game=game)
    ladder.open, ladder.paused, ladder.deadline = True, False, None
    ladder.save()
    return ladder


def beside(page: str, name: str, text: str) -> bool:
    """Whether an ``errorlist`` saying ``text`` follows the input (or select) named ``name``, with
    no other field between them: the error beside its field."""
    for found in re.finditer(rf'<(?:input|select)[^>]*name="{name}"', page):
        rest = page[found.end() :]
        errors = rest.find('class="errorlist')
        if errors < 0 or "name=" in rest[:errors].replace('name="action"', ""):
            continue
        if text in rest[errors : rest.find("</ul>", errors)]:
            return True
    return False


def _files(*names: str, size: int = 3) -> list[Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return [SimpleUploadedFile(n, b"x" * size) for n in names]


def _uploads(service: Path, student: Any) -> list[Path]:
    return sorted((service / "uploads" / str(student.pk)).glob("**/*"))


# ---------------------------------------------------------------- ladder: UploadForm


def test_an_upload_without_files_says_so_beside_the_file_field_and_stores_nothing(service: Path) -> None:
    from arena.serve.submissions.models import Version

    ladder = _ladder()
    student = _student("ana")
    answer = _client("ana").post("/upload", {"ladder": str(ladder.pk)})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert beside(page, "player", "Elegí el zip de la carpeta de tu jugador.")
    assert answer.context["form"].has_error("player", "required")
    assert not Version.objects.filter(student=student).exists() and not _uploads(service, student)
    # a ladder that is not open: 403, the error beside the ladder's field, the choice kept
    _ladder("tute-cabrero")
    refused = _client("ana").post("/upload", {"player": _files("a.py"), "ladder": "nope"})
    assert refused.status_code == 403
    assert "Esa liga está cerrada: no acepta subidas." in refused.context["form"].errors["ladder"]
    assert beside(refused.content.decode(), "ladder", "Esa liga está cerrada")
    assert not Version.objects.filter(student=student).exists() and not _uploads(service, student)


def test_the_upload_form_s_rules(service: Path, settings: Any) -> None:
    from django.utils import timezone

    from arena.serve.ladder.forms import UploadForm
    from arena.serve.submissions.models import Version

    ladder = _ladder()
    student = _student("bruno")

    def form(files: list[Any], **data: str) -> Any:
        made = UploadForm({"ladder": str(ladder.pk), **data}, {"player": files}, student=student)
        made.is_valid()
        return made

    ok = form(_files("a.py", "b.py"))
    assert ok.is_valid() and ok.cleaned_data["ladder"] == ladder and len(ok.cleaned_data["player"]) == 2
    assert form([]).has_error("player", "required")
    assert form(_files("a.zip", "b.py")).has_error("player", "zip")
    settings.UPLOAD_MAX_FILES = 2
    assert form(_files("a.py", "b.py", "c.py")).has_error("player", "count")
    settings.UPLOAD_MAX_BYTES = 4
    big = form(_files("a.py", size=5))
    assert big.has_error("player", "size") and big.status() == 400
    settings.UPLOAD_MAX_BYTES = 1 << 20
    assert form(_files("empty.py", size=0)).is_valid()  # an empty file of the player's is fine
    ladder.deadline = timezone.now() - timedelta(minutes=1)
    ladder.save()
    late = form(_files("a.py"))
    assert late.has_error("ladder", "closed") and late.status() == 403
    ladder.deadline = None
    ladder.save()
    settings.UPLOADS_PER_HOUR = 1
    Version.objects.create(student=student, number=1, ladder=ladder)
    many = form(_files("a.py"))
    assert many.non_field_errors() and many.status() == 429


# ---------------------------------------------------------------- ladder: OpenLadderForm


def test_opening_a_ladder_for_no_game_says_so_beside_the_game(service: Path) -> None:
    from arena.serve.ladder.models import Ladder

    profe = _client("profe", staff=True)
    before = Ladder.objects.count()
    answer = profe.post("/instructor/ladders", {"game": "ajedrez"})
    assert answer.status_code == 400
    assert beside(answer.content.decode(), "game", "Elegí uno de los juegos.")
    assert Ladder.objects.count() == before


def test_the_open_ladder_form_s_rules(service: Path) -> None:
    from arena.serve.ladder.forms import OpenLadderForm

    _ladder("tute-dos")
    assert OpenLadderForm({"game": "tute-cabrero"}).is_valid()
    assert OpenLadderForm({"game": "tute-dos"}).has_error("game", "taken")
    assert OpenLadderForm({"game": "ajedrez"}).has_error("game", "invalid_choice")
    assert OpenLadderForm({}).has_error("game", "required")


# ---------------------------------------------------------------- ladder: ControlForm


def test_a_bad_deadline_or_a_withdrawal_without_reason_is_said_beside_its_field(service: Path) -> None:
    ladder = _ladder()
    made = clean_version(service, PREFIX + "eva", "Autora eva", ladder, ROOT / "sample_dos" / "random_legal")
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}"
    bad = profe.post(url, {"action": "deadline", "deadline": "tomorrow"})
    page = bad.content.decode()
    assert bad.status_code == 400 and 'value="tomorrow"' in page  # the input kept
    assert beside(page, "deadline", "El plazo tiene que ser una fecha y una hora")
    ladder.refresh_from_db()
    assert ladder.deadline is None
    silent = profe.post(url, {"action": "withdraw", "version": str(made.pk), "reason": "  "})
    assert silent.status_code == 400
    assert beside(silent.content.decode(), "reason", "Decí por qué se retira la versión")
    made.refresh_from_db()
    assert not made.withdrawn


def test_the_control_form_s_rules(service: Path) -> None:
    from arena.serve.ladder.forms import ControlForm

    ladder = _ladder()
    made = clean_version(service, PREFIX + "eva", "Autora eva", ladder, ROOT / "sample_dos" / "random_legal")
    cabrero = _ladder("tute-cabrero")
    other = clean_version(
        service, PREFIX + "flor", "Autora flor", cabrero, ROOT / "sample_players" / "random_legal"
    )

    def form(**data: str) -> Any:
        made = ControlForm(data, ladder=ladder)
        made.is_valid()
        return made

    assert form(action="close").is_valid() and form(action="pause").is_valid()
    assert form(action="dance").has_error("action", "invalid_choice")
    set_ = form(action="deadline", deadline="2026-12-18T23:59")
    assert set_.is_valid() and f"{set_.cleaned_data['deadline']:%Y-%m-%d %H:%M}" == "2026-12-18 23:59"
    assert form(action="deadline", deadline="").cleaned_data["deadline"] is None
    assert form(action="deadline", deadline="18/12").has_error("deadline", "invalid")
    assert form(action="withdraw", version=str(made.pk), reason="copia").is_valid()
    assert form(action="withdraw", version=str(made.pk)).has_error("reason", "required")
    assert form(action="reinstate", version=str(made.pk)).is_valid()
    assert form(action="reinstate").has_error("version", "required")
    assert form(action="withdraw", version=str(other.pk), reason="x").has_error("version", "invalid_choice")


# ---------------------------------------------------------------- accounts: RosterForm


def test_a_roster_import_without_a_file_says_so_beside_the_file_field(service: Path) -> None:
    from arena.serve.accounts.models import Student

    before = Student.objects.count()
    answer = _client("profe", staff=True).post("/instructor/roster", {})
    assert answer.status_code == 400
    assert beside(answer.content.decode(), "roster", "Elegí el archivo CSV de la lista de participantes.")
    assert Student.objects.count() == before


def test_the_roster_form_s_rules(settings: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from arena.serve.accounts.forms import RosterForm

    def form(content: bytes) -> Any:
        made = RosterForm({}, {"roster": SimpleUploadedFile("r.csv", content)})
        made.is_valid()
        return made

    assert form("\ufeffNombre,Apellido\n".encode()).cleaned_data["roster"] == "Nombre,Apellido\n"
    assert form("Ñandú\n".encode("latin-1")).cleaned_data["roster"] == "Ñandú\n"  # not UTF-8: Latin-1
    assert RosterForm({}, {}).has_error("roster", "required")
    settings.UPLOAD_MAX_BYTES = 3
    assert form(b"abcd").has_error("roster", "size")


# ---------------------------------------------------------------- finals: FinalForm


def test_a_bad_option_of_a_final_is_said_beside_its_field_and_nothing_starts(service: Path) -> None:
    from arena.serve.finals.models import FinalTorneo

    ladder = _ladder()
    profe = _client("profe", staff=True)
    url = f"/instructor/ladders/{ladder.pk}/final"
    bad = profe.post(url, {"action": "start", "partidos": "0", "duplicate": "on", "grades": "10/1"})
    page = bad.content.decode()
    assert bad.status_code == 400
    assert beside(page, "partidos", "El número de partidos tiene que ser un número entero")
    assert 'name="duplicate" checked' in page and 'value="0"' in page  # the input kept
    huge = profe.post(url, {"action": "start", "partidos": "99999999999"})  # once frozen and failed
    assert huge.status_code == 400
    assert beside(huge.content.decode(), "partidos", "Como mucho 1,000,000 partidos")
    grades = profe.post(url, {"action": "start", "grades": "ten"})
    assert grades.status_code == 400 and beside(grades.content.decode(), "grades", "Las notas tienen que ser")
    assert not FinalTorneo.objects.filter(ladder=ladder).exists()


def test_the_final_form_s_rules(service: Path) -> None:
    from arena.serve.finals import final as finals
    from arena.serve.finals.forms import FinalForm

    def form(latest: Any = None, **data: str) -> Any:
        made = FinalForm(data, latest=latest)
        made.is_valid()
        return made

    start = form(action="start", partidos="12", until_separated="on", workers="2")
    assert start.is_valid()
    assert start.cleaned_data["partidos"] == 12 and start.cleaned_data["until_separated"]
    assert start.cleaned_data["workers"] == 2 and start.cleaned_data["grades"] == finals.DEFAULT_GRADES
    assert finals.parse_options(start.cleaned_data)["partidos"] == 12  # what start_final reads
    assert form(action="start", partidos="cero").has_error("partidos", "invalid")
    assert form(action="start", partidos="0").has_error("partidos", "min_value")
    assert form(action="start", partidos="99999999999").has_error("partidos", "max_value")  # the trial's
    assert form(action="start", workers="0").has_error("workers", "min_value")
    assert form(action="start", grades="1=diez").has_error("grades", "scale")
    assert form(action="start", grades="1=10, 2=9").is_valid()
    assert form(action="grades", grades="10/1").has_error("action", "no_final")  # no final yet
    assert form(latest=object(), action="grades", grades="10/1").is_valid()
    assert form(action="jugar").has_error("action", "invalid_choice")
    # the final's options from elsewhere (freeze's callers) go through the same form
    assert finals.parse_options({"partidos": 3, "duplicate": True}) == {
        "duplicate": True,
        "until_separated": False,
        "partidos": 3,
        "grades": finals.DEFAULT_GRADES,
    }
    with pytest.raises(finals.FinalError, match="workers"):
        finals.clean_options({"workers": 0})
    with pytest.raises(finals.FinalError, match="table_size"):
        finals.clean_options({"table_size": True})

