"""A ladder's final torneo: its active versions frozen, then the official ``arena tournament``.

:func:`start_final` freezes the ladder's active versions (one per student,
:func:`arena.serve.ladder.worker.active_ids`) into a :class:`FinalTorneo` row and enqueues it
(:func:`start`) for a worker of the queue ``finals`` (:func:`arena.serve.finals.tasks.run_final`):
each version's folder is copied into ``DIR/finals/<id>/players/<name>/`` (a name made from the
student's, safe for a file system and unique), then ``arena tournament`` runs as a subprocess into
``DIR/finals/<id>/final/``, the first and last lines of its output kept as the row's progress.
Once it is done the torneo's site (``torneo/web/``) is zipped into ``DIR/finals/<id>/site.zip``
and each entrant's place is kept in the row's options.

A final left *queued* or *running* by a stopped server is played on, since its task is run again
at the next start (:func:`arena.serve.startup.resume`): ``arena tournament --resume`` when its
store exists, else from the start. The subprocess dies with the worker that waits for it
(``PR_SET_PDEATHSIG``: SIGTERM, which ``arena tournament`` takes as Ctrl-C, keeping every committed
partido).

``options`` (JSON): ``duplicate``, ``until_separated``, ``partidos``, ``table_size``, ``workers``
(what ``arena tournament`` is given: under ``duplicate`` it plays a deal's rotations one after
another, never two at once, :mod:`arena.tournament.dispatch`), ``grades`` (the mapping of places
to grades, see :func:`grade_scale`), ``players`` (folder name → student and version ids) and, when
done, ``places`` (folder name → place) and ``grade_places`` (folder name → the place whose grade it
gets: the best of those the standings do not separate it from, :mod:`arena.results.grades`).
"""

from __future__ import annotations

import collections
import csv
import io
import re
import shutil
import subprocess
import sys
import threading
import unicodedata
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from arena.results import grades
from arena.serve.finals.models import FinalTorneo
from arena.serve.ladder.models import Ladder
from arena.serve.submissions.models import Version

PROGRESS_LINES = 3, 30
"""The lines of ``arena tournament``'s output a final keeps as its progress: its first and its last."""
PROGRESS_EVERY_S = 1.0
"""How often, at most, the progress is written to the database while the torneo runs."""
DEFAULT_GRADES = grades.DEFAULT_SCALE
"""The default mapping of places to grades: 10 for the first, 1 for the last, linear between."""
GRADE_DIGITS = grades.DIGITS
"""A grade's decimals in the CSV."""
LAUNCHER = (
    "import ctypes, os, signal, sys\n"  # not shown: a program
    "try:\n"
    "    ctypes.CDLL(None).prctl(1, signal.SIGTERM, 0, 0, 0)\n"  # PR_SET_PDEATHSIG (Linux)
    "except (OSError, AttributeError):\n"
    "    pass\n"
    "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])\n"
)
"""Runs the command it is given (``python -m arena tournament …``) after asking the kernel for
SIGTERM when the thread that started it ends, as when its worker stops (a ``preexec_fn`` would do
the same, but is not safe in a process with threads)."""

# The CSV's columns, as Moodle's gradebook import reads them (the identifiers as its exports name them).
EMAIL_COLUMN = "Email address"  # not shown: a file's format
ID_COLUMN = "ID number"  # not shown
PLACE_COLUMN = "Final torneo place"  # not shown
GRADE_COLUMN = "Final torneo grade"  # not shown

_running: set[int] = set()
"""The finals this process is playing (so that none is played twice at once)."""
_running_lock = threading.Lock()


class FinalError(Exception):
    """A final torneo that cannot start as asked; the message (in the language in use) says why."""


# ---------------------------------------------------------------- options


def grade_scale(text: str) -> Callable[[int, int], float | None]:
    """The grade of place ``p`` of ``n`` from the instructor's mapping; FinalError if it is not one
    (the rule of ``arena standings --grades``: :func:`arena.results.grades.scale`).

    ``best/worst`` (``10/1``): the first gets *best*, the last *worst*, linear between (a single
    entrant gets *best*). ``1=10, 2=9, 3=8``: the grade of each place named; a place not named gets
    no grade (an empty cell, which Moodle's import leaves alone). Empty: :data:`DEFAULT_GRADES`.
    """
    try:
        return grades.scale(text)
    except grades.ScaleError:
        raise FinalError(
            _("The grades must be “best/worst” (as 10/1) or one “place=grade” per place (as 1=10, 2=9).")
        ) from None


