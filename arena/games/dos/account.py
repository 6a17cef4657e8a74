"""Tute de a dos' part of the standings' figures and of the account of a partido."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.games.common.account import ManoTally
from arena.games.common.words import juegos_header, tantos_line
from arena.games.gamespec import Narrator
from arena.i18n import _, n_

Event = dict[str, Any]


def tally_mano(e: Event, t: ManoTally) -> None:
    """A ``mano_end``: both seats dealt in (unless void); the seat that did not win loses the mano
    and gives up, as porotos, the juegos the winner got with it (1, or 2 for a penalty: D26, D28)."""
    out = t.out
    if e["outcome"] != "void":
        for s in t.dealt:
            out[s]["manos"] += 1
    winner = e.get("winner")
    if winner is not None:
        for s in t.dealt:
            if s != winner:
                out[s]["manos_perdidas"] += 1
                out[s]["porotos_perdidos"] += e["juegos_won"][winner]


def narrate_start(e: Event, say: Narrator) -> Iterator[str]:
    """The header of a partido: its seed, rules, juegos to win (D27) and players."""
    yield juegos_header(e)
    yield _("Players: {players}").format(players=", ".join(say.who(s) for s in range(len(e["players"]))))


def narrate_mano_end(e: Event, say: Narrator) -> Iterator[str]:
    """A mano's end: how, the tantos (D22), who wins it and the juegos."""
    yield tantos_line(e)
    if e.get("winner") is not None:
        won = e["juegos_won"][e["winner"]]
        yield "  " + n_(
            "{player} wins {n} juego; juegos: {first} – {second}",
            "{player} wins {n} juegos; juegos: {first} – {second}",
            won,
        ).format(player=say.who(e["winner"]), n=won, first=e["juegos"][0], second=e["juegos"][1])


def narrate_other(e: Event, say: Narrator) -> Iterator[str]:
    """The game's own events: a card drawn from the monte (when it is known: D11) and a cambio (D16)."""
    kind = e.get("type")
    if kind == "drew" and e.get("card"):
        yield "  " + _("{player} draws {card} from the monte").format(
            player=say.who(e["seat"]), card=e["card"]
        )
    elif kind == "exchanged":
        yield "  " + _("Cambio: {player} gives {gave} and takes {took}").format(
            player=say.who(e["seat"]), gave=e["gave"], took=e["took"]
        )
