"""Grades from the standings: one rule for ``arena standings DIR --grades`` and the ladder's final.

**The scale** (:func:`scale`), as the instructor writes it: ``best/worst`` (``10/1``: the
first place gets 10, the last 1, linear between) or ``place=grade`` per place (``1=10, 2=9,
3=8``: a place not named gets no grade).

**The rule** (:func:`shared_places`): entrants the standings do not separate get the same
grade, that of the best place among them. The order is cut into runs of consecutive places,
as finely as it can be while every two entrants that are not separated (they share a letter;
an exact tie is never separated) fall in the same run; every entrant of a run gets the grade
of the run's first place. So grades never rise down the order, and no two entrants whose
order the partidos do not establish are graded apart. Entrants without partidos are one
run, last.

**The file** (:func:`worksheet`) for a torneo of imported submissions: Moodle's *offline
grading worksheet* of the assignment the submissions came from, one row per student (an
entrant with a Moodle id), matched by the participant identifier of Moodle's download. A student
whose submission is no entrant (it could not start: :func:`arena.results.students.left_out`) gets a
row with no place and an empty grade, which Moodle's upload skips ("grade has no value", in
``assignfeedback_offline``'s import: the grade on Moodle stays as it is), and is named on the
terminal, to be graded by hand.

Only the standings' tables are needed here (imported when used), so that the ladder's web service
can import the scale without numpy and pandas.
"""

from __future__ import annotations

import csv
import io
import numbers
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from arena import inert
from arena.errors import ArenaError
from arena.i18n import _, n_

if TYPE_CHECKING:
    import pandas as pd

    from arena.results import report, students

DEFAULT_SCALE = "10/1"
"""The default mapping of places to grades: 10 for the first, 1 for the last, linear between."""
DIGITS = 2
"""A grade's decimals in a CSV."""

Scale = Callable[[int, int], "float | None"]  # not shown: a type
"""The grade of place ``p`` of ``n`` (None: no grade)."""

# Moodle's offline grading worksheet (mod/assign, feedback "offline"): the upload finds its columns
# by these names (Moodle's English strings) and a row's student by "Participant <id>", the id of
# the student's folder in the assignment's "Download all submissions".
IDENTIFIER_COLUMN = "Identifier"  # not shown: a file's format
NAME_COLUMN = "Full name"  # not shown
PLACE_COLUMN = "Torneo place"  # not shown
GRADE_COLUMN = "Grade"  # not shown
MODIFIED_COLUMN = "Last modified (grade)"  # not shown
PARTICIPANT = "Participant {id}"  # not shown


class ScaleError(ArenaError):
    """A scale that is neither ``best/worst`` nor ``place=grade`` pairs."""


def scale(text: str) -> Scale:
    """The grade of place ``p`` of ``n`` from the instructor's mapping; ScaleError if it is not one.

    ``best/worst`` (``10/1``): the first gets *best*, the last *worst*, linear between (a single
    entrant gets *best*). ``1=10, 2=9, 3=8``: the grade of each place named; a place not named gets
    no grade (an empty cell, which Moodle's import leaves alone). Empty: :data:`DEFAULT_SCALE`.
    Decimals with a point or a comma.
    """
    text = text.strip() or DEFAULT_SCALE
    number = r"\s*(-?\d+(?:[.,]\d+)?)\s*"

    def value(s: str) -> float:
        return float(s.replace(",", "."))

    linear = re.fullmatch(number + "/" + number, text)
    if linear:
        best, worst = value(linear.group(1)), value(linear.group(2))

        def by_line(place: int, n: int) -> float | None:
            return best if n <= 1 else best + (worst - best) * (place - 1) / (n - 1)

        return by_line
    table: dict[int, float] = {}
    for item in filter(None, (s.strip() for s in re.split(r"[;\n]|,(?=\s*\d+\s*=)", text))):
        pair = re.fullmatch(r"(\d+)\s*=" + number, item)
        if not pair or int(pair.group(1)) < 1:
            raise ScaleError(
                _("The grades must be “best/worst” (as 10/1) or one “place=grade” per place (as 1=10, 2=9).")
            )
        table[int(pair.group(1))] = value(pair.group(2))
    return lambda place, _n: table.get(place)


