"""A ``--duplicate`` torneo with real players (issue 48): no two partidos of one deal overlap in time
with two workers, and the results are the same with one worker, two, and after an interruption
and ``--resume``.

5 entrants (the deterministic samples) at tables of 4, ``--partidos 8``: two deals of 4 rotations,
so two workers always have a partido of the other deal to play. Each committed partido's
``started`` and ``finished`` (the worker's clock, around the players' whole lives) are compared:
within one deal, one ends before the next starts.
"""

from __future__ import annotations

import datetime as dt
import itertools
import shutil
from pathlib import Path

import pytest

from arena.tournament import coordinator as t
from arena.tournament.entrants import collect_entrants
from arena.tournament.store import Store
from tests.torneos import GOOD, ROOT, assert_same, execute

pytestmark = pytest.mark.usefixtures("run_token")

CONFIG = t.Config(table_size=4, duplicate=True, partidos=8, seed=48, move_ms=3000, init_ms=10_000)


@pytest.fixture(scope="module")
def five(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("five")
    for name in GOOD:
        shutil.copytree(ROOT / "sample_players" / name, root / name)
    for name in ("azar", "azar2"):
        shutil.copytree(ROOT / "sample_players" / "random_legal", root / name)
    return root


@pytest.fixture(scope="module")
def two_workers(five: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("w2") / "torneo"
    stats = execute(out, five, CONFIG, 2)
    assert stats.committed == 8
    return out


def spans(folder: Path) -> dict[object, list[tuple[dt.datetime, dt.datetime, str]]]:
    """Per deal (seed): each committed partido's (started, finished, id)."""
    out: dict[object, list[tuple[dt.datetime, dt.datetime, str]]] = {}
    with Store.open(folder) as store:
        for r in store.results():
            span = (dt.datetime.fromisoformat(r.started), dt.datetime.fromisoformat(r.finished), r.id)
            out.setdefault(r.seed, []).append(span)
    return out


def test_no_two_partidos_of_one_deal_overlap_with_two_workers(two_workers: Path) -> None:
    deals = spans(two_workers)
    assert len(deals) == 2 and all(len(group) == 4 for group in deals.values())
    for group in deals.values():
        group.sort()
        for (_s, end, first), (start, _e, then) in itertools.pairwise(group):
            assert end <= start, f"{first} (until {end}) overlaps {then} (from {start}) of the same deal"
    every = sorted(span for group in deals.values() for span in group)
    overlapping = sum(a[1] > b[0] for a, b in itertools.pairwise(every))
    assert overlapping, "the two workers played partidos of the two deals at once"


def test_one_worker_and_a_resume_decide_the_same(five: Path, two_workers: Path, tmp_path: Path) -> None:
    one = tmp_path / "w1"
    execute(one, five, CONFIG, 1)
    assert_same(one, two_workers)

    class StopAfter(t.Progress):
        """Ctrl-C once three partidos are settled."""

        def __init__(self) -> None:
            self.settled = 0

        def advance(self, n: int = 1) -> None:
            self.settled += n
            if self.settled == 3:
                raise KeyboardInterrupt

    cut = tmp_path / "cut"
    specs = collect_entrants([five])
    with pytest.raises(t.Interrupted):
        t.execute(cut, specs, CONFIG, 2, StopAfter(), t.plan(CONFIG, len(specs)))
    with Store.open(cut) as store:
        assert 3 <= len(store.done_ids()) < 8
    t.execute(cut, specs, CONFIG, 2)  # no schedule: --resume
    assert_same(cut, two_workers)
    for group in spans(cut).values():
        group.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(group))
