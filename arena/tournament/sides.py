"""Entrants that play as teams (Tute por parejas): from a torneo's sides to a table's seats and back.

In a game of teams (the spec's ``teams``) each entrant of a scheduled partido
is a *side*: it plays in every seat of its team, each seat its own process of the
entrant's folder (no shared memory, no channel but the play). The referee judges
seats; the torneo counts sides. :func:`seat_specs` seats the sides' players, and
:func:`by_side` turns the partido's result into one with a "seat" per side, as the
store, the standings and the rating take it — so they stay as they are for Cabrero:
a partido of pairs is, to them, a partido of two.

The replay keeps the seats; :func:`end_by_side` reads its ``partido_end`` by side,
for the store's check that the replay and the result agree.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from arena.games.gamespec import seat_sides
from arena.referee.stats import FIELDS, NOT_COUNTS, finishing_places

T = TypeVar("T")

def seat_specs(sides: Sequence[T], teams: Sequence[Sequence[int]]) -> list[T]:
    """The player of each seat: side ``i`` in every seat of ``teams[i]``."""
    return [sides[side] for side in seat_sides(tuple(tuple(t) for t in teams))]


def _groups(ranking: Sequence[Sequence[int]], side_of: Sequence[int]) -> list[list[int]]:
    """A ranking of seats as one of sides: a side is placed at its best seat's group."""
    out: list[list[int]] = []
    placed: set[int] = set()
    for group in ranking:
        sides = sorted({side_of[s] for s in group} - placed)
        if sides:
            out.append(sides)
            placed.update(sides)
    return out


def _winners(winners: Sequence[int], side_of: Sequence[int]) -> list[int]:
    return sorted({side_of[s] for s in winners})


def end_by_side(end: dict[str, Any], side_of: Sequence[int]) -> dict[str, Any]:
    """A replay's ``partido_end`` with ``winners`` and ``ranking`` by side."""
    return {
        **end,
        "winners": _winners(end.get("winners", []), side_of),
        "ranking": _groups(end.get("ranking", []), side_of),
    }


def by_side(
    result: dict[str, Any],
    incidents: dict[int, Path],
    names: Sequence[str],
    teams: Sequence[Sequence[int]],
    per_team: Sequence[str] = (),
) -> tuple[dict[str, Any], dict[int, Path]]:
    """A worker's ``result`` (by seat) and incident files, by side.

    ``names``: the sides' entrant names. A side's reply times are its seats' in seat
    order; a fault keeps its detail (which names the seat) under the side's index;
    the incident files of two partners become one (the second appended to the first).
    ``sides`` (the side of each seat) is added: :func:`end_by_side` needs it. ``per_team``: the game's
    counts a team has once (its spec's ``team_counts``), besides the house's manos and manos lost.
    """
    side_of = seat_sides(tuple(tuple(t) for t in teams))
    ranking = _groups(result["ranking"], side_of)
    places = finishing_places(ranking)
    out = {
        **result,
        "players": list(names),
        "winners": _winners(result["winners"], side_of),
        "ranking": ranking,
        "scores": [result["scores"][team[0]] for team in teams],
        "faults": [{**f, "seat": side_of[f["seat"]]} for f in result["faults"]],
        "reply_ms": [[ms for s in team for ms in result["reply_ms"][s]] for team in teams],
        "sides": side_of,
    }
    if "stats" in result:
        once = {*FIELDS, *per_team}
        out["stats"] = [_side_stats([result["stats"][s] for s in team], once) for team in teams]
        for side, stats in enumerate(out["stats"]):
            stats["won"] = side in out["winners"]
            stats["place"] = places.get(side, float(len(teams)))
    files: dict[int, Path] = {}
    for seat, path in sorted(incidents.items()):
        side = side_of[seat]
        if side not in files:
            files[side] = path
            continue
        with files[side].open("a", encoding="utf-8") as joined, path.open(encoding="utf-8") as more:
            shutil.copyfileobj(more, joined)
        path.unlink()
    return out, files


def _side_stats(seats: Sequence[dict[str, Any]], once: set[str]) -> dict[str, Any]:
    """One side's figures from its seats': a count in ``once`` counted once per team (both partners
    were dealt the mano, both lost it), the others each partner's, summed."""
    counts = [f for f in seats[0] if f not in NOT_COUNTS]
    out: dict[str, Any] = {f: (max if f in once else sum)(s[f] for s in seats) for f in counts}
    out["faults"] = [reason for s in seats for reason in s.get("faults", [])]
    out["reply_cpu_ms"] = [ms for s in seats for ms in s.get("reply_cpu_ms", [])]
    return out
