"""A readable account of a partido from its events, in the language in use (the game's terms in Spanish)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.game import DEFAULT_GAME, spec_of
from arena.games.common.words import OUTCOMES, REASONS, outcome_name, reason_name, sings
from arena.games.gamespec import GameSpec, Narrator
from arena.i18n import _, n_
from arena.inert import printable

Message = dict[str, Any]

__all__ = ["OUTCOMES", "REASONS", "narrate", "outcome_name", "reason_name"]

KNOWN = frozenset(
    {
        *("partido_start", "mano_start", "sang", "played", "accused", "conceded", "trick_end"),
        *("disqualified", "penalized", "mano_end", "partido_end", "review", "playoff_start", "playoff"),
    }
)
"""The events every game shares, told here; the game's spec tells the others (``narrate_other``)."""


def narrate(events: Sequence[Message], hands: bool = False, only_mano: int | None = None) -> Iterator[str]:
    """Lines telling the partido, in the language in use; ``hands`` adds every hand (replays only).

    Names and details come from the players: every line is shown inert (:func:`arena.inert.printable`).
    """
    for line in _narrate(events, hands, only_mano):
        yield printable(line)


def _narrate(events: Sequence[Message], hands: bool, only_mano: int | None) -> Iterator[str]:
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

    say = Narrator(who, seats, pair, by_seat)
    game: GameSpec = spec_of(DEFAULT_GAME)
    hosted: list[Message] = []  # a playoff's events [25.3], told as a partido of its own game

    for e in events:
        kind = e["type"]
        if kind == "playoff":
            hosted.append(e["event"])
            continue
        if hosted:
            yield from _narrate(hosted, hands, None)
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
                players=seats(e["seats"]), game=_(spec_of(e["game"]).title)
            )
            continue
        if kind == "partido_start":
            names = (
                [p["name"] for p in e["players"]]
                if "players" in e and isinstance(e["players"][0], dict)
                else list(e.get("players", []))
            )
            teams = [list(t) for t in e.get("teams", [])]
            game = spec_of(e.get("game", DEFAULT_GAME))
            yield from game.narrate_start(e, say)
            continue
        if kind == "mano_start":
            mano = e["mano"]
        if only_mano is not None and mano != only_mano and kind != "partido_end":
            continue
        if kind == "mano_start":
            extra = []
            if e["shown"]:
                extra.append(_("turned up {card}").format(card=e["shown"]))
            if e.get("out_of_play"):
                extra.append(_("out of play {card}").format(card=e["out_of_play"]))
            if e.get("sitting_out") is not None:
                extra.append(_("{player} deals and sits out").format(player=who(e["sitting_out"])))
            yield ""
            yield _("Mano {mano}: triunfo {trump}; {mano_player} is mano, {dealer} deals").format(
                mano=mano, trump=e["trump"], mano_player=who(e["mano_seat"]), dealer=who(e["dealer"])
            ) + ("; " + "; ".join(extra) if extra else "")
            for sw in e.get("swaps", []):
                took = sw["took"] or _("a hidden card")
                yield "  " + _("Cambio: {player} gives {gave} and takes {took}").format(
                    player=who(sw["seat"]), gave=sw["gave"], took=took
                )
            if hands and e.get("hands"):
                for s, h in enumerate(e["hands"]):
                    if h is not None:
                        yield f"  {who(s)}: {' '.join(h)}"
        elif kind == "sang":
            yield "  " + sings(who(e["seat"]), e["canto"])
        elif kind == "played" and e.get("renuncio") is True:
            yield "  " + _("{player} plays {card}: a renuncio (accepted under the accuse policy)").format(
                player=who(e["seat"]), card=e["card"]
            )
        elif kind == "accused":
            verdict = _("proven: a renuncio") if e["proven"] else _("not proven")
            yield "  " + _("{by} accuses {player} of a renuncio — {verdict}").format(
                by=who(e["by"]), player=who(e["seat"]), verdict=verdict
            )
        elif kind == "conceded":
            yield "  " + _("{player} throws in the cards (tirar las cartas)").format(player=who(e["seat"]))
        elif kind == "trick_end":
            cards = ", ".join(
                f"{names[c['seat']] if c['seat'] < len(names) else c['seat']} {c['card']}" for c in e["cards"]
            )
            yield "  " + _("Baza {trick}: {cards} → {player} takes it").format(
                trick=e.get("trick", e.get("baza")), cards=cards, player=who(e["winner"])
            )
        elif kind == "disqualified":
            yield "  " + _("{player} disqualified for {reason}: {detail}").format(
                player=who(e["seat"]), reason=reason_name(e["reason"]), detail=e["detail"]
            )
        elif kind == "penalized":
            yield "  " + _("{player} penalized for {reason}: {detail}").format(
                player=who(e["seat"]), reason=reason_name(e["reason"]), detail=e["detail"]
            )
        elif kind == "mano_end":
            yield from game.narrate_mano_end(e, say)
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
        elif kind not in KNOWN:
            yield from game.narrate_other(e, say)
    if hosted:  # a partido cut short in its playoff
        yield from _narrate(hosted, hands, None)
