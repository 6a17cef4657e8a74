"""Per-player figures of one partido, read from its replay events.

The replay is the omniscient record, so everything the standings show can be
recomputed from it. Pure functions; plain dicts that go into JSON as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena import games
from arena.games.gamespec import GameSpec, Tally
from arena.i18n import _
from arena.protocol import DEFAULT_GAME

Event = dict[str, Any]

FIELDS = ("manos", "manos_perdidas")
"""The house's counts per seat, which every game's ``tally`` counts: manos dealt in (void ones
excluded) and manos lost. The game's own counts come after (:attr:`GameSpec.counts`)."""

NOT_COUNTS = frozenset({"won", "place", "faults", "reply_ms", "reply_cpu_ms"})
"""The keys of a seat's figures that are not counts to sum: its result, faults and reply times."""


def fields(spec: GameSpec) -> tuple[str, ...]:
    """Every count of a seat in a partido of game ``spec``: the house's, then the game's."""
    return (*FIELDS, *spec.counts)


def finishing_places(ranking: Sequence[Sequence[int]]) -> dict[int, float]:
    """Place by seat (1 = best); tied seats share the average of the places they span."""
    places: dict[int, float] = {}
    start = 1
    for group in ranking:
        shared = start + (len(group) - 1) / 2
        for seat in group:
            places[seat] = shared
        start += len(group)
    return places


def partido_stats(events: Sequence[Event]) -> list[dict[str, Any]]:
    """One dict per seat: the counts (:func:`fields`), ``won``, ``place``, ``faults`` (reasons),
    ``reply_ms`` (wall clock) and ``reply_cpu_ms`` (the player's CPU time, where measured).

    A replay without ``partido_end`` is refused (a partido cut short never counts). The game counts
    its own figures (its spec's ``tally``); the house reads the faults and the measured times.
    """
    if not events or events[0].get("type") != "partido_start":
        raise ValueError(_("a replay starts with partido_start"))
    if events[-1].get("type") != "partido_end":
        raise ValueError(_("the partido has no partido_end: it was cut short and does not count"))
    start = events[0]
    n = len(start["players"])
    game = games.spec(start.get("game", DEFAULT_GAME))
    teams = [list(t) for t in start.get("teams", [])]
    out: list[dict[str, Any]] = [
        {
            **dict.fromkeys(fields(game), 0),
            "faults": [],
            "reply_ms": [],
            "reply_cpu_ms": [],
            "won": False,
            "place": 0.0,
        }
        for _seat in range(n)
    ]
    for e in events:
        kind = e["type"]
        if "ms" in e and "seat" in e:  # a decision, stamped by the referee
            out[e["seat"]]["reply_ms"].append(e["ms"])
            if e.get("cpu_ms") is not None:
                out[e["seat"]]["reply_cpu_ms"].append(e["cpu_ms"])
        elif kind in ("disqualified", "penalized"):
            out[e["seat"]]["faults"].append(e["reason"])
        elif kind == "playoff" and e["event"]["type"] in ("disqualified", "penalized"):  # [25.3]
            out[e["seats"][e["event"]["seat"]]]["faults"].append(e["event"]["reason"])
    game.tally(events, Tally(out, teams, start.get("rules", {})))
    end = events[-1]
    places = finishing_places(end["ranking"])
    for s in range(n):
        out[s]["won"] = s in end["winners"]
        out[s]["place"] = places.get(s, float(n))
    return out
