"""The pages a student returns to: their versions with what each did in the ladder, a version's
partidos (opponents, place, result, replay) and its strength and place over its partidos as a chart.

The partidos of a version are read with **one query** bounded by the version's ladder and its
upload time (it played nothing before), as plain values, their seats with one more
(:func:`arena.serve.ladder.models.seat_tables`), and picked in Python; the names of a page's
opponents take one more query, the deals still pending one more. The chart's Plackett–Luce fits
(:func:`arena.results.ranking.fit`, the standings' strength without its bootstrap) are made at most
:data:`FIT_POINTS` times and cached until the version plays again.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from django.core.paginator import Paginator
from django.urls import reverse
from django.utils.translation import gettext as _

from arena.serve.ladder import chart
from arena.serve.ladder.models import LadderPartido, Seat, seat_tables
from arena.serve.submissions.models import Version

PER_PAGE = 50
"""Partidos per page of a version's list."""
FIT_POINTS = 80
"""At most this many points of the strength and place chart (a fit of the ladder's partidos each)."""
_FIELDS = (
    "id",
    "ranking",
    "winners",
    "status",
    "error",
    "seed",
    "replay",
    "created_at",
    "finished_at",
)


def _rows(
    ladder_ids: Iterable[int | None], since: datetime | None, done_only: bool = False
) -> list[tuple[Any, ...]]:
    """The partidos (as :data:`_FIELDS` values, the versions in seat order second) of those ladders
    (every ladder if one is None) created at ``since`` or later (None: ever): two queries."""
    ids = set(ladder_ids)
    query = LadderPartido.objects.all()
    if since is not None:
        query = query.filter(created_at__gte=since)
    if None not in ids:
        query = query.filter(ladder_id__in=ids)
    if done_only:
        query = query.filter(status=LadderPartido.DONE)
    rows = list(query.order_by("id").values_list(*_FIELDS))
    tables = seat_tables(Seat.objects.filter(partido__in=query)) if rows else {}
    return [(row[0], tables.get(row[0], []), *row[1:]) for row in rows]


def _place(groups: list[list[int]], entrant: int) -> tuple[int, bool] | None:
    """The place of ``entrant`` (an index into the partido's versions) in ``groups`` (1 = first;
    the first place of its group when tied) and whether it is shared; None when not ranked."""
    start = 1
    for group in groups:
        if entrant in group:
            return start, len(group) > 1
        start += len(group)
    return None


def summaries(versions: list[Version]) -> dict[int, dict[str, Any]]:
    """By version id: its done partidos, wins and average place (tied entrants share the average
    of the places they span, as in the standings) for the student's page: one query for all."""
    from arena.referee.stats import finishing_places

    out: dict[int, dict[str, Any]] = {v.pk: {"partidos": 0, "won": 0, "places": 0.0} for v in versions}
    if not versions:
        return out
    since = min(v.uploaded_at for v in versions)
    for row in _rows((v.ladder_id for v in versions), since, done_only=True):
        table, groups, winners = row[1], row[2], row[3]
        if not groups:
            continue
        places = finishing_places(groups)
        for entrant, version_id in enumerate(table):
            mine = out.get(version_id)
            if mine is None or entrant not in places:
                continue
            mine["partidos"] += 1
            mine["won"] += entrant in winners
            mine["places"] += places[entrant]
    for mine in out.values():
        mine["average_place"] = mine["places"] / mine["partidos"] if mine["partidos"] else None
    return out


def _mine(version: Version) -> list[tuple[Any, ...]]:
    """Every partido ``version`` sits in, oldest first (one query)."""
    return [row for row in _rows([version.ladder_id], version.uploaded_at) if version.pk in row[1]]