def clean_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` through the final's form (:class:`arena.serve.finals.forms.FinalForm`, which holds
    the rules): its cleaned options; FinalError saying the first one that is not valid."""
    from arena.serve.finals.forms import FinalForm

    names = set(FinalForm.base_fields) - {"action"}
    given = {k: v for k, v in options.items() if k in names and v is not None}
    form = FinalForm({"action": "start", **given})
    if not form.is_valid():
        raise FinalError(next(iter(form.errors.values()))[0])
    return form.cleaned_data


def parse_options(form: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a final from the instructor's form (or its cleaned data); FinalError for one
    that is not valid."""
    cleaned = clean_options(form)
    return {key: cleaned[key] for key in ("duplicate", "until_separated", "partidos", "grades")}


def safe_name(text: str, taken: set[str]) -> str:
    """A folder name from a student's name: lower-case ASCII letters, digits and ``-``, not in
    ``taken`` (``-2``, ``-3`` added), then added to it."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    base = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:40] or "student"
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


# ---------------------------------------------------------------- freezing and starting


def home(final: FinalTorneo) -> Path:
    """``DIR/finals/<id>``: the final's players, its torneo and its site's zip."""
    return Path(settings.DIR) / "finals" / str(final.pk)


def torneo_dir(final: FinalTorneo) -> Path:
    """``DIR/finals/<id>/final``, so its site is titled "Torneo final" (``torneo`` for a final made
    before, kept where it is)."""
    before = home(final) / "torneo"
    return before if before.is_dir() else home(final) / "final"


def site_zip(final: FinalTorneo) -> Path:
    return home(final) / "site.zip"


def freeze(ladder: Ladder, options: Mapping[str, Any]) -> FinalTorneo:
    """A new *queued* final of ``ladder`` with its active versions now, one folder name each;
    FinalError when there are too few for a table or one is playing already."""
    from arena import games
    from arena.serve.ladder import matchmaking
    from arena.serve.ladder.worker import active_ids

    spec = games.spec(ladder.game)
    with transaction.atomic():
        Ladder.objects.select_for_update().filter(pk=ladder.pk).first()  # one start at a time
        if ladder.finals.filter(status__in=(FinalTorneo.QUEUED, FinalTorneo.RUNNING)).exists():
            raise FinalError(_("A final torneo of this ladder is being played already."))
        ids = active_ids(ladder)
        cleaned = clean_options(options)
        size = cleaned["table_size"] or matchmaking.table_size(spec.entrants_per_partido, len(ids))
        if size is not None and size not in spec.entrants_per_partido:
            raise FinalError(
                _("{game} seats {sizes} players a partido, not {k}.").format(
                    game=ladder.game, sizes=", ".join(map(str, spec.entrants_per_partido)), k=size
                )
            )
        if size is None or len(ids) < size:
            raise FinalError(
                _("A final torneo needs at least {n} active versions; this ladder has {active}.").format(
                    n=size or min(spec.entrants_per_partido), active=len(ids)
                )
            )
        versions = Version.objects.select_related("student").in_bulk(ids)
        taken: set[str] = set()
        players = {
            safe_name(versions[v].student.display_name, taken): {
                "student": versions[v].student_id,
                "version": v,
            }
            for v in sorted(ids, key=lambda v: (versions[v].student.display_name, v))
        }
        chosen = {**parse_options(cleaned), "table_size": None if spec.teams else size, "players": players}
        if cleaned["workers"]:
            chosen["workers"] = cleaned["workers"]
        final = FinalTorneo.objects.create(ladder=ladder, options=chosen)
        final.versions.set(sorted(ids))
        final.folder = str(home(final))
        final.save(update_fields=["folder"])
    return final


def start_final(ladder: Ladder, options: Mapping[str, Any]) -> FinalTorneo:
    """Freeze ``ladder``'s active versions (:func:`freeze`) and play the final once committed."""
    final = freeze(ladder, options)
    transaction.on_commit(lambda: start(final.pk))
    return final


def start(final_id: int) -> None:
    """Enqueue final ``final_id`` for a worker of the queue ``finals``."""
    from arena.serve.finals import tasks

    tasks.run_final.enqueue(final_id)


def retry(final: FinalTorneo) -> bool:
    """Play a *failed* final on (from where its torneo stopped); whether it was failed."""
    again = FinalTorneo.objects.filter(pk=final.pk, status=FinalTorneo.FAILED).update(
        status=FinalTorneo.QUEUED, error="", finished_at=None
    )
    if again:
        transaction.on_commit(lambda: start(final.pk))
    return bool(again)


# ---------------------------------------------------------------- playing


def _copy_players(final: FinalTorneo) -> Path:
    """Each frozen version's folder copied to ``players/<name>/`` (those copied before are kept)."""
    players = home(final) / "players"
    players.mkdir(parents=True, exist_ok=True)
    folders = dict(final.versions.values_list("id", "folder"))
    for name, who in final.options["players"].items():
        target = players / name
        if target.is_dir():
            continue
        source = Path(folders.get(who["version"]) or "")
        if not folders.get(who["version"]) or not source.is_dir():
            raise FinalError(
                _("The folder of version {version} ({name}) is gone.").format(
                    version=who["version"], name=name
                )
            )
        partial = players / f".{name}.copying"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.copytree(source, partial, ignore=shutil.ignore_patterns("__pycache__"))
        partial.rename(target)
    return players


def command(final: FinalTorneo, players: Path) -> list[str]:
    """The ``arena tournament`` that plays ``final``: ``--resume`` when its store exists."""
    from arena.tournament.store import DB_NAME

    out = torneo_dir(final)
    arena = [sys.executable, "-m", "arena", "tournament"]
    workers = ["--workers", str(final.options["workers"])] if final.options.get("workers") else []
    if (out / DB_NAME).is_file():
        return [*arena, "--resume", str(out), *workers]
    options = final.options
    line = [*arena, str(players), "--out", str(out), "--game", final.ladder.game, *workers]
    if options.get("table_size"):
        line += ["--table-size", str(options["table_size"])]
    if options.get("duplicate"):
        line.append("--duplicate")
    if options.get("until_separated"):
        line.append("--until-separated")
    if options.get("partidos"):
        line += ["--partidos", str(options["partidos"])]
    return line


def _play(final: FinalTorneo, players: Path) -> tuple[int, str]:
    """Run ``arena tournament`` for ``final``, its output's first and last lines saved as the
    progress as it goes; its exit code and those lines."""
    import os
    import time

    out = torneo_dir(final)
    line = command(final, players)
    if "--resume" not in line:
        shutil.rmtree(out, ignore_errors=True)  # a start that stopped before its store: from nothing
    head: list[str] = []
    tail: collections.deque[str] = collections.deque(maxlen=PROGRESS_LINES[1])
    seen = 0

    def shown() -> str:
        cut = ["…"] if seen > len(head) + len(tail) else []
        return "\n".join([*head, *cut, *tail])

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    saved = 0.0
    with subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, *line[1:]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
        env=env,
    ) as child:
        assert child.stdout is not None
        for text in child.stdout:
            seen += 1
            if len(head) < PROGRESS_LINES[0]:
                head.append(text.rstrip("\n"))
            else:
                tail.append(text.rstrip("\n"))
            if time.monotonic() - saved >= PROGRESS_EVERY_S:
                saved = time.monotonic()
                FinalTorneo.objects.filter(pk=final.pk).update(progress=shown())
        code = child.wait()
    FinalTorneo.objects.filter(pk=final.pk).update(progress=shown())
    return code, shown()


def zip_site(final: FinalTorneo) -> Path:
    """``torneo/web/`` zipped into ``site.zip`` (written beside, then moved in place)."""
    from arena.results.web import WEB_DIR

    site = torneo_dir(final) / WEB_DIR
    target = site_zip(final)
    partial = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(site.rglob("*")):
            if path.is_file():
                zf.write(path, Path(WEB_DIR) / path.relative_to(site))
    partial.replace(target)
    return target


def places(final: FinalTorneo) -> dict[str, int]:
    """Each entrant's place in the final's standings (as ``arena standings`` orders them)."""
    return {name: place for name, (place, _shared) in standings_places(final).items()}


def standings_places(final: FinalTorneo) -> dict[str, tuple[int, int]]:
    """Each entrant's place in the final's standings and the place whose grade it gets (the best of
    the places the standings do not separate it from: :func:`arena.results.grades.shared_places`)."""
    from arena.results import report
    from arena.tournament.store import Store

    with Store.open(torneo_dir(final), readonly=True) as store:
        rep = report.build(store)
    return {g.entrant: (g.place, g.shared) for g in grades.graded(rep.posiciones)}


def grade_places(final: FinalTorneo) -> dict[str, int]:
    """The place whose grade each entrant gets: as kept when the final ended, else (a final done
    before the rule) from its torneo's standings, then kept; else its place."""
    found: dict[str, int] = final.options.get("grade_places") or {}
    if found or not final.options.get("places"):
        return found or dict(final.options.get("places", {}))
    try:
        found = {name: shared for name, (_place, shared) in standings_places(final).items()}
    except Exception:  # the torneo's folder is gone: the places as they were
        return dict(final.options["places"])
    final.options = {**final.options, "grade_places": found}
    FinalTorneo.objects.filter(pk=final.pk).update(options=final.options)
    return found


def run_final(final_id: int) -> None:
    """Play final ``final_id`` to its end (a task's body): *running*, then *done* or *failed*."""
    with _running_lock:
        if final_id in _running:
            return
        _running.add(final_id)
    close_old_connections()
    try:
        taken = FinalTorneo.objects.filter(
            pk=final_id, status__in=(FinalTorneo.QUEUED, FinalTorneo.RUNNING)
        ).update(status=FinalTorneo.RUNNING, error="")
        if not taken:
            return
        final = FinalTorneo.objects.select_related("ladder").get(pk=final_id)
        try:
            code, progress = _play(final, _copy_players(final))
            if code != 0:
                raise FinalError(
                    _("arena tournament stopped with code {code}:").format(code=code)
                    + "\n"
                    + "\n".join(progress.splitlines()[-8:])
                )
            placed = standings_places(final)
            zip_site(final)
        except Exception as exc:  # the torneo could not be played: the page says why
            FinalTorneo.objects.filter(pk=final_id).update(
                status=FinalTorneo.FAILED, error=str(exc)[:4000], finished_at=timezone.now()
            )
            return
        found = {name: place for name, (place, _shared) in placed.items()}
        shared = {name: at for name, (_place, at) in placed.items()}
        final.options = {**final.options, "places": found, "grade_places": shared}
        final.progress, final.status, final.finished_at = progress, FinalTorneo.DONE, timezone.now()
        final.save(update_fields=["options", "progress", "status", "finished_at"])
    finally:
        with _running_lock:
            _running.discard(final_id)
        connection.close()


# ---------------------------------------------------------------- what a finished final gives


def workbook(final: FinalTorneo) -> Path | None:
    """The torneo's workbook (``standings.xlsx``, or the one in another language), if written."""
    from arena.results.report import WORKBOOK

    folder = torneo_dir(final)
    if (folder / WORKBOOK).is_file():
        return folder / WORKBOOK
    return next(iter(sorted(folder.glob("standings*.xlsx"))), None)


def site_file(final: FinalTorneo, name: str) -> Path | None:
    """The file ``name`` (a relative path, ``/`` between folders) of the torneo's site
    (``torneo/web/``), if it is one; None for anything else: a name with an empty, ``.`` or ``..``
    part, a back slash or a NUL, an absolute one, a folder, or a path that leaves ``web/`` once
    resolved (a symbolic link out of it)."""
    from arena.results.web import WEB_DIR

    parts = name.split("/")
    if not name or "\\" in name or "\x00" in name or any(p in ("", ".", "..") for p in parts):
        return None
    root = (torneo_dir(final) / WEB_DIR).resolve()
    try:
        path = root.joinpath(*parts).resolve(strict=True)
    except (OSError, RuntimeError):  # missing, or a loop of links
        return None
    return path if path.is_relative_to(root) and path.is_file() else None


def entries(final: FinalTorneo) -> list[dict[str, Any]]:
    """The frozen entrants: folder name, student, version and (once done) place, best first."""
    from arena.serve.accounts.models import Student

    players: dict[str, dict[str, int]] = final.options.get("players", {})
    found: dict[str, int] = final.options.get("places", {})
    students = Student.objects.in_bulk([p["student"] for p in players.values()])
    versions = Version.objects.in_bulk([p["version"] for p in players.values()])
    rows = [
        {
            "name": name,
            "student": students.get(who["student"]),
            "version": versions.get(who["version"]),
            "place": found.get(name),
        }
        for name, who in players.items()
    ]
    return sorted(rows, key=lambda r: (r["place"] is None, r["place"] or 0, r["name"]))


def graded(final: FinalTorneo) -> list[dict[str, Any]]:
    """Each frozen student's grade, best place first: :func:`entries`' row (the students still
    there) with ``shared`` (the place whose grade it gets: the best of those the standings do not
    separate it from, :func:`grade_places`), ``grade`` (under the final's mapping; None: none) and
    ``shown`` (as the CSV writes it). The rows of :func:`grades_csv` and of the final's page."""
    scale = grade_scale(final.options.get("grades", DEFAULT_GRADES))
    rows = entries(final)
    n = sum(1 for r in rows if r["place"] is not None)
    shared = grade_places(final)
    out = []
    for row in _rows(rows):
        place = row["place"]
        at = shared.get(row["name"], place) if place is not None else None
        grade = scale(at, n) if at is not None else None
        out.append({**row, "shared": at, "grade": grade, "shown": grades.shown(grade)})
    return out


def grades_csv(final: FinalTorneo) -> str:
    """The grades for Moodle's gradebook import: one row per frozen student (:func:`graded`),
    identified by email address and ID number, with the place and the grade the final's mapping
    gives it — by the rule of ``arena standings --grades`` (:mod:`arena.results.grades`): entrants
    the standings do not separate get the grade of the best place among them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([EMAIL_COLUMN, ID_COLUMN, PLACE_COLUMN, GRADE_COLUMN])
    for row in graded(final):
        student, place = row["student"], row["place"]
        writer.writerow([student.email, student.roster_id, place if place is not None else "", row["shown"]])
    return buffer.getvalue()


def _rows(rows: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The rows with a student (one whose account was deleted since has nothing to be graded by)."""
    return (r for r in rows if r["student"] is not None)
