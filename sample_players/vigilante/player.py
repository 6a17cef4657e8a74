"""'Vigilante': plays honestly and accuses every renuncio the public play proves, and no other.

Play: the 'a más' idea (hunt points). Sings tute at once, then the cuarenta before any
veinte; following, the cheapest card that wins the baza, else its lowest-points card;
leading, its strongest non-trump card.

Accusing (only under the ``accuse`` renuncio policy, rule 25.4). Nobody is told when a
card breaks the rules; what a player can see is the cards played. How can the public play
prove that someone renunció?

* A card ``c`` played on a baza is legal or not depending on the whole hand of its
  player at that moment, which nobody else sees. But cards only ever leave a hand: a
  card ``d`` that the same player plays *later* was in that hand when ``c`` was played.
* So if ``c`` would already be illegal in the tiny hand ``{c, d}`` (``d`` follows the led
  suit and ``c`` does not; or ``d`` follows and beats the winning card and ``c`` only
  follows; or, with no card of the led suit, ``d`` is a trump that beats and ``c`` is
  not), ``c`` was certainly illegal in the real, bigger hand: the rules only narrow what
  a bigger hand may play. That is a proof, and :meth:`TableView.proven_renuncios`
  computes it for every seat (:func:`arena.rules.proven_renuncios`).
* Without such a later card nothing is proven: the player may simply not have held the
  suit. Accusing on a hunch costs the accuser the mano (one poroto) when it is wrong,
  while a proven accusation costs the offender two. So this player accuses exactly
  when there is a proof, as soon as it has a say:

  - in :meth:`play`, before choosing a card, if a seat it may accuse is proven;
  - in :meth:`review`, after the mano's last baza, likewise.

Note that every renuncio becomes provable by the end of a mano played out: the card
the offender should have played is still in its hand, and every card gets played.
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest, ReviewRequest


def strength(card: str) -> int:
    return parse(card) % 10


class Vigilante(Player):
    name = "Vigilante"

    def proven(self, may_accuse: tuple[int, ...]) -> int | None:
        """A seat of ``may_accuse`` the public play proves renunció in this mano, or None."""
        shown = self.view.proven_renuncios()
        return next((s for s in may_accuse if s in shown), None)

    def play(self, request: PlayRequest) -> Move:
        accused = self.proven(request.may_accuse)
        if accused is not None:
            return Move(accuse=accused)
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
        return Move(card=min(winners or legal, key=lambda c: (POINTS[parse(c)], strength(c))))

    def review(self, request: ReviewRequest) -> int | None:
        return self.proven(request.may_accuse)
