"""What the three Tute games share behind the seam: how a partido's events are counted for the
standings and told in words, how a reply is read, and which events end a baza or a mano.

Each game's ``spec`` builds its part of :class:`arena.games.gamespec.GameSpec` with :func:`tute_seam`,
giving its own ``mano_end`` tally and narration; a game that is not Tute brings its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.games.common import replies
from arena.games.common.words import REASONS, sings
from arena.games.gamespec import Figure, Narrator, Tally
from arena.i18n import N_, _

Event = dict[str, Any]

COUNTS = ("porotos_perdidos", "capotes", "tutes", "cantos")
"""Counted per seat besides the house's manos and manos lost: porotos given up, capotes made, tutes
sung, and cuarenta/veinte sung. In a game of teams a mano is lost by the team that did not win it,
and the porotos given up are what the other team won with it."""

ACCUSE_FIELDS = ("renuncios", "renuncios_cazados", "acusaciones_bien", "acusaciones_mal")
"""Counted per seat under the ``accuse`` policy (only there): renuncios played, renuncios caught
(proven accusations against it), and its own accusations, proven and not proven."""

ACCUSE_TITLES = {
    "renuncios": N_("Renuncios made"),
    "renuncios_cazados": N_("Renuncios caught"),
    "acusaciones_bien": N_("Accusations proven"),
    "acusaciones_mal": N_("Accusations wrong"),
}
"""The standings' columns of the ``accuse`` policy."""

FIGURES = (
    Figure("porotos_100", N_("Porotos lost per 100 manos"), "porotos_perdidos", "manos", "0.0"),
    Figure("capotes", N_("Capotes"), "capotes"),
    Figure("tutes", N_("Tutes"), "tutes"),
    Figure("cantos", N_("Cantos"), "cantos"),
)
"""The standings' columns of a Tute game, after the house's."""

PUSH_AFTER = frozenset({"mano_start", "trick_end", "mano_end", "partido_end", "disqualified", "penalized"})
"""A player's queued events go out at once after these: one write per player per baza."""

PENALIZABLE = ("renuncio", "false_canto")
"""The faults that ``--renuncio penalize`` turns into penalties (the mano lost, two porotos)."""

VIEWER = str(Path(__file__).with_name("viewer_tute.js"))
"""The replay viewer's renderer of the Tute games: hands, the baza on the table, triunfo, porotos."""


FAULT_HINTS = {
    "renuncio": N_("play only a card the game's rules allow at that moment (its rules page says which)"),
    "false_canto": N_("sing only a canto the game's rules allow at that moment"),
    "not_in_hand": N_('play a card from the request\'s `hand`, written like "12-basto"'),
}
"""What ``arena check`` tells a player of a Tute game about a rule fault its game names no hint for."""

VIEWER_WORDS = {
    "porotos": N_("porotos"),
    "juegos": N_("juegos"),
    "hidden": N_("hidden card"),
    "trump": N_("Trump: {suit}"),
    "renuncio": N_("renuncio"),
    "shown": N_("Turned up:"),
    "outOfPlay": N_("Out of play:"),
    "trick": N_("Cards on the table"),
}
"""The words of the Tute renderer (:data:`VIEWER`), marked for the catalog."""


@dataclass(frozen=True)
class ManoTally:
    """What a game's ``mano_end`` tally is given besides the event: ``out`` one dict per seat (to add
    to), ``dealt`` the seats dealt in this mano, ``proven`` whether the mano ended by a proven
    accusation, ``teams`` the partido's teams (empty: every player for himself)."""

    out: list[dict[str, Any]]
    dealt: Sequence[int]
    proven: bool
    teams: Sequence[Sequence[int]]


ManoEnd = Callable[[Event, Narrator], Iterator[str]]


def tute_seam(
    tally_mano: Callable[[Event, ManoTally], None],
    narrate_mano_end: ManoEnd,
    narrate_other: ManoEnd | None = None,
) -> dict[str, Any]:
    """The :class:`~arena.games.gamespec.GameSpec` fields a Tute game shares, around its own
    ``mano_end`` tally and narration (and the lines of its own events, ``narrate_other``)."""
    return {
        "read_reply": replies.decision_of,
        "push_after": PUSH_AFTER,
        "reply_event": "played",
        "counts": COUNTS,
        "tally": _tally(tally_mano),
        "figures": FIGURES,
        "narrate_event": _narration(narrate_mano_end, narrate_other),
        "viewer": VIEWER,
        "viewer_words": VIEWER_WORDS,
        "titles": ACCUSE_TITLES,
        "loss_count": "porotos_perdidos",
        "reply_example": N_('{"type":"play","id":<the request\'s id>,"card":"..."}'),
        "penalizable": PENALIZABLE,
        "fault_names": {k: v for k, v in REASONS.items() if k not in ("timeout", "crash", "protocol")},
    }


