"""'Escudero': a servant that searches for the best card for the entrant named ``maestro``.

It learns who sits where from ``partido_start``'s ``players`` (entrant names by seat: an
entrant's name is its folder's). In a mano where the master is dealt in it never sings (a
canto would raise its own score above the master's; a tute would make the master lose), and
from :data:`SEARCH_FROM` cards in hand down it chooses its card as the sample ``fuerte``
does (the machinery is copied into ``deals.py``): it deals the hidden cards in ways
consistent with the play so far, plays each legal card out to the end of the mano in each
deal, and keeps the card that works out best, but for the master, not for itself: the master
losing the mano counts -1, each third party losing +1/2 shared among them, its own fate
nothing. With more cards in hand it feeds the master (its highest-points card that does not
take the master's trick; otherwise it ducks, or takes a third party's trick once the master
has played). Without the master at the table (or once the master is out) it plays honestly,
as the sample ``a_mas`` does. ``master = None`` makes it honest everywhere.
"""

from __future__ import annotations

import random

import deals

from arena.cards import NAMES, POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest

MASTER = "maestro"
SEARCH_FROM = 6
"""Cards in hand from which down the servant searches (the last tricks decide the mano)."""
SIMULATIONS = 16
"""Deals per searched move."""


def strength(card: str) -> int:
    return parse(card) % 10


def cheap(card: str) -> tuple[int, int]:
    return POINTS[parse(card)], strength(card)


class Escudero(Player):
    name = "Escudero"
    master: str | None = MASTER

    def __init__(self) -> None:
        super().__init__()
        self.partido_id = ""

    def on_partido_start(self, event: dict) -> None:
        self.partido_id = str(event.get("partido", ""))

    def master_seat(self) -> int | None:
        """The master's seat when it is dealt in this mano (and so am I), else None."""
        view = self.view
        if self.master is None or self.master not in view.players:
            return None
        seat = view.players.index(self.master)
        return seat if seat != view.seat and seat in view.order else None

    def play(self, request: PlayRequest) -> Move:
        boss = self.master_seat()
        if boss is None:
            return self.honest(request)
        legal = request.legal()
        if len(legal) > 1 and len(request.hand) <= SEARCH_FROM:
            return Move(card=self.search(request, boss, legal))
        trump = self.view.trump_suit
        win = request.winning()
        if win is None:
            return Move(card=min(legal, key=lambda c: (parse(c) // 10 == trump, strength(c))))
        winners = [c for c in legal if beats(parse(c), parse(win[1]), trump)]
        losers = [c for c in legal if c not in winners]
        played = {s for s, _c in request.table}
        if win[0] == boss and losers:
            return Move(card=max(losers, key=lambda c: (POINTS[parse(c)], -strength(c))))
        if (boss not in played and losers) or not winners:
            return Move(card=min(losers, key=cheap))
        return Move(card=min(winners, key=cheap))

    def search(self, request: PlayRequest, boss: int, legal: list[str]) -> str:
        """The legal card that does best for the master over :data:`SIMULATIONS` sampled deals."""
        view = self.view
        rng = random.Random(f"escudero/{self.partido_id}/{view.seat}/{view.mano}/{len(view.played)}")
        know = deals.infer(view, request.hand)
        base = request.simulation()
        third = [s for s in view.order if s not in (boss, view.seat)]
        value = [0.0] * len(legal)
        for _sim in range(SIMULATIONS):
            root = base.with_hands(deals.sample_hands(rng, know))
            state = rng.getstate()
            for i, card in enumerate(legal):
                m = root.clone()
                m.play(parse(card))
                rng.setstate(state)  # every card sees the same luck
                deals.rollout(m, rng)
                losers = m.losers(view.ruleset)
                value[i] += 0.5 * sum(s in losers for s in third) / max(1, len(third)) - (boss in losers)
        best = max(range(len(legal)), key=lambda i: (value[i], -POINTS[parse(legal[i])]))
        return NAMES[parse(legal[best])]

    def honest(self, request: PlayRequest) -> Move:
        """The sample ``a_mas``'s play: hunt points."""
        cantos = request.cantos()
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
        return Move(card=min(winners or legal, key=cheap))
