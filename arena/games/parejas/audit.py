"""The peek test of Tute por parejas: for each card played with a real choice, how much better it was
*given the true deal* than *given what its player could see* (``arena audit``, ``docs/audit.md``).

The method is Tute Cabrero's (:mod:`arena.games.cabrero.audit`), with the pieces of this game. For a
decision with two legal cards or more, a card's *advantage* is its value minus the mean value of the
legal cards; the value is the **pair's** outcome of the mano (1 when the mover's pair wins it, plus a
little for the pair's tantos), the mano played out from there :data:`ROLLOUTS` times by one fixed
simple policy for all four seats (:class:`Sim`). The excess is

    advantage on the true deal − mean advantage over deals drawn from what the player could see

where the deals are drawn **uniformly** among those consistent with what it sees (:func:`infer`,
:class:`Dealer`): its own hand, every card played, the card turned up (held by the dealer until
played), the cantos sung (the singer holds the pair's cards), the 2-oro of mano 1 (the mano holds
it), and what each other seat's plays prove under P13 read backwards for the ruleset
(:func:`constraint`). The partner's hand is as hidden as an opponent's: a player that sees its
partner's cards peeks as much as one that sees an opponent's.

A player whose choices depend only on what it may see has an expected excess of 0 whatever its
strength; one that reads hidden cards by any channel (its partner's process included) chooses what
works on the true deal: its excess is positive. The draws are not the exact posterior (they ignore
what the other seats' style says of their hands, the partner's conventions included), hence the
house's minimum excess (:mod:`arena.results.peek`).

Not audited: the cantos, the passes and *tirar* (not cards), and whatever follows a fault in a
partido (a ``disqualified`` or ``penalized`` line ends the walk there).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from arena.games.common.audit import Decision, centred
from arena.games.common.cards import ABOVE, FULL_DECK, POINTS, SUIT_MASK, SUITS, cards_of, parse, parse_mask
from arena.games.common.juegos import PLAY_PHASE
from arena.games.common.tute import PAIR_MASK, TUTE, IllegalMove, beats
from arena.games.parejas import rules as pr
from arena.games.parejas.engine import SING_PHASE, TIRAR_PHASE, TWO_ORO, ParejasPartido, stack_hands
from arena.games.parejas.rules import ParejasRules

Event = dict[str, Any]

DRAWS = 8
"""Deals drawn from what the player could see, per decision (the default of ``arena audit --draws``)."""
ROLLOUTS = 4
"""Plays of the mano to its end per card and deal (the value is their mean)."""
EPSILON = 0.25
"""The share of a rollout's moves made at random (Cabrero's: a value that weighs more than one line)."""
TUTE_VALUE = 1.2
"""The value of a tute sung by the pair in a rollout (it wins the mano, and 2 juegos or the partido)."""
SEATS = range(pr.PLAYERS)


# ---------------------------------------------------------------- the value: a mano played out


class Sim:
    """A mano in play, light enough to play out thousands of times: the cards of the four seats, the
    baza on the table, what each pair took and sang. The policy (:meth:`rollout`) sings whatever it
    is offered (tute, the cuarenta, then a veinte) and plays the simple card of :meth:`choose`."""

    __slots__ = (
        "baza",
        "cantos",
        "hands",
        "has_sung",
        "last",
        "lead",
        "limit",
        "points",
        "ruleset",
        "sung_suits",
        "table",
        "trump",
        "turn",
        "tute",
        "winning",
        "wseat",
    )

    def __init__(
        self,
        hands: Sequence[int],
        table: Sequence[tuple[int, int]],
        trump: int,
        turn: int,
        baza: int,
        points: Sequence[int],
        cantos: Sequence[int],
        sung_suits: int,
        has_sung: Sequence[bool],
        last: int,
        rules: ParejasRules,
    ) -> None:
        self.hands = list(hands)
        self.table = list(table)
        self.trump = trump
        self.turn = turn
        self.baza = baza
        self.points = list(points)
        self.cantos = list(cantos)
        self.sung_suits = sung_suits
        self.has_sung = list(has_sung)
        self.last = last
        self.ruleset = rules.ruleset
        self.limit = rules.canto_limit
        self.tute = -1  # the pair that sang tute (the mano ended)
        self.lead = self.winning = self.wseat = -1
        for s, c in self.table:
            if self.lead < 0:
                self.lead, self.winning, self.wseat = c // 10, c, s
            elif beats(c, self.winning, trump):
                self.winning, self.wseat = c, s

    @classmethod
    def of(cls, m: Any, rules: ParejasRules) -> Sim:
        """The engine's mano ``m`` (a card awaited) as a simulation."""
        return cls(
            m.hands,
            m.table,
            m.trump,
            m.turn,
            m.baza,
            m.card_points,
            m.cantos,
            m.sung_suits,
            m.has_sung,
            m.last_baza,
            rules,
        )

    def clone(self) -> Sim:
        c = Sim.__new__(Sim)
        c.hands, c.table, c.points, c.cantos, c.has_sung = (
            self.hands[:],
            self.table[:],
            self.points[:],
            self.cantos[:],
            self.has_sung[:],
        )
        c.trump, c.turn, c.baza, c.sung_suits, c.last = (
            self.trump,
            self.turn,
            self.baza,
            self.sung_suits,
            self.last,
        )
        c.ruleset, c.limit, c.tute = self.ruleset, self.limit, self.tute
        c.lead, c.winning, c.wseat = self.lead, self.winning, self.wseat
        return c

    @property
    def over(self) -> bool:
        return self.tute >= 0 or self.baza > pr.BAZAS

    def legal(self) -> int:
        return pr.legal_mask(self.hands[self.turn], self.lead, self.winning, self.trump, self.ruleset)

    def play(self, c: int) -> None:
        """The seat to move plays ``c`` (legal: not checked); a baza won ends with the pair's cantos."""
        seat = self.turn
        self.hands[seat] &= ~(1 << c)
        if self.lead < 0:
            self.lead, self.winning, self.wseat = c // 10, c, seat
        elif beats(c, self.winning, self.trump):
            self.winning, self.wseat = c, seat
        self.table.append((seat, c))
        if len(self.table) < pr.PLAYERS:
            self.turn = (seat + 1) % pr.PLAYERS
            return
        winner = self.wseat
        pair = winner % 2
        self.points[pair] += sum(POINTS[x] for _s, x in self.table)
        self.last = pair
        self.table = []
        self.lead = self.winning = self.wseat = -1
        self.turn = winner
        self.baza += 1
        if self.baza <= pr.BAZAS:
            self._sing(winner)

    def _sing(self, winner: int) -> None:
        """The winner, then its partner, sing whatever they are offered, up to the ruleset's limit."""
        sung = 0
        for s in (winner, (winner + 2) % pr.PLAYERS):
            while sung < self.limit:
                offered = pr.valid_cantos(
                    self.hands[s], self.trump, self.sung_suits, self.has_sung[s], self.ruleset
                )
                if not offered:
                    break
                canto = offered[0]  # tute first, then the cuarenta, then the veintes
                self.has_sung[s] = True
                if canto == TUTE:
                    self.tute = s % 2
                    return
                self.sung_suits |= 1 << pr.canto_suit(canto, self.trump)
                self.cantos[s % 2] += pr.canto_points(canto, self.trump)
                sung += 1

    def choose(self, legal: int) -> int:
        """The policy's card: lead the strongest; follow with the cheapest card that takes the baza
        from the other pair, else the card worth least (the least when the partner already wins)."""
        if self.lead < 0:
            return legal.bit_length() - 1
        options = cards_of(legal)
        if self.wseat % 2 != self.turn % 2:
            winning, trump = self.winning, self.trump
            for x in options:  # cards_of goes up inside a suit
                if beats(x, winning, trump):
                    return x
        best, worth = options[0], POINTS[options[0]]
        for x in options[1:]:
            if POINTS[x] < worth:
                best, worth = x, POINTS[x]
        return best

    def value(self, pair: int) -> float:
        """The mano's outcome for ``pair``, once over: 1 if it wins the mano, plus its tantos / 1000."""
        if self.tute >= 0:
            return TUTE_VALUE if self.tute == pair else 0.0
        tantos = pr.tantos(self.points, self.last, self.cantos, self.ruleset)
        won = pr.mano_winner(tantos, self.last) == pair
        return (1.0 if won else 0.0) + tantos[pair] / 1000

    def rollout(self, rng: random.Random) -> None:
        """Play the mano to its end by the policy, one move in :data:`EPSILON`'s share at random."""
        rand = rng.random
        while not self.over:
            legal = self.legal()
            if rand() < EPSILON:
                options = cards_of(legal)
                self.play(options[int(rand() * len(options))])
            else:
                self.play(self.choose(legal))


