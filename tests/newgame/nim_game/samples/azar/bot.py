"""A Nim player speaking the protocol itself (JSON lines on stdin/stdout, standard library only):
``python3 nim_bot.py azar|optimo|primero``. Debugging goes to stderr, never to stdout."""

import json
import random
import sys
from functools import reduce


def choose(style: str, request: dict, rng: random.Random) -> str:
    legal = request["legal"]
    if style == "primero":
        return legal[0]
    if style == "optimo":  # the nim-sum strategy (optimal with two players)
        heaps = request["heaps"]
        total = reduce(lambda a, b: a ^ b, heaps, 0)
        if total:
            for h, size in enumerate(heaps):
                target = size ^ total
                if target < size:
                    return f"{h}:{size - target}"
    return rng.choice(legal)


def main() -> None:
    style = sys.argv[1]
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            rng = random.Random(message["name"])
            reply = {"type": "ready", "id": message["id"], "name": f"nim-{style}"}
        elif message["type"] == "play":
            reply = {"type": "play", "id": message["id"], "take": choose(style, message, rng)}
        elif message["type"] == "bye":
            return
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
