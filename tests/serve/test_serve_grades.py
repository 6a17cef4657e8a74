"""``arena serve``: the final's grades CSV by the rule of ``arena standings --grades``
(:mod:`arena.results.grades`): students the standings do not separate get the same grade.

No torneo is played: the final rows are made done, and one has a torneo of committed results.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from arena.results import grades

PREFIX = "grades-test-"
GAME = "tute-cabrero"
NAMES = ("ana", "beto", "caro")

pytestmark = pytest.mark.django_db  # each test's rows rolled back at its end


def _final(options: dict[str, Any]) -> Any:
    """A done final of three students (places 1, 2, 3) with ``options`` added."""
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Student
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder.models import Ladder
    from arena.serve.submissions.models import Version

    ladder = Ladder.objects.get_or_create(game=GAME, defaults={"open": False})[0]
    players = {}
    for name in NAMES:
        user = get_user_model().objects.get_or_create(username=PREFIX + name)[0]
        student = Student.objects.get_or_create(
            user=user,
            defaults={"display_name": name, "email": f"{name}@example.edu", "roster_id": f"id-{name}"},
        )[0]
        version = Version.objects.get_or_create(
            student=student, ladder=ladder, number=1, defaults={"folder": "/nowhere", "status": Version.CLEAN}
        )[0]
        players[name] = {"student": student.pk, "version": version.pk}
    return FinalTorneo.objects.create_frozen(
        [p["version"] for p in players.values()],
        ladder=ladder,
        status=FinalTorneo.DONE,
        options={"grades": "10/1", "players": players, "places": {"ana": 1, "beto": 2, "caro": 3}, **options},
    )


def _grades(final: Any) -> dict[str, str]:
    from arena.serve.finals.final import grades_csv

    rows = csv.DictReader(io.StringIO(grades_csv(final)))
    return {r["Email address"].split("@")[0]: r["Final torneo grade"] for r in rows}


def test_students_not_separated_get_the_grade_of_the_best_place_among_them() -> None:
    final = _final({"grade_places": {"ana": 1, "beto": 2, "caro": 2}})
    assert _grades(final) == {"ana": "10", "beto": "5.5", "caro": "5.5"}  # once 5.5 and 1


def test_a_final_done_before_the_rule_is_graded_from_its_torneo(tmp_path: Path) -> None:
    """Its standings are read again (then kept): ana first in every partido, beto and caro tied."""
    from arena.serve.finals import final as finals
    from arena.serve.finals.models import FinalTorneo
    from tests.results.test_grades import torneo

    done = _final({})
    folders = {name: tmp_path / name for name in NAMES}
    torneo(finals.torneo_dir(done), folders, [["ana"], ["beto", "caro"]], 8, table=3)
    found = _grades(done)
    assert found["beto"] == found["caro"]
    assert found["ana"] == "10"
    kept = FinalTorneo.objects.get(pk=done.pk).options["grade_places"]
    assert kept["beto"] == kept["caro"] <= 2
    assert finals.grade_scale("10/1")(2, 3) == grades.scale("10/1")(2, 3) == 5.5  # one scale
    with pytest.raises(finals.FinalError):
        finals.grade_scale("diez")
