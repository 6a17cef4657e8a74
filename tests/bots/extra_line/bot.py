"""Raw protocol: answers its first play request correctly, then writes a second line.

The extra line is "any line when no request is waiting": the referee finds it at
this player's next request and disqualifies it (``protocol``).
"""

import json
import sys

from arena.sdk import PlayRequest, TableView

EXTRA = '{"type":"note","text":"an extra line nobody asked for"}'


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main() -> None:
    view = TableView()
    plays = 0
    print("extra_line bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            send(json.dumps({"type": "ready", "id": msg["id"], "name": "extra_line"}))
        elif msg["type"] == "play":
            plays += 1
            card = PlayRequest.from_message(msg, view).legal()[0]
            send(json.dumps({"type": "play", "id": msg["id"], "card": card}))
            if plays == 1:
                send(EXTRA)
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)


main()