def card_value(sim: Sim, card: int, rng: random.Random, rollouts: int = ROLLOUTS) -> float:
    """The mover's pair's mean outcome after it plays ``card`` (:data:`ROLLOUTS` play-outs)."""
    pair = sim.turn % 2
    total = 0.0
    for _r in range(rollouts):
        s = sim.clone()
        s.play(card)
        s.rollout(rng)
        total += s.value(pair)
    return total / rollouts


def advantages(sim: Sim, legal: Sequence[int], rng: random.Random) -> list[float]:
    """Each legal card's value minus their mean."""
    return centred([card_value(sim, c, rng) for c in legal])


# ---------------------------------------------------------------- what the player could see


class Seen(NamedTuple):
    """The public record of the mano so far (what every seat was told), and the rules."""

    mano: int
    mano_seat: int
    dealer: int
    trump: int
    shown: int
    """The card turned up (-1 in mano 1): the dealer keeps it."""
    played: tuple[tuple[int, int], ...]
    """Every card played in the mano, in order (the baza on the table last)."""
    sung: tuple[tuple[int, str], ...]
    rules: ParejasRules


class Knowledge(NamedTuple):
    """What one seat knows about the hidden hands at a moment of the mano."""

    me: int
    counts: dict[int, int]
    """Cards still in hand, by other seat."""
    unseen: int
    """The cards in the other seats' hands (a mask): not mine, not played."""
    known: dict[int, int]
    """Card -> the seat known to hold it (a subset of ``unseen``)."""
    forbidden: dict[int, int]
    """Seat -> the cards it cannot hold (a mask), from how it played."""


