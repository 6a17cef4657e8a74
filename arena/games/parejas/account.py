"""Tute por parejas' part of the standings' figures and of the account of a partido."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.games.common.account import ManoTally
from arena.games.common.words import juegos_header, tantos_line
from arena.games.gamespec import Narrator
from arena.i18n import _, n_

Event = dict[str, Any]


def tally_mano(e: Event, t: ManoTally) -> None:
    """A ``mano_end``: every seat dealt in (unless void); the losing pair's seats lose the mano and
    give up, as porotos, the juegos the winning pair won with it."""
    out = t.out
    if e["outcome"] != "void":
        for row in out:
            row["manos"] += 1
    if e.get("winner") is not None:
        for side, team in enumerate(t.teams):
            if side != e["winner"]:
                for s in team:
                    out[s]["manos_perdidas"] += 1
                    out[s]["porotos_perdidos"] += e["juegos_won"][e["winner"]]


def narrate_start(e: Event, say: Narrator) -> Iterator[str]:
    """The header of a partido: its seed, rules, juegos to win and pairs."""
    yield juegos_header(e)
    yield _("Pairs: {pairs}").format(pairs=" | ".join(say.pair(i) for i in range(len(e.get("teams", [])))))


def narrate_mano_end(e: Event, say: Narrator) -> Iterator[str]:
    """A mano's end: how, the tantos, the juegos won."""
    yield tantos_line(e)
    if e.get("winner") is not None:
        won = e["juegos_won"][e["winner"]]
        yield "  " + n_(
            "{pair} win {n} juego; juegos: {first} – {second}",
            "{pair} win {n} juegos; juegos: {first} – {second}",
            won,
        ).format(pair=say.pair(e["winner"]), n=won, first=e["juegos"][0], second=e["juegos"][1])
