"""Protocol v1 message shapes: what each player may see, and strict reply checks.

Knows nothing of processes. See ``docs/protocol.md``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Container
from typing import Any

from arena.errors import ArenaError
from arena.i18n import N_, _, n_
from arena.inert import EXCERPT

PROTOCOL_VERSION = 1
PROCESS_FAULTS: tuple[str, ...] = ("timeout", "crash", "protocol")
"""Faults of a player as a program (too slow, gone, unreadable), judged by the referee."""
MAX_LINE_BYTES = 4096
MAX_DEPTH = 32
"""Deepest nesting of arrays and objects parsed as JSON; a valid reply nests 1 deep."""
UNSOLICITED = N_("a line was written when no request was waiting")
"""The detail of a reply no request was waiting for (translate it where it is shown: ``_(UNSOLICITED)``)."""

Message = dict[str, Any]
ReadReply = Callable[[object, Message], Any]
"""A game's reader of a reply's decision (:attr:`arena.games.gamespec.GameSpec.read_reply`)."""

class ProtocolError(ArenaError, ValueError):
    """A reply that breaks the protocol; ``line`` is the offending text when known."""

    def __init__(self, detail: str, line: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.line = line


DEFAULT_GAME = "tute-cabrero"
"""The game a message is about when it names none (every message of protocol v1.1 before Tute por parejas)."""


def hello(request_id: int, name: str, limits: dict[str, int], game: str = DEFAULT_GAME) -> Message:
    """The ``hello`` request; ``limits`` as :meth:`arena.referee.connection.Limits.to_dict` gives them.

    ``game`` is named only when it is not Tute Cabrero (whose players see the hello they always saw).
    """
    message = {
        "type": "hello",
        "id": request_id,
        "protocol": PROTOCOL_VERSION,
        "name": name,
        "limits": dict(limits),
    }
    if game != DEFAULT_GAME:
        message["game"] = game
    return message


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def encode(message: Message) -> bytes:
    """One JSON line, UTF-8."""
    return (_ENCODER.encode(message) + "\n").encode()


def decode(line: bytes) -> Message:
    """Parse one reply line strictly; ProtocolError (never another exception) when it is not allowed.

    Any bytes are judged: the line must be at most :data:`MAX_LINE_BYTES`, UTF-8
    (no BOM, no other encoding), strict JSON (no ``NaN``/``Infinity``, no duplicate
    keys, no lone surrogate in a ``\\u`` escape, nested at most :data:`MAX_DEPTH`
    deep), and an object with a string ``type``.
    """
    if len(line) > MAX_LINE_BYTES:
        raise ProtocolError(_("reply line over {limit} bytes").format(limit=MAX_LINE_BYTES), _head(line))
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(_("reply is not valid UTF-8"), _head(line)) from None
    if _too_deep(text):
        raise ProtocolError(_("reply nests deeper than {depth} levels").format(depth=MAX_DEPTH), _head(line))
    try:
        obj = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except _NotJSON as exc:
        raise ProtocolError(_("reply is not valid JSON: {error}").format(error=exc), _head(line)) from None
    except (ValueError, RecursionError):  # RecursionError: a backstop, MAX_DEPTH comes first
        raise ProtocolError(_("reply is not valid JSON"), _head(line)) from None
    if _has_surrogate(obj, line):
        raise ProtocolError(
            _("reply is not valid Unicode text (a lone surrogate in a \\u escape)"), _head(line)
        )
    if not isinstance(obj, dict):
        raise ProtocolError(_("reply is not a JSON object but {value}").format(value=brief(obj)), _head(line))
    if not isinstance(obj.get("type"), str):
        raise ProtocolError(_("reply has no string field 'type'"), _head(line))
    return obj


def judge_reply(line: bytes, request: Message, read: ReadReply, answered: Container[int] = ()) -> Message:
    """Judge one reply ``line`` to ``request`` (``hello`` or ``play``) by the spec; returns the reply.

    Every problem is a ProtocolError carrying the line's head, whatever the bytes:
    the referee's one path from a player's line to its reply. ``answered`` holds
    the ids of earlier requests (a late second reply to one is an unsolicited line).
    ``read`` is the game's reader of a decision (its shape); whether the decision is legal is the
    engine's to judge.
    """
    obj = decode(line)
    rid = obj.get("id")
    try:
        if type(rid) is int and rid != request["id"] and rid in answered:
            raise ProtocolError(_(UNSOLICITED))
        check_reply(obj, request, read)
    except ProtocolError as exc:
        raise ProtocolError(exc.detail, _head(line)) from None
    return obj


def check_reply(obj: object, request: Message, read: ReadReply) -> None:
    """Check ``obj`` as the reply to ``request``: a ``ready`` to ``hello``, else what the game's
    ``read`` (:attr:`arena.games.gamespec.GameSpec.read_reply`) accepts; ProtocolError otherwise."""
    if request["type"] == "hello":
        check_ready(obj, request["id"])
    else:
        read(obj, request)


def brief(value: object) -> str:
    """A short, safe description of a player's value for a fault's detail (never long, never raises)."""
    if isinstance(value, str):
        shown = repr(value[:40])
        return shown + "…" if len(value) > 40 else shown
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        if value.bit_length() <= 64:
            return str(value)
        return _("an integer of {bits} bits").format(bits=value.bit_length())
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return _("a value of type {kind}").format(kind=type(value).__name__)


class _NotJSON(ValueError):
    """What strict JSON forbids and Python's parser would let through."""


