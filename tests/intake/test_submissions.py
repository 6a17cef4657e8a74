"""``arena submissions``: Moodle archives of awkward, broken and hostile submissions made player folders.

Every archive is built here with ``zipfile``; nothing is played, so the tests are quick.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import zipfile
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli import main
from arena.intake import submissions
from arena.intake.submissions import CHUNK, MARKER, STAGE_PREFIX, Caps, import_archive, slug

PLAYER = b"from arena.sdk import Move, Player\n\n\nclass P(Player):\n    def play(self, request):\n" + (
    b"        return Move(card=request.legal()[0])\n"
)
COMMAND = b'command = ["./bot"]\n'
Entry = tuple[str | zipfile.ZipInfo, bytes]


def sub(name: str, ident: int, path: str = "") -> str:
    """A path inside a student's folder of Moodle's download."""
    return f"{name}_{ident}_assignsubmission_file_/{path}"


def zip_bytes(entries: Sequence[Entry]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def archive(path: Path, entries: Sequence[Entry]) -> Path:
    path.write_bytes(zip_bytes(entries))
    return path


def link(name: str, target: str) -> Entry:
    """A symbolic link entry, as ``zip --symlinks`` writes it."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info, target.encode()


def executable(name: str, data: bytes) -> Entry:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (stat.S_IFREG | 0o755) << 16
    return info, data


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["submissions", *args], catch_exceptions=False)


def files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (relative path → content), hidden ones included; links never followed."""
    out = {}
    for here, _, names in os.walk(root):
        for name in names:
            path = Path(here, name)
            out[path.relative_to(root).as_posix()] = b"<link>" if path.is_symlink() else path.read_bytes()
    return out


def row(output: str, *start: str) -> list[str]:
    """The cells of the table's one row whose first cells are ``start`` (cells: two spaces apart)."""
    rows = [re.split(r" {2,}", line) for line in output.splitlines()]
    found = [r for r in rows if r[: len(start)] == list(start)]
    assert len(found) == 1, (start, output)
    return found[0]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ana María Núñez", "ana_maría_núñez"),
        ("José O'Brien", "josé_obrien"),
        ("  Zoë   Ñandú ", "zoë_ñandú"),
        ("Ana-Lía d'Àvila", "ana-lía_dàvila"),
        ("A\u0301ngela", "ángela"),  # decomposed (as macOS writes names): composed, kept
        ("<b>Rm -rf /</b>", "brm_-rf_b"),
        ("--Ana", "ana"),
        ("!!!", ""),
        ("x" * 100, "x" * 60),
    ],
)
def test_slug(name: str, expected: str) -> None:
    assert slug(name) == expected