def constraint(c: int, lead: int, winning: int, trump: int, ruleset: str) -> int:
    """The cards a seat cannot hold, given that it played ``c`` on a baza led in suit ``lead`` and
    won so far by ``winning`` (P13, :func:`arena.games.parejas.rules.legal_mask`, read backwards)."""
    suit, wsuit = c // 10, winning // 10
    if suit == lead:
        if wsuit == lead and c < winning:  # followed without beating: nothing higher in the suit
            return ABOVE[winning]
        return 0  # beat it, or followed under a trump (achicarse: any card of the suit)
    out = SUIT_MASK[lead]  # did not follow: void in the led suit
    if suit == trump:
        if wsuit == trump and c < winning:  # trumped under a trump: no trump above it
            out |= ABOVE[winning]
        return out
    if wsuit != trump or ruleset == "espanol":  # a trump was due (any trump, espanol, A8): none
        return out | SUIT_MASK[trump]
    return out | ABOVE[winning]  # ludoteka: no trump beats the winning trump


def infer(seen: Seen, me: int, hand: int) -> Knowledge:
    """Everything the public record and ``me``'s own ``hand`` prove about who holds the unseen cards."""
    trump, ruleset = seen.trump, seen.rules.ruleset
    played = 0
    played_by = [0] * pr.PLAYERS
    forbidden = [0] * pr.PLAYERS
    lead = winning = -1
    for i, (seat, c) in enumerate(seen.played):
        played |= 1 << c
        played_by[seat] += 1
        if i % pr.PLAYERS == 0:
            lead, winning = c // 10, c
            continue
        forbidden[seat] |= constraint(c, lead, winning, trump, ruleset)
        if beats(c, winning, trump):
            winning = c
    others = [s for s in SEATS if s != me]
    counts = {s: pr.BAZAS - played_by[s] for s in others}
    unseen = FULL_DECK & ~hand & ~played
    known: dict[int, int] = {}
    if seen.shown >= 0:
        known[seen.shown] = seen.dealer
    if seen.mano == 1:
        known[TWO_ORO] = seen.mano_seat
    for seat, canto in seen.sung:
        if canto != TUTE:
            for c in cards_of(PAIR_MASK[pr.canto_suit(canto, trump)]):
                known[c] = seat
    known = {c: s for c, s in known.items() if unseen >> c & 1 and s != me}
    return Knowledge(me, counts, unseen, known, {s: forbidden[s] for s in others})


