"""Catches its own bug, as Bot.java and bot.js do: logs the traceback to stderr and plays the first
legal card. Never a fault; ``arena check`` must still say its log holds the traces."""

import traceback

from arena.sdk import Player, PlayRequest


class TrialCaughtPython(Player):
    def play(self, request: PlayRequest) -> str:
        legal = request.legal()
        try:
            return self.choose(legal)
        except ZeroDivisionError:
            traceback.print_exc()  # to stderr: the player's log
            return legal[0]

    def choose(self, legal: list[str]) -> str:
        return legal[len(legal) // 0]  # the bug: a ZeroDivisionError at every play