def runs(apart: Callable[[int, int], bool], n: int) -> list[int]:
    """For each of ``n`` places in order (0 first), the first place of its run: the finest cut of
    the order into runs of consecutive places such that two places not ``apart`` share a run."""
    reach = list(range(n))  # the last place each place must share a run with
    for i in range(n):
        for j in range(n - 1, i, -1):
            if not apart(i, j):
                reach[i] = j
                break
    first, start, end = [], 0, -1
    for i in range(n):
        if i > end:
            start = i
        end = max(end, reach[i])
        first.append(start)
    return first


def shared_places(posiciones: pd.DataFrame) -> list[int]:
    """For each row of the standings ``posiciones`` (in order), the place whose grade it gets:
    the best place of its run (:func:`runs`). Two rows are apart when the bootstrap separates
    them (without resamples: when they share no letter) and their strengths are not exactly
    equal; rows without partidos (no letters) are one run, last."""
    from arena.results import standings  # numpy and pandas: not for a module that only parses scales

    n = len(posiciones)
    pairs = standings.pairs_of(posiciones)
    letters = [str(g) for g in posiciones["grupo"]]
    theta = [float(t) for t in posiciones["fuerza"]]
    marks = [set(re.findall(r"\[\d+\]|[^\[]", g)) for g in letters]  # a letter: ``a`` or ``[53]``

    def apart(i: int, j: int) -> bool:
        if not letters[i] or not letters[j]:
            return bool(letters[i]) != bool(letters[j])
        if theta[i] == theta[j]:
            return False
        if pairs is not None and i < len(pairs.apart) and j < len(pairs.apart):
            return pairs.separated(i, j)
        return not marks[i] & marks[j]

    first = runs(apart, n)
    places = [int(p) for p in posiciones["puesto"]]
    return [places[k] for k in first]


@dataclass(frozen=True)
class Graded:
    """One entrant's grade: its place, the place its grade is of, and the grade (None: none)."""

    entrant: str
    place: int
    shared: int
    grade: float | None


def graded(posiciones: pd.DataFrame, mapping: Scale | str = DEFAULT_SCALE) -> list[Graded]:
    """Every entrant of the standings with its grade under ``mapping`` (a :func:`scale` or its
    text), in the standings' order: the grade of the best place of its run, of all the entrants."""
    grade_of = scale(mapping) if isinstance(mapping, str) else mapping
    n = len(posiciones)
    shared = shared_places(posiciones)
    return [
        Graded(str(name), int(place), at, grade_of(at, n))
        for name, place, at in zip(posiciones["entrant"], posiciones["puesto"], shared, strict=True)
    ]


def shown(grade: float | None) -> str:
    """A grade as the CSVs write it: at most :data:`DIGITS` decimals, a point; empty for none."""
    return "" if grade is None else f"{round(grade, DIGITS):g}"


def worksheet(
    rows: Sequence[Graded],
    students: dict[str, tuple[str, str]],
    when: datetime | None = None,
    ungraded: Sequence[tuple[str, str]] = (),
) -> str:
    """Moodle's offline grading worksheet of the students among ``rows`` (``students``: entrant
    name → full name, Moodle id; the others get no row), in the standings' order; then the
    ``ungraded`` students (full name, Moodle id) with an empty place and grade (Moodle skips them)."""
    stamp = (when or datetime.now().astimezone()).strftime("%Y-%m-%d %H:%M:%S %z")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([IDENTIFIER_COLUMN, NAME_COLUMN, PLACE_COLUMN, GRADE_COLUMN, MODIFIED_COLUMN])
    for row in rows:
        who = students.get(row.entrant)
        if who is None:
            continue
        name, ident = who
        fields = [PARTICIPANT.format(id=ident), name, row.place, shown(row.grade), stamp]
        writer.writerow([inert.cell(f) for f in fields])  # a name is never a formula (as the workbook's CSVs)
    for name, ident in ungraded:
        writer.writerow([inert.cell(f) for f in [PARTICIPANT.format(id=ident), name, "", "", stamp]])
    return buffer.getvalue()


