"""Answers hello, then spins the CPU for ever on its first play request (never replies).

A raw protocol-v1 program (no SDK): the referee must judge a ``timeout`` at
``move_ms`` without being slowed, or the CPU time limit must kill it first
(``SIGXCPU``) when that limit is shorter than ``move_ms``.
"""

import json
import sys

for raw in sys.stdin:
    msg = json.loads(raw)
    if msg.get("type") == "hello":
        print("hostile_cpu bot: ready", file=sys.stderr, flush=True)
        sys.stdout.write(json.dumps({"type": "ready", "id": msg["id"], "name": "Hostile CPU"}) + "\n")
        sys.stdout.flush()
    elif msg.get("type") == "play":
        print("hostile_cpu bot: spinning", file=sys.stderr, flush=True)
        n = 0
        while True:
            n += 1
    elif msg.get("type") == "bye":
        break
