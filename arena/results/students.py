"""Whose each entrant of a torneo is: the student's full name and Moodle id, for the standings.

``arena submissions import`` writes a marker into every player folder it makes
(:data:`arena.intake.submissions.MARKER`, after unpacking: a file of that name in a
submission is overwritten), naming the student and their Moodle id. A torneo's store
records each entrant's folder (resolved, so any working folder finds it); the standings
read the markers there (:func:`of`) and keep what they found in ``DIR/students.json``
(:func:`keep`), so that the names stay right when the player folders are later moved,
archived or deleted. An entrant without a marker (a sample player, a folder made by hand)
has none: blank cells.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from arena.intake.submissions import whose
from arena.tournament.store import Store

INDEX = "students.json"
"""In the torneo's folder: each entrant's student as first found (entrant name → folder, name, id)."""


@dataclass(frozen=True)
class Student:
    name: str
    """The full name, as Moodle's download spells it."""
    id: str
    """The Moodle id of the student's submission folder (``<Full Name>_<id>_assignsubmission_file_``)."""


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


def keep(store: Store, found: dict[str, Student]) -> None:
    """Write ``DIR/students.json`` when ``found`` holds a student it lacks (atomically; a folder
    that cannot be written is left as it is: the markers are read again next time)."""
    kept = _kept(store.dir)
    folders = {e.name: e.folder for e in store.entrants()}
    new = {
        name: {"folder": folders[name], "student": s.name, "id": s.id}
        for name, s in found.items()
        if name in folders
    }
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
