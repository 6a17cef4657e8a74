"""Sends ``sing`` beside a legal card when ``may_sing`` is false (``protocol``)."""

import sys

from arena.sdk import Move, Player, PlayRequest


class SingNotAllowed(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("sing_not_allowed bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> Move:
        return Move(card=request.legal()[0], sing=None if request.may_sing else "cuarenta")