def write_worksheet(path: Path, text: str) -> None:
    """Write the worksheet ``text`` to ``path`` (UTF-8, beside it first, then moved in place)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="")
    tmp.replace(path)


def no_grade_line(lo: students.LeftOut) -> str:
    """``No grade: Elena Ruiz (505): cannot start — …``: a student whose submission is no entrant."""
    from arena.i18n import shown as stored_text
    from arena.inert import printable
    from arena.results.students import NOT_ENTRANT
    from arena.tournament.store import exclusion_kind

    who = _("{student} ({id})").format(student=printable(lo.student.name), id=lo.student.id)
    if lo.kind == NOT_ENTRANT:
        why = _("not in the torneo: {folder} came after it began").format(folder=printable(lo.path))
    else:
        reason = stored_text(lo.reason).strip()
        first = printable(reason.splitlines()[0]) if reason else ""
        why = exclusion_kind(lo.kind) + (f" — {first}" if first else "")
    return _("No grade: {student}: {why}").format(student=who, why=why)


def write_grades(
    rep: report.Report, path: Path, mapping: str = DEFAULT_SCALE, folder: Path | str = "DIR"
) -> list[str]:
    """Write the worksheet of the standings ``rep`` (of the torneo in ``folder``) to ``path``; the lines
    that say what was written."""
    rows = graded(rep.posiciones, mapping)
    who = {name: (s.name, s.id) for name, s in rep.students.items()}
    left = rep.left_out
    never = disqualified_throughout(rep.posiciones)
    write_worksheet(path, worksheet(rows, who, ungraded=[(lo.student.name, lo.student.id) for lo in left]))
    n = sum(1 for r in rows if r.entrant in who)
    lines = [
        n_(
            "Grades of {n} student written to {file} (scale {scale}).",
            "Grades of {n} students written to {file} (scale {scale}).",
            n,
        ).format(n=n, file=path, scale=mapping.strip() or DEFAULT_SCALE)
    ]
    if not n and not left:
        lines.append(_("No entrant is a student's submission (arena submissions import): no row to grade."))
    lines += [no_grade_line(lo) for lo in left]
    if left:
        lines.append(
            n_(
                "Its row in {file} has an empty grade, which Moodle's upload leaves alone: grade it on "
                "Moodle by hand.",
                "Their rows in {file} have an empty grade, which Moodle's upload leaves alone: grade them on "
                "Moodle by hand.",
                len(left),
            ).format(file=path)
        )
    for row in rows:
        if row.entrant in who and row.entrant in never:
            name, ident = who[row.entrant]
            lines.append(
                _(
                    "Disqualified in every partido: {student} ({id}), {n} of {n}; graded as place {place} "
                    "({grade}): look at its bot (arena check)"
                ).format(
                    student=inert.printable(name),
                    id=ident,
                    n=never[row.entrant],
                    place=row.place,
                    grade=shown(row.grade) or "—",
                )
            )
    sharing = [r for r in rows if r.entrant in who and r.shared != r.place]
    if sharing:  # the standings do not separate them: more partidos would
        lines.append(
            n_(
                "{n} student shares the grade of a better place, not separated from it by the standings; "
                "more partidos would separate them: arena tournament --resume {folder} --until-separated",
                "{n} students share the grade of a better place, not separated from it by the standings; "
                "more partidos would separate them: arena tournament --resume {folder} --until-separated",
                len(sharing),
            ).format(n=len(sharing), folder=folder)
        )
    if not rep.complete:
        lines.append(_("Warning: the torneo is not complete: the grades are of the partidos played so far."))
    return lines


def disqualified_throughout(posiciones: pd.DataFrame) -> dict[str, int]:
    """The entrants disqualified in every partido they were in (none played to its end: a bot that
    crashes at ``hello``, say), with how many; withdrawn partidos count as disqualifications."""
    dq = [c for c in posiciones.columns if str(c).startswith("dq_")]
    out = {}

    def count(value: object) -> int:
        return int(float(value)) if isinstance(value, numbers.Real) and value == value else 0  # NaN: none

    for _i, r in posiciones.iterrows():
        withdrawn = count(r.get("retiradas", 0))
        played = count(r["partidos"]) + withdrawn
        faults = sum(count(r[c]) for c in dq) + withdrawn
        if played and faults >= played:
            out[str(r["entrant"])] = played
    return out
