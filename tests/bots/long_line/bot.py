"""Raw protocol: a reply of exactly 4096 bytes first (allowed), then one that never ends.

First play: a valid reply padded with spaces to exactly 4096 bytes before the
``\\n`` (the limit itself is allowed). Second play: 5000 bytes with no newline,
then a byte every 50 ms for minutes; the referee must stop at byte 4097 and
disqualify at once (``protocol``) rather than wait for the rest.
"""

import json
import sys
import time

from arena.sdk import PlayRequest, TableView

LIMIT = 4096


def main() -> None:
    view = TableView()
    plays = 0
    out = sys.stdout.buffer
    print("long_line bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            out.write((json.dumps({"type": "ready", "id": msg["id"], "name": "long_line"}) + "\n").encode())
            out.flush()
        elif msg["type"] == "play":
            plays += 1
            if plays == 1:
                card = PlayRequest.from_message(msg, view).legal()[0]
                line = json.dumps({"type": "play", "id": msg["id"], "card": card}).encode()
                out.write(line + b" " * (LIMIT - len(line)) + b"\n")
                out.flush()
                continue
            print("long_line bot: writing an endless line", file=sys.stderr, flush=True)
            out.write(b'{"type":"play","pad":"' + b"x" * 5000)
            out.flush()
            for _ in range(6000):
                time.sleep(0.05)
                out.write(b"x")
                out.flush()
        elif msg["type"] == "bye":
            return
        else:
            view.update(msg)


main()
