"""Raw protocol: answers its first play request with a line that is not JSON (``protocol``)."""

import json
import sys

from arena.sdk import TableView

GARBAGE = "this is not JSON {{{"


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    view = TableView()
    print("garbage bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            send(json.dumps({"type": "ready", "id": msg["id"], "name": "garbage"}))
        elif msg["type"] == "play":
            send(GARBAGE)
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)


main()
