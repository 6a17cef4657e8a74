"""Raw protocol: answers its first play request with a legal card but the wrong ``id``."""

import json
import sys

from arena.sdk import PlayRequest, TableView


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    view = TableView()
    print("wrong_id bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            send(json.dumps({"type": "ready", "id": msg["id"], "name": "wrong_id"}))
        elif msg["type"] == "play":
            card = PlayRequest.from_message(msg, view).legal()[0]
            send(json.dumps({"type": "play", "id": msg["id"] + 1000, "card": card}))
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)


main()
