"""The ladder (issue 48): two versions of one student never sit at one table.

The matchmaking seats only active versions (:func:`matchmaking.active_versions`: one per
student), so a table never holds two of a student's versions, however many they uploaded and
whichever they chose, even as their active version changes between partidos. (Each ladder partido
is dealt from a key of its own, so no two ladder partidos share a deal.)
"""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from arena.serve.ladder import matchmaking as mm


@st.composite
def candidates(draw: st.DrawFn) -> list[mm.Candidate]:
    students = draw(st.integers(1, 9))
    out = []
    for student in range(students):
        for number in range(1, draw(st.integers(1, 4)) + 1):
            clean, chosen = draw(st.booleans()), draw(st.booleans())
            out.append(mm.Candidate(len(out) + 1, student, number, clean, chosen))
    return out


@given(candidates(), st.integers(0, 2**32 - 1))
def test_no_table_holds_two_versions_of_one_student(found: list[mm.Candidate], seed: int) -> None:
    rng = random.Random(seed)
    student = {c.id: c.student for c in found}
    tables: list[list[int]] = []
    outcomes: list[mm.Outcome] = []
    pool = list(found)
    for _partido in range(12):
        active = mm.active_versions(pool)
        assert len({student[v] for v in active}) == len(active), "one version per student"
        table = mm.next_table(active, tables, (3, 4, 5, 6), outcomes)
        assert len({student[v] for v in table}) == len(table), f"two versions of a student at {table}"
        if table:
            tables.append(table)
            order = rng.sample(range(len(table)), len(table))
            outcomes.append((table, [[s] for s in order]))
        if pool and rng.random() < 0.5:  # someone uploads a new version, chosen or not, clean or not
            who = rng.choice(pool).student
            number = 1 + max(c.number for c in pool if c.student == who)
            new = mm.Candidate(max(student) + 1, who, number, rng.random() < 0.8, rng.random() < 0.3)
            student[new.id] = who
            pool.append(new)
