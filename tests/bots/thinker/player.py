"""A legal player that thinks hard: on each of its first three plays it burns ``targets.txt``'s
milliseconds of its own CPU time (measured with ``time.process_time``), then plays the first legal
card. Its time is its own: a loaded machine may stretch the wall clock, never its CPU time.
"""

import time
from pathlib import Path

from arena.sdk import Player, PlayRequest


class Thinker(Player):
    def __init__(self) -> None:
        super().__init__()
        self.budget_s = int(Path("targets.txt").read_text(encoding="utf-8").split()[0]) / 1000
        self.hard = 3

    def play(self, request: PlayRequest) -> str:
        if self.hard:
            self.hard -= 1
            end = time.process_time() + self.budget_s
            while time.process_time() < end:
                pass
        return request.legal()[0]
