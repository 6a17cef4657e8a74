"""Raw protocol: on its first play request closes its standard output and sleeps (``crash``)."""

import contextlib
import json
import os
import sys
import time


def main() -> None:
    print("closed_stdout bot: started", file=sys.stderr, flush=True)
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg["type"] == "hello":
            sys.stdout.write(json.dumps({"type": "ready", "id": msg["id"], "name": "closed_stdout"}) + "\n")
            sys.stdout.flush()
        elif msg["type"] == "play":
            print("closed_stdout bot: closing stdout, then sleeping", file=sys.stderr, flush=True)
            sys.stdout.close()
            with contextlib.suppress(OSError):
                os.close(1)  # the descriptor itself (Python's wrapper does not own it)
            time.sleep(300)
        elif msg["type"] == "bye":
            return


main()