def partido_rows(version: Version, page_number: Any) -> tuple[Any, list[dict[str, Any]]]:
    """The page ``page_number`` of ``version``'s partidos, newest first, and its rows: date,
    opponents' names, place of how many, result, and the replay's address once its deal is over."""
    from arena.serve.ladder.views_watch import _names, pending_deals

    mine = _mine(version)
    mine.reverse()
    page = Paginator(mine, PER_PAGE).get_page(page_number)
    shown = list(page.object_list)
    names = _names(v for row in shown for v in row[1] if v != version.pk)
    pending = pending_deals([version.ladder_id]) if version.ladder_id is not None else set()
    rows = []
    for pk, table, groups, winners, status, error, seed, replay, created, finished in shown:
        entrant = table.index(version.pk)
        found = _place(groups, entrant) if status == LadderPartido.DONE and groups else None
        over = status == LadderPartido.DONE and (version.ladder_id, seed) not in pending
        if status != LadderPartido.DONE:
            result = dict(LadderPartido.STATUSES)[status]
        elif error and not groups:
            result = _("not played: {error}").format(error=error)
        elif entrant in winners:
            result = _("won, shared") if len(winners) > 1 else _("won")
        else:
            result = _("lost")
        rows.append(
            {
                "id": pk,
                "when": finished or created,
                "opponents": [names.get(v, "?") for v in table if v != version.pk],
                "place": found[0] if found else None,
                "tied": found[1] if found else False,
                "of": len(table),
                "won": bool(found) and entrant in winners,
                "result": str(result),
                "viewer": reverse("partido", args=[pk])
                if over and replay and Path(replay).is_file()
                else None,
            }
        )
    return page, rows


_cache_lock = threading.Lock()
_charts: dict[tuple[Any, ...], list[tuple[int, float, int]]] = {}


def _history(version: Version) -> list[tuple[int, float, int]]:
    """``version``'s strength and place after some of its ranked partidos, in the order they
    finished: (its partidos so far, θ, place among the versions that had played by then), at most
    :data:`FIT_POINTS` of them; cached until the version plays again."""
    from arena.results import ranking

    if version.ladder_id is None:
        return []
    ladder_done = [r for r in _rows([version.ladder_id], None, done_only=True) if r[2]]
    ladder_done.sort(key=lambda r: (r[9] or r[8], r[0]))
    own = [k for k, r in enumerate(ladder_done) if version.pk in r[1]]
    if not own:
        return []
    key = (version.pk, len(own), ladder_done[own[-1]][0])
    with _cache_lock:
        hit = _charts.get(key)
    if hit is not None:
        return hit
    index: dict[int, int] = {}
    outcomes = []
    for r in ladder_done[: own[-1] + 1]:
        for v in r[1]:
            index.setdefault(v, len(index))
        outcomes.append(ranking.Outcome(tuple(tuple(index[r[1][s]] for s in g) for g in r[2]), str(r[0])))
    me = index[version.pk]
    points = []
    present: set[int] = set()
    done = 0
    for k in chart.sample(len(own), FIT_POINTS):
        upto = own[k] + 1
        present.update(index[v] for r in ladder_done[done:upto] for v in r[1])
        done = upto
        theta = ranking.fit(outcomes[:upto], len(index))
        place = 1 + sum(1 for i in present if theta[i] > theta[me] + 1e-12)
        points.append((k + 1, float(theta[me]), place))
    with _cache_lock:
        if len(_charts) > 256:
            _charts.clear()
        _charts[key] = points
    return points


def charts(version: Version) -> list[str]:
    """The SVG charts of ``version``'s strength and place over its partidos (none before its first
    ranked partido)."""
    points = _history(version)
    if not points:
        return []
    axis = _("the version's partidos")
    strength = chart.line_chart(
        [(n, theta) for n, theta, _place in points], _("Strength over its partidos"), axis, _("Strength")
    )
    most = max(place for _n, _theta, place in points)
    place = chart.line_chart(
        [(n, p) for n, _theta, p in points],
        _("Place over its partidos"),
        axis,
        _("Place"),
        inverted=True,
        integer_y=True,
        y_range=(1, max(2, most)),
    )
    return [strength, place]
