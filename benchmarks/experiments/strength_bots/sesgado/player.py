"""'Sesgado': a_mas most of the time, a random legal card otherwise (a benchmark opponent, not a
sample; a hold-out written after maestro's styles).

With probability 0.6 it plays as the sample a_mas (lead the strongest card outside trumps; follow
with the cheapest winning card, else the cheapest card), otherwise any legal card at random, from
a stream seeded by the partido and the seat. Sings every canto.
"""

import random

from arena.cards import NAMES, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


class Sesgado(Player):
    name = "Sesgado"

    def __init__(self) -> None:
        super().__init__()
        self.rand = random.Random(0)

    def on_partido_start(self, event: dict) -> None:  # type: ignore[type-arg]
        self.rand = random.Random(f"sesgado/{event.get('partido')}/{self.view.seat}")

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = [parse(c) for c in request.legal()]
        if self.rand.random() >= 0.6:
            return Move(card=NAMES[self.rand.choice(legal)], sing=sing)
        trump = self.view.trump_suit
        if not request.table:
            plain = [c for c in legal if c // 10 != trump] or legal
            return Move(card=NAMES[max(plain, key=lambda c: c % 10)], sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(c, winning, trump)]
        return Move(card=NAMES[min(winners or legal, key=lambda c: c % 10)])
