"""``--until-separated``: more partidos where places are not separated; deterministic, resumable."""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.containment.process import descendants
from arena.results import separate
from arena.tournament.schedule import ScheduledPartido
from arena.tournament.store import Store
from tests.torneos import CONFIG, assert_same, committed, coordinator, execute, resume, wait_for

BUDGET = 9
SEPARATING = replace(CONFIG, until_separated=True, budget=BUDGET)


@pytest.fixture(scope="module")
def separated(players: Path, tmp_path_factory: pytest.TempPathFactory, player_processes: None) -> Path:
    """The torneo played until separated, with 2 workers: its players are processes."""
    out = tmp_path_factory.mktemp("separated") / "torneo"
    execute(out, players, SEPARATING, 2)
    return out


def _extra(folder: Path) -> list[tuple[str, tuple[int, ...], int]]:
    with Store.open(folder) as store:
        return [(p.id, p.seats, p.round) for p in store.scheduled() if p.round < 0]


def test_extra_partidos_go_to_the_places_not_separated_within_the_budget(separated: Path) -> None:
    extra = _extra(separated)
    assert 0 < len(extra) <= BUDGET  # 8 partidos separate nobody among four
    assert all(pid.startswith(separate.PREFIX) for pid, _, _ in extra)
    assert [-r for _, _, r in extra] == sorted(-r for _, _, r in extra)  # batches 1, 2, …
    with Store.open(separated) as store:
        scheduled, done, withdrawn = store.counts()
        assert done + withdrawn == scheduled == 8 + len(extra)  # every extra partido was played
    assert "separando " in (separated / "torneo.log").read_text()


def test_one_worker_plays_the_same_extra_partidos_as_two(
    players: Path, separated: Path, tmp_path: Path
) -> None:
    execute(tmp_path / "w1", players, SEPARATING, 1)
    assert_same(tmp_path / "w1", separated)
    assert _extra(tmp_path / "w1") == _extra(separated)


def test_kill_9_in_the_extra_partidos_then_resume_plays_the_same(
    players: Path, separated: Path, tmp_path: Path, run_token: str
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out, "--until-separated", "--budget", str(BUDGET))
    workers: list[int] = []
    try:
        wait_for(out, 9, proc)  # past the schedule's 8: in the first extra batch
        os.kill(proc.pid, signal.SIGSTOP)
        workers = descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.communicate()
    for pid in workers:
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert committed(out) >= 9
    resume(out)
    assert_same(out, separated)
    assert _extra(out) == _extra(separated)


def test_budget_needs_until_separated(players: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(tournament, [str(players), "--out", str(tmp_path / "t"), "--budget", "5"])
    assert result.exit_code == 2 and "--budget va con --until-separated" in result.output


def _posiciones(
    open_: dict[tuple[int, int], tuple[float, float]], equal: set[tuple[int, int]], n: int
) -> pd.DataFrame:
    """Standings of ``n`` entrants, every pair separated but the ``open_`` ones ((i, j): P(i over
    j), partidos needed) and the ``equal`` ones (their difference within the band)."""
    stronger, low, high, needed = (np.full((n, n), np.nan) for _k in range(4))
    for i, j in itertools.permutations(range(n), 2):
        p, more = open_.get((min(i, j), max(i, j)), (1.0, np.nan))
        stronger[i, j] = p if i < j else 1 - p
        low[i, j], high[i, j] = (-1.0, 1.0) if (min(i, j), max(i, j)) in open_ else (0.5, 2.0)
        if (min(i, j), max(i, j)) in equal:
            stronger[i, j], low[i, j], high[i, j] = 0.5, -0.1, 0.1
        needed[i, j] = more
    df = pd.DataFrame(
        {
            "puesto": range(1, n + 1),
            "entrant": [f"e{i}" for i in range(n)],
            "grupo": ["a"] * n,
            "partidos": [10] * n,
            "retiradas": [0] * n,
        }
    )
    apart = np.ones((n, n))
    for i, j in itertools.permutations(range(n), 2):
        if (min(i, j), max(i, j)) in open_ or (min(i, j), max(i, j)) in equal:
            apart[i, j] = 0.0
    df.attrs["pairs"] = {"stronger": stronger, "low": low, "high": high, "needed": needed, "apart": apart}
    return df


def test_the_pair_chased_first_and_who_plays_for_it() -> None:
    names = [f"e{i}" for i in range(6)]
    df = _posiciones({(1, 2): (0.7, 30.0), (2, 3): (0.9, 10.0)}, {(4, 5)}, 6)
    gap = separate.weakest(df)
    assert gap is not None and gap.label() == "separando 3.º/4.º: 90%"  # the fewest partidos needed
    assert [(g.upper, g.lower) for g in separate.gaps(df)] == [(3, 4), (2, 3)]  # 5.º/6.º: shown equal
    assert separate.members(df, names, 4) == [0, 1, 2, 3]  # e1, e2, e3, topped up with the nearest
    assert separate.members(df, names, 3) == [1, 2, 3]
    assert separate.weakest(_posiciones({}, {(0, 1)}, 3)) is None


def test_a_pair_that_looks_equal_is_chased_until_it_is_shown_equal() -> None:
    df = _posiciones({(0, 1): (0.55, np.nan)}, set(), 3)  # no difference shows, the interval still wide
    gap = separate.weakest(df)
    assert gap is not None and (gap.upper, gap.lower) == (1, 2)
    assert separate.weakest(_posiciones({}, {(0, 1)}, 3)) is None  # within the band: no more partidos


def _batch(who: list[int], played: int, **changes: Any) -> list[ScheduledPartido]:
    """separate.batch with the arguments of these tests, ``changes`` applied."""
    kw: dict[str, Any] = {
        "table_size": 3,
        "seed": "ab" * 32,
        "number": 1,
        "first_pos": 100,
        "first_deal": 50,
        "first_id": 1,
        "duplicate": False,
        "budget": 40,
    }
    return separate.batch(who, played, **{**kw, **changes})


def test_a_batch_is_balanced_deterministic_and_within_budget() -> None:
    a = _batch([5, 2, 7, 1], 20)
    assert a == _batch([5, 2, 7, 1], 20)
    counts = Counter(e for p in a for e in p.seats)
    assert set(counts) == {5, 2, 7, 1} and max(counts.values()) - min(counts.values()) <= 1
    assert min(counts.values()) >= 5  # a quarter of 20
    assert [p.pos for p in a] == list(range(100, 100 + len(a))) and len({p.deal for p in a}) == len(a)
    assert len(_batch([5, 2, 7, 1], 20, budget=3)) == 3
    assert _batch([5, 2, 7, 1], 20, number=2) != a  # batch 2 draws anew
    dup = _batch([0, 1, 2, 3], 8, table_size=4, first_pos=0, first_deal=0, duplicate=True, budget=8)
    assert len(dup) == 8 and len({p.deal for p in dup}) == 2  # every rotation of each deal