def test_a_course_archive(tmp_path: Path) -> None:
    """Awkward names, an inner zip, a nested layout, two candidates, escapes, a link, a taken folder."""
    into = tmp_path / "course" / "players"
    (into / "profe").mkdir(parents=True)
    (into / "profe" / "player.py").write_bytes(b"# the teacher's\n")
    (into / "bruno_díaz").mkdir()
    (into / "bruno_díaz" / "player.py").write_bytes(b"# not a submission\n")
    absolute = tmp_path / "abs.py"
    zipped = archive(
        tmp_path / "course" / "entregas.zip",
        [
            (sub("Ana María Núñez", 123456, "player.py"), PLAYER),
            (sub("Ana María Núñez", 654321, "player.py"), PLAYER + b"# the other Ana\n"),
            (sub("José O'Brien", 111, "player.py"), PLAYER),
            (sub("José O'Brien", 111, "util.py"), b"X = 1\n"),
            (sub("José O'Brien", 111, ".DS_Store"), b"junk"),
            (sub("José O'Brien", 111, "__MACOSX/._player.py"), b"junk"),
            (sub("Íñigo Peña", 222, "entrega.zip"), zip_bytes([
                ("inigo/player.py", PLAYER),
                ("inigo/datos/tabla.txt", b"1 2 3\n"),
            ])),
            (sub("Zoë Ñandú", 333, "entrega.zip"), zip_bytes([
                ("entrega/src/zoe/player.py", PLAYER),
                ("entrega/src/zoe/helper.py", b"Y = 2\n"),
                ("entrega/README.md", b"hola\n"),
            ])),
            (sub("Dos Jugadores", 444, "a/player.py"), PLAYER),
            (sub("Dos Jugadores", 444, "b/player.toml"), COMMAND),
            (sub("Bruno Díaz", 555, "player.toml"), COMMAND),
            executable(sub("Bruno Díaz", 555, "bot"), b"#!/bin/sh\n"),
            (sub("Escapa Fuera", 666, "entrega.zip"), zip_bytes([
                ("player.py", PLAYER),
                ("../evil.py", b"import os\n"),
            ])),
            (sub("Ruta Absoluta", 777, "entrega.zip"), zip_bytes([
                ("player.py", PLAYER),
                (str(absolute), b"import os\n"),
            ])),
            (sub("Enlace Raro", 888, "player.py"), PLAYER),
            link(sub("Enlace Raro", 888, "datos"), "/etc"),
            (sub("Unidad Windows", 999, "entrega.zip"), zip_bytes([("C:\\evil.py", b"x")])),
            ("../evil.py", b"import os\n"),
        ],
    )  # fmt: skip

    def outside() -> dict[str, bytes]:
        return {k: v for k, v in files(tmp_path).items() if not k.startswith("course/players/")}

    before = outside()

    done = run("import", str(zipped), "--into", str(into))

    assert done.exit_code == 0, done.output
    out = done.output
    assert row(out, "Alumno") == ["Alumno", "Id", "Carpeta", "Resultado"]
    assert row(out, "Ana María Núñez", "123456") == [
        "Ana María Núñez",
        "123456",
        "ana_maría_núñez-123456",
        "importado, renombrado: otro alumno también es ana_maría_núñez",
    ]
    assert row(out, "Ana María Núñez", "654321")[2:] == [
        "ana_maría_núñez-654321",
        "importado, renombrado: otro alumno también es ana_maría_núñez",
    ]
    assert row(out, "José O'Brien") == ["José O'Brien", "111", "josé_obrien", "importado"]
    assert row(out, "Íñigo Peña") == ["Íñigo Peña", "222", "íñigo_peña", "importado"]
    assert row(out, "Zoë Ñandú")[2:] == [
        "zoë_ñandú",
        "importado, reorganizado: entrega/src/zoe/ subido al primer nivel, 1 archivo de fuera descartado",
    ]
    assert row(out, "Bruno Díaz")[2:] == [
        "bruno_díaz-555",
        "importado, renombrado: bruno_díaz ya existe y no es suyo",
    ]
    rejected = {
        "Dos Jugadores": "más de un jugador en la entrega: a/player.py, b/player.toml",
        "Escapa Fuera": "entrega.zip: ../evil.py: la ruta sale de la carpeta (..)",
        "Ruta Absoluta": f"entrega.zip: {absolute}: ruta absoluta",
        "Enlace Raro": "datos: enlace simbólico (no se aceptan)",
        "Unidad Windows": "entrega.zip: C:\\evil.py: ruta con letra de unidad",
        "../evil.py": "../evil.py: la ruta sale de la carpeta (..)",
    }
    for student, reason in rejected.items():
        assert row(out, student)[2:] == ["—", f"rechazado: {reason}"]
    assert "6 importados, 0 actualizados, 6 rechazados, en " in out

    made = {p.name for p in into.iterdir()}
    assert made == {
        "profe",
        "bruno_díaz",
        "bruno_díaz-555",
        "ana_maría_núñez-123456",
        "ana_maría_núñez-654321",
        "josé_obrien",
        "íñigo_peña",
        "zoë_ñandú",
    }  # no folder for a rejected student, no staging folder left behind
    tree = {name: set(files(into / name)) - {MARKER} for name in made}
    assert tree["josé_obrien"] == {"player.py", "util.py"}  # junk left out
    assert tree["íñigo_peña"] == {"player.py", "datos/tabla.txt"}  # the zip's wrapping folder flattened
    assert tree["zoë_ñandú"] == {"player.py", "helper.py"}
    assert tree["bruno_díaz-555"] == {"player.toml", "bot"}
    assert os.access(into / "bruno_díaz-555" / "bot", os.X_OK)
    assert (into / "ana_maría_núñez-654321" / "player.py").read_bytes().endswith(b"# the other Ana\n")
    assert files(into / "profe") == {"player.py": b"# the teacher's\n"}
    assert files(into / "bruno_díaz") == {"player.py": b"# not a submission\n"}
    marker = json.loads((into / "zoë_ñandú" / MARKER).read_text(encoding="utf-8"))
    assert (marker["student"], marker["id"], marker["archive"]) == ("Zoë Ñandú", "333", "entregas.zip")
    assert outside() == before  # nothing written outside DIR
    assert not list(tmp_path.rglob("evil.py")) and not list(tmp_path.rglob("abs.py"))

    listed = run("list", str(into))
    assert listed.exit_code == 0, listed.output
    assert row(listed.output, "zoë_ñandú") == ["zoë_ñandú", "Zoë Ñandú", "válido (python)"]
    assert row(listed.output, "bruno_díaz-555") == ["bruno_díaz-555", "Bruno Díaz", "válido (comando: ./bot)"]
    assert row(listed.output, "profe") == ["profe", "—", "válido (python)"]


