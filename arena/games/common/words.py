"""The game's words for how a mano ends and for each fault, marked for the catalog."""

from __future__ import annotations

from typing import Any

from arena.i18n import N_, _

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


RENUNCIO_POLICIES = {
    "disqualify": N_("disqualify"),
    "penalize": N_("penalize"),
    "accuse": N_("accuse"),
}
"""Each renuncio policy (the rules' ``renuncio``), in words, marked for the catalog: shown by
:func:`renuncio_name`."""
UNNAMED_PARTIDO = "partido"  # not shown
"""The id of a partido that was given none (``arena play``'s): a header does not repeat it."""


def renuncio_name(policy: object) -> str:
    """A renuncio policy in the language in use, its code beside it when the words differ
    (``descalificación (disqualify)``: the code is what ``--renuncio`` and scripts take)."""
    code = str(policy)
    label = _(RENUNCIO_POLICIES[code]) if code in RENUNCIO_POLICIES else code
    return code if label == code else f"{label} ({code})"


def partido_id(e: dict[str, Any]) -> str:
    """A ``partido_start``'s id for a header: empty when the partido was given none."""
    found = str(e.get("partido") or "")
    return "" if found == UNNAMED_PARTIDO else found


def reason_name(reason: str) -> str:
    """A fault's reason code in words, in the language in use (an unknown code as it is)."""
    return _(REASONS[reason]) if reason in REASONS else reason


def outcome_name(outcome: str) -> str:
    """How a mano ended, in words, in the language in use (an unknown outcome as it is)."""
    return _(OUTCOMES[outcome]) if outcome in OUTCOMES else outcome


def sings(player: str, canto: str) -> str:
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


def juegos_header(e: dict[str, Any]) -> str:
    """The first line of a partido played to juegos (its ``partido_start``): seed, rules, juegos to win."""
    rules = e.get("rules", {})
    if partido_id(e):
        header = _(
            "Partido {partido} — {game}, seed {seed}, rules {ruleset}, {juegos} juegos to win, "
            "renuncio: {renuncio}"
        )
    else:
        header = _(
            "Partido — {game}, seed {seed}, rules {ruleset}, {juegos} juegos to win, renuncio: {renuncio}"
        )
    return header.format(
        partido=partido_id(e),
        game=e.get("game"),
        seed=e.get("seed", "?"),
        ruleset=rules.get("ruleset"),
        juegos=rules.get("juegos"),
        renuncio=renuncio_name(rules.get("renuncio")),
    )


def tantos_line(e: dict[str, Any]) -> str:
    """The first line of a ``mano_end`` scored in tantos: how it ended, and the tantos when counted."""
    outcome = outcome_name(e["outcome"])
    if e.get("tantos"):
        return "  " + _("End of mano {mano} ({outcome}); tantos {first} – {second}").format(
            mano=e["mano"], outcome=outcome, first=e["tantos"][0], second=e["tantos"][1]
        )
    return "  " + _("End of mano {mano} ({outcome})").format(mano=e["mano"], outcome=outcome)
