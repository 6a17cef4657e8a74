"""Never two partidos of one deal in flight at once (issue 48): the dispatcher's rule, and the
coordinator under it with a backend that plays nothing (fast: no player process starts).

The backend here keeps every submitted task in flight until its ``wait`` hands it back, the
first ``slots`` of them (in submission order, as a pool's queue runs them) being the ones that
may finish, in a seeded random order. It refuses a task whose deal (seed) is in flight, so a
torneo that completes under it never had two partidos of one deal at once, whatever the finishing
order. The same torneos with real players and two workers: tests/tournament/test_deal_overlap_torneo.py.
"""

from __future__ import annotations

import concurrent.futures as cf
import random
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

import pytest

from arena.results import separate
from arena.seeds import new_key
from arena.tournament import coordinator as t
from arena.tournament.dispatch import DealGate
from arena.tournament.schedule import ScheduledPartido, make_schedule
from arena.tournament.store import Entrant, Store
from arena.tournament.worker import PartidoTask, play_task

NAMES = ["ana", "beto", "caro", "dani", "eva", "fede"]


def partido(pos: int, deal: int) -> ScheduledPartido:
    return ScheduledPartido(pos, f"p{pos + 1:04d}", 1000 + deal, (0, 1, 2, 3), deal, 0)


# ---------------------------------------------------------------- the rule


def test_a_deal_in_flight_blocks_its_other_partidos() -> None:
    group = [partido(i, 0) for i in range(4)]
    gate = DealGate(group)
    assert gate.pick(group, room=4, cap=4) == [group[0]], "one partido of a deal at a time"
    gate.start(group[0])
    assert not gate.free(group[1])
    assert gate.pick(group[1:], room=4, cap=4) == []
    with pytest.raises(ValueError, match="in flight"):
        gate.start(group[1])
    gate.end(group[0])
    gate.settle(group[0])
    assert gate.pick(group[1:], room=4, cap=4) == [group[1]]


def test_free_workers_take_the_next_deal_with_nothing_in_flight() -> None:
    """Groups interleave: the first partido of each free deal, in schedule order, up to the room."""
    schedule = [partido(4 * d + r, d) for d in range(20) for r in range(4)]
    gate = DealGate(schedule)
    gate.start(schedule[0])
    picked = gate.pick(schedule[1:], room=3, cap=4)  # 20 deals left: not the endgame
    assert [p.pos for p in picked] == [4, 8, 12]


def test_in_the_endgame_the_deals_with_most_partidos_left_go_first() -> None:
    schedule = [partido(4 * d + r, d) for d in range(3) for r in range(4)]
    gate = DealGate(schedule)
    for p in schedule[:3]:  # deal 0: three settled, one left
        gate.settle(p)
    gate.settle(schedule[4])  # deal 1: three left; deal 2: four left
    ready = [p for p in schedule if p.pos not in (0, 1, 2, 4)]
    assert gate.endgame(cap=2)
    assert [p.pos for p in gate.pick(ready, room=2, cap=2)] == [8, 5]
    assert [p.pos for p in gate.pick(ready, room=3, cap=2)] == [8, 5, 3]


def test_a_schedule_without_duplicate_is_never_held_back() -> None:
    schedule = make_schedule(6, 4, 1, 5)
    gate = DealGate(schedule)
    assert len({p.seed for p in schedule}) == len(schedule)
    assert gate.pick(schedule, room=len(schedule), cap=len(schedule)) == schedule


# ---------------------------------------------------------------- the coordinator under it


