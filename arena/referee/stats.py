"""Per-player figures of one partido, read from its replay events.

The replay is the omniscient record, so everything the standings show can be
recomputed from it. Pure functions; plain dicts that go into JSON as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.game import DEFAULT_GAME, spec_of
from arena.games.gamespec import Tally
from arena.i18n import _

Event = dict[str, Any]

FIELDS = (
    "manos",
    "manos_perdidas",
    "porotos_perdidos",
    "capotes",
    "tutes",
    "cantos",
)
"""Counted per seat: manos dealt in (void ones excluded), manos lost, porotos given up,
capotes made, tutes sung, and cuarenta/veinte sung. What a ``mano_end`` adds is the game's
(its spec's ``tally_mano``): in a game of teams a mano is lost by the team that did not win it,
and the porotos given up are what the other team won with it."""


ACCUSE_FIELDS = ("renuncios", "renuncios_cazados", "acusaciones_bien", "acusaciones_mal")
"""Counted per seat under the ``accuse`` policy (only there): renuncios played, renuncios caught
(proven accusations against it), and its own accusations, proven and not proven."""


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
    """One dict per seat: the FIELDS counts, ``won``, ``place``, ``faults`` (reasons), ``move_ms``
    (wall clock) and ``move_cpu_ms`` (the player's CPU time, where measured).

    A replay without ``partido_end`` is refused (a partido cut short never counts).
    """
    if not events or events[0].get("type") != "partido_start":
        raise ValueError(_("a replay starts with partido_start"))
    if events[-1].get("type") != "partido_end":
        raise ValueError(_("the partido has no partido_end: it was cut short and does not count"))
    n = len(events[0]["players"])
    game = spec_of(events[0].get("game", DEFAULT_GAME))
    teams = [list(t) for t in events[0].get("teams", [])]
    accuse = events[0].get("rules", {}).get("renuncio") == "accuse"
    out: list[dict[str, Any]] = [
        {
            **dict.fromkeys(FIELDS, 0),
            **dict.fromkeys(ACCUSE_FIELDS if accuse else (), 0),
            "faults": [],
            "move_ms": [],
            "move_cpu_ms": [],
            "won": False,
            "place": 0.0,
        }
        for _seat in range(n)
    ]
    dealt: list[int] = []
    proven = False  # the mano's accusation, when it ended by one
    for e in events:
        kind = e["type"]
        if kind == "mano_start":
            dealt = [s for s, hand in enumerate(e["hands"]) if hand is not None]
        elif kind == "played":
            if e.get("renuncio") is True:
                out[e["seat"]]["renuncios"] += 1
            if "ms" in e:
                out[e["seat"]]["move_ms"].append(e["ms"])
                if e.get("cpu_ms") is not None:
                    out[e["seat"]]["move_cpu_ms"].append(e["cpu_ms"])
        elif kind == "accused":
            proven = e["proven"] is True
            out[e["by"]]["acusaciones_bien" if proven else "acusaciones_mal"] += 1
            if proven:
                out[e["seat"]]["renuncios_cazados"] += 1
        elif kind == "sang":
            out[e["seat"]]["tutes" if e["canto"] == "tute" else "cantos"] += 1
        elif kind in ("disqualified", "penalized"):
            out[e["seat"]]["faults"].append(e["reason"])
        elif kind == "playoff" and e["event"]["type"] in ("disqualified", "penalized"):  # [25.3]
            out[e["seats"][e["event"]["seat"]]]["faults"].append(e["event"]["reason"])
        elif kind == "mano_end":
            game.tally_mano(e, Tally(out, dealt, proven, teams))
    end = events[-1]
    places = finishing_places(end["ranking"])
    for s in range(n):
        out[s]["won"] = s in end["winners"]
        out[s]["place"] = places.get(s, float(n))
    return out
