"""'Escudero': a servant that searches for the best card for the entrant named ``maestro``.

It learns who sits where from ``partido_start``'s ``players`` (entrant names by seat: an
entrant's name is its folder's). In a mano where the master is dealt in it never sings (a
canto would raise its own score above the master's; a tute would make the master lose), and
from :data:`SEARCH_FROM` cards in hand down it chooses its card as the sample ``fuerte``
does, with fuerte's own machinery (imported, through ``../collusion_shared.py``): it deals the
hidden cards in ways consistent with the play so far, plays each legal card out to the end of
the mano in each deal, and keeps the card that works out best, but for the master, not for
itself: the master losing the mano counts -1, each third party losing +1/2 shared among them,
its own fate nothing. With more cards in hand it feeds the master (its highest-points card
that does not take the master's baza; otherwise it ducks, or takes a third party's baza once
the master has played). Without the master at the table (or once the master is out) it plays
honestly, as the sample ``a_mas`` does. ``master = None`` makes it honest everywhere.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

BOTS = str(Path(__file__).resolve().parent.parent)
if BOTS not in sys.path:  # benchmarks/audits/collusion_bots/: the bots' shared module
    sys.path.append(BOTS)

from collusion_shared import Servant, cheap, fuerte, strength  # noqa: E402

from arena.cards import NAMES, POINTS, parse  # noqa: E402
from arena.rules import beats  # noqa: E402
from arena.sdk import Move, PlayRequest  # noqa: E402

SEARCH_FROM = 6
"""Cards in hand from which down the servant searches (the last bazas decide the mano)."""
SIMULATIONS = 16
"""Deals per searched move."""


class Escudero(Servant):
    name = "Escudero"

    def __init__(self) -> None:
        super().__init__()
        self.partido_id = ""

    def on_partido_start(self, event: dict) -> None:
        self.partido_id = str(event.get("partido", ""))

    def play(self, request: PlayRequest) -> Move:
        boss = self.master_seat()
        if boss is None:
            return super().play(request)
        legal = request.legal()
        if len(legal) > 1 and len(request.hand) <= SEARCH_FROM:
            return Move(card=self.search(request, boss, legal))
        trump = self.view.trump_suit
        win = request.winning()
        if win is None:
            return Move(card=min(legal, key=lambda c: (parse(c) // 10 == trump, strength(c))))
        card = self.feed(request, boss)
        if card is not None:
            return Move(card=card)
        winners = [c for c in legal if beats(parse(c), parse(win[1]), trump)]
        losers = [c for c in legal if c not in winners]
        played = {s for s, _c in request.table}
        if (boss not in played and losers) or not winners:
            return Move(card=min(losers, key=cheap))
        return Move(card=min(winners, key=cheap))

    def search(self, request: PlayRequest, boss: int, legal: list[str]) -> str:
        """The legal card that does best for the master over :data:`SIMULATIONS` sampled deals."""
        view = self.view
        rng = random.Random(f"escudero/{self.partido_id}/{view.seat}/{view.mano}/{len(view.played)}")
        know = fuerte.infer(view, request.hand)
        base = request.simulation()
        third = [s for s in view.order if s not in (boss, view.seat)]
        value = [0.0] * len(legal)
        for _sim in range(SIMULATIONS):
            root = base.with_hands(fuerte.sample_hands(rng, know))
            state = rng.getstate()
            for i, card in enumerate(legal):
                m = root.clone()
                m.play(parse(card))
                rng.setstate(state)  # every card sees the same luck
                fuerte.rollout(m, rng)
                losers = m.losers(view.ruleset)
                value[i] += 0.5 * sum(s in losers for s in third) / max(1, len(third)) - (boss in losers)
        best = max(range(len(legal)), key=lambda i: (value[i], -POINTS[parse(legal[i])]))
        return NAMES[parse(legal[best])]
