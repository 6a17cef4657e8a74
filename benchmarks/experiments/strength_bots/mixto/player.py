"""'Mixto': leads low, follows to win high (a benchmark opponent, not a sample)."""

from arena.cards import parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


class Mixto(Player):
    name = "Mixto"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        if not request.table:
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=min(plain, key=lambda c: parse(c) % 10), sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(parse(c), winning, trump)]
        if winners:
            return Move(card=max(winners, key=lambda c: (parse(c) // 10 == trump, parse(c) % 10)))
        return Move(card=min(legal, key=lambda c: parse(c) % 10))
