"""Forgets to flush: replies are written to a block-buffered stdout and never flushed."""

import json
import os
import sys

out = os.fdopen(os.dup(1), "w", buffering=65536)  # block-buffered whatever the environment says

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        out.write(json.dumps({"type": "ready", "id": msg["id"], "name": "no flush"}) + "\n")
    elif msg["type"] == "play":
        out.write(json.dumps({"type": "play", "id": msg["id"], "card": msg["hand"][0]}) + "\n")
    elif msg["type"] == "bye":
        break