class FakeBackend:
    """Tasks stay in flight until :meth:`wait` returns them; refuses one whose deal is in flight."""

    def __init__(self, slots: int, seed: int) -> None:
        self.slots = slots
        self.rng = random.Random(seed)
        self.live: dict[cf.Future[Any], PartidoTask] = {}
        self.played: list[str] = []
        self.most = 0
        """The most tasks in flight at once."""
        self.overlaps = 0
        """Moments when more than one task could run and all of them were of different deals."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future[Any]:
        assert fn is play_task
        (task,) = args
        clash = [other.id for other in self.live.values() if other.seed == task.seed]
        assert not clash, f"{task.id} submitted while {clash} of its deal are in flight"
        future: cf.Future[Any] = cf.Future()
        self.live[future] = task
        self.most = max(self.most, len(self.live))
        return future

    def wait(self, handles: Collection[Any], timeout: float) -> set[Any]:
        running = list(self.live)[: self.slots]  # a pool runs its queue in submission order
        if not running:
            return set()
        if len(running) > 1:
            self.overlaps += 1
        future = self.rng.choice(running)
        task = self.live.pop(future)
        self.played.append(task.id)
        future.set_result({"id": task.id})
        return {future}

    def close(self) -> None:
        pass

    def stop(self) -> None:
        pass


def settle(disqualified: Callable[[ScheduledPartido], set[int]]) -> Callable[..., set[int]]:
    """A stand-in for the coordinator's ``_commit``: the partido settled (marked as played, without a
    result: a resumed run or a batch skips it), its disqualified entrants returned."""

    def commit(store: Store, p: ScheduledPartido, handle: Any, split: dict[str, float]) -> set[int]:
        store.commit_withdrawal(p, [], PLAYED)
        return disqualified(p)

    return commit


PLAYED = "played here"


def make_store(folder: Path, config: t.Config, schedule: list[ScheduledPartido]) -> Store:
    entrants = [Entrant(i, n, f"/players/{n}", "python", None, (), "0" * 64) for i, n in enumerate(NAMES)]
    return Store.create(folder, config.to_store(), entrants, schedule, config.key)


class Named:
    """A stand-in for a player spec: the runner only names it here."""

    def __init__(self, name: str) -> None:
        self.name = name


SPECS: Any = [Named(n) for n in NAMES]


@pytest.mark.parametrize(("slots", "table_size", "seed"), [(2, 4, 1), (2, 3, 2), (4, 4, 3), (3, 5, 4)])
def test_a_duplicate_torneo_never_has_two_partidos_of_one_deal_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slots: int, table_size: int, seed: int
) -> None:
    monkeypatch.setattr(t, "_commit", settle(lambda p: set()))
    config = t.Config(table_size=table_size, duplicate=True, partidos=48, key=new_key())
    schedule = t.plan(config, len(NAMES))
    backend = FakeBackend(slots, seed)
    with make_store(tmp_path / "torneo", config, schedule) as store:
        stats = t.run(store, backend, SPECS)  # type: ignore[arg-type]
    assert stats.committed == len(schedule)
    assert sorted(backend.played) == sorted(p.id for p in schedule), "each partido once"
    assert backend.most == 2 * slots, "the groups interleave: the workers are kept busy"


def test_under_max_faults_withdrawals_and_the_rule_go_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Entrant 0 is disqualified in every partido it plays: withdrawn after 2, by schedule order."""
    monkeypatch.setattr(t, "_commit", settle(lambda p: {0} & set(p.seats)))
    config = t.Config(table_size=4, duplicate=True, partidos=40, max_faults=2, key=new_key())
    schedule = t.plan(config, len(NAMES))
    with make_store(tmp_path / "torneo", config, schedule) as store:
        stats = t.run(store, FakeBackend(2, 7), SPECS)  # type: ignore[arg-type]
        withdrawn = [w.partido for w in store.withdrawn() if w.reason != PLAYED]
    with_0 = [p.id for p in schedule if 0 in p.seats]
    assert withdrawn == with_0[2:], "the first two partidos of entrant 0 are played, the rest withdrawn"
    assert stats.committed + stats.withdrawn == len(schedule)


def test_until_separated_batches_keep_the_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(t, "_commit", settle(lambda p: set()))
    config = t.Config(table_size=4, duplicate=True, partidos=16, key=new_key())
    schedule = t.plan(config, len(NAMES))
    batches = []

    def more(store: Store) -> tuple[list[ScheduledPartido], str] | None:
        if batches:
            return None
        known = store.scheduled()
        found = separate.batch(
            list(range(len(NAMES))),
            8,
            table_size=4,
            seed=config.key or "",
            number=1,
            first_pos=len(known),
            first_deal=1 + max(p.deal for p in known),
            first_id=1,
            duplicate=True,
            budget=24,
        )
        batches.append(found)
        return found, "separando"

    backend = FakeBackend(2, 11)
    with make_store(tmp_path / "torneo", config, schedule) as store:
        stats = t.run(store, backend, SPECS)  # type: ignore[arg-type]
        stats = t.play_more(store, backend, SPECS, more, None, stats)  # type: ignore[arg-type]
    (batch,) = batches
    assert len({p.seed for p in batch}) < len(batch), "the batch has duplicate groups"
    assert stats.committed == len(schedule) + len(batch)
    assert sorted(backend.played) == sorted(p.id for p in [*schedule, *batch])
