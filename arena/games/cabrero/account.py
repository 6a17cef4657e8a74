"""Tute Cabrero's part of the standings' figures and of the account of a partido."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.games.common.account import ManoTally
from arena.games.common.words import outcome_name, partido_id, renuncio_name
from arena.games.gamespec import Narrator
from arena.i18n import _

Event = dict[str, Any]


def tally_mano(e: Event, t: ManoTally) -> None:
    """A ``mano_end``: manos dealt in, manos and porotos lost (two for a penalty or a proven
    accusation), capotes made."""
    out = t.out
    if e["outcome"] != "void":
        for s in t.dealt:
            out[s]["manos"] += 1
    cost = 2 if e["outcome"] == "penalty" or (e["outcome"] == "accused" and t.proven) else 1
    for s in e["losers"]:
        out[s]["manos_perdidas"] += 1
        out[s]["porotos_perdidos"] += cost
    if e["outcome"] == "capote":
        total = sum(n for n in e["tricks"] if n)
        for s, n in enumerate(e["tricks"]):
            if n == total:
                out[s]["capotes"] += 1


def narrate_start(e: Event, say: Narrator) -> Iterator[str]:
    """The header of a partido: its seed, rules and players."""
    rules = e.get("rules", {})
    variants = ", ".join(rules.get("variants", [])) or _("no variants")
    if partido_id(e):
        header = _("Partido {partido} — seed {seed}, rules {ruleset} ({variants}), renuncio: {renuncio}")
    else:  # arena play's partido, given no id: "Partido partido" says nothing
        header = _("Partido — seed {seed}, rules {ruleset} ({variants}), renuncio: {renuncio}")
    yield header.format(
        partido=partido_id(e),
        seed=e.get("seed", "?"),
        ruleset=rules.get("ruleset"),
        variants=variants,
        renuncio=renuncio_name(rules.get("renuncio")),
    )
    yield _("Players: {players}").format(players=", ".join(say.who(s) for s in range(len(e["players"]))))


def narrate_mano_end(e: Event, say: Narrator) -> Iterator[str]:
    """A mano's end: how, the points, the losers and porotos, who is out."""
    scores = e.get("scores")
    outcome = outcome_name(e["outcome"])
    if scores:
        yield "  " + _("End of mano {mano} ({outcome}); points {scores}").format(
            mano=e["mano"], outcome=outcome, scores=say.by_seat(scores)
        )
    else:
        yield "  " + _("End of mano {mano} ({outcome})").format(mano=e["mano"], outcome=outcome)
    yield "  " + _("Losers: {players}; porotos: {porotos}").format(
        players=say.seats(e["losers"]), porotos=say.by_seat(e["porotos"])
    )
    if e["eliminated"]:
        yield "  " + _("Eliminated: {players}").format(players=say.seats(e["eliminated"]))
