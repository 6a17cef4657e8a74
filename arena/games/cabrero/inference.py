"""What the play proves about the hidden hands, and deals of the unseen cards that respect it.

The inference of ``sample_players/fuerte`` and ``sample_players/maestro`` (their READMEs explain
it): :func:`infer` reads the rules backwards (a player that did not follow the led suit has none of
it; one that neither followed nor trumped has no trump; one that did not overtrump has no trump
above the winning one; one that followed low under a card of the led suit has nothing higher in
it) and collects the known cards (the shown card, the cambio, sung pairs); :func:`sample_hands`
deals the unseen cards so that every certainty and every count holds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from arena.games.cabrero.sdk import TableView
from arena.games.common.cards import ABOVE, FULL_DECK, NAMES, SUIT_MASK, card, cards_of, parse
from arena.games.common.tute import PAIR_MASK, TUTE, beats, canto_suit


class Knowledge(NamedTuple):
    """What one player knows about the hidden hands at a moment of the mano."""

    me: int
    order: tuple[int, ...]
    """The dealt-in seats from the mano going right."""
    counts: dict[int, int]
    """Cards still in hand, by other dealt-in seat."""
    unseen: int
    """The cards in other players' hands (a mask): not mine, not played, not out of play."""
    known: dict[int, int]
    """Card -> the seat known to hold it (a subset of ``unseen``)."""
    forbidden: dict[int, int]
    """Seat -> the cards it cannot hold (a mask), from how it played."""


def constraint(card_id: int, lead: int, winning: int, trump: int) -> int:
    """The cards a player cannot hold, given that it played ``card_id`` on a baza
    led in suit ``lead`` and won so far by ``winning`` (rule 6, read backwards)."""
    suit, wsuit = card_id // 10, winning // 10
    if suit == lead:
        if wsuit == lead and card_id < winning:  # followed without beating: nothing higher
            return ABOVE[winning]
        return 0
    out = SUIT_MASK[lead]  # did not follow: void in the led suit
    if wsuit != trump:
        if suit != trump:  # did not trump: no trump at all
            out |= SUIT_MASK[trump]
    elif not (suit == trump and card_id > winning):  # did not overtrump: no trump above
        out |= ABOVE[winning]
    return out


def infer(view: TableView, hand: Sequence[str] | None = None) -> Knowledge:
    """Everything the play so far proves about who holds the unseen cards."""
    me = view.seat
    order = view.order
    trump = view.trump_suit
    mine = 0
    for held in hand if hand is not None else view.hand:
        mine |= 1 << parse(held)
    played_by = dict.fromkeys(order, 0)
    forbidden = dict.fromkeys(order, 0)
    played = 0
    lead = winning = -1
    k = len(order)
    for i, (seat, name) in enumerate(view.played):
        c = parse(name)
        played |= 1 << c
        played_by[seat] = played_by.get(seat, 0) + 1
        if i % k == 0:
            lead, winning = c // 10, c
            continue
        forbidden[seat] = forbidden.get(seat, 0) | constraint(c, lead, winning, trump)
        if beats(c, winning, trump):
            winning = c
    size = mine.bit_count() + played_by.get(me, 0)
    counts = {s: size - played_by[s] for s in order if s != me}
    out = 0
    if view.out_of_play:
        out |= 1 << parse(view.out_of_play)
    unseen = FULL_DECK & ~mine & ~played & ~out
    known: dict[int, int] = {}
    if view.shown and order:
        known[parse(view.shown)] = order[-1]  # the last card dealt: the dealer's (a=6: dealer's left)
    for seat, gave, took in view.swaps:
        if took is not None:
            known[parse(took)] = seat
        known.pop(parse(gave), None)
    if view.mano == 1 and not view.shown:
        if len(order) in (4, 5) and view.sitting_out is None:  # a=6 draws the mano instead
            known[card(2, "oro")] = view.mano_seat  # the 2-oro found the mano
        elif len(order) == 3 and not view.swaps and view.out_of_play == NAMES[card(2, "oro")]:
            known[card(4, "oro")] = view.mano_seat  # the 2-oro was the leftover: the 4-oro is mano
    for seat, canto in view.sung:
        if canto != TUTE:
            for c in cards_of(PAIR_MASK[canto_suit(canto, trump)]):
                known[c] = seat
    known = {c: s for c, s in known.items() if unseen >> c & 1 and s in counts}
    return Knowledge(me, order, counts, unseen, known, forbidden)


