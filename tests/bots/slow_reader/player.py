"""Legal and honest, but slow: it rests 5 ms on every event it reads (so it reads its input
late) and thinks, CPU-bound, for 50 ms on every play. Never faulted, even on a loaded machine:
its idle time per reply stays far below the allowance (protocol revision 1.2)."""

import time

from arena.sdk import Player, PlayRequest


class SlowReader(Player):
    def handle_event(self, message: dict) -> None:
        time.sleep(0.005)
        super().handle_event(message)

    def play(self, request: PlayRequest) -> str:
        end = time.process_time() + 0.05
        turns = 0
        while time.process_time() < end:
            turns += 1
        legal = request.legal()
        return legal[turns % len(legal)]
