"""'Básico': a simple player of Tute de a dos, each rule one line of play.

- At a moment (after a baza won): makes the cambio whenever it is offered (the card
  face up is better than the 7 or the 2, and may complete a canto: the referee then
  asks again); otherwise sings the best canto offered: tute (it wins the mano), then
  the cuarenta (+40), then a veinte (+20).
- Leading: the cheapest card outside trump (fewest points, then weakest), keeping a
  rey or caballo whose pair could still be sung while the monte lasts; only trumps
  left: the weakest.
- Following: if it can win the baza with a card of the led suit, the weakest that wins;
  if only a trump wins, the weakest trump, but only when the baza is worth it (the led
  card has points) or the monte is gone; otherwise throws its cheapest card, trumps last.
"""

from arena.cards import NAMES, POINTS, parse
from arena.dos.rules import beats
from arena.dos.sdk import DosPlayer, DosRequest, Move

KING, KNIGHT = 12, 11


def strength(card: str) -> int:
    """0 for the 2 up to 9 for the as."""
    return parse(card) % 10


def points(card: str) -> int:
    return POINTS[parse(card)]


def suit(card: str) -> int:
    return parse(card) // 10


def rank(card: str) -> int:
    return int(card.split("-")[0])


class Basico(DosPlayer):
    name = "Básico"

    def play(self, request: DosRequest) -> Move | str | None:
        if request.kind == "sing":
            if request.may_cambio:
                return Move(sing="cambio")
            return Move(sing=best_canto(request.cantos)) if request.cantos else None
        legal = list(request.legal)
        winning = request.winning()
        if winning is None:
            return self.lead(legal, request.monte > 0)
        return self.follow(legal, winning[1], request.monte > 0)

    def is_trump(self, card: str) -> bool:
        return suit(card) == self.view.trump_suit

    def keeps_a_canto(self, card: str) -> bool:
        """A rey or caballo whose partner is in hand, in a suit not sung yet."""
        if rank(card) not in (KING, KNIGHT) or self.view.sung_suits >> suit(card) & 1:
            return False
        partner = NAMES[parse(card) + (1 if rank(card) == KNIGHT else -1)]
        return partner in self.view.hand

    def cheapest(self, cards: list[str]) -> str:
        return min(cards, key=lambda c: (self.is_trump(c), points(c), strength(c)))

    def lead(self, legal: list[str], monte: bool) -> str:
        spare = [c for c in legal if not (monte and self.keeps_a_canto(c))] or legal
        return self.cheapest(spare)

    def follow(self, legal: list[str], led: str, monte: bool) -> str:
        trump = self.view.trump_suit
        winners = [c for c in legal if beats(parse(c), parse(led), trump)]
        same_suit = [c for c in winners if suit(c) == suit(led)]
        if same_suit:
            return min(same_suit, key=strength)
        if winners and (points(led) > 0 or not monte):
            return min(winners, key=strength)
        spare = [c for c in legal if not (monte and self.keeps_a_canto(c))] or legal
        return self.cheapest(spare)


def best_canto(offered: tuple[str, ...]) -> str:
    """Tute, then the cuarenta, then the first veinte."""
    for canto in ("tute", "cuarenta"):
        if canto in offered:
            return canto
    return offered[0]