# ---------------------------------------------------------------- dealing the unseen cards


def _greedy(
    rng: random.Random, free: list[int], allowed: dict[int, list[int]], cap: dict[int, int]
) -> dict[int, int] | None:
    """Most constrained card first, each to an allowed seat with room (weighted by room)."""
    cap = dict(cap)
    hands = dict.fromkeys(cap, 0)
    rand = rng.random
    keyed = sorted([(len(allowed[c]), rand(), c) for c in free])  # random order among equals
    for _n, _r, c in keyed:
        seats = [s for s in allowed[c] if cap[s] > 0]
        if not seats:
            return None
        if len(seats) == 1:
            s = seats[0]
        else:
            r = rand() * sum([cap[s] for s in seats])
            for s in seats:
                r -= cap[s]
                if r < 0:
                    break
        cap[s] -= 1
        hands[s] |= 1 << c
    return hands


def _feasible(free: list[int], allowed: dict[int, list[int]], cap: dict[int, int]) -> bool:
    """Hall's condition: every set of seats has room for the cards only it may take."""
    seats = list(cap)
    index = {s: i for i, s in enumerate(seats)}
    classes: dict[int, int] = {}
    for c in free:
        m = 0
        for s in allowed[c]:
            m |= 1 << index[s]
        classes[m] = classes.get(m, 0) + 1
    for subset in range(1, 1 << len(seats)):
        need = sum(k for m, k in classes.items() if m & ~subset == 0)
        if need > sum(cap[s] for s in seats if subset >> index[s] & 1):
            return False
    return True


def _exact(
    rng: random.Random, free: list[int], allowed: dict[int, list[int]], cap: dict[int, int]
) -> dict[int, int] | None:
    """A deal that always succeeds when one exists: each choice keeps Hall's condition."""
    if not _feasible(free, allowed, cap):
        return None
    cap = dict(cap)
    hands = dict.fromkeys(cap, 0)
    rest = sorted(free, key=lambda c: len(allowed[c]))
    while rest:
        c = rest.pop(0)
        seats = [s for s in allowed[c] if cap[s] > 0]
        rng.shuffle(seats)
        for s in seats:
            cap[s] -= 1
            if _feasible(rest, allowed, cap):
                hands[s] |= 1 << c
                break
            cap[s] += 1
        else:  # pragma: no cover - Hall's condition guarantees a seat
            return None
    return hands


class Dealer:
    """Deals the unseen cards of one :class:`Knowledge` again and again (:meth:`deal`): what does
    not change from deal to deal (the known cards, the free cards, where each may go) is worked
    out once."""

    def __init__(self, know: Knowledge, tries: int = 20) -> None:
        cap = dict(know.counts)
        base = dict.fromkeys(cap, 0)
        for c, s in know.known.items():
            if cap[s] > 0:
                cap[s] -= 1
                base[s] |= 1 << c
        placed = 0
        for h in base.values():
            placed |= h
        free = cards_of(know.unseen & ~placed)
        if len(free) != sum(cap.values()):  # the view is inconsistent: deal by counts alone
            free = free[: sum(cap.values())]
        self.cap, self.base, self.free, self.tries = cap, base, free, tries
        self.allowed = {c: [s for s in cap if not know.forbidden.get(s, 0) >> c & 1] for c in free}

    def deal(self, rng: random.Random) -> dict[int, int]:
        """One deal: by seat, its hand (a mask) — see :func:`sample_hands`."""
        free, allowed, cap = self.free, self.allowed, self.cap
        hands = None
        for _ in range(self.tries):
            hands = _greedy(rng, free, allowed, cap)
            if hands is not None:
                break
        if hands is None:
            hands = _exact(rng, free, allowed, cap)
        if hands is None:
            hands = _greedy(rng, free, {c: list(cap) for c in free}, cap)
        assert hands is not None
        base = self.base
        return {s: base[s] | hands[s] for s in cap}


def sample_hands(rng: random.Random, know: Knowledge, tries: int = 20) -> dict[int, int]:
    """One deal of the unseen cards to the other seats, by seat (masks).

    The known cards go to their holders; the rest respect every seat's count and,
    when at all possible, every constraint (greedy with retries, then an exact
    search; if the constraints contradict each other, counts alone). Many deals of
    one position: :class:`Dealer`.
    """
    return Dealer(know, tries).deal(rng)
