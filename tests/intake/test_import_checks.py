"""``arena submissions import`` checks what it imported as ``arena submissions list`` does, and keeps
the executable bit of a command player's program (Moodle's zips often carry no Unix modes)."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path

from arena.intake.submissions import import_archive
from tests.intake.test_submissions import COMMAND, PLAYER, archive, executable, row, run, sub

BOT = b"#!/bin/sh\nexit 0\n"


def test_a_broken_submission_is_imported_and_named_not_valid(tmp_path: Path) -> None:
    into = tmp_path / "players"
    zipped = archive(
        tmp_path / "entregas.zip",
        [
            (sub("Ana Núñez", 101, "player.py"), PLAYER),
            (sub("Elena Ruiz", 505, "player.py"), b"x = 1\nif x\n    pass\n"),
            (sub("Luis Gil", 606, "player.toml"), COMMAND),  # ./bot not in the submission
        ],
    )
    done = run("import", str(zipped), "--into", str(into))
    assert done.exit_code == 0, done.output
    assert row(done.output, "Ana Núñez")[3] == "importado"
    assert row(done.output, "Elena Ruiz")[3].startswith(
        "importado — NO VÁLIDO: error de sintaxis en player.py, línea 2: "
    )
    assert row(done.output, "Luis Gil")[3] == "importado — NO VÁLIDO: no se encontró el comando './bot'"
    assert "3 importados, 0 actualizados, 0 rechazados, en " in done.output
    assert "; 2 de ellos NO VÁLIDOS (ver arriba)" in done.output

    listed = run("list", str(into))  # the same verdict
    assert row(listed.output, "elena_ruiz")[2].startswith(
        "NO VÁLIDO: error de sintaxis en player.py, línea 2: "
    )

    english = run("import", str(zipped), "--into", str(into), "--lang", "en")
    assert row(english.output, "Elena Ruiz")[3].startswith(
        "updated (unchanged) — NOT VALID: syntax error in player.py, line 2: "
    )
    assert "; 2 of them NOT VALID (see above)" in english.output

    fixed = archive(tmp_path / "bien.zip", [(sub("Elena Ruiz", 505, "player.py"), PLAYER)])
    done = run("import", str(fixed), "--into", str(into), "--lang", "es")
    assert row(done.output, "Elena Ruiz")[3] == "actualizado"
    assert "NO VÁLIDO" not in done.output


def _modeless(tmp_path: Path) -> Path:
    """A Moodle zip as Python's zipfile writes it: no executable bit on any entry."""
    zipped = archive(
        tmp_path / "entregas.zip",
        [(sub("Bruno Díaz", 555, "player.toml"), COMMAND), (sub("Bruno Díaz", 555, "bot"), BOT)],
    )
    with zipfile.ZipFile(zipped) as z:
        assert not any(i.external_attr >> 16 & 0o111 for i in z.infolist())
    return zipped


def test_the_command_s_program_is_made_executable_on_every_import(tmp_path: Path) -> None:
    into = tmp_path / "players"
    zipped = _modeless(tmp_path)
    done = run("import", str(zipped), "--into", str(into))
    bot = into / "bruno_díaz" / "bot"
    assert row(done.output, "Bruno Díaz")[3] == "importado, ./bot hecho ejecutable (comando de player.toml)"
    assert os.access(bot, os.X_OK)
    assert row(run("list", str(into)).output, "bruno_díaz")[2] == "válido (comando: ./bot)"

    bot.chmod(0o755)  # what the instructor did by hand before this fix: the same folder
    again = run("import", str(zipped), "--into", str(into), "--lang", "en")
    assert row(again.output, "Bruno Díaz")[3] == (
        "updated (unchanged), ./bot made executable (player.toml's command)"
    )
    assert os.access(bot, os.X_OK)
    assert run("list", str(into)).exit_code == 0

    bot.chmod(0o644)  # the folder differs from what the import makes: not "unchanged"
    again = run("import", str(zipped), "--into", str(into), "--lang", "en")
    assert row(again.output, "Bruno Díaz")[3] == "updated, ./bot made executable (player.toml's command)"
    assert os.access(bot, os.X_OK)


def test_unchanged_means_the_same_modes_too(tmp_path: Path) -> None:
    into = tmp_path / "players"
    plain = archive(
        tmp_path / "1.zip",
        [(sub("Caro Pérez", 303, "player.py"), PLAYER), (sub("Caro Pérez", 303, "run.sh"), BOT)],
    )
    moded = archive(
        tmp_path / "2.zip",
        [(sub("Caro Pérez", 303, "player.py"), PLAYER), executable(sub("Caro Pérez", 303, "run.sh"), BOT)],
    )
    assert run("import", str(plain), "--into", str(into)).exit_code == 0
    done = run("import", str(moded), "--into", str(into), "--lang", "en")
    assert row(done.output, "Caro Pérez")[3] == "updated"  # run.sh became executable
    assert os.access(into / "caro_pérez" / "run.sh", os.X_OK)
    done = run("import", str(moded), "--into", str(into), "--lang", "en")
    assert row(done.output, "Caro Pérez")[3] == "updated (unchanged)"


def test_only_a_relative_program_inside_the_folder_is_touched(tmp_path: Path) -> None:
    into = tmp_path / "players"
    outside = tmp_path / "outside"
    outside.write_bytes(BOT)
    outside.chmod(0o644)
    zipped = archive(
        tmp_path / "entregas.zip",
        [
            (sub("Abs Olute", 1, "player.toml"), f'command = ["{outside}"]\n'.encode()),
            (sub("Sube Arriba", 2, "player.toml"), b'command = ["../../outside"]\n'),
            (sub("En Path", 3, "player.toml"), b'command = ["sh", "bot"]\n'),
            (sub("En Path", 3, "bot"), BOT),
            (sub("Una Carpeta", 4, "player.toml"), b'command = ["./bin"]\n'),
            (sub("Una Carpeta", 4, "bin/x"), BOT),
            (sub("Mal Toml", 5, "player.toml"), b"command = [\n"),
        ],
    )
    outcomes = {o.student: o for o in import_archive(zipped, into)}
    assert all(o.imported and o.made_executable is None for o in outcomes.values())
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644
    assert not os.access(into / "en_path" / "bot", os.X_OK)  # sh runs it: no need
    assert outcomes["Una Carpeta"].invalid is not None
    assert outcomes["Mal Toml"].invalid is not None
