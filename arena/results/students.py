"""Whose each entrant of a torneo is: the student's full name and Moodle id, for the standings.

``arena submissions import`` writes a marker into every player folder it makes
(:data:`arena.intake.submissions.MARKER`, after unpacking: a file of that name in a
submission is overwritten), naming the student and their Moodle id. A torneo's store
records each entrant's folder (resolved, so any working folder finds it); the standings
read the markers there (:func:`of`) and keep what they found in ``DIR/students.json``
(:func:`keep`), so that the names stay right when the player folders are later moved,
archived or deleted. An entrant without a marker (a sample player, a folder made by hand)
has none: blank cells.

A student whose folder the torneo left out (it could not start, or held no player) has no place and
no grade; :func:`left_out` finds them, from the torneo's exclusions and the markers of the folders
there, for ``arena standings --grades`` to name (kept in ``DIR/students.json`` as well, under
``excluded/<folder>``: a key no entrant's name can be, as names have no ``/``). A folder with a
student's marker in the torneo's paths that is neither an entrant nor left out (imported after the
torneo began) is found as well, while the folder is there.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.intake.submissions import whose
from arena.tournament.store import Store

EXCLUDED = "excluded/"
"""The prefix of ``DIR/students.json``'s keys for the students of folders left out of the torneo."""
NOT_ENTRANT = "not an entrant"  # not shown: a kind of LeftOut beside the store's exclusions
"""The kind of a student's folder in the torneo's paths that the torneo never saw (imported later)."""

INDEX = "students.json"
"""In the torneo's folder: each entrant's student as first found (entrant name → folder, name, id)."""


@dataclass(frozen=True)
class Student:
    name: str
    """The full name, as Moodle's download spells it."""
    id: str
    """The Moodle id of the student's submission folder (``<Full Name>_<id>_assignsubmission_file_``)."""


@dataclass(frozen=True)
class LeftOut:
    """A student whose submission is no entrant of the torneo: no place, no grade."""

    student: Student
    path: str
    """The folder, as the torneo recorded it."""
    kind: str
    """Why: the store's kind of exclusion (``no arranca``, ``no es jugador``) or :data:`NOT_ENTRANT`."""
    reason: str
    """As stored (show it with :func:`arena.i18n.shown`); empty for :data:`NOT_ENTRANT`."""


def left_out(store: Store, found: dict[str, Student] | None = None) -> list[LeftOut]:
    """The students whose folders the torneo left out (its exclusions: as kept in
    ``DIR/students.json``, else from the marker in the folder), then those whose folders in the
    torneo's paths it never saw; ``found``: the entrants' students (:func:`of`), not repeated."""
    kept = _kept(store.dir)
    seen = {s.id for s in (found if found is not None else of(store)).values()}
    out: list[LeftOut] = []
    for folder, kind, reason in store.exclusions():
        student = _kept_student(kept.get(EXCLUDED + folder), folder)
        if student is None:
            marked = whose(folder)
            student = Student(*marked) if marked is not None else None
        if student is not None and student.id not in seen:
            seen.add(student.id)
            out.append(LeftOut(student, folder, kind, reason))
    known = {str(Path(e.folder).resolve()) for e in store.entrants()}
    known |= {str(Path(folder).resolve()) for folder, _kind, _reason in store.exclusions()}
    for path in store.config().get("paths") or ():
        try:
            subs = sorted(p for p in Path(path).iterdir() if p.is_dir() and not p.name.startswith("."))
        except OSError:
            continue
        for sub in subs:
            marked = whose(sub)
            if marked is None or marked[1] in seen or str(sub.resolve()) in known:
                continue
            seen.add(marked[1])
            out.append(LeftOut(Student(*marked), str(sub), NOT_ENTRANT, ""))
    return out


def _kept_student(entry: object, folder: str) -> Student | None:
    if isinstance(entry, dict) and entry.get("folder") == folder:
        name, ident = entry.get("student"), entry.get("id")
        if isinstance(name, str) and isinstance(ident, str):
            return Student(name, ident)
    return None


def of(store: Store) -> dict[str, Student]:
    """Each entrant's student by entrant name (entrants with none left out): as kept in
    ``DIR/students.json``, else from the marker in the entrant's folder."""
    kept = _kept(store.dir)
    found: dict[str, Student] = {}
    for e in store.entrants():
        entry = kept.get(e.name)
        if isinstance(entry, dict) and entry.get("folder") == e.folder:
            name, ident = entry.get("student"), entry.get("id")
            if isinstance(name, str) and isinstance(ident, str):
                found[e.name] = Student(name, ident)
                continue
        marked = whose(e.folder)
        if marked is not None:
            found[e.name] = Student(*marked)
    return found


def keep(store: Store, found: dict[str, Student], left: Sequence[LeftOut] = ()) -> None:
    """Write ``DIR/students.json`` when ``found`` (or ``left``: the students of folders left out)
    holds a student it lacks (atomically; a folder that cannot be written is left as it is: the
    markers are read again next time)."""
    kept = _kept(store.dir)
    folders = {e.name: e.folder for e in store.entrants()}
    new = {
        name: {"folder": folders[name], "student": s.name, "id": s.id}
        for name, s in found.items()
        if name in folders
    }
    for lo in left:
        if lo.kind != NOT_ENTRANT:  # the torneo's own exclusions only: a later folder may yet change
            new[EXCLUDED + lo.path] = {"folder": lo.path, "student": lo.student.name, "id": lo.student.id}
    if all(kept.get(name) == entry for name, entry in new.items()):
        return
    path = store.dir / INDEX
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")  # a torneo's end and arena standings at once
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)  # as the store's
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(json.dumps({**kept, **new}, ensure_ascii=False, indent=1) + "\n")
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _kept(folder: Path) -> dict[str, object]:
    try:
        data = json.loads((folder / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