def _no_constant(name: str) -> None:
    raise _NotJSON(_("{name} is not a JSON value").format(name=name))


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _value in pairs:
            if key in seen:
                raise _NotJSON(_("duplicate key {key}").format(key=brief(key)))
            seen.add(key)
    return obj


def _too_deep(text: str) -> bool:
    """Whether arrays/objects nest deeper than MAX_DEPTH (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _has_surrogate(obj: object, line: bytes) -> bool:
    """Whether a string (key or value) in ``obj`` holds a lone surrogate, which no UTF-8 can carry."""
    if not _SURROGATE_ESCAPE.search(line):
        return False  # strict UTF-8 bytes carry none: only a \u escape can make one
    stack = [obj]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if not _is_text(value):
                return True
        elif isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _is_text(value: str) -> bool:
    """A string that UTF-8 can encode (no lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _head(line: bytes) -> str:
    return line.decode("utf-8", errors="replace")[:EXCERPT]


def check_head(obj: object, kind: str, request_id: int) -> Message:
    if not isinstance(obj, dict):
        raise ProtocolError(_("reply is not a JSON object but {value}").format(value=brief(obj)))
    if obj.get("type") != kind:
        raise ProtocolError(
            _("expected a reply of type {expected}, got {got}").format(
                expected=repr(kind), got=brief(obj.get("type"))
            )
        )
    rid = obj.get("id")
    if type(rid) is not int or rid != request_id:
        raise ProtocolError(
            _("reply id {id} does not match the request id {request_id}").format(
                id=brief(rid), request_id=request_id
            )
        )
    return obj


def check_fields(obj: Message, kind: str, allowed: set[str]) -> None:
    extra = [k for k in obj if k not in allowed]
    if extra:
        names = ", ".join(k if isinstance(k, str) and len(k) <= 40 else brief(k) for k in extra[:5])
        if len(extra) > 5:
            detail = _("unexpected fields in {kind}: {names} and {more} more").format(
                kind=kind, names=names, more=len(extra) - 5
            )
        else:
            detail = n_(
                "unexpected field in {kind}: {names}", "unexpected fields in {kind}: {names}", len(extra)
            ).format(kind=kind, names=names)
        raise ProtocolError(detail)


def check_text(value: object, what: str, example: str) -> str:
    if not isinstance(value, str):
        raise ProtocolError(
            _("{what} must be a string like {example}, not {value}").format(
                what=what, example=example, value=brief(value)
            )
        )
    if not _is_text(value):
        raise ProtocolError(_("{what} is not valid Unicode text (a lone surrogate)").format(what=what))
    return value


def check_ready(obj: object, request_id: int) -> str:
    """Validate a ``ready`` reply (any value); returns the display name."""
    obj = check_head(obj, "ready", request_id)
    check_fields(obj, "ready", {"type", "id", "name"})
    if "name" not in obj:
        raise ProtocolError(_("ready needs a string field 'name'"))
    return check_text(obj["name"], "'name'", '"Ana"')[:64]