def test_reimport_updates_and_leaves_the_rest_alone(tmp_path: Path) -> None:
    into = tmp_path / "players"
    (into / "profe").mkdir(parents=True)
    (into / "profe" / "player.py").write_bytes(b"# the teacher's\n")
    first = archive(
        tmp_path / "1.zip",
        [(sub("Ana Pérez", 1, "player.py"), b"# v1\n"), (sub("Ana Pérez", 1, "old.py"), b"")],
    )
    assert run("import", str(first), "--into", str(into)).exit_code == 0
    assert set(files(into / "ana_pérez")) == {"player.py", "old.py", MARKER}

    second = archive(
        tmp_path / "2.zip",
        [(sub("Ana Pérez", 1, "entrega.zip"), zip_bytes([("ana/player.py", b"# v2\n")])),
         (sub("Nuevo Alumno", 2, "player.py"), PLAYER)],
    )  # fmt: skip
    done = run("import", str(second), "--into", str(into))
    assert done.exit_code == 0, done.output
    assert row(done.output, "Ana Pérez") == ["Ana Pérez", "1", "ana_pérez", "actualizado"]
    assert row(done.output, "Nuevo Alumno") == ["Nuevo Alumno", "2", "nuevo_alumno", "importado"]
    assert files(into / "ana_pérez").keys() == {"player.py", MARKER}  # replaced, not merged
    assert (into / "ana_pérez" / "player.py").read_bytes() == b"# v2\n"
    assert (into / "profe" / "player.py").read_bytes() == b"# the teacher's\n"
    assert sorted(p.name for p in into.iterdir()) == ["ana_pérez", "nuevo_alumno", "profe"]

    again = run("import", str(second), "--into", str(into))
    assert row(again.output, "Ana Pérez")[3] == "actualizado (sin cambios)"

    # A broken re-submission: rejected, and the earlier one stays.
    broken = archive(tmp_path / "3.zip", [link(sub("Ana Pérez", 1, "player.py"), "/etc/passwd")])
    done = run("import", str(broken), "--into", str(into))
    assert done.exit_code == 1, done.output
    assert row(done.output, "Ana Pérez")[2:] == [
        "ana_pérez",
        "rechazado: player.py: enlace simbólico (no se aceptan); queda la entrega anterior en ana_pérez",
    ]
    assert (into / "ana_pérez" / "player.py").read_bytes() == b"# v2\n"
    assert not [p for p in into.iterdir() if p.name.startswith(STAGE_PREFIX)]


