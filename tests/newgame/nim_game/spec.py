"""Nim de montones as the house sees it: its :class:`~arena.games.gamespec.GameSpec`.

Everything the house needs of the game is here or in the modules it names: the moves (read from the
reply, listed by the engine), the figures of the standings, the account in words, the fault's name,
the viewer's renderer. No file under ``arena/`` names this game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from nim_game import rules

from arena.games.gamespec import Figure, GameSpec, Narrator, Tally, lazy_engine, rules_reader
from arena.i18n import N_
from arena.protocol import Message, ProtocolError, check_fields, check_head, check_text

Event = dict[str, Any]
HERE = Path(__file__).resolve().parent


def read_reply(obj: object, request: Message) -> str:
    """A reply ``{"type": "play", "id": …, "take": "h:k"}``: the move, its shape checked."""
    head = check_head(obj, "play", request["id"])
    check_fields(head, "play", {"type", "id", "take"})
    if "take" not in head:
        raise ProtocolError("play needs a field 'take' (a move like \"2:3\")")
    return check_text(head["take"], "'take'", '"2:3"')


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.NimRules:
    return rules.NimRules(ruleset or rules.RULESETS[0])


def tally(events: Sequence[Event], t: Tally) -> None:
    """Manos played and lost by each seat in play, manos won, counters taken."""
    out = t.out
    playing: list[int] = list(range(len(out)))
    for e in events:
        if e["type"] == "disqualified":
            playing = [s for s in playing if s != e["seat"]]
        elif e["type"] == "took":
            out[e["seat"]]["fichas"] += e["count"]
        elif e["type"] == "mano_end":
            for s in playing:
                out[s]["manos"] += 1
                if s != e["winner"]:
                    out[s]["manos_perdidas"] += 1
            out[e["winner"]]["manos_ganadas"] += 1


def narrate_start(e: Event, say: Narrator) -> Iterator[str]:
    rules_ = e.get("rules", {})
    to_win = rules_.get("to_win", "?")
    yield f"Partido {e.get('partido', '')} — Nim, seed {e.get('seed', '')}, {to_win} manos to win"


def narrate_event(e: Event, say: Narrator, hands: bool) -> Iterator[str]:
    kind = e["type"]
    if kind == "mano_start":
        yield ""
        yield f"Mano {e['mano']}: heaps {e['heaps']}; {say.who(e['first'])} begins"
    elif kind == "took":
        yield f"  {say.who(e['seat'])} takes {e['count']} from heap {e['heap']} → {e['heaps']}"
    elif kind == "mano_end":
        points = say.by_seat(e["points"])
        yield f"  {say.who(e['winner'])} takes the last counter and wins the mano; points: {points}"


SPEC = GameSpec(
    name="nim",
    short="nim",
    title=N_("Nim"),
    table_sizes=(2, 3, 4),
    rulesets=rules.RULESETS,
    renuncio_policies=("disqualify",),
    rule_faults=("illegal",),
    fault_names={"illegal": N_("illegal move")},
    new_partido=lazy_engine("nim_game.engine", "NimPartido"),
    rules_of=rules_reader(rules.NimRules),
    make_rules=_make_rules,
    read_reply=read_reply,
    push_after=frozenset({"mano_start", "mano_end", "partido_end", "disqualified"}),
    reply_event="took",
    counts=("manos_ganadas", "fichas"),
    tally=tally,
    figures=(
        Figure("manos_ganadas", N_("Manos won"), "manos_ganadas"),
        Figure("fichas_100", N_("Counters taken per 100 manos"), "fichas", "manos", "0.0"),
    ),
    narrate_start=narrate_start,
    narrate_event=narrate_event,
    viewer=str(HERE / "viewer_nim.js"),
    player_hint="",
    sdk_modules=(),
    samples=str(HERE / "samples"),
    check_opponents=("azar", "optimo"),
    check_tables=(2, 3),
    default_folders=(str(HERE / "samples"),),
    guide="tests/newgame/README.md",
)
"""Nim de montones: 2 to 4 seats, heaps of counters, a move is ``"h:k"``."""
