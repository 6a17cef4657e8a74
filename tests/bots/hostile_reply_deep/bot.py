"""Raw protocol, hostile: its first play is an array nested 2,048 deep (4,096 bytes, the line limit).

Expected: disqualified for ``protocol``; the referee must not fail.
"""

import json
import sys

from arena.sdk import PlayRequest, TableView

NAME = "hostile_reply_deep"


def ready(msg: dict) -> bytes:
    return json.dumps({"type": "ready", "id": msg["id"], "name": NAME}).encode()


def play(msg: dict, card: str) -> bytes:
    return b"[" * 2048 + b"]" * 2048


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