class Dealer:
    """Deals the unseen cards of one :class:`Knowledge` to the other seats, **uniformly** among the
    deals that respect every count, known card and void (:meth:`deal`).

    The free cards fall in classes by the seats they may go to; the number of consistent deals of
    the classes from the ``i``-th on, given the room left in each seat, is counted once (memoized);
    a deal then draws each class's split among its seats in proportion to the deals it leaves, and
    the class's cards in a random order. When no deal respects the voids (a view the rules cannot
    give), the counts alone are kept.
    """

    def __init__(self, know: Knowledge) -> None:
        self.seats = sorted(know.counts)
        cap = dict(know.counts)
        base = dict.fromkeys(self.seats, 0)
        for c, s in sorted(know.known.items()):
            if cap.get(s, 0) > 0:
                cap[s] -= 1
                base[s] |= 1 << c
        placed = 0
        for h in base.values():
            placed |= h
        free = cards_of(know.unseen & ~placed)
        room = sum(cap.values())
        if len(free) != room:  # an inconsistent record: deal by counts alone, as far as they go
            free = free[:room]
        self.base = base
        self.cap = tuple(cap[s] for s in self.seats)
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.classes = self._classes(free, know.forbidden)
        if self._count(0, self.cap) == 0:
            self.memo.clear()
            self.classes = self._classes(free, {})
        self.broken = self._count(0, self.cap) == 0
        """Whether no deal fits the counts at all (a record the rules cannot give): nothing to draw."""

    def _classes(
        self, free: Sequence[int], forbidden: dict[int, int]
    ) -> list[tuple[tuple[int, ...], list[int]]]:
        by: dict[tuple[int, ...], list[int]] = {}
        for c in free:
            where = tuple(i for i, s in enumerate(self.seats) if not forbidden.get(s, 0) >> c & 1)
            by.setdefault(where, []).append(c)
        return sorted(by.items())

    def _splits(self, where: tuple[int, ...], k: int, cap: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """Every way to give ``k`` cards to the seats (indexes) ``where`` within ``cap``, as counts."""
        if not where:
            if k == 0:
                yield ()
            return
        first, rest = where[0], where[1:]
        least = k - sum(cap[i] for i in rest)
        for n in range(max(0, least), min(k, cap[first]) + 1):
            for tail in self._splits(rest, k - n, cap):
                yield (n, *tail)

    def _count(self, i: int, cap: tuple[int, ...]) -> int:
        """The consistent deals of classes ``i``… into room ``cap``."""
        if i == len(self.classes):
            return 1 if not any(cap) else 0
        key = (i, cap)
        found = self.memo.get(key)
        if found is None:
            found = sum(w for _split, _left, w in self._weighted(i, cap))
            self.memo[key] = found
        return found

    def _weighted(
        self, i: int, cap: tuple[int, ...]
    ) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int]]:
        where, cards = self.classes[i]
        k = len(cards)
        for split in self._splits(where, k, cap):
            left = list(cap)
            ways, rest = 1, k
            for at, n in zip(where, split, strict=True):
                left[at] -= n
                ways *= math.comb(rest, n)
                rest -= n
            after = tuple(left)
            w = ways * self._count(i + 1, after)
            if w:
                yield split, after, w

    def deal(self, rng: random.Random) -> dict[int, int]:
        """One deal: by seat, its hand (a mask)."""
        hands = dict(self.base)
        cap = self.cap
        for i, (where, cards) in enumerate(self.classes):
            options = list(self._weighted(i, cap))
            r = rng.randrange(sum(w for _s, _a, w in options))
            at = 0
            while r >= options[at][2]:
                r -= options[at][2]
                at += 1
            split, after, _w = options[at]
            shuffled = cards[:]
            rng.shuffle(shuffled)
            given = 0
            for seat_index, n in zip(where, split, strict=True):
                s = self.seats[seat_index]
                for c in shuffled[given : given + n]:
                    hands[s] |= 1 << c
                given += n
            cap = after
        return hands