@pytest.fixture
def decompressed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every byte zipfile decompresses for the import (one list element: the total)."""
    total = [0]
    read = zipfile.ZipExtFile.read

    def counting(self: zipfile.ZipExtFile, n: int = -1) -> bytes:
        data = read(self, n)
        total[0] += len(data)
        return data

    monkeypatch.setattr(zipfile.ZipExtFile, "read", counting)
    return total


def test_zip_bombs_trip_early(tmp_path: Path, decompressed: list[int]) -> None:
    """16 MiB of zeros (16 KiB on disk), plain and inside a student's zip: stopped by the ratio after
    under 2 MiB each, long before the 64 MiB cap, and nothing of them is left."""
    zeros = b"\0" * (16 << 20)
    zipped = archive(
        tmp_path / "bombs.zip",
        [
            (sub("Bomba Plana", 1, "datos.bin"), zeros),
            (sub("Bomba Plana", 1, "player.py"), PLAYER),
            (sub("Bomba Dentro", 2, "entrega.zip"), zip_bytes([("player.py", PLAYER), ("datos.bin", zeros)])),
            (sub("Buena Alumna", 3, "player.py"), PLAYER),
        ],
    )
    assert zipped.stat().st_size < 100_000
    into = tmp_path / "players"

    done = run("import", str(zipped), "--into", str(into))

    assert done.exit_code == 0, done.output
    bomb = "se comprime más de 100:1 (¿una bomba zip?)"
    assert row(done.output, "Bomba Plana")[2:] == ["—", f"rechazado: datos.bin: {bomb}"]
    assert row(done.output, "Bomba Dentro")[2:] == ["—", f"rechazado: entrega.zip: datos.bin: {bomb}"]
    assert row(done.output, "Buena Alumna")[2:] == ["buena_alumna", "importado"]
    used = decompressed[0]
    # Each bomb stopped within a chunk of max(1 MiB, 100 × its compressed size), here about 1.6 MiB.
    caps = Caps()
    with zipfile.ZipFile(zipped) as outer:
        plain = outer.getinfo(sub("Bomba Plana", 1, "datos.bin")).compress_size
        with zipfile.ZipFile(io.BytesIO(outer.read(sub("Bomba Dentro", 2, "entrega.zip")))) as inner:
            nested = inner.getinfo("datos.bin").compress_size
    stops = sum(max(caps.ratio_free, caps.ratio * size) + CHUNK for size in (plain, nested))
    assert stops < 4 << 20
    assert used < stops + 100_000
    assert sorted(p.name for p in into.iterdir()) == ["buena_alumna"]


def test_caps_count_what_comes_out_not_what_is_declared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, decompressed: list[int]
) -> None:
    """Per-student caps reject that student alone; the declared sizes are only a first, cheap check."""
    noise = os.urandom(300_000)  # incompressible: no ratio to trip
    zipped = archive(
        tmp_path / "big.zip",
        [
            (sub("Muchos Archivos", 1, "player.py"), PLAYER),
            *[(sub("Muchos Archivos", 1, f"m{i}.py"), b"") for i in range(5)],
            (sub("Muy Grande", 2, "player.py"), PLAYER),
            (sub("Muy Grande", 2, "datos.bin"), noise),
            (sub("Justa", 3, "player.py"), PLAYER),
        ],
    )
    caps = Caps(files=4, bytes=100_000)
    outcomes = {o.student: o for o in import_archive(zipped, tmp_path / "players", caps)}
    assert outcomes["Muchos Archivos"].text() == "rechazado: más de 4 archivos"
    assert outcomes["Muy Grande"].text() == "rechazado: descomprimida pasa de 100000 bytes"
    assert outcomes["Justa"].status == "imported"

    # An archive that lies about its sizes gets past the declared check and is stopped while unpacking.
    monkeypatch.setattr(submissions._Budget, "entries", lambda self, n, declared: None)
    decompressed[0] = 0
    outcomes = {o.student: o for o in import_archive(zipped, tmp_path / "again", caps)}
    assert outcomes["Muchos Archivos"].text() == "rechazado: más de 4 archivos"
    assert outcomes["Muy Grande"].text() == "rechazado: descomprimida pasa de 100000 bytes"
    assert decompressed[0] < 100_000 + CHUNK + 10_000

    # The whole import's cap: the students after it are rejected, those before kept.
    outcomes = {o.student: o for o in import_archive(zipped, tmp_path / "total", Caps(total_bytes=200_000))}
    assert outcomes["Justa"].status == "imported"
    assert outcomes["Muchos Archivos"].status == "imported"
    assert (
        outcomes["Muy Grande"]
        .text()
        .startswith("rechazado: el archivo entero descomprimido pasa de 200000 bytes")
    )


def test_flat_layout_and_other_plugins(tmp_path: Path) -> None:
    zipped = archive(
        tmp_path / "flat.zip",
        [
            ("Ana Gómez_10_assignsubmission_file_player.py", PLAYER),
            ("Bea Ruiz_11_assignsubmission_onlinetext_onlinetext.html", b"<p>hola</p>"),
            (sub("Carla Sanz", 12, "notas.txt"), b"sin jugador"),
            ("LEEME.txt", b"?"),
        ],
    )
    done = run("import", str(zipped), "--into", str(tmp_path / "players"), "--lang", "en")
    assert done.exit_code == 0, done.output
    assert row(done.output, "Student") == ["Student", "Id", "Folder", "Result"]
    assert row(done.output, "Ana Gómez") == ["Ana Gómez", "10", "ana_gómez", "imported"]
    assert row(done.output, "Bea Ruiz")[3] == "rejected: not a file submission (onlinetext)"
    assert row(done.output, "Carla Sanz")[3] == "rejected: no player.py or player.toml"
    assert row(done.output, "LEEME.txt") == [
        "LEEME.txt",
        "—",
        "—",
        "rejected: LEEME.txt: outside every submission folder",
    ]
    assert "1 imported, 0 updated, 3 rejected" in done.output


def test_nothing_imported_and_unusable_archives(tmp_path: Path) -> None:
    into = tmp_path / "players"
    only_bad = archive(tmp_path / "bad.zip", [(sub("Sin Nada", 1, "notas.txt"), b"")])
    done = run("import", str(only_bad), "--into", str(into))
    assert done.exit_code == 1
    assert "0 importados, 0 actualizados, 1 rechazado" in done.output

    not_zip = tmp_path / "entregas.zip"
    not_zip.write_bytes(b"not a zip")
    done = run("import", str(not_zip), "--into", str(into))
    assert done.exit_code == 1
    assert done.output.strip() == f"Error: {not_zip}: no es un archivo zip (File is not a zip file)"

    other = archive(tmp_path / "other.zip", [("player.py", PLAYER)])
    done = run("import", str(other), "--into", str(tmp_path / "nowhere"), "--lang", "en")
    assert done.exit_code == 1
    assert "not a Moodle submissions download" in done.output
    assert not (tmp_path / "nowhere").exists()


def test_list_compiles_python_players_and_names_the_line(tmp_path: Path) -> None:
    into = tmp_path / "players"
    for name, path, text in [
        ("ana", "player.py", PLAYER.decode()),
        ("ana", "util.py", "PATTERN = '\\d+'  # a SyntaxWarning only\n"),
        ("beto", "player.py", PLAYER.decode()),
        ("beto", "lib/helper.py", "def f(:\n    pass\n"),
        ("caro", "player.py", "x = 1\nif x\n    pass\n"),
        ("dani", "player.py", "x = 1\0\n"),
        ("eva", "player.py", "# ok\n"),
        ("eva", ".venv/broken.py", "def (\n"),  # hidden folders are not the player's
        ("eva", "__pycache__/broken.py", "def (\n"),
    ]:
        (into / name / path).parent.mkdir(parents=True, exist_ok=True)
        (into / name / path).write_text(text, encoding="utf-8")
    done = run("list", str(into), "--lang", "en")
    assert done.exit_code == 1
    assert row(done.output, "ana")[2] == "valid (python)"
    assert row(done.output, "beto")[2].startswith("NOT VALID: syntax error in lib/helper.py, line 1: ")
    assert row(done.output, "caro")[2].startswith("NOT VALID: syntax error in player.py, line 2: ")
    assert row(done.output, "dani")[2].startswith("NOT VALID: ")  # null bytes: how depends on the Python
    assert "player.py" in row(done.output, "dani")[2]
    assert row(done.output, "eva")[2] == "valid (python)"
    assert "2 valid entrants, 3 player folders not valid" in done.output
    assert not list(into.rglob("__pycache__/*.pyc"))  # compiled in memory, nothing written, nothing run

    done = run("list", str(into), "--lang", "es")
    assert row(done.output, "caro")[2].startswith("NO VÁLIDO: error de sintaxis en player.py, línea 2: ")


def test_list_checks_a_command_player_without_running_it(tmp_path: Path) -> None:
    into = tmp_path / "players"
    for name, toml in [
        ("bin_ok", COMMAND.decode()),
        ("bin_noexec", COMMAND.decode()),
        ("bin_missing", COMMAND.decode()),
        ("not_installed", 'command = ["no-such-runtime-51", "bot.js"]\n'),
        ("py_cmd", 'command = ["python3", "bot.py"]\n'),
    ]:
        (into / name).mkdir(parents=True)
        (into / name / "player.toml").write_text(toml, encoding="utf-8")
    ran = tmp_path / "ran"
    for name in ("bin_ok", "bin_noexec"):
        (into / name / "bot").write_text(f"#!/bin/sh\ntouch {ran}\n", encoding="utf-8")
    (into / "bin_ok" / "bot").chmod(0o755)
    (into / "bin_noexec" / "bot").chmod(0o644)
    (into / "py_cmd" / "bot.py").write_text("print('hi'\n", encoding="utf-8")
    done = run("list", str(into), "--lang", "en")
    assert done.exit_code == 1
    assert row(done.output, "bin_ok")[2] == "valid (command: ./bot)"
    assert row(done.output, "bin_noexec")[2] == "NOT VALID: command ./bot is not executable (chmod +x ./bot)"
    assert row(done.output, "bin_missing")[2] == "NOT VALID: command './bot' not found"
    assert row(done.output, "not_installed")[2] == (
        "NOT VALID: command 'no-such-runtime-51' is not installed (not on /usr/bin or /bin)"
    )
    assert row(done.output, "py_cmd")[2].startswith("NOT VALID: syntax error in bot.py, line 1: ")
    assert not ran.exists()


def test_list_says_which_folders_a_torneo_takes(tmp_path: Path) -> None:
    into = tmp_path / "players"
    for name, file, text in [
        ("ana", "player.py", "# ok\n"),
        ("mal_toml", "player.toml", "command = 3\n"),
        ("notas", "leeme.txt", "no soy un jugador\n"),
    ]:
        (into / name).mkdir(parents=True)
        (into / name / file).write_text(text, encoding="utf-8")
    done = run("list", str(into))
    assert done.exit_code == 1  # mal_toml is not a usable player
    assert row(done.output, "ana") == ["ana", "—", "válido (python)"]
    assert row(done.output, "mal_toml")[2].startswith("NO VÁLIDO: ")
    assert "'command' tiene que ser una lista de textos no vacía" in row(done.output, "mal_toml")[2]
    assert (
        row(done.output, "notas")[2] == "no es un jugador: ni player.py ni player.toml (el torneo no lo toma)"
    )
    assert "1 jugador válido, 1 carpeta de jugador no válida" in done.output

    (into / "mal_toml" / "player.toml").unlink()
    done = run("list", str(into), "--lang", "en")
    assert done.exit_code == 0, done.output
    assert row(done.output, "ana") == ["ana", "—", "valid (python)"]
