"""The game's words for how a mano ends and for each fault, marked for the catalog."""

from __future__ import annotations

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
