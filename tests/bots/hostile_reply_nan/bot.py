"""Raw protocol, hostile: its first play has a legal card and ``NaN`` as its id (not JSON).

Expected: disqualified for ``protocol``; the referee must not fail.
"""

import json
import sys

from arena.sdk import PlayRequest, TableView

NAME = "hostile_reply_nan"


def ready(msg: dict) -> bytes:
    return json.dumps({"type": "ready", "id": msg["id"], "name": NAME}).encode()


def play(msg: dict, card: str) -> bytes:
    return ('{"type":"play","id":NaN,"card":' + json.dumps(card) + "}").encode()


def main() -> None:
    view = TableView()
    out = sys.stdout.buffer
    print(f"{NAME} bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            line = ready(msg)
        elif msg["type"] == "play":
            line = play(msg, PlayRequest.from_message(msg, view).legal()[0])
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)
            continue
        out.write(line + b"\n")
        out.flush()


main()
