"""'Contador': counts the cards (a benchmark opponent, not a sample; written after maestro's styles,
as a hold-out none of them was tuned against).

Leading, it plays the boss of a plain suit (the strongest card of the suit not yet played nor in
its hand) when it holds one, else the weakest card of its longest plain suit. Following, it wins
with its cheapest winning card when the baza holds 10 points or more, else throws its weakest
card. Sings only tute and the cuarenta.
"""

from arena.cards import NAMES, POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest


class Contador(Player):
    name = "Contador"

    def play(self, request: PlayRequest) -> Move:
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else None
        legal = [parse(c) for c in request.legal()]
        trump = self.view.trump_suit
        gone = {parse(name) for _seat, name in self.view.played} | {parse(c) for c in request.hand}
        if not request.table:
            plain = [c for c in legal if c // 10 != trump] or legal
            for c in sorted(plain, key=lambda c: -(c % 10)):
                if all(x in gone for x in range(c + 1, (c // 10 + 1) * 10)):
                    return Move(card=NAMES[c], sing=sing)
            suits: dict[int, list[int]] = {}
            for c in plain:
                suits.setdefault(c // 10, []).append(c)
            longest = max(suits.values(), key=lambda cs: (len(cs), -min(cs)))
            return Move(card=NAMES[min(longest)], sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        on_table = sum(POINTS[parse(c)] for _seat, c in request.table)
        winners = [c for c in legal if beats(c, winning, trump)]
        if winners and on_table >= 10:
            return Move(card=NAMES[min(winners, key=lambda c: (c // 10 == trump, c % 10))])
        return Move(card=NAMES[min(legal, key=lambda c: (c // 10 == trump, c % 10))])
