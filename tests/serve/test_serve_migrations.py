"""A course's database made before the service was split into apps migrates forward with nothing lost.

The database of the old code had one app, ``ladder`` (migrations 0001–0003), whose partidos and
finals kept their versions as JSON lists of ids. The test migrates the session's database back to
that state (``ladder`` 0003, nothing of ``accounts``, ``submissions``, ``finals``), writes rows with
the models of then (Django's historical models), migrates forward to the latest and finds every row
in its new app, each partido's versions as its seats in order, each final's as its many-to-many
field, and a permission given on a moved model's content type still held. Then back again (the
seats become JSON lists once more) and, at the end, forward to the latest for the other modules:
the database is shared by the session (tests/serve/conftest.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

PREFIX = "migrations-test-"
GAME = "migrations-test"  # the ladder's game: not one of the registry's, so no other module's ladder
OLD = [("ladder", "0003_controls_and_final"), ("accounts", None), ("submissions", None), ("finals", None)]
"""The state the code before the apps left a database in."""


def _executor() -> Any:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    return MigrationExecutor(connection)


def _migrate(targets: list[tuple[str, str | None]] | None = None) -> Any:
    """Migrate to ``targets`` (None: the latest); the historical models there."""
    executor = _executor()
    targets = targets or executor.loader.graph.leaf_nodes()
    executor.migrate(targets)
    executor = _executor()  # the loader again: it knows what is applied now
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


# migrations alter tables: no test transaction around them; the rows flushed after
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_apps() -> Iterator[Any]:
    """The models of the old code, the database migrated back to them; the latest again after."""
    try:
        yield _migrate(OLD)
    finally:
        _migrate()
        from django.apps import apps
        from django.contrib.auth.management import create_permissions
        from django.contrib.contenttypes.management import create_contenttypes
        from django.contrib.contenttypes.models import ContentType

        ContentType.objects.clear_cache()
        for config in apps.get_app_configs():  # as a migrate's end makes them, if the test took one
            create_contenttypes(config, verbosity=0)
            create_permissions(config, verbosity=0)



def _old_course(apps: Any) -> dict[str, Any]:
    """A course's rows as the old code wrote them: a student with an invitation, three versions,
    a ladder with partidos (one naming a version deleted since), a final, an audit line, and the
    final's content type with a permission an instructor was given on it."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    # the content type as the old code's migrate made it (migrating back gave it the old label;
    # contenttypes and auth are not migrated back: today's models), a permission given on it
    ContentType.objects.clear_cache()
    final_type = ContentType.objects.get(app_label="ladder", model="finaltorneo")
    permission = Permission.objects.get(content_type=final_type, codename="view_finaltorneo")
    profe = get_user_model().objects.create_user(f"{PREFIX}profe", is_staff=True)
    profe.user_permissions.add(permission)
    users = apps.get_model("auth", "User")
    user = users.objects.create(username=f"{PREFIX}ana@example.edu", password="!")
    student = apps.get_model("ladder", "Student").objects.create(
        user=user, display_name="Ana", email="ana@example.edu", roster_id="A1"
    )
    invitation = apps.get_model("ladder", "Invitation").objects.create(user=user, student=student)
    ladder = apps.get_model("ladder", "Ladder").objects.create(game=GAME, open=True, paused=True)
    version = apps.get_model("ladder", "Version")
    made = [
        version.objects.create(student=student, ladder=ladder, number=n, status="clean", folder=f"/v{n}")
        for n in (1, 2, 3)
    ]
    a, b, c = (v.pk for v in made)
    gone = c + 1000  # a version deleted since: its id stays in the lists
    partido = apps.get_model("ladder", "LadderPartido")
    tables = {
        "done": ([a, b, c], {"status": "done", "ranking": [[2], [0, 1]], "winners": [2], "replay": "/r"}),
        "sides": ([c, a], {"status": "done", "ranking": [[1], [0]], "winners": [1]}),
        "queued": ([b, gone, a], {}),
        "empty": ([], {"status": "done", "error": "x"}),
    }
    partidos = {
        name: partido.objects.create(ladder=ladder, versions=table, seed=f"seed-{name}", **fields).pk
        for name, (table, fields) in tables.items()
    }
    final = apps.get_model("ladder", "FinalTorneo").objects.create(
        ladder=ladder, versions=[a, b, gone], options={"grades": "10/1"}, status="done"
    )
    audit = apps.get_model("ladder", "AuditLog").objects.create(who=user, what="upload: Ana, version 1")
    return {
        "user": user.pk,
        "student": student.pk,
        "invitation": (invitation.pk, invitation.token),
        "ladder": ladder.pk,
        "versions": [a, b, c],
        "gone": gone,
        "tables": {name: table for name, (table, _fields) in tables.items()},
        "partidos": partidos,
        "final": final.pk,
        "audit": audit.pk,
        "profe": profe.pk,
        "final_type": final_type.pk,
    }


def test_a_course_s_rows_migrate_into_the_apps_with_seats_and_frozen_versions(old_apps: Any) -> None:
    old = _old_course(old_apps)
    _migrate()
    from arena.serve.accounts.models import AuditLog, Invitation, Student
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.models import Ladder, LadderPartido, Seat
    from arena.serve.submissions.models import Version

    student = Student.objects.get(pk=old["student"])
    assert (student.user_id, student.display_name, student.roster_id) == (old["user"], "Ana", "A1")
    invitation = Invitation.objects.get(pk=old["invitation"][0])
    assert (invitation.token, invitation.student_id) == (old["invitation"][1], student.pk)
    assert AuditLog.objects.get(pk=old["audit"]).what == "upload: Ana, version 1"
    ladder = Ladder.objects.get(pk=old["ladder"])
    assert ladder.open and ladder.paused
    a, b, c = old["versions"]
    versions = Version.objects.filter(student=student).order_by("number")
    assert [(v.pk, v.number, v.folder, v.ladder_id) for v in versions] == [
        (a, 1, "/v1", ladder.pk),
        (b, 2, "/v2", ladder.pk),
        (c, 3, "/v3", ladder.pk),
    ]
    partidos = old["partidos"]
    done = LadderPartido.objects.get(pk=partidos["done"])
    assert done.version_ids == [a, b, c]
    assert (done.ranking, done.winners, done.replay, done.seed) == ([[2], [0, 1]], [2], "/r", "seed-done")
    assert LadderPartido.objects.get(pk=partidos["sides"]).version_ids == [c, a]
    assert LadderPartido.objects.get(pk=partidos["queued"]).version_ids == [b, None, a]  # the seat kept
    assert LadderPartido.objects.get(pk=partidos["empty"]).version_ids == []
    seats = Seat.objects.filter(partido_id=partidos["queued"])
    assert list(seats.values_list("position", flat=True)) == [0, 1, 2]
    assert sorted(Version.objects.get(pk=a).ladder_partidos.values_list("pk", flat=True)) == sorted(
        partidos[name] for name in ("done", "sides", "queued")
    )
    final = FinalTorneo.objects.get(pk=old["final"])
    assert sorted(final.versions.values_list("pk", flat=True)) == [a, b]  # the deleted one is not kept
    assert (final.options, final.status, final.ladder_id) == ({"grades": "10/1"}, "done", ladder.pk)
    from django.contrib.auth import get_user_model
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()
    assert ContentType.objects.get_for_model(FinalTorneo).pk == old["final_type"]  # the row, relabelled
    assert get_user_model().objects.get(pk=old["profe"]).has_perm("finals.view_finaltorneo")

    # and back: the seats are JSON lists again (an empty seat a null), the final's versions too
    apps = _migrate(OLD)
    partido = apps.get_model("ladder", "LadderPartido")
    assert partido.objects.get(pk=partidos["done"]).versions == [a, b, c]
    assert partido.objects.get(pk=partidos["queued"]).versions == [b, None, a]
    assert apps.get_model("ladder", "FinalTorneo").objects.get(pk=old["final"]).versions == [a, b]
    assert apps.get_model("ladder", "Student").objects.get(pk=old["student"]).display_name == "Ana"
    ContentType.objects.clear_cache()
    assert ContentType.objects.get(pk=old["final_type"]).app_label == "ladder"
