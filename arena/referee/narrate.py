"""A readable account of a partido from its events, in the language in use (the game's terms in Spanish)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.i18n import N_, _, n_
from arena.inert import printable

Message = dict[str, Any]

OUTCOMES = {
    "points": N_("by points"),
    "capote": N_("capote"),
    "tute": N_("tute"),
    "void": N_("mano voided"),
    "penalty": N_("renuncio penalized"),
    "tirar": N_("cards thrown in"),
    "accused": N_("ended by an accusation"),
}
"""How a mano ends (``mano_end``'s ``outcome``), marked for the catalog: shown by :func:`outcome_name`."""
REASONS = {
    "renuncio": N_("renuncio"),
    "false_canto": N_("false canto"),
    "not_in_hand": N_("card not in hand"),
    "timeout": N_("timeout"),
    "crash": N_("crash"),
    "protocol": N_("protocol error"),
}
"""Each fault's reason code in words, marked for the catalog: show it with :func:`reason_name`."""


def reason_name(reason: str) -> str:
    """A fault's reason code in words, in the language in use (an unknown code as it is)."""
    return _(REASONS[reason]) if reason in REASONS else reason


def outcome_name(outcome: str) -> str:
    """How a mano ended, in words, in the language in use (an unknown outcome as it is)."""
    return _(OUTCOMES[outcome]) if outcome in OUTCOMES else outcome


def _sings(player: str, canto: str) -> str:
    """The line of ``player`` singing ``canto``."""
    if canto == "tute":
        return _("{player} sings tute!").format(player=player)
    if canto == "cuarenta":
        return _("{player} sings las cuarenta").format(player=player)
    if canto.startswith("veinte-"):
        return _("{player} sings las veinte in {suit}").format(
            player=player, suit=canto.removeprefix("veinte-")
        )
    return _("{player} sings {canto}").format(player=player, canto=canto)


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

    for e in events:
        kind = e["type"]
        if kind == "partido_start":
            names = (
                [p["name"] for p in e["players"]]
                if "players" in e and isinstance(e["players"][0], dict)
                else list(e.get("players", []))
            )
            rules = e.get("rules", {})
            teams = [list(t) for t in e.get("teams", [])]
            if teams:
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
                yield _("Pairs: {pairs}").format(pairs=" | ".join(pair(i) for i in range(len(teams))))
                continue
            variants = ", ".join(rules.get("variants", [])) or _("no variants")
            yield _(
                "Partido {partido} — seed {seed}, rules {ruleset} ({variants}), renuncio: {renuncio}"
            ).format(
                partido=e.get("partido", ""),
                seed=e.get("seed", "?"),
                ruleset=rules.get("ruleset"),
                variants=variants,
                renuncio=rules.get("renuncio"),
            )
            yield _("Players: {players}").format(players=", ".join(who(s) for s in range(len(names))))
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
            yield "  " + _sings(who(e["seat"]), e["canto"])
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
        elif kind == "mano_end" and "juegos_won" in e:
            yield from _pair_mano_end(e, pair)
        elif kind == "mano_end":
            scores = e.get("scores")
            outcome = outcome_name(e["outcome"])
            if scores:
                yield "  " + _("End of mano {mano} ({outcome}); points {scores}").format(
                    mano=e["mano"], outcome=outcome, scores=by_seat(scores)
                )
            else:
                yield "  " + _("End of mano {mano} ({outcome})").format(mano=e["mano"], outcome=outcome)
            yield "  " + _("Losers: {players}; porotos: {porotos}").format(
                players=seats(e["losers"]), porotos=by_seat(e["porotos"])
            )
            if e["eliminated"]:
                yield "  " + _("Eliminated: {players}").format(players=seats(e["eliminated"]))
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


def _pair_mano_end(e: Message, pair: Any) -> Iterator[str]:
    """The lines of a ``mano_end`` of Tute por parejas (``pair(i)`` names pair ``i``)."""
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
        ).format(pair=pair(e["winner"]), n=won, first=e["juegos"][0], second=e["juegos"][1])
