"""``arena serve``: the ladder's matchmaking, and ladders of a game of teams.

The matchmaking is pure and tested without Django: new versions first, the least certain standings
next, everyone about equally often, everyone meeting everyone, seats and neighbours balanced
(properties over simulated ladders whose results come from hidden strengths). Then, with Django
(tests/serve/conftest.py), a ladder of Tute por parejas plays a partido of two versions as sides and
a ladder of Tute Cabrero still plays its seats; each test's rows are rolled back at its end.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from arena.serve.ladder import matchmaking
from arena.serve.ladder.matchmaking import Outcome
from arena.tournament.schedule import seating_balance
from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in

PREFIX = "matchmaking-test-"
"""The games of the ladders this module opens (and deletes)."""
CABRERO = (3, 4, 5, 6)


# --- matchmaking, without Django ---


def _simulate(
    active: Sequence[int],
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    tables: list[list[int]] | None = None,
    outcomes: list[Outcome] | None = None,
) -> tuple[list[list[int]], list[Outcome]]:
    """``rounds`` partidos of a ladder whose versions finish by a hidden strength plus luck."""
    tables = [] if tables is None else tables
    outcomes = [] if outcomes is None else outcomes
    strength = {v: random.Random(v).gauss(0, 1) for v in active}
    for _ in range(rounds):
        table = matchmaking.next_table(active, tables, sizes, outcomes)
        assert table and len(set(table)) == len(table) and set(table) <= set(active)
        tables.append(table)
        order = sorted(range(len(table)), key=lambda s: -(strength[table[s]] + rng.gauss(0, 1)))
        outcomes.append((table, [[s] for s in order]))
    return tables, outcomes


def _played(active: Sequence[int], tables: Sequence[Sequence[int]]) -> Counter[int]:
    played = Counter(dict.fromkeys(active, 0))
    played.update(v for t in tables for v in t)
    return played


@pytest.mark.fast_examples(12)
@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 14),
    sizes=st.sampled_from([CABRERO, (2,), (3,), (4,), (5,), (6,)]),
    rounds=st.integers(1, 80),
    seed=st.integers(0, 2**32),
)
def test_everyone_plays_about_equally_often(n: int, sizes: tuple[int, ...], rounds: int, seed: int) -> None:
    active = list(range(100, 100 + n))
    if matchmaking.table_size(sizes, n) is None:
        assert matchmaking.next_table(active, [], sizes) == []
        return
    rng = random.Random(seed)
    tables: list[list[int]] = []
    outcomes: list[Outcome] = []
    for _ in range(rounds):
        _simulate(active, sizes, 1, rng, tables, outcomes)
        played = _played(active, tables)
        assert max(played.values()) - min(played.values()) <= matchmaking.SLACK


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(5, 10),
    sizes=st.sampled_from([CABRERO, (2,), (3,), (5,)]),
    rounds=st.integers(0, 40),
    seed=st.integers(0, 2**32),
)
def test_a_new_version_sits_at_once_until_it_catches_up(
    n: int, sizes: tuple[int, ...], rounds: int, seed: int
) -> None:
    active = list(range(1, n + 1))
    tables, outcomes = _simulate(active, sizes, rounds, random.Random(seed))
    behind = min(_played(active, tables).values())
    later = len(tables)
    _simulate([*active, 999], sizes, max(behind, 1), random.Random(seed), tables, outcomes)
    # it sits at every table until it has as many partidos as the one who had fewest
    assert all(999 in t for t in tables[later:])


def test_a_new_version_catches_up_and_then_plays_as_often_as_the_rest() -> None:
    active = list(range(1, 9))
    tables, outcomes = _simulate(active, CABRERO, 60, random.Random(5))
    later = len(tables)
    _simulate([*active, 999], CABRERO, 60, random.Random(6), tables, outcomes)
    played = _played([*active, 999], tables)
    assert all(999 in t for t in tables[later : later + 30])
    assert max(played.values()) - min(played.values()) <= matchmaking.SLACK


def test_the_least_certain_standings_get_the_next_partido() -> None:
    # six versions, every four of them once: everyone has met everyone as often, played as often
    tables = [list(t) for t in itertools.combinations(range(1, 7), 4)]
    rng = random.Random(7)
    outcomes: list[Outcome] = []
    for table in tables:
        middle = [s for s, v in enumerate(table) if v not in (1, 6)]
        rng.shuffle(middle)  # 2..5 finish in any order: their places are in doubt
        first = [s for s, v in enumerate(table) if v == 1]  # 1 always wins
        last = [s for s, v in enumerate(table) if v == 6]  # 6 always loses
        outcomes.append((table, [[s] for s in first + middle + last]))
    doubt = matchmaking.uncertainty(range(1, 7), matchmaking.scores(outcomes))
    assert max(doubt[1], doubt[6]) < min(doubt[v] for v in (2, 3, 4, 5))
    assert set(matchmaking.next_table(list(range(1, 7)), tables, CABRERO, outcomes)) == {2, 3, 4, 5}
    # without results, every place is in doubt: the fewest partidos, then the newest
    assert all(d == float("inf") for d in matchmaking.uncertainty([1, 2], {}).values())


def test_ties_share_the_score_between_their_places() -> None:
    scores = matchmaking.scores([([7, 8, 9, 10], [[2], [0, 3], [1]])])
    assert [scores[v].mean for v in (9, 7, 10, 8)] == [1.0, 0.5, 0.5, 0.0]
    assert scores[9].n == 1 and scores[9].error > 0


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 12), sizes=st.sampled_from([CABRERO, (3,), (4,)]), seed=st.integers(0, 2**32))
def test_everyone_meets_everyone(n: int, sizes: tuple[int, ...], seed: int) -> None:
    active = list(range(n))
    tables, _outcomes = _simulate(active, sizes, 6 * n, random.Random(seed))
    met = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
    assert len(met) == n * (n - 1) // 2


@pytest.mark.fast_examples(6)
@settings(max_examples=30, deadline=None)
@given(
    n=st.integers(6, 12),
    sizes=st.sampled_from([CABRERO, (3,), (5,), (6,)]),
    rounds=st.integers(30, 150),
    seed=st.integers(0, 2**32),
)
@example(n=11, sizes=(3,), rounds=141, seed=59549)  # a pair four ahead when a sum of leads could offset it
def test_seats_and_neighbours_stay_balanced(n: int, sizes: tuple[int, ...], rounds: int, seed: int) -> None:
    active = list(range(n))
    tables, _outcomes = _simulate(active, sizes, rounds, random.Random(seed))
    balance = seating_balance(n, len(tables[0]), tables)
    assert balance.position <= 3  # each version's most-used seat minus its least-used one
    assert balance.neighbours <= 3  # |a right after b - b right after a|, over the pairs that met


def test_over_many_tables_a_plays_right_after_b_as_often_as_b_after_a() -> None:
    active = list(range(8))
    tables, _outcomes = _simulate(active, (4,), 400, random.Random(3))
    after = Counter((t[s], t[(s + 1) % len(t)]) for t in tables for s in range(len(t)))
    for a, b in itertools.combinations(active, 2):
        assert abs(after[a, b] - after[b, a]) <= 2, (a, b, after[a, b], after[b, a])
    seats = Counter((v, s) for t in tables for s, v in enumerate(t))
    for v in active:
        assert max(seats[v, s] for s in range(4)) - min(seats[v, s] for s in range(4)) <= 2


def test_a_pair_far_ahead_turns_round_though_two_others_lean_the_other_way() -> None:
    # 2 played right after 1 three times more than the reverse; 3 after 2 and 1 after 3 each two
    # fewer: a plain sum of leads (3 - 2 - 2 against -3 + 2 + 2) would seat 2 after 1 a fourth time
    after = Counter({(1, 2): 3, (3, 2): 2, (1, 3): 2})
    order = matchmaking.seat_order([matchmaking.Entrant(v) for v in (1, 2, 3)], after)
    assert order[(order.index(1) + 1) % 3] == 3  # 1, 3, 2 round: 1 right after 2 at last


def test_three_versions_play_both_ways_round() -> None:
    tables, _outcomes = _simulate([1, 2, 3], CABRERO, 12, random.Random(1))
    assert len({tuple(t) for t in tables}) == 6  # every order of the three: both directions, every seat
    balance = seating_balance(3, 3, [[v - 1 for v in t] for t in tables])
    assert balance.position == 0 and balance.neighbours == 0


def test_two_sides_swap_who_is_side_zero() -> None:
    tables, _outcomes = _simulate([5, 6], (2,), 10, random.Random(2))
    assert Counter(t[0] for t in tables) == {5: 5, 6: 5}


# --- ladders that play, with Django ---


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _client(username: str, staff: bool = False) -> Any:
    return logged_in(PREFIX + username, staff)


def _versions(folder: Path, ladder: Any, samples: Path, names: Sequence[str]) -> list[int]:
    """One student per sample player of ``samples``, each with a clean version of ``ladder``."""
    return [
        clean_version(folder, PREFIX + name, f"Autor {name}", ladder, samples / name).pk for name in names
    ]


@pytest.mark.django_db
def test_the_instructor_opens_a_ladder_of_a_game_of_teams(service: Path) -> None:
    from arena.serve.ladder.models import Ladder

    profe = _client("profe", staff=True)
    assert 'value="tute-parejas"' in profe.get("/instructor/ladders").content.decode()
    response = profe.post("/instructor/ladders", {"game": "tute-parejas"})
    assert response.status_code == 302
    ladder = Ladder.objects.get(game="tute-parejas")
    assert ladder.open and response.url == f"/ladders/{ladder.pk}/"
    refused = profe.post("/instructor/ladders", {"game": "tute-nada"})
    assert refused.status_code == 400 and "Elegí uno de los juegos." in refused.content.decode()
    assert _client("ana").post("/instructor/ladders", {"game": "tute-parejas"}).status_code == 404


@pytest.mark.django_db
def test_the_worker_reads_every_table_and_the_rankings_of_the_done_ones(service: Path) -> None:
    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.ladder.worker import active_ids, played

    ladder = Ladder.objects.create(game="tute-cabrero", open=True)
    a, b, c, d = _versions(
        service, ladder, ROOT / "sample_players", ("a_mas", "a_menos", "random_legal", "fuerte")
    )
    assert played(ladder) == ([], [])
    done = LadderPartido.objects.create_seated(
        ladder=ladder, versions=[a, b, c], status=LadderPartido.DONE, ranking=[[2], [0, 1]], winners=[2]
    )
    failed = LadderPartido.objects.create_seated(
        ladder=ladder, versions=[b, c, d], status=LadderPartido.DONE, error="x"
    )
    LadderPartido.objects.create_seated(ladder=ladder, versions=[d, c, b, a], status=LadderPartido.QUEUED)
    assert done.pk < failed.pk
    tables, outcomes = played(ladder)
    assert tables == [[a, b, c], [b, c, d], [d, c, b, a]]
    assert outcomes == [([a, b, c], [[2], [0, 1]])]
    # the next table: those who played least (a, then d) sit first, whoever else is active
    table = matchmaking.next_table(active_ids(ladder), tables, CABRERO, outcomes)
    assert len(table) == 4 and a in table and d in table


@pytest.mark.django_db
@pytest.mark.sandbox
def test_a_ladder_of_pairs_plays_its_versions_as_sides(service: Path) -> None:
    import json

    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.ladder.views import standings_rows
    from arena.serve.ladder.worker import play_next

    ladder = Ladder.objects.create(game="tute-parejas", open=True)
    versions = _versions(service, ladder, ROOT / "sample_pairs", ("heuristica", "random_legal"))
    partido = play_next(ladder)
    assert partido is not None and partido.status == LadderPartido.DONE, partido and partido.error
    assert sorted(partido.version_ids) == sorted(versions)  # the sides, side 0's first
    assert sorted(s for g in partido.ranking for s in g) == [0, 1]  # by side
    assert partido.winners and set(partido.winners) <= {0, 1}
    from arena.serve.ladder.storage import read_bytes

    events = [json.loads(line) for line in read_bytes(Path(partido.replay)).decode().splitlines()]
    head, end = events[0], events[-1]
    assert head["teams"] == [[0, 2], [1, 3]] and len(head["players"]) == 4  # the replay keeps seats
    assert end["type"] == "partido_end"
    side_of = [0, 1, 0, 1]
    assert sorted({side_of[s] for s in end["winners"]}) == partido.winners

    rows = standings_rows(ladder)
    assert sorted(r["version"].pk for r in rows) == sorted(versions)
    assert all(r["partidos"] == 1 and r["strength"] is not None for r in rows)
    assert sum(r["won"] for r in rows) == len(partido.winners)
    page = _client("ana").get(f"/ladders/{ladder.pk}/").content.decode()
    assert "Autor heuristica #1" in page and "Autor random_legal #1" in page

    second = play_next(ladder)  # the sides swap: each version leads as side 0 in turn
    assert second is not None and second.status == LadderPartido.DONE, second.error
    assert second.version_ids == partido.version_ids[::-1]


@pytest.mark.django_db
@pytest.mark.sandbox
def test_a_ladder_of_cabrero_still_plays_its_seats(service: Path) -> None:
    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.ladder.views import standings_rows
    from arena.serve.ladder.worker import play_next

    ladder = Ladder.objects.create(game="tute-cabrero", open=True)
    versions = _versions(service, ladder, ROOT / "sample_players", ("a_mas", "a_menos", "random_legal"))
    partido = play_next(ladder)
    assert partido is not None and partido.status == LadderPartido.DONE, partido and partido.error
    # a clean version of another module (no ladder: the default game's) may take a fourth seat
    assert set(versions) <= set(partido.version_ids) and len(partido.version_ids) in (3, 4)
    assert sorted(s for g in partido.ranking for s in g) == list(range(len(partido.version_ids)))
    rows = standings_rows(ladder)
    assert all(r["partidos"] == 1 for r in rows if r["version"].pk in versions)
    assert sum(r["won"] for r in rows) == len(partido.winners)
