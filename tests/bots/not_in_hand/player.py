"""Plays a card it does not hold on its first play (``not_in_hand``)."""

import sys

from arena.cards import NAMES
from arena.sdk import Player, PlayRequest


class NotInHand(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("not_in_hand bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        return next(c for c in NAMES if c not in request.hand)
