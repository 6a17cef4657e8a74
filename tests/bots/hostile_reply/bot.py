"""Raw protocol, hostile: one malformed reply, chosen by the folder's name; legal otherwise.

The tests copy this folder under the name ``hostile_reply_<attack>`` (the hello's
``name``). A ``hello_*`` attack spoils the ``ready`` reply; the others spoil the
first ``play`` reply. Expected: disqualified for ``protocol``; the referee must
not fail.
"""

import json
import sys

from arena.sdk import PlayRequest, TableView


def ready(msg: dict) -> bytes:
    return json.dumps({"type": "ready", "id": msg["id"], "name": "hostile_reply"}).encode()


def play(msg: dict, card: str) -> bytes:
    return json.dumps({"type": "play", "id": msg["id"], "card": card}).encode()


PLAY_ATTACKS = {
    "list_id": lambda msg, card: json.dumps({"type": "play", "id": [msg["id"]], "card": card}).encode(),
    "dict_id": lambda msg, card: json.dumps({"type": "play", "id": {"id": msg["id"]}, "card": card}).encode(),
    "deep": lambda msg, card: b"[" * 2048 + b"]" * 2048,
    "nan": lambda msg, card: ('{"type":"play","id":NaN,"card":' + json.dumps(card) + "}").encode(),
    "surrogate": lambda msg, card: ('{"type":"play","id":' + str(msg["id"]) + ',"card":"\\ud800"}').encode(),
    "bad_utf8": lambda msg, card: (
        b'{"type":"play","id":' + str(msg["id"]).encode() + b',"card":"1-\xff\xfe"}'
    ),
    "dup_keys": lambda msg, card: (
        '{"type":"play",' + f'"card":{json.dumps(card)},' * 2 + '"id":' + str(msg["id"]) + "}"
    ).encode(),
}
HELLO_ATTACKS = {
    "hello_list_id": lambda msg: json.dumps({"type": "ready", "id": [msg["id"]], "name": "x"}).encode(),
    "hello_deep": lambda msg: (
        json.dumps({"type": "ready", "id": msg["id"]})[:-1].encode()
        + b',"name":'
        + b"[" * 2000
        + b"]" * 2000
        + b"}"
    ),
}


def main() -> None:
    view = TableView()
    out = sys.stdout.buffer
    attack = ""
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            attack = msg["name"].removeprefix("hostile_reply_")
            print(f"{msg['name']} bot: attack {attack}", file=sys.stderr, flush=True)
            line = HELLO_ATTACKS.get(attack, ready)(msg)
        elif msg["type"] == "play":
            card = PlayRequest.from_message(msg, view).legal()[0]
            line = PLAY_ATTACKS.get(attack, play)(msg, card)
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)
            continue
        out.write(line + b"\n")
        out.flush()


main()
