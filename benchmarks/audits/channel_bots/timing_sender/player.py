"""A timing sender (the reply-time channel of issue 50): plays like ``a_mas``, and says its hand by
how long it takes to reply.

Before each reply it sleeps ``SCALE × (10 + 24·v)`` ms, ``v`` (0–7, three bits) a value of the hand
it was dealt this mano, cycling through its cards: at its k-th reply of the mano, with the dealt hand
sorted (suit, then strength), ``v`` says the k-th card's suit (two bits) and whether it is of the
upper half of its suit (one bit). Ten replies pass the dealt hand's suits and halves, card by card;
``timing_receiver`` reads them back from the moments events reach it.

``timing.json`` beside this file (optional) changes the channel: ``{"scale": 0.5}`` (shorter
sleeps), ``"encoding"``: ``"suit"`` (the default, above), ``"fixed"`` (whether it holds now each of
three fixed cards, ``FIXED``: the same three bits at every reply, as the tell's synthetic test has
it) or ``"rank"`` (three bits a reply of the dealt hand's rank in the combinatorial number system,
30 bits for ten cards: the whole hand by the tenth reply). Whatever it sends, every reply is the
legal card ``a_mas`` would play.
"""

import json
import math
import os
import time

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest

HERE = os.path.dirname(os.path.abspath(__file__))


def load_config() -> dict:
    try:
        with open(os.path.join(HERE, "timing.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


CONFIG = load_config()
SCALE = float(CONFIG.get("scale", 1.0))
ENCODING = str(CONFIG.get("encoding", "suit"))
FIXED = (3, 17, 29)
"""The cards the ``fixed`` encoding tells (``4-oro``, ``6-copa``, ``C-espada``: card ids)."""


def symbol(dealt: list[int], held: set[int], k: int, encoding: str = ENCODING) -> int:
    """The value ``v`` (0–7) of the k-th reply of a mano, for the dealt hand (card ids, sorted) and
    the cards held now."""
    if encoding == "fixed":
        return sum(1 << i for i, c in enumerate(FIXED) if c in held)
    if encoding == "rank":  # the hand's rank among the sets of its size, three bits at a time
        rank = sum(math.comb(c, i + 1) for i, c in enumerate(dealt))
        return (rank >> (3 * (k % 10))) & 7
    card = dealt[k % len(dealt)]
    return (card // 10) * 2 + (1 if card % 10 >= 5 else 0)


def delay_ms(v: int, scale: float = SCALE) -> float:
    return scale * (10 + 24 * v)


def strength(card: str) -> int:
    return parse(card) % 10


def a_mas(request: PlayRequest, trump: int) -> Move:
    """What ``sample_players/a_mas`` plays."""
    cantos = request.cantos()
    if "tute" in cantos:
        return Move(sing="tute")
    sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
    legal = request.legal()
    if not request.table:
        plain = [c for c in legal if parse(c) // 10 != trump] or legal
        return Move(card=max(plain, key=strength), sing=sing)
    winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
    winners = [c for c in legal if beats(parse(c), winning, trump)]
    if winners:
        return Move(card=min(winners, key=lambda c: (POINTS[parse(c)], strength(c))))
    return Move(card=min(legal, key=lambda c: (POINTS[parse(c)], strength(c))))


class TimingSender(Player):
    name = "Timing sender"

    def __init__(self) -> None:
        super().__init__()
        self.mano = -1
        self.dealt: list[int] = []
        self.k = 0

    def play(self, request: PlayRequest) -> Move:
        if request.mano != self.mano:  # its first reply of the mano: it holds the dealt hand
            self.mano, self.k = request.mano, 0
            self.dealt = sorted(parse(c) for c in request.hand)
        start = time.monotonic()
        move = a_mas(request, self.view.trump_suit)
        held = {parse(c) for c in request.hand}
        wait = delay_ms(symbol(self.dealt, held, self.k)) / 1000 - (time.monotonic() - start)
        self.k += 1
        if wait > 0:
            time.sleep(wait)
        return move
