"""A readable account of a partido from its events, in the language in use (the game's terms in Spanish).

The house tells the start, the faults, the end and a hosted playoff; every other event is the game's
to tell (its spec's ``narrate_event``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena import games
from arena.games.gamespec import GameSpec, Narrator
from arena.i18n import N_, _, n_
from arena.inert import printable
from arena.protocol import DEFAULT_GAME

Message = dict[str, Any]

__all__ = ["PROCESS_FAULT_NAMES", "narrate", "reason_name"]

PROCESS_FAULT_NAMES = {"timeout": N_("timeout"), "crash": N_("crash"), "protocol": N_("protocol error")}
"""The faults of a program (:data:`arena.protocol.PROCESS_FAULTS`) in words, marked for the catalog."""


def reason_name(reason: str) -> str:
    """A fault's reason code in words, in the language in use: a program's fault, or a game's rule
    fault as the game names it (:attr:`~arena.games.gamespec.GameSpec.fault_names`); else as it is."""
    if reason in PROCESS_FAULT_NAMES:
        return _(PROCESS_FAULT_NAMES[reason])
    for spec in games.specs():
        if reason in spec.fault_names:
            return _(spec.fault_names[reason])
    return reason

def narrate(
    events: Sequence[Message], hands: bool = False, only_mano: int | None = None, moves: bool = False
) -> Iterator[str]:
    """Lines telling the partido, in the language in use; ``hands`` adds every hand (replays only),
    ``moves`` a line for every decision (the site's viewer; a Tute baza is otherwise told at its end).

    Names and details come from the players: every line is shown inert (:func:`arena.inert.printable`).
    """
    for line in _narrate(events, hands, only_mano, moves):
        yield printable(line)


def _narrate(events: Sequence[Message], hands: bool, only_mano: int | None, moves: bool) -> Iterator[str]:
    names: list[str] = []
    teams: list[list[int]] = []
    mano = 0

    def who(seat: int) -> str:
        return f"{names[seat]} ({seat})" if seat < len(names) else _("seat {seat}").format(seat=seat)

    def seats(group: Sequence[int]) -> str:
        return ", ".join(who(s) for s in group) or _("nobody")

    def pair(index: int) -> str:
        return " + ".join(who(s) for s in teams[index]) if index < len(teams) else str(index)

    def by_seat(values: Sequence[Any]) -> str:
        return ", ".join(
            f"{names[s] if s < len(names) else s} {v}" for s, v in enumerate(values) if v is not None
        )

    def name(seat: int) -> str:
        return names[seat] if seat < len(names) else str(seat)

    say = Narrator(who, seats, pair, by_seat, name, moves)
    game: GameSpec = games.spec(DEFAULT_GAME)
    hosted: list[Message] = []  # a playoff's events [25.3], told as a partido of its own game

    for e in events:
        kind = e["type"]
        if kind == "playoff":
            hosted.append(e["event"])
            continue
        if hosted:
            yield from _narrate(hosted, hands, None, moves)
            hosted = []
        if kind == "playoff_start":
            hosted = [
                {
                    "type": "partido_start",
                    "partido": "playoff",
                    "game": e["game"],
                    "players": [names[s] if s < len(names) else str(s) for s in e["seats"]],
                    "rules": e.get("rules", {}),
                }
            ]
            yield ""
            yield _("{players} are left: they play {game} to one winner (rule 25.3)").format(
                players=seats(e["seats"]), game=_(games.spec(e["game"]).title)
            )
            continue
        if kind == "partido_start":
            names = (
                [p["name"] for p in e["players"]]
                if "players" in e and isinstance(e["players"][0], dict)
                else list(e.get("players", []))
            )
            teams = [list(t) for t in e.get("teams", [])]
            game = games.spec(e.get("game", DEFAULT_GAME))
            yield from game.narrate_start(e, say)
            continue
        if kind == "mano_start":
            mano = e["mano"]
        if only_mano is not None and mano != only_mano and kind != "partido_end":
            continue
        if kind == "disqualified":
            yield "  " + _("{player} disqualified: {reason} — {detail}").format(
                player=who(e["seat"]), reason=reason_name(e["reason"]), detail=e["detail"]
            )
        elif kind == "penalized":
            yield "  " + _("{player} penalized: {reason} — {detail}").format(
                player=who(e["seat"]), reason=reason_name(e["reason"]), detail=e["detail"]
            )
        elif kind == "partido_end":
            manos = e.get("manos", mano)
            yield ""
            yield n_(
                "End of the partido after {n} mano. Winners: {players}",
                "End of the partido after {n} manos. Winners: {players}",
                manos,
            ).format(n=manos, players=seats(e["winners"]))
            yield _("Standings: {ranking}").format(
                ranking=" | ".join(f"{i}. {seats(g)}" for i, g in enumerate(e["ranking"], 1))
            )
        else:
            yield from game.narrate_event(e, say, hands)
    if hosted:  # a partido cut short in its playoff
        yield from _narrate(hosted, hands, None, moves)
