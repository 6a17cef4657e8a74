"""Tries to talk to the network, then plays legally.

On its first play it reads ``targets.txt`` in its own folder (written by the
test), one attempt a line:

* ``tcp HOST PORT`` — a TCP connection (0.5 s timeout);
* ``unix NAME`` — a connection to the abstract Unix socket ``\\0NAME`` (abstract
  sockets belong to the network namespace, not to the filesystem);
* ``dns NAME`` — a name lookup (given 1 s, in a thread: a resolver can hang);

and writes ``CONNECTED <line>`` / ``RESOLVED <line>`` or ``BLOCKED <line> <error>``
to standard error. Then it plays the first legal card, every time.
"""

import socket
import sys
import threading
from pathlib import Path

from arena.sdk import Player, PlayRequest


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def resolve(name: str) -> str:
    found: list[str] = []

    def lookup() -> None:
        try:
            found.append(socket.getaddrinfo(name, 80)[0][4][0])
        except OSError as exc:
            found.append(f"!{type(exc).__name__}")

    thread = threading.Thread(target=lookup, daemon=True)
    thread.start()
    thread.join(1.0)
    if not found:
        raise TimeoutError("no answer within 1 s")
    if found[0].startswith("!"):
        raise OSError(found[0][1:])
    return found[0]


def attempt(line: str) -> None:
    kind, *args = line.split()
    try:
        if kind == "tcp":
            socket.create_connection((args[0], int(args[1])), timeout=0.5).close()
            log(f"CONNECTED {line}")
        elif kind == "unix":
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.settimeout(0.5)
                s.connect("\0" + args[0])
            log(f"CONNECTED {line}")
        elif kind == "dns":
            log(f"RESOLVED {line} {resolve(args[0])}")
    except OSError as exc:
        log(f"BLOCKED {line} {type(exc).__name__}: {exc}")


class HostileNet(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            for line in Path("targets.txt").read_text(encoding="utf-8").splitlines():
                if line.strip():
                    attempt(line.strip())
            log("NET DONE")
        return request.legal()[0]
