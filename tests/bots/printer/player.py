"""A good player that prints a great deal: ``print()`` must never reach the protocol.

Prints at import, at hello (over a megabyte, past the stderr log's cap), on every
event and on every play, through ``print``, ``sys.__stdout__`` and file
descriptor 1 directly.
"""

import os
import sys

from arena.sdk import Player, PlayRequest

print("printer: imported")


class Printer(Player):
    name = "Printer"

    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("printer: hello", name, limits)
        chunk = "printer: noise " + "x" * 1000
        for _ in range(1200):
            print(chunk)

    def handle_event(self, event: dict) -> None:
        print("printer: event", event)
        super().handle_event(event)

    def play(self, request: PlayRequest) -> str:
        for i in range(50):
            print("printer: thinking", i, request.hand)
        sys.__stdout__.write("printer: via sys.__stdout__\n")
        sys.__stdout__.flush()
        os.write(1, b"printer: via fd 1\n")
        return request.legal()[-1]
