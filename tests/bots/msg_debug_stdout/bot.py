"""Raw protocol: answers hello, then prints its hand to stdout as debugging before its first play
reply (as ``console.log`` or ``System.out.println`` would): a ``protocol`` fault that must name the fix."""

import json
import sys


def main() -> None:
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            ready = {"type": "ready", "id": msg["id"], "name": "msg_debug_stdout"}
            sys.stdout.write(json.dumps(ready) + "\n")
            sys.stdout.flush()
        elif msg["type"] == "play":
            print("my hand", msg["hand"], flush=True)  # the mistake: debugging on stdout
            sys.stdout.write(json.dumps({"type": "play", "id": msg["id"], "card": msg["legal"][0]}) + "\n")
            sys.stdout.flush()
        elif msg["type"] == "bye":
            return


main()