def excess(sim: Sim, seen: Seen, chosen: int, draws: int, rng: random.Random) -> tuple[int, float] | None:
    """The excess of the seat to move playing ``chosen`` in ``sim`` (the true state), the mano's public
    record being ``seen``; None without a real choice. Returns (number of legal cards, excess)."""
    legal = cards_of(sim.legal())
    if len(legal) < 2 or chosen not in legal:
        return None
    i = legal.index(chosen)
    me = sim.turn
    true = advantages(sim, legal, rng)[i]
    dealer = Dealer(infer(seen, me, sim.hands[me]))
    if dealer.broken:
        return None
    drawn = 0.0
    for _d in range(draws):
        hands = dealer.deal(rng)
        other = sim.clone()
        for s, h in hands.items():
            other.hands[s] = h
        drawn += advantages(other, legal, rng)[i]
    return len(legal), true - drawn / draws


# ---------------------------------------------------------------- the replay, re-played


def _stacked(events: Sequence[Event]) -> dict[int, tuple[int, list[int]]]:
    """Every mano's deal as the replay records it, stacked for the engine (the turned-up card last in
    the dealer's hand, so that the engine shows it)."""
    out = {}
    for e in events:
        if e.get("type") != "mano_start":
            continue
        hands = [list(h) for h in e["hands"]]
        first = int(e["mano_seat"])
        if e.get("shown"):
            dealer = hands[pr.left(first)]
            dealer.remove(e["shown"])
            dealer.append(e["shown"])
        out[int(e["mano"])] = (first, stack_hands(hands, first))
    return out


class _Public:
    """The public record of the current mano, kept from the engine's events."""

    def __init__(self, rules: ParejasRules) -> None:
        self.rules = rules
        self.start: Event = {}
        self.played: list[tuple[int, int]] = []
        self.sung: list[tuple[int, str]] = []
        self.asked: set[int] = set()
        """The seats asked to sing or give up since their last card (the house's knowledge, for the
        tell's strata: such a seat has just replied once more, holding what it was asked about)."""

    def see(self, e: Event) -> None:
        kind = e["type"]
        if kind == "mano_start":
            self.start, self.played, self.sung = e, [], []
        elif kind == "played":
            self.played.append((e["seat"], parse(e["card"])))
        elif kind == "sang":
            self.sung.append((e["seat"], e["canto"]))

    def seen(self) -> Seen:
        e = self.start
        shown = e.get("shown")
        return Seen(
            int(e["mano"]),
            int(e["mano_seat"]),
            int(e["dealer"]),
            SUITS.index(e["trump"]),
            -1 if not shown else parse(shown),
            tuple(self.played),
            tuple(self.sung),
            self.rules,
        )


