"""Tute por parejas' part of the standings' figures and of the account of a partido."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from arena.games.common.words import outcome_name
from arena.games.gamespec import Narrator, Tally
from arena.i18n import _, n_

Event = dict[str, Any]


def tally_mano(e: Event, t: Tally) -> None:
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
    rules = e.get("rules", {})
    yield _(
        "Partido {partido} — {game}, seed {seed}, rules {ruleset}, {juegos} juegos to win, "
        "renuncio: {renuncio}"
    ).format(
        partido=e.get("partido", ""),
        game=e.get("game"),
        seed=e.get("seed", "?"),
        ruleset=rules.get("ruleset"),
        juegos=rules.get("juegos"),
        renuncio=rules.get("renuncio"),
    )
    yield _("Pairs: {pairs}").format(pairs=" | ".join(say.pair(i) for i in range(len(e.get("teams", [])))))


def narrate_mano_end(e: Event, say: Narrator) -> Iterator[str]:
    """A mano's end: how, the tantos, the juegos won."""
    outcome = outcome_name(e["outcome"])
    if e.get("tantos"):
        yield "  " + _("End of mano {mano} ({outcome}); tantos {first} – {second}").format(
            mano=e["mano"], outcome=outcome, first=e["tantos"][0], second=e["tantos"][1]
        )
    else:
        yield "  " + _("End of mano {mano} ({outcome})").format(mano=e["mano"], outcome=outcome)
    if e.get("winner") is not None:
        won = e["juegos_won"][e["winner"]]
        yield "  " + n_(
            "{pair} win {n} juego; juegos: {first} – {second}",
            "{pair} win {n} juegos; juegos: {first} – {second}",
            won,
        ).format(pair=say.pair(e["winner"]), n=won, first=e["juegos"][0], second=e["juegos"][1])
