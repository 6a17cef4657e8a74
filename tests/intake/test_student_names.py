"""The student's full name and Moodle id recorded with every imported folder: written by the import,
never by the student, kept across re-imports, and absent from folders no import made."""

from __future__ import annotations

import json
import os
from pathlib import Path

from arena.intake.submissions import MARKER, import_archive, whose
from tests.intake.test_submissions import PLAYER, archive, sub, zip_bytes

FORGED = json.dumps({"student": "Profe Falso", "id": "1", "archive": "x", "imported": "x"}).encode()


def test_the_import_records_whose_each_folder_is_and_a_submitted_marker_is_overwritten(
    tmp_path: Path,
) -> None:
    into = tmp_path / "players"
    (into / "profe").mkdir(parents=True)
    (into / "profe" / "player.py").write_bytes(PLAYER)
    zipped = archive(
        tmp_path / "entregas.zip",
        [
            (sub("Ana María Núñez", 123456, "player.py"), PLAYER),
            (sub("Ana María Núñez", 123456, MARKER), FORGED),  # at the top, beside the player
            (sub("Beto Gómez", 222, "entrega.zip"), zip_bytes([  # moved up from a nested folder
                ("entrega/src/beto/player.py", PLAYER),
                (f"entrega/src/beto/{MARKER}", FORGED),
                (f"entrega/{MARKER}", FORGED),
            ])),
            (sub("Caro Díaz", 333, "player.py"), PLAYER),
        ],
    )  # fmt: skip
    done = {o.student: o for o in import_archive(zipped, into)}
    assert all(o.imported for o in done.values()), [o.text() for o in done.values()]
    assert whose(into / "ana_maría_núñez") == ("Ana María Núñez", "123456")
    assert whose(into / "beto_gómez") == ("Beto Gómez", "222")
    assert whose(into / "caro_díaz") == ("Caro Díaz", "333")
    assert whose(into / "profe") is None  # made by hand
    marker = json.loads((into / "ana_maría_núñez" / MARKER).read_text(encoding="utf-8"))
    assert marker["archive"] == "entregas.zip" and marker["id"] == "123456"


def test_the_names_survive_a_reimport_and_a_forged_resubmission(tmp_path: Path) -> None:
    into = tmp_path / "players"
    first = archive(tmp_path / "1.zip", [(sub("Ana Pérez", 7, "player.py"), PLAYER)])
    import_archive(first, into)
    second = archive(
        tmp_path / "2.zip",
        [(sub("Ana Pérez", 7, "player.py"), PLAYER + b"# v2\n"), (sub("Ana Pérez", 7, MARKER), FORGED)],
    )
    (outcome,) = import_archive(second, into)
    assert outcome.status == "updated" and outcome.folder == "ana_pérez"
    assert whose(into / "ana_pérez") == ("Ana Pérez", "7")


def test_a_marker_that_is_no_marker_names_nobody(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    assert whose(folder) is None
    (folder / MARKER).write_text("not json", encoding="utf-8")
    assert whose(folder) is None
    (folder / MARKER).write_text(json.dumps({"student": "Ana", "id": "12; DROP"}), encoding="utf-8")
    assert whose(folder) is None  # a Moodle id is digits
    (folder / MARKER).unlink()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps({"student": "Ana", "id": "12"}), encoding="utf-8")
    os.symlink(elsewhere, folder / MARKER)
    assert whose(folder) is None  # a link is never followed
