"""How the Tute games read a reply: a card, a canto, both, a pass, ``tirar``, or an accusation
(protocol v1.1, ``docs/protocol.md``), and what a seat may see of each event. Shapes only: whether
a card is held and legal, or a canto valid, is the engine's to judge.
"""

from __future__ import annotations

from arena.i18n import _
from arena.protocol import Message, ProtocolError, brief, check_fields, check_head, check_text

_SHOWN_FAULT_FIELDS = {
    "disqualified": ("type", "seat", "reason", "detail", "card", "canto"),
    "penalized": ("type", "seat", "reason", "detail"),
}
"""What players see of a fault (protocol.md, events): the evidence (the raw line, times, exit
status) stays in the replay and the incident file."""


def view(event: Message, seat: int) -> Message:
    """The event as the player at ``seat`` receives it (no hidden information)."""
    kind = event["type"]
    if kind == "mano_start":
        first = event["mano"] == 1  # the three-player face-down swap is not shown
        hands = event["hands"]
        return {
            "type": "mano_start",
            **{
                k: event[k]
                for k in (
                    "mano",
                    "dealer",
                    "mano_seat",
                    "sitting_out",
                    "active",
                    "porotos",
                    "trump",
                    "shown",
                    "out_of_play",
                )
            },
            "swaps": [
                {**sw, "took": None} if first and sw["seat"] != seat else dict(sw) for sw in event["swaps"]
            ],
            "hand": hands[seat],
        }
    if kind == "played":
        return {"type": "played", "seat": event["seat"], "card": event["card"]}
    if kind in ("disqualified", "penalized"):
        return {k: v for k, v in event.items() if k in _SHOWN_FAULT_FIELDS[kind]}
    if kind == "partido_end":
        return {"type": "partido_end", "winners": event["winners"], "ranking": event["ranking"]}
    return event


def decision_of(obj: object, request: Message) -> tuple[str | None, str | None, int | None]:
    """Validate the reply ``obj`` to a ``play`` or ``review`` request; returns (card, sing, accuse).

    Under the ``accuse`` policy (the request has ``may_accuse``) a ``play`` request may be
    answered ``{"type": "accuse", "id", "seat": k}`` instead, and a ``review`` request is
    answered ``{"type": "review", "id", "accuse": k or null}``; ``k`` must be one of
    ``may_accuse``.
    """
    if request["type"] == "review":
        head = check_head(obj, "review", request["id"])
        check_fields(head, "review", {"type", "id", "accuse"})
        if "accuse" not in head:
            raise ProtocolError(_("review needs a field 'accuse' (a seat, or null)"))
        accused = head["accuse"]
        return None, None, None if accused is None else _accused(accused, request["may_accuse"])
    if "may_accuse" in request and isinstance(obj, dict) and obj.get("type") == "accuse":
        head = check_head(obj, "accuse", request["id"])
        check_fields(head, "accuse", {"type", "id", "seat"})
        if "seat" not in head:
            raise ProtocolError(_("accuse needs a field 'seat'"))
        return None, None, _accused(head["seat"], request["may_accuse"])
    card, sing = play_of(obj, request)
    return card, sing, None


def _accused(seat: object, may_accuse: list[int]) -> int:
    """The accused seat of a reply: one of ``may_accuse``, else ProtocolError."""
    if type(seat) is not int or seat not in may_accuse:
        raise ProtocolError(
            _("may not accuse {seat}: the seats you may accuse now are {seats}").format(
                seat=brief(seat), seats=may_accuse
            )
        )
    return seat


def play_of(obj: object, request: Message) -> tuple[str | None, str | None]:
    """Validate the reply ``obj`` to a ``play`` ``request`` of any game; returns (card, sing).

    The request's fields say what it awaits, whatever the game: a card when ``legal`` is
    not empty (or absent), with a canto beside it when ``may_sing`` is true (Tute Cabrero,
    whose ``legal``, from protocol revision 1.3, is never empty); otherwise (Tute por
    parejas, …) a canto from ``may_sing`` (a list), ``"tirar"`` when ``may_concede``, or
    neither (a pass), and no card.
    """
    may_sing = bool(request.get("may_sing")) or request.get("may_concede") is True
    return check_play(obj, request["id"], may_sing, card_expected=bool(request.get("legal", True)))


def check_play(
    obj: object, request_id: int, may_sing: bool, card_expected: bool = True
) -> tuple[str | None, str | None]:
    """Validate a ``play`` reply's shape (any value); returns (card, sing).

    ``card_expected`` false (Tute por parejas, asked only to sing, pass or give up):
    a card is refused and neither field is a pass. Whether the card is held and
    legal, and the canto valid, is the engine's to judge.
    """
    obj = check_head(obj, "play", request_id)
    check_fields(obj, "play", {"type", "id", "card", "sing"})
    sing = None
    if "sing" in obj:
        if not may_sing:
            raise ProtocolError(_("'sing' when may_sing is false"))
        sing = check_text(obj["sing"], "'sing'", '"cuarenta"')
        if sing == "tute" and card_expected:
            if "card" in obj:
                raise ProtocolError(_("a card beside 'sing': 'tute' (tute is sung without a card)"))
            return None, sing
    if not card_expected:
        if "card" in obj:
            raise ProtocolError(_("a card when only a canto, a pass or tirar is asked (legal is empty)"))
        return None, sing
    if "card" not in obj:
        raise ProtocolError(_("play needs a field 'card'"))
    return check_text(obj["card"], "'card'", '"12-basto"'), sing
