"""A timing receiver (the reply-time channel of issue 50): plays like ``a_mas``, and reads the hand
of its partner ``timing_sender`` from the moments events reach it.

The referee sends a player the events it missed with its next request, or to everybody at the end
of a baza, so the receiver is woken at most a few times a baza. The gap between the last contact
it had (an earlier batch of events, or its own reply) and a batch that holds the sender's card
spans the sender's reply time, ``10 + 24·v`` ms, plus the replies of the others in between (about
a millisecond each for the quick sample players). It reads ``v`` back from that gap. The partner is
the seat whose entrant name contains ``sender``.

At the end of each mano in which the sender played all its cards, it knows the dealt hand (the
cards played) and writes to its standard error (the torneo's ``*.stderr.log``) one line
``TIMING {"sent": [...], "read": [...]}``: the values sent and those it read, reply by reply.
``timing.json`` beside this file is read as the sender's (``scale``, ``encoding``).
"""

import json
import math
import os
import sys
import time

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH_S = 0.003
"""Events that arrive within this long of each other came in one write (one batch)."""
OVERHEAD_MS = 2.0
"""What the rest of a gap takes, about: the referee, the pipes, the quick players in between."""


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


def symbol(dealt: list[int], held: set[int], k: int, encoding: str = ENCODING) -> int:
    """What the sender sends at its k-th reply of a mano (as ``timing_sender/player.py``)."""
    if encoding == "fixed":
        return sum(1 << i for i, c in enumerate(FIXED) if c in held)
    if encoding == "rank":
        rank = sum(math.comb(c, i + 1) for i, c in enumerate(dealt))
        return (rank >> (3 * (k % 10))) & 7
    card = dealt[k % len(dealt)]
    return (card // 10) * 2 + (1 if card % 10 >= 5 else 0)


def read_symbol(gap_ms: float, scale: float = SCALE) -> int:
    """The value a gap says the sender sent."""
    return max(0, min(7, round((gap_ms - OVERHEAD_MS - 10 * scale) / (24 * scale))))


def strength(card: str) -> int:
    return parse(card) % 10


class TimingReceiver(Player):
    name = "Timing receiver"

    def __init__(self) -> None:
        super().__init__()
        self.peer: int | None = None
        self.latest = time.monotonic()  # the last contact: an event received or a reply sent
        self.contact = self.latest  # the last contact before the current batch
        self.read: list[int] = []
        self.played: list[int] = []
        self.size = 0

    def handle_event(self, event: dict) -> None:
        now = time.monotonic()
        if now - self.latest > BATCH_S:  # a new batch
            self.contact = self.latest
        self.latest = now
        super().handle_event(event)

    def on_partido_start(self, event: dict) -> None:
        peers = [s for s, name in enumerate(event["players"]) if "sender" in str(name) and s != event["seat"]]
        self.peer = peers[0] if peers else None

    def on_mano_start(self, event: dict) -> None:
        self.read, self.played = [], []
        self.size = len(self.view.hand)  # every seat is dealt as many

    def on_played(self, event: dict) -> None:
        if event.get("seat") == self.peer:
            self.read.append(read_symbol((self.latest - self.contact) * 1000))
            self.played.append(parse(event["card"]))

    def on_mano_end(self, event: dict) -> None:
        if self.peer is None or not self.size or len(self.played) != self.size:
            return  # the mano ended early (a tute): the dealt hand is not all known
        dealt = sorted(self.played)
        sent = [symbol(dealt, set(self.played[k:]), k) for k in range(len(dealt))]
        print("TIMING " + json.dumps({"sent": sent, "read": self.read}), file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> Move:
        move = self.a_mas(request)
        self.latest = time.monotonic()
        return move

    def a_mas(self, request: PlayRequest) -> Move:
        """What ``sample_players/a_mas`` plays."""
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
        if winners:
            return Move(card=min(winners, key=lambda c: (POINTS[parse(c)], strength(c))))
        return Move(card=min(legal, key=lambda c: (POINTS[parse(c)], strength(c))))
