"""'A más': hunts points. Sings everything, wins bazas cheaply, leads its strongest card.

Style: go for the highest score of the mano (the one who "gana a más" is safe).
- Sings tute at once, then the cuarenta before any veinte.
- Following: plays the cheapest card that wins the baza; if none wins, throws its
  lowest-points card.
- Leading: leads its strongest trump-free card, keeping trumps to win later.
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


def strength(card: str) -> int:
    return parse(card) % 10


class AMas(Player):
    name = "A más"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        if not request.table:
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=max(plain, key=strength), sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(parse(c), winning, trump)]
        if winners:
            return Move(card=min(winners, key=lambda c: (POINTS[parse(c)], strength(c))))
        return Move(card=min(legal, key=lambda c: (POINTS[parse(c)], strength(c))))