def _tally(tally_mano: Callable[[Event, ManoTally], None]) -> Callable[[Sequence[Event], Tally], None]:
    def tally(events: Sequence[Event], t: Tally) -> None:
        """Manos, porotos, capotes, cantos and tutes; renuncios and accusations under ``accuse``."""
        out = t.out
        if t.rules.get("renuncio") == "accuse":
            for row in out:
                row.update(dict.fromkeys(ACCUSE_FIELDS, 0))
        dealt: list[int] = []
        proven = False  # the mano's accusation, when it ended by one
        for e in events:
            kind = e["type"]
            if kind == "mano_start":
                dealt = [s for s, hand in enumerate(e["hands"]) if hand is not None]
            elif kind == "played" and e.get("renuncio") is True:
                out[e["seat"]]["renuncios"] += 1
            elif kind == "accused":
                proven = e["proven"] is True
                out[e["by"]]["acusaciones_bien" if proven else "acusaciones_mal"] += 1
                if proven:
                    out[e["seat"]]["renuncios_cazados"] += 1
            elif kind == "sang":
                out[e["seat"]]["tutes" if e["canto"] == "tute" else "cantos"] += 1
            elif kind == "mano_end":
                tally_mano(e, ManoTally(out, dealt, proven, t.teams))

    return tally


def _narration(mano_end: ManoEnd, other: ManoEnd | None) -> Callable[[Event, Narrator, bool], Iterator[str]]:
    def narrate_event(e: Event, say: Narrator, hands: bool) -> Iterator[str]:
        """A Tute event in words: a mano's deal, a canto, a baza, an accusation, a mano's end."""
        kind = e["type"]
        if kind == "mano_start":
            yield from _mano_start(e, say, hands)
        elif kind == "sang":
            yield "  " + sings(say.who(e["seat"]), e["canto"])
        elif kind == "played" and e.get("renuncio") is True:
            yield "  " + _("{player} plays {card}: a renuncio (accepted under the accuse policy)").format(
                player=say.who(e["seat"]), card=e["card"]
            )
        elif kind == "played" and say.moves:
            yield "  " + _("{player} plays {card}").format(player=say.who(e["seat"]), card=e["card"])
        elif kind == "accused":
            verdict = _("proven: a renuncio") if e["proven"] else _("not proven")
            yield "  " + _("{by} accuses {player} of a renuncio — {verdict}").format(
                by=say.who(e["by"]), player=say.who(e["seat"]), verdict=verdict
            )
        elif kind == "conceded":
            player = say.who(e["seat"])
            yield "  " + _("{player} throws in the cards (tirar las cartas)").format(player=player)
        elif kind == "trick_end":
            cards = ", ".join(f"{say.name(c['seat'])} {c['card']}" for c in e["cards"])
            yield "  " + _("Baza {baza}: {cards} → {player} takes it").format(
                baza=e.get("trick", e.get("baza")), cards=cards, player=say.who(e["winner"])
            )
        elif kind == "mano_end":
            yield from mano_end(e, say)
        elif other is not None and kind not in ("played", "review"):
            yield from other(e, say)

    return narrate_event


def _mano_start(e: Event, say: Narrator, hands: bool) -> Iterator[str]:
    extra = []
    if e["shown"]:
        extra.append(_("turned up {card}").format(card=e["shown"]))
    if e.get("out_of_play"):
        extra.append(_("out of play {card}").format(card=e["out_of_play"]))
    if e.get("sitting_out") is not None:
        extra.append(_("{player} deals and sits out").format(player=say.who(e["sitting_out"])))
    yield ""
    yield _("Mano {mano}: triunfo {trump}; {mano_player} is mano, {dealer} deals").format(
        mano=e["mano"], trump=e["trump"], mano_player=say.who(e["mano_seat"]), dealer=say.who(e["dealer"])
    ) + ("; " + "; ".join(extra) if extra else "")
    for sw in e.get("swaps", []):
        took = sw["took"] or _("a hidden card")
        yield "  " + _("Cambio: {player} gives {gave} and takes {took}").format(
            player=say.who(sw["seat"]), gave=sw["gave"], took=took
        )
    if hands and e.get("hands"):
        for s, h in enumerate(e["hands"]):
            if h is not None:
                yield f"  {say.who(s)}: {' '.join(h)}"
