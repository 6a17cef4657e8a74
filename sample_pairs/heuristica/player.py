"""'Heurística': a simple partner for Tute por parejas, each rule one line of play.

- Sings the best canto offered: tute (it wins the mano at once), then the
  cuarenta (+40), then a veinte (+20).
- Gives up the mano (*tirar*, ``espanol`` only) when its hand is very weak:
  3 card points or less and no trump above the sota, a hand that can hardly
  help its partner. Giving up always costs 2 juegos, and playing on a poor hand
  often costs no more (1 juego, or even a win thanks to the partner), so the
  bar is kept low: any better hand plays on.
- Leading: plays a *master* card (no stronger card of its suit still out) if it
  has one outside trump, the one worth most; otherwise the lowest card of its
  longest suit outside trump, keeping the trumps to win later.
- Following, partner winning the baza: plays low (the cheapest card, trumps
  last); but as the last to play the baza is safe, so it loads it with its
  card worth most, trumps last.
- Following, an opponent winning: wins the baza as cheaply as it can (a card
  of the led suit before a trump, the weakest that wins); if it cannot win it
  throws its cheapest card, trumps last.
"""

from arena.cards import NAMES, POINTS, parse
from arena.parejas.rules import beats
from arena.parejas.sdk import Move, ParejasPlayer, ParejasRequest

WEAK_POINTS = 3
"""A hand worth this many card points or less, with no trump above the sota, gives up (espanol)."""


def strength(card: str) -> int:
    """0 for the 2 up to 9 for the as."""
    return parse(card) % 10


def points(card: str) -> int:
    return POINTS[parse(card)]


def suit(card: str) -> int:
    return parse(card) // 10


class Heuristica(ParejasPlayer):
    name = "Heurística"

    def play(self, request: ParejasRequest) -> Move | str | None:
        if request.kind == "sing":
            return Move(sing=best_canto(request.may_sing))
        if request.kind == "tirar":
            return Move(sing="tirar") if self.very_weak(request.hand) else None
        if not request.table:
            return self.lead(list(request.legal))
        return self.follow(request)

    def very_weak(self, hand: tuple[str, ...]) -> bool:
        trump = self.view.trump_suit
        good_trump = any(suit(c) == trump and strength(c) > strength("10-oro") for c in hand)
        return sum(points(c) for c in hand) <= WEAK_POINTS and not good_trump

    def trumps_last(self, card: str) -> bool:
        return suit(card) == self.view.trump_suit

    def master(self, card: str) -> bool:
        """No stronger card of its suit is still out: every one is played or in our hand."""
        gone = {c for _seat, c in self.view.played} | set(self.view.hand)
        c = parse(card)
        stronger = range(c + 1, (c // 10) * 10 + 10)  # the rest of its suit, up to the as
        return all(NAMES[x] in gone for x in stronger)

    def lead(self, legal: list[str]) -> str:
        plain = [c for c in legal if not self.trumps_last(c)]
        if not plain:  # only trumps: the lowest one
            return min(legal, key=strength)
        masters = [c for c in plain if self.master(c)]
        if masters:
            return max(masters, key=lambda c: (points(c), strength(c)))
        by_suit: dict[int, list[str]] = {}
        for c in plain:
            by_suit.setdefault(suit(c), []).append(c)
        longest = max(by_suit.values(), key=len)
        return min(longest, key=strength)

    def follow(self, request: ParejasRequest) -> str:
        legal = list(request.legal)
        cheapest = min(legal, key=lambda c: (self.trumps_last(c), points(c), strength(c)))
        winning = request.winning()
        assert winning is not None  # someone has played
        if winning[0] == request.partner:
            if len(request.table) == 3:  # the last to play: the baza is ours, load it
                return max(legal, key=lambda c: (not self.trumps_last(c), points(c), -strength(c)))
            return cheapest
        w = parse(winning[1])
        trump = self.view.trump_suit
        winners = [c for c in legal if beats(parse(c), w, trump)]
        if winners:
            return min(winners, key=lambda c: (self.trumps_last(c), strength(c)))
        return cheapest


def best_canto(offered: tuple[str, ...]) -> str:
    """Tute, then the cuarenta, then the first veinte."""
    for canto in ("tute", "cuarenta"):
        if canto in offered:
            return canto
    return offered[0]
