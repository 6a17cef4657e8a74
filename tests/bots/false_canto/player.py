"""Plays its strongest legal card to win bazas, then sings a canto it does not hold."""

import sys

from arena.cards import SUITS, parse
from arena.sdk import Move, Player, PlayRequest


class FalseCanto(Player):
    def setup(self, name: str, limits: dict[str, int]) -> None:
        print("false_canto bot: ready", file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> Move:
        legal = request.legal()
        card = max(legal, key=lambda c: parse(c) % 10)
        if not request.may_sing:
            return Move(card=card)
        hand = set(request.hand)
        trump = self.view.trump
        for suit in SUITS:  # a pair it does not hold: its cuarenta or veinte is false
            if not {f"12-{suit}", f"11-{suit}"} <= hand:
                return Move(card=card, sing="cuarenta" if suit == trump else f"veinte-{suit}")
        return Move(card=card)
