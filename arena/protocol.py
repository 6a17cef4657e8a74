"""Protocol v1 message shapes: what each player may see, and strict reply checks.

Knows nothing of processes. See ``shared/spec/protocol.md`` (and ``docs/protocol.md``).
"""

from __future__ import annotations

import json
from typing import Any

PROTOCOL_VERSION = 1
MAX_LINE_BYTES = 4096

Message = dict[str, Any]

# Replay-only evidence that players are not sent (protocol.md lists card / canto only).
_PRIVATE_FAULT_FIELDS = ("line", "elapsed_ms", "exit")


class ProtocolError(ValueError):
    """A reply that breaks the protocol; ``line`` is the offending text when known."""

    def __init__(self, detail: str, line: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.line = line


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
        return {k: v for k, v in event.items() if k not in _PRIVATE_FAULT_FIELDS}
    if kind == "partido_end":
        return {"type": "partido_end", "winners": event["winners"], "ranking": event["ranking"]}
    return event


def hello(request_id: int, name: str, init_ms: int, move_ms: int) -> Message:
    return {
        "type": "hello",
        "id": request_id,
        "protocol": PROTOCOL_VERSION,
        "name": name,
        "limits": {"init_ms": init_ms, "move_ms": move_ms},
    }


def encode(message: Message) -> bytes:
    """One JSON line, UTF-8."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


def decode(line: bytes) -> Message:
    """Parse a reply line into an object with a string ``type``; ProtocolError otherwise."""
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(f"reply line over {MAX_LINE_BYTES} bytes", _head(line))
    try:
        obj = json.loads(line)
    except ValueError:
        raise ProtocolError("reply is not valid UTF-8 JSON", _head(line)) from None
    if not isinstance(obj, dict):
        raise ProtocolError("reply is not a JSON object", _head(line))
    if not isinstance(obj.get("type"), str):
        raise ProtocolError("reply has no string field 'type'", _head(line))
    return obj


def _head(line: bytes) -> str:
    return line.decode("utf-8", errors="replace")[:200]


def _check_head(obj: Message, kind: str, request_id: int) -> None:
    if obj.get("type") != kind:
        raise ProtocolError(f"expected a reply of type {kind!r}, got {obj.get('type')!r}")
    rid = obj.get("id")
    if type(rid) is not int or rid != request_id:
        raise ProtocolError(f"reply id {rid!r} does not match the request id {request_id}")


def check_ready(obj: Message, request_id: int) -> str:
    """Validate a ``ready`` reply; returns the display name."""
    _check_head(obj, "ready", request_id)
    extra = set(obj) - {"type", "id", "name"}
    if extra:
        raise ProtocolError(f"unexpected field(s) in ready: {', '.join(sorted(extra))}")
    name = obj.get("name")
    if not isinstance(name, str):
        raise ProtocolError("ready needs a string field 'name'")
    return name[:64]


def check_play(obj: Message, request_id: int, may_sing: bool) -> tuple[str | None, str | None]:
    """Validate a ``play`` reply's shape; returns (card, sing).

    Whether the card is held and legal, and the canto valid, is the engine's to judge.
    """
    _check_head(obj, "play", request_id)
    extra = set(obj) - {"type", "id", "card", "sing"}
    if extra:
        raise ProtocolError(f"unexpected field(s) in play: {', '.join(sorted(extra))}")
    card, sing = obj.get("card"), obj.get("sing")
    if "sing" in obj:
        if not may_sing:
            raise ProtocolError("'sing' when may_sing is false")
        if not isinstance(sing, str):
            raise ProtocolError("'sing' must be a string")
        if sing == "tute":
            if "card" in obj:
                raise ProtocolError("a card beside 'sing': 'tute' (tute is sung without a card)")
            return None, sing
    if "card" not in obj:
        raise ProtocolError("play needs a field 'card'")
    if not isinstance(card, str):
        raise ProtocolError("'card' must be a string like \"12-basto\"")
    return card, sing
