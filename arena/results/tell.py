"""The reply-time tell (``arena audit``): how much an entrant's reply times say about its own hidden hand.

Two bots can pass a hand by how long one of them takes to reply (10 + 24·v ms for a value v of its
hand): no filter closes that channel. Here, per entrant, its reply times are first ranked within what
they may honestly depend on — where it plays in the baza, whether it may sing, how many legal cards
it had and how many it held (a search player thinks longer with more choices; a player that leads
has just been sent the baza's end) — and then regressed on the cards it held (40 indicators). The share
of the times' variance the cards explain beyond those strata, R², is set against the same fit with the
times shuffled within the strata (:data:`PERMUTATIONS` times): its p-value (the shuffled R²'s normal
tail, so that it can be smaller than one over the shuffles), and the information it
stands for, ``−½ log2(1 − (R² − mean shuffled R²))`` bits per reply (a Gaussian channel's), are
shown beside the peek figure. An entrant is flagged when the corrected p-value is below
:data:`ALPHA` and the information is at least :data:`MIN_BITS` per reply.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from arena.results.collusion import holm

ALPHA = 0.01
PERMUTATIONS = 100
MIN_BITS = 0.25
"""The least information per reply flagged (a whole hand of 10 cards is about 30 bits: the channel of
issue 50 passed 28 bits a mano, several bits a reply; honest sample players measured up to 0.13)."""
MIN_REPLIES = 100

Reply = tuple[int, float, int, int]
"""As a game's ``tell`` gives them: seat, ms, the hand (a card mask), the stratum."""


@dataclass(frozen=True)
class Tell:
    """One entrant's reply-time figures."""

    entrant: str
    replies: int
    r2: float
    bits: float
    """Information about its hand per reply, beyond chance (NaN: too few replies)."""
    p: float
    p_corrected: float
    flagged: bool


def _ranks_within(times: np.ndarray, strata: np.ndarray) -> np.ndarray:
    """Each time's rank within its stratum, scaled to (−½, ½) (0 for a stratum of one)."""
    out = np.zeros(len(times))
    for s in np.unique(strata):
        at = np.flatnonzero(strata == s)
        if len(at) > 1:
            order = times[at].argsort(kind="stable").argsort(kind="stable")
            out[at] = (order + 0.5) / len(at) - 0.5
    return out


def _r2(y: np.ndarray, x: np.ndarray) -> float:
    """The share of ``y``'s variance a least-squares fit on ``x`` (with an intercept) explains."""
    total = float(((y - y.mean()) ** 2).sum())
    if total <= 0:
        return 0.0
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    rest = float(((y - x @ coef) ** 2).sum())
    return max(0.0, 1.0 - rest / total)


def entrant_tell(name: str, replies: Sequence[tuple[float, int, int]], seed: int = 0) -> Tell:
    """The tell of one entrant's replies (ms, hand mask, stratum)."""
    n = len(replies)
    if n < MIN_REPLIES:
        return Tell(name, n, math.nan, math.nan, math.nan, math.nan, False)
    times = np.array([r[0] for r in replies])
    strata = np.array([r[2] for r in replies])
    hands = np.array([[(r[1] >> c) & 1 for c in range(40)] for r in replies], dtype=float)
    held = hands[:, hands.std(axis=0) > 0]
    x = np.column_stack([np.ones(n), held])
    y = _ranks_within(times, strata)
    r2 = _r2(y, x)
    rng = random.Random(f"tell/{name}/{seed}")
    groups = [np.flatnonzero(strata == s) for s in np.unique(strata)]
    shuffled_r2 = []
    for _i in range(PERMUTATIONS):
        z = y.copy()
        for at in groups:
            if len(at) > 1:
                z[at] = y[at][rng.sample(range(len(at)), len(at))]
        shuffled_r2.append(_r2(z, x))
    null = np.array(shuffled_r2)
    spread = float(null.std()) or 1e-12
    p = 0.5 * math.erfc((r2 - float(null.mean())) / spread / math.sqrt(2))  # the shuffles' normal tail
    gained = max(0.0, r2 - float(null.mean()))
    bits = max(0.0, -0.5 * math.log2(1 - min(gained, 0.999999)))  # never "-0.00"
    return Tell(name, n, r2, bits, p, math.nan, False)


def tells(replies: dict[str, list[tuple[float, int, int]]], entrants: Sequence[str]) -> list[Tell]:
    """Each entrant's tell, Holm-corrected over the entrants, flagged as the module says."""
    raw = [entrant_tell(name, replies.get(name, [])) for name in entrants]
    corrected = holm([t.p for t in raw])
    out = []
    for t, pc in zip(raw, corrected.tolist(), strict=True):
        flagged = not math.isnan(pc) and pc < ALPHA and t.bits >= MIN_BITS
        out.append(Tell(t.entrant, t.replies, t.r2, t.bits, t.p, pc, flagged))
    return out
