"""'A menos': keeps out of bazas and cuts the others' cantos.

Style: try to take as few points as possible (the one who "gana a menos" is safe,
and a player who takes no baza never loses by points).
- Following: plays the highest card that still loses the baza (getting rid of
  danger cheaply); if every legal card wins, the one worth fewest points.
- Leading: leads its weakest card, non-trumps first.
- Sings only tute and the cuarenta (a veinte would only push it towards "a más").
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


def strength(card: str) -> int:
    return parse(card) % 10


class AMenos(Player):
    name = "A menos"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else None
        legal = request.legal()
        trump = self.view.trump_suit
        if not request.table:
            return Move(card=min(legal, key=lambda c: (parse(c) // 10 == trump, strength(c))), sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        losing = [c for c in legal if not beats(parse(c), winning, trump)]
        if losing:
            return Move(card=max(losing, key=lambda c: (strength(c), -POINTS[parse(c)])))
        return Move(card=min(legal, key=lambda c: (POINTS[parse(c)], strength(c))))
