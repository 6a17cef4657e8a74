"""Tries to predict every other hand from its own, as a student who read the dealing code would.

At each ``mano_start`` it deals the mano for every candidate seed it can think of —
the old default 2002, every int below 2000, the partido seeds a torneo derives
from small ints (:func:`arena.tournament.schedule.deal_seed`) — under both the current
engine (:func:`arena.engine.deal_order`) and the Mersenne Twister dealing of
earlier versions (``random.Random(f"tute-arena/{seed}/{mano}")``), keeps the
candidate whose cards for its own seat best match its hand, and writes its guess
of every hand to standard error, one line::

    GUESS {"mano": 1, "seed": 777, "scheme": "engine", "overlap": 10, "size": 10, "hands": {"0": [...], ...}}

Then it plays the first legal card, every time.
"""

import json
import random
import sys

from arena import engine
from arena.cards import NAMES, parse
from arena.sdk import Player, PlayRequest
from arena.tournament.schedule import deal_seed

CANDIDATES = sorted(
    {*range(2000), 2002}
    | {deal_seed(2002, d) for d in range(32)}
    | {deal_seed(s, d) for s in range(21) for d in range(8)}
)


def mt_order(seed: int, mano: int, seats: list[int]) -> tuple[int, list[int]]:
    """The dealing of earlier versions: a Mersenne Twister seeded with a guessable string."""
    rng = random.Random(f"tute-arena/{seed}/{mano}")
    start = rng.choice(seats)
    deck = list(range(40))
    rng.shuffle(deck)
    return start, deck


class HostilePredict(Player):
    def __init__(self) -> None:
        super().__init__()
        self.keys = [engine.deal_key(s) for s in CANDIDATES]

    def on_mano_start(self, event: dict) -> None:
        hand = event.get("hand")
        if not hand:
            return
        mine = {parse(c) for c in hand}
        n = len(self.view.players)
        active = list(event["active"])
        out = event["sitting_out"]
        k = event["mano"]
        best = (-1, None, "", {})
        for i, seed in enumerate(CANDIDATES):
            for scheme in ("engine", "mt"):
                if scheme == "engine":
                    start, deck = engine.deal_order(self.keys[i], k, active)
                else:
                    start, deck = mt_order(seed, k, active)
                if k > 1:
                    start = event["mano_seat"]
                order = [s for j in range(n) if (s := (start + j) % n) in active and s != out]
                if self.view.seat not in order:
                    return
                m = len(order)
                stop = 39 if len(active) == 3 else 40
                hands = {s: deck[j:stop:m] for j, s in enumerate(order)}
                overlap = len(mine & set(hands[self.view.seat]))
                if overlap > best[0]:
                    best = (overlap, seed, scheme, hands)
        overlap, seed, scheme, hands = best
        guess = {
            "mano": k,
            "seed": seed,
            "scheme": scheme,
            "overlap": overlap,
            "size": len(hand),
            "hands": {str(s): sorted(NAMES[c] for c in h) for s, h in hands.items() if s != self.view.seat},
        }
        print("GUESS " + json.dumps(guess), file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
