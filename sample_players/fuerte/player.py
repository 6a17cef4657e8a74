"""'Fuerte': determinized Monte Carlo search under hidden information.

At each decision it
1. reads what the play so far proves about the hidden hands (:func:`infer`):
   voids, "no trump that beats", "no higher card of the suit", plus the cards
   known to be in a hand (the shown card, the cambio, sung pairs, the 2-oro);
2. deals the unseen cards to the other players many times, consistently with
   all of that and with each player's card count (:func:`sample_hands`);
3. for every candidate (a legal card, and whether to sing before it) plays
   each of those deals to the end of the mano with a fast rollout policy on
   the engine's :class:`arena.engine.Mano`, and counts how often it loses;
4. plays the candidate that loses least often (ties: the better score margin).

Options (constructor arguments): ``seed`` (default 2002), ``budget_ms`` (time
per move; default 30% of the referee's ``move_ms``, at most 300 ms) and
``simulations`` (a fixed number of deals per move instead of a time budget;
with it, the same seed and the same partido give the same moves).
See README.md for how and why.
"""

from __future__ import annotations

import random
import time
from typing import Any, NamedTuple

from arena.cards import NAMES, cards_of, parse
from arena.engine import Mano
from arena.games.cabrero.inference import infer, sample_hands
from arena.rules import PAIR_MASK, TUTE, canto_name, has_tute
from arena.sdk import Move, Player, PlayRequest

# ---------------------------------------------------------------- what the play proves


# ---------------------------------------------------------------- rollouts


def rollout(m: Mano, rng: random.Random) -> None:
    """Play ``m`` to its end at random: every player sings what it can (tute
    first, ending the mano) and plays a uniformly random legal card.

    Random play is fast and, averaged over many deals, ranks the candidate moves
    about as well as the light heuristics we tried (see README.md).
    """
    trump = m.trump
    rand = rng.random
    while not m.over:
        if m.may_sing:
            hand = m.hands[m.turn]
            if has_tute(hand):
                m.sing(TUTE)
                return
            for s in range(4):
                if not m.sung_suits >> s & 1 and hand & PAIR_MASK[s] == PAIR_MASK[s]:
                    m.sing(canto_name(s, trump))
                    break
        options = cards_of(m.legal())
        m.play(options[int(rand() * len(options))])


# ---------------------------------------------------------------- the player


class Candidate(NamedTuple):
    """A choice: a card, and the canto sung before it (or None)."""

    card: int
    sing: str | None


class Fuerte(Player):
    """Determinized Monte Carlo: minimise the probability of losing the mano."""

    name = "Fuerte"
    budget_fraction = 0.3
    budget_cap_ms = 300.0
    strict = False
    """Tests set it: an error in the search then raises instead of falling back."""

    def __init__(
        self, seed: int = 2002, budget_ms: float | None = None, simulations: int | None = None
    ) -> None:
        super().__init__()
        self.seed = seed
        self.budget_ms = budget_ms
        self.simulations = simulations
        self.partido_id = ""
        self.last_stats: dict[str, Any] = {}
        """The last search: deals simulated and losses by candidate (for students' curiosity)."""

    def setup(self, name: str, limits: dict[str, int]) -> None:
        if self.budget_ms is None:
            move_ms = limits.get("move_ms", 1000)
            self.budget_ms = min(self.budget_cap_ms, self.budget_fraction * move_ms)

    def on_partido_start(self, event: dict[str, Any]) -> None:
        self.partido_id = str(event.get("partido", ""))

    def play(self, request: PlayRequest) -> Move:
        start = time.perf_counter()
        legal = [parse(c) for c in request.legal()]
        cantos = request.cantos()
        if TUTE in cantos:
            return Move(sing=TUTE)  # the singer cannot lose the mano
        sings: list[str | None] = [None]
        if cantos:
            sings.append(max(cantos, key=lambda c: c == "cuarenta"))
        candidates = [Candidate(c, s) for s in sings for c in legal]
        choice = candidates[0]  # legal: the fallback if anything goes wrong
        if len(candidates) > 1:
            try:
                choice = self.search(request, candidates, start)
            except Exception:  # never let a bug in the search cost the partido
                if self.strict:
                    raise
        return Move(card=NAMES[choice.card], sing=choice.sing)

    def rng(self) -> random.Random:
        """A random stream that depends only on the seed and the position: reproducible."""
        v = self.view
        return random.Random(f"fuerte/{self.seed}/{self.partido_id}/{v.seat}/{v.mano}/{len(v.played)}")

    def search(self, request: PlayRequest, candidates: list[Candidate], start: float) -> Candidate:
        """The candidate that loses least often over the sampled deals (ties: the safer).

        Every candidate is tried on the same deals, with the same rollout luck
        (common random numbers), so their difference is measured, not their luck.
        Stops after ``simulations`` deals, or when one more deal would not fit in
        the budget (judged by the slowest deal so far; at least one deal is tried).
        """
        view = self.view
        rng = self.rng()
        know = infer(view, request.hand)
        me = view.seat
        base = request.simulation()  # the mano as it stands: my hand, the others' still empty
        ruleset = view.ruleset
        k = len(candidates)
        lost = [0] * k
        margin = [0.0] * k
        budget = (self.budget_ms if self.budget_ms is not None else 300.0) / 1000
        limit = self.simulations
        deadline = start + budget
        sims = 0
        slowest = 0.0
        while True:
            now = time.perf_counter()
            if limit is not None:
                if sims >= limit:
                    break
            elif now + slowest > deadline:
                break
            root = base.with_hands(sample_hands(rng, know))
            state = rng.getstate()
            for i, cand in enumerate(candidates):
                m = root.clone()
                if cand.sing is not None:
                    m.sing(cand.sing)
                m.play(cand.card)
                rng.setstate(state)  # common random numbers: every candidate sees the same luck
                rollout(m, rng)
                losers = m.losers(ruleset)
                if me in losers:
                    lost[i] += 1
                margin[i] += self.safety(m, me, losers)
            sims += 1
            slowest = max(slowest, time.perf_counter() - now)
        if sims == 0:
            return candidates[0]
        best = min(range(k), key=lambda i: (lost[i], -margin[i]))
        self.last_stats = {"sims": sims, "candidates": candidates, "lost": lost}
        return candidates[best]

    @staticmethod
    def safety(m: Mano, me: int, losers: list[int]) -> float:
        """The tie-break between candidates that lose equally often: -1 when I lose,
        1 when I took no baza (safe), else how far my score is from the nearest
        loser's, as a fraction of the 130 points."""
        if me in losers:
            return -1.0
        if not m.bazas[me]:
            return 1.0
        scores = m.scores()
        mine = scores[me] or 0
        return min((abs(mine - (scores[s] or 0)) for s in losers), default=0) / 130
