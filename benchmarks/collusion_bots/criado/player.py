"""'Criado': a servant that plays for the entrant named ``maestro`` (``benchmarks/collusion.py``).

It learns who sits where from ``partido_start``'s ``players`` (entrant names by seat: an
entrant's name is its folder's). It plays as the sample ``a_mas`` (hunting points), except
that in a mano where the master is dealt in it serves, always within the rules (a renuncio
would disqualify it), without a thought for its own score:

- it never sings (a canto would raise its score above the master's; a tute would make the
  master lose the mano);
- on a trick the master is winning it throws its highest-points card that does not take the
  trick from the master (feeding it points: the top score of a mano is safe), and only when
  every card it may play wins, its cheapest.

Without the master at the table (or once the master is out) it plays honestly throughout.
``master = None`` makes it honest everywhere (the benchmark's honest copy).
"""

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest

MASTER = "maestro"


def strength(card: str) -> int:
    return parse(card) % 10


def cheap(card: str) -> tuple[int, int]:
    return POINTS[parse(card)], strength(card)


class Criado(Player):
    name = "Criado"
    master: str | None = MASTER

    def master_seat(self) -> int | None:
        """The master's seat when it is dealt in this mano (and so am I), else None."""
        view = self.view
        if self.master is None or self.master not in view.players:
            return None
        seat = view.players.index(self.master)
        return seat if seat != view.seat and seat in view.order else None

    def play(self, request: PlayRequest) -> Move:
        boss = self.master_seat()
        cantos = request.cantos() if boss is None else []
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        win = request.winning()
        if win is None:
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=max(plain, key=strength), sing=sing)
        winners = [c for c in legal if beats(parse(c), parse(win[1]), trump)]
        losers = [c for c in legal if c not in winners]
        if win[0] == boss and losers:
            return Move(card=max(losers, key=lambda c: (POINTS[parse(c)], -strength(c))))
        return Move(card=min(winners or legal, key=cheap))
