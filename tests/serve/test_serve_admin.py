"""Django's admin shows every model of the service's apps, a partido with its seats in order."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("django")

PREFIX = "admin-test-"
GAME = "tute-cabrero"
pytestmark = pytest.mark.django_db  # each test's rows rolled back at its end


def _superuser() -> Any:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user(f"{PREFIX}profe", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_lists_and_opens_every_model_of_the_apps() -> None:
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import AuditLog, Invitation, Student
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.submissions.models import Version

    user = get_user_model().objects.create_user(f"{PREFIX}ana")
    student = Student.objects.create(user=user, display_name="Ana")
    invitation = Invitation.objects.create(user=user, student=student)
    ladder = Ladder.objects.create(game=GAME, open=True)
    a, b = (Version.objects.create(student=student, ladder=ladder, number=n) for n in (1, 2))
    partido = LadderPartido.objects.create_seated(versions=[b.pk, a.pk], ladder=ladder)
    final = FinalTorneo.objects.create_frozen([a, b], ladder=ladder)
    audit = AuditLog.objects.create(who=user, what="upload")
    client = _superuser()
    rows = {
        "accounts/student": student,
        "accounts/invitation": invitation,
        "accounts/auditlog": audit,
        "submissions/version": a,
        "ladder/ladder": ladder,
        "ladder/ladderpartido": partido,
        "finals/finaltorneo": final,
    }
    for model, row in rows.items():
        assert client.get(f"/admin/{model}/").status_code == 200, model
        assert client.get(f"/admin/{model}/{row.pk}/change/").status_code == 200, model
    page = client.get(f"/admin/ladder/ladderpartido/{partido.pk}/change/").content.decode()
    seats = re.findall(r'name="seats-(\d+)-version" value="(\d+)"', page)
    assert seats == [("0", str(b.pk)), ("1", str(a.pk))]  # the seats, in order