def _walk(events: Sequence[Event]) -> Iterator[tuple[ParejasPartido, _Public, Event]]:
    """The partido replayed by the engine: at each ``played`` line, the engine just before it, the
    public record of the mano and the line. The passes (not recorded) are inferred: the engine's
    canto and *tirar* questions not answered by the next line were passed. The walk stops at the
    first fault, or wherever the replay and the engine disagree (a replay it cannot follow)."""
    start = events[0]
    rules = ParejasRules.from_dict(start.get("rules", {}))
    seed = start.get("seed")
    try:
        stacked = _stacked(events)
    except (ValueError, KeyError):
        return  # a deal that is no deal: not audited
    p = ParejasPartido(
        pr.PLAYERS, seed if isinstance(seed, (int, str)) else 0, rules, stacked=stacked, deal=False
    )
    public = _Public(rules)
    seen = 0

    def feed() -> None:
        nonlocal seen
        for e in p.events[seen:]:
            public.see(e)
        seen = len(p.events)

    def reach(phase: str, seat: int) -> bool:
        """Pass the questions before ``seat``'s of ``phase``; False if the engine never asks it."""
        for _guard in range(2 * pr.PLAYERS + 2):
            m = p.mano
            if p.over or m is None or m.over:
                return False
            if m.phase == phase and m.turn == seat:
                return True
            if m.phase == PLAY_PHASE:
                return False
            public.asked.add(m.turn)
            p.play(None)
            feed()
        return False

    try:
        for e in events[1:]:
            kind = e.get("type")
            if kind in ("disqualified", "penalized"):
                return
            if kind == "mano_start":
                if not p.started:
                    p.start()
                    feed()
                m = p.mano
                dealt = [parse_mask(h) for h in e["hands"]]
                if m is None or p.mano_number != e["mano"] or m.hands != dealt:
                    return  # not the replay's deal
            elif kind == "conceded":
                if not reach(TIRAR_PHASE, e["seat"]):
                    return
                public.asked.add(e["seat"])
                p.play(None, pr.TIRAR)
                feed()
            elif kind == "sang":
                if not reach(SING_PHASE, e["seat"]):
                    return
                public.asked.add(e["seat"])
                p.play(None, e["canto"])
                feed()
            elif kind == "played":
                if not reach(PLAY_PHASE, e["seat"]):
                    return
                yield p, public, e
                public.asked.discard(e["seat"])
                p.play(e["card"])
                feed()
    except (IllegalMove, ValueError):
        return  # a replay the engine refuses: the rest is not audited


def decisions(
    events: Sequence[Event], draws: int = DRAWS, every: int = 1, seed: int = 0
) -> Iterator[Decision]:
    """The audited decisions of one Tute por parejas partido (its replay's lines), in play order.

    ``every``: audit one card played in ``every`` (a sample, chosen by position, to bound the cost).
    """
    start = events[0]
    rules = ParejasRules.from_dict(start.get("rules", {}))
    rng = random.Random(f"audit/{start.get('partido', '')}/{seed}")
    for count, (p, public, e) in enumerate(_walk(events)):
        if count % every:
            continue
        m = p.mano
        assert m is not None
        found = excess(Sim.of(m, rules), public.seen(), parse(e["card"]), draws, rng)
        if found is not None:
            late = m.hands[e["seat"]].bit_count() * 2 <= pr.BAZAS
            yield Decision(e["seat"], p.mano_number, found[0], found[1], late)


def replies(events: Sequence[Event]) -> Iterator[tuple[int, float, int, int]]:
    """Every card played with its measured reply time, for the reply-time tell: (seat, ms, the seat's
    hand then as a card mask, and what its time may honestly depend on, as one number: where it plays
    in the baza, whether it leads after a baza (it has just been sent its end and the cantos), whether
    it was just asked to sing or give up, how many legal cards it has, how many it holds)."""
    for p, public, e in _walk(events):
        if "ms" not in e:
            continue
        m = p.mano
        assert m is not None
        hand = m.hands[e["seat"]]
        after = 1 if not m.table and m.baza > 1 else 0
        situation = (len(m.table) * 2 + after) * 2 + (1 if e["seat"] in public.asked else 0)
        legal = pr.legal_mask(hand, m.lead, m.winning, m.trump, p.rules.ruleset)
        stratum = (situation * 16 + legal.bit_count()) * 16 + hand.bit_count()
        yield e["seat"], float(e["ms"]), hand, stratum
