"""The partido as a deterministic state machine over :mod:`arena.games.cabrero.rules`.

Two levels:

* :class:`Mano` — one mano from its deal to its last baza, with bit-mask hands.
  Fast, unchecked and cheap to :meth:`Mano.clone`: simulating players use it.
* :class:`Partido` — a whole partido: deals every mano from the seed, checks every
  play and canto, applies faults (disqualify or penalize), porotos, eliminations
  and the ranking, and records the omniscient events of ``docs/replay.md``.

No I/O, no clocks. A mano's deal is a function of the partido's seed (an explicit
int, or a secret key: :mod:`arena.seeds`) and the mano's number alone, so nothing a
player does can change it: a Fisher–Yates shuffle fed by BLAKE2b keyed with a hash of
the seed (:func:`deal_order`). Without the key, one's own hand says nothing about
any other card.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping, Sequence
from typing import Any, cast

from arena.games.cabrero import rules, wire
from arena.games.cabrero.playoff import PLAYOFF, Playoff
from arena.games.cabrero.rules import RuleSet
from arena.games.common import replies
from arena.games.common.cards import NAMES, POINTS, SUITS, card, card_id, names_of, parse
from arena.games.common.deal import deal_key as deal_key
from arena.games.common.deal import deal_order as deal_order
from arena.games.common.deal import deal_stream as deal_stream
from arena.games.common.tute import IllegalMove as IllegalMove
from arena.games.common.tute import TuteActions
from arena.i18n import _, n_
from arena.protocol import PROCESS_FAULTS
from arena.seeds import Seed

Event = dict[str, Any]
TWO_ORO = card(2, "oro")
_legal_mask = rules.legal_mask
_IMMUTABLE = (int, bool, str, bytes, type(None))
_BIT = tuple(1 << c for c in range(40))
_CLEAR = tuple(~(1 << c) for c in range(40))


FAULT_REASONS: tuple[str, ...] = rules.RULE_FAULTS + PROCESS_FAULTS
"""Every fault a partido records: against the rules, or of the player's program."""


@functools.lru_cache(maxsize=1024)
def _next_seats(order: tuple[int, ...], n: int) -> tuple[int, ...]:
    """By seat, the seat playing after it in ``order`` (the last's is the first); -1 if not in it."""
    after = [-1] * n
    previous = order[-1] if order else -1
    for s in order:
        after[previous] = s
        previous = s
    return tuple(after)


@functools.lru_cache(maxsize=1024)
def _seating(active: tuple[bool, ...], mano_seat: int) -> tuple[int, int | None, tuple[int, ...]]:
    """With ``mano_seat`` the mano: the dealer (on its left), the seat sitting out (the dealer,
    with six active) and the dealt-in seats from the mano going right."""
    dealer = rules.seat_left(mano_seat, active)
    sitting_out = dealer if sum(active) == 6 else None
    n = len(active)
    order = tuple(s for i in range(n) if active[s := (mano_seat + i) % n] and s != sitting_out)
    return dealer, sitting_out, order


def stack_deck(hands: Sequence[Sequence[str]], leftover: str | None = None) -> list[int]:
    """The deck order that deals ``hands`` (in dealing order, first seat dealt first).

    With three hands of 13 give the ``leftover`` too. For :class:`Partido`'s ``stacked``.
    """
    size = len(hands[0])
    deck = [parse(h[i]) for i in range(size) for h in hands]
    if leftover is not None:
        deck.append(parse(leftover))
    if sorted(deck) != list(range(40)):
        raise rules.RulesError(_("stacked hands must hold the 40 cards exactly once"))
    return deck


class Mano:
    """One mano in play: hands, the baza on the table, bazas and points taken.

    ``order`` lists the dealt-in seats from the mano going right. Methods do not
    check legality; :class:`Partido` does.
    """

    __slots__ = (
        "baza",
        "bazas",
        "canto_points",
        "card_points",
        "hands",
        "last_winner",
        "lead",
        "may_sing",
        "nbazas",
        "next_seat",
        "number",
        "order",
        "over",
        "sang_pair",
        "size",
        "sung_suits",
        "table",
        "trump",
        "turn",
        "tute_seat",
        "winner",
        "winning",
    )

    def __init__(self, number: int, trump: int, order: Sequence[int], hands: list[int]) -> None:
        self.number = number
        self.trump = trump
        self.order = order = tuple(order)
        self.size = len(order)
        n = len(hands)
        self.next_seat = _next_seats(order, n)
        self.hands = hands
        self.lead = -1
        self.winning = -1
        self.winner = -1
        self.table: list[tuple[int, int]] = []
        self.turn = self.order[0]
        self.baza = 1
        self.nbazas = hands[self.turn].bit_count()
        self.bazas = [0] * n
        self.card_points = [0] * n
        self.canto_points = [0] * n
        self.sang_pair = [False] * n
        self.sung_suits = 0
        self.may_sing = False
        self.over = False
        self.last_winner = -1
        self.tute_seat = -1

    @classmethod
    def from_position(
        cls,
        *,
        number: int,
        trump: int,
        order: Sequence[int],
        hands: Sequence[int],
        turn: int,
        table: Sequence[tuple[int, int]] = (),
        bazas: Sequence[int] | None = None,
        card_points: Sequence[int] | None = None,
        sung: Sequence[tuple[int, str]] = (),
        may_sing: bool | None = None,
    ) -> Mano:
        """A mano in mid-play, rebuilt from what a player can know (for simulating players).

        ``hands``, ``bazas`` and ``card_points`` are indexed by seat (one entry per
        seat of the table, 0 for seats not dealt in); hands are card masks: your own,
        and the hidden ones as you assume or sample them (0 when unknown). ``turn`` is
        the seat to move, ``table`` the baza in progress as (seat, card) in playing
        order, ``sung`` the cantos sung so far as (seat, canto name). Derived: the
        baza's lead and winner (:func:`arena.rules.baza_winner`), the baza number
        (bazas taken + 1), the mano's length (the mover's cards + bazas taken), the
        canto points, the sung suits, and ``may_sing`` unless given (by the rules, the
        leader of every baza after the first may sing).

        :class:`arena.rules.RulesError` when the position is inconsistent (hands that
        overlap, card counts or a seat to move that do not fit the order, ...).
        """
        n = len(hands)

        def fail(why: str) -> rules.RulesError:
            return rules.RulesError("Mano.from_position: " + why)

        order = tuple(order)
        k = len(order)
        if len(set(order)) != k or not rules.MIN_PLAYERS <= k < rules.MAX_PLAYERS:
            raise fail(_("order {order} must list 3 to 5 distinct seats").format(order=order))
        for s in order:
            if not 0 <= s < n:
                raise fail(_("order {order} names a seat beyond the {n} hands").format(order=order, n=n))
        if not 0 <= trump < 4:
            raise fail(_("trump {trump} is not a suit (0-3)").format(trump=trump))
        bazas = [0] * n if bazas is None else list(bazas)
        card_points = [0] * n if card_points is None else list(card_points)
        if len(bazas) != n or len(card_points) != n:
            raise fail(_("hands, bazas and card_points need one entry per seat"))
        if turn not in order:
            raise fail(_("the seat to move ({seat}) is not dealt in").format(seat=turn))
        seen = 0
        for s, h in enumerate(hands):
            if h < 0 or h >> 40 or h & seen:
                raise fail(
                    _("hand of seat {seat} is not a set of cards disjoint from the other hands").format(
                        seat=s
                    )
                )
            taken, points = bazas[s], card_points[s]
            if (h or taken or points) and s not in order:
                raise fail(_("seat {seat} is not dealt in but has cards, bazas or points").format(seat=s))
            if taken < 0 or points < 0 or (points and not taken):
                raise fail(
                    _("seat {seat}: {bazas} bazas cannot hold {points} card points").format(
                        seat=s, bazas=taken, points=points
                    )
                )
            seen |= h
        table = [(s, c) for s, c in table]
        if len(table) >= k:
            raise fail(
                _("{count} cards on the table: a baza in progress holds fewer than {k}").format(
                    count=len(table), k=k
                )
            )
        after: dict[int, int] = {}  # seat -> the next seat to play
        previous = order[-1]
        for s in order:
            after[previous] = s
            previous = s
        previous = -1
        for s, c in table:  # previous: the seat that played before s
            if s not in after:
                raise fail(_("seat {seat} on the table is not dealt in").format(seat=s))
            if not 0 <= c < 40 or seen >> c & 1:
                raise fail(_("card {card} on the table is no card or is also in a hand").format(card=c))
            seen |= 1 << c
            if previous >= 0 and s != after[previous]:
                raise fail(
                    _("seat {seat} cannot play after seat {previous}").format(seat=s, previous=previous)
                )
            previous = s
        done = sum(bazas)
        if table and turn != after[previous]:
            raise fail(
                _("seat {seat} is not the next to play after seat {previous}").format(
                    seat=turn, previous=previous
                )
            )
        leader = table[0][0] if table else turn
        if bazas[leader] == 0 if done else leader != order[0]:
            raise fail(
                _("seat {seat} cannot lead: the mano leads first, then each baza's winner").format(
                    seat=leader
                )
            )
        nbazas = done + hands[turn].bit_count()
        if not hands[turn] or nbazas > 13:
            raise fail(
                _("the seat to move ({seat}) must hold the cards left of a mano of at most 13").format(
                    seat=turn
                )
            )
        left = nbazas - done
        on_table = {s for s, _card in table}
        for s in order:
            h = hands[s]
            if h and h.bit_count() != left - (s in on_table):
                held = h.bit_count()
                raise fail(
                    n_(
                        "seat {seat} holds {held} card, not {left}",
                        "seat {seat} holds {held} cards, not {left}",
                        held,
                    ).format(seat=s, held=held, left=left - (s in on_table))
                )
        can_sing = not table and done > 0
        if may_sing and not can_sing:
            raise fail(_("only the leader of a baza after the first may sing"))
        m = cls(number, trump, order, list(hands))
        m.nbazas = nbazas
        m.baza = done + 1
        m.turn = turn
        m.bazas = bazas
        m.card_points = card_points
        for s, canto in sung:
            if canto == rules.TUTE:
                raise fail(_("a tute ends the mano: there is no position after it"))
            suit = rules.canto_suit(canto, trump)
            if s not in after or m.sung_suits >> suit & 1 or rules.canto_name(suit, trump) != canto:
                raise fail(
                    _(
                        "seat {seat} cannot have sung {canto}: not dealt in, sung twice or not this trump's"
                    ).format(seat=s, canto=canto)
                )
            m.sung_suits |= 1 << suit
            m.canto_points[s] += rules.canto_points(suit, trump)
            m.sang_pair[s] = True
        m.may_sing = can_sing if may_sing is None else may_sing
        m.table = table
        if table:
            seat, winning = table[0]
            m.lead = winning // 10
            for s, c in table[1:]:  # rules.baza_winner, keeping the winning card
                if rules.beats(c, winning, trump):
                    seat, winning = s, c
            m.winner, m.winning = seat, winning
        return m

    def clone(self) -> Mano:
        m = Mano.__new__(Mano)
        m.number, m.trump, m.order, m.next_seat = self.number, self.trump, self.order, self.next_seat
        m.size = self.size
        m.hands = self.hands[:]
        m.lead, m.winning, m.winner = self.lead, self.winning, self.winner
        m.table = self.table[:]
        m.turn, m.baza, m.nbazas = self.turn, self.baza, self.nbazas
        m.bazas, m.card_points = self.bazas[:], self.card_points[:]
        m.canto_points, m.sang_pair = self.canto_points[:], self.sang_pair[:]
        m.sung_suits, m.may_sing, m.over = self.sung_suits, self.may_sing, self.over
        m.last_winner, m.tute_seat = self.last_winner, self.tute_seat
        return m

    def with_hands(self, hands: Mapping[int, int]) -> Mano:
        """A :meth:`clone` with the hands of the seats in ``hands`` (seat -> card mask)
        replaced: one deal of the hidden cards to simulate. Unchecked, like :meth:`play`."""
        m = self.clone()
        for s, h in hands.items():
            m.hands[s] = h
        return m

    def legal(self) -> int:
        """The set of cards the player to move may play."""
        return _legal_mask(self.hands[self.turn], self.lead, self.winning, self.trump)

    def cantos(self) -> list[str]:
        """The cantos the player to move may sing now (empty unless ``may_sing``)."""
        if not self.may_sing:
            return []
        return rules.valid_cantos(self.hands[self.turn], self.trump, self.sung_suits)

    def sing(self, canto: str) -> None:
        """The player to move sings ``canto`` (assumed valid) before leading."""
        seat = self.turn
        if canto == rules.TUTE:
            self.tute_seat = seat
            self.over = True
            return
        suit = rules.canto_suit(canto, self.trump)
        self.sung_suits |= 1 << suit
        self.canto_points[seat] += rules.canto_points(suit, self.trump)
        self.sang_pair[seat] = True

    def play(self, c: int) -> int:
        """The player to move plays card ``c``; returns the baza's winner if it completed, else -1."""
        seat = self.turn
        self.hands[seat] &= _CLEAR[c]
        table = self.table
        table.append((seat, c))
        if len(table) == 1:  # the lead: a baza has three cards at least
            self.may_sing = False
            self.lead, self.winning, self.winner = c // 10, c, seat
            self.turn = self.next_seat[seat]
            return -1
        winning = self.winning
        if c // 10 == winning // 10:  # rules.beats: higher in the suit winning, or the first trump
            if c > winning:
                self.winning, self.winner = c, seat
        elif c // 10 == self.trump:
            self.winning, self.winner = c, seat
        if len(table) < self.size:
            self.turn = self.next_seat[seat]
            return -1
        w = self.winner
        self.bazas[w] += 1
        taken = 0
        for _seat, x in table:
            taken += POINTS[x]
        self.card_points[w] += taken
        self.table = []
        self.lead = -1
        self.turn = w
        if self.baza == self.nbazas:
            self.last_winner = w
            self.over = True
        else:
            self.baza += 1
            self.may_sing = True
        return w

    def scores(self) -> list[int | None]:
        """Scores by seat (cards + 10 de última + cantos); None for seats not dealt in."""
        out: list[int | None] = [None] * len(self.hands)
        for s in self.order:
            out[s] = self.card_points[s] + self.canto_points[s]
        if self.last_winner >= 0:
            out[self.last_winner] += rules.LAST_BAZA_BONUS  # type: ignore[operator]
        return out

    def losers(self, ruleset: RuleSet) -> list[int]:
        """Who loses this finished mano (tute, capote or points)."""
        if self.tute_seat >= 0:
            return sorted(s for s in self.order if s != self.tute_seat)
        scores = cast("list[int]", self.scores())  # a mano played to its last baza: every score is known
        return rules.mano_losers(ruleset, self.order, self.bazas, scores, self.card_points, self.sang_pair)


class Partido(TuteActions):
    """A whole partido of ``n`` seats, dealt from ``seed`` (int or key) under ``ruleset``.

    Drive it with :attr:`to_move`, :meth:`play` and :meth:`fault` until
    :attr:`over`. When ``record`` is true, :attr:`events` collects the replay's
    omniscient events (``mano_start`` … ``partido_end``).

    Mano 1 is dealt at once, unless ``deal`` is false: then faults judged before
    the deal (the referee's ``hello`` faults) disqualify their seats first, and
    :meth:`start` deals mano 1 among the others (or ends the partido, with them as
    its winners, when fewer than three are left).
    """

    def __init__(
        self,
        n: int,
        seed: Seed,
        ruleset: RuleSet | None = None,
        record: bool = True,
        stacked: Mapping[int, tuple[int, Sequence[int]]] | None = None,
        deal: bool = True,
    ) -> None:
        rules.check_table_size(n)
        self.stacked = dict(stacked or {})  # tests and teaching: mano -> (first seat dealt, deck)
        self.n = n
        self.seed = seed
        self._key = deal_key(seed)
        self.rules = ruleset or RuleSet()
        self.accuse = self.rules.renuncio == "accuse"
        """The ``accuse`` policy (looked up once: it is asked on every card)."""
        self.record = record
        self.events: list[Event] = []
        self.porotos = [rules.STARTING_POROTOS] * n
        self.active = [True] * n
        self.eliminated_at: dict[int, int] = {}  # seat -> mano number
        self.disqualified: list[int] = []  # in the order recorded
        self.mano_number = 0
        self.mano: Mano | None = None
        self.mano_seat = -1
        self.dealer = -1
        self.sitting_out: int | None = None
        self.winners: list[int] = []
        self.over = False
        self.started = False
        """Whether :meth:`start` ran: mano 1 was dealt, or the partido ended before it."""
        self.reviews: list[int] = []
        """Under ``accuse``, after a mano's last baza: the seats still to review it, in turn order."""
        self.renuncios: list[int] = []
        """Under ``accuse``: the seats that played a renuncio in this mano (each once)."""
        self.played: list[int] = []
        """Under ``accuse``: the seats that played a card in this mano (each once)."""
        self.playoff: Playoff | None = None
        """Under ``hasta-un-ganador`` [25.3], once two are left: their partido of tute de a dos."""
        self._plain = False
        """Whether a play may take :meth:`play`'s short way: a mano in play, no playoff, no accuse."""
        if deal:
            self.start()

    # ------------------------------------------------------------ queries

    def clone(self) -> Partido:
        """An independent copy to simulate forward from (the original is never touched).

        It holds everything, the seed and the hidden hands too: a referee's or an
        analyst's tool; a player simulates from its own view (``PlayRequest.simulation``).
        The state is copied field by field (each event dict too, while the values inside
        the events, records that never change, are shared); in a playoff, deep-copied.
        """
        if self.playoff is not None:  # rare: the hosted game's state, copied whole
            return copy.deepcopy(self)
        state = self.__dict__.copy()
        for name, value in state.items():
            kind = type(value)
            if kind is list or kind is dict:
                state[name] = value.copy()  # lists and dicts of ints (stacked: of immutable deals)
            elif not (kind in _IMMUTABLE or isinstance(value, RuleSet)):
                if kind is not Mano:
                    return copy.deepcopy(self)  # a state this method does not know: copied whole
                state[name] = value.clone()
        state["events"] = [event.copy() for event in self.events]  # records: their insides never change
        p = object.__new__(type(self))
        p.__dict__.update(state)
        return p

    @property
    def to_move(self) -> int | None:
        """The seat whose play (or review) is awaited, or None when the partido is over (or not started)."""
        if self.over or (self.mano is None and self.playoff is None):
            return None
        if self.playoff is not None:
            return self.playoff.to_move
        assert self.mano is not None
        return self.reviews[0] if self.reviews else self.mano.turn

    def active_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.active[s]]

    def request(self) -> wire.PlayRequest | wire.ReviewRequest | dict[str, Any]:
        """The protocol's ``play`` request for the player to move (without ``id``), its ``legal`` the
        cards :meth:`Mano.legal` allows (protocol revision 1.3); under ``accuse`` with ``may_accuse``,
        and after the mano's last baza a ``review`` request; in a playoff [25.3], the hosted game's
        request (it names its ``game``)."""
        if self.playoff is not None and not self.over:
            return self.playoff.request()
        m = self._current()
        if self.reviews:
            return {"type": "review", "may_accuse": self.may_accuse(self.reviews[0])}
        request: wire.PlayRequest = {
            "type": "play",
            "mano": self.mano_number,
            "trick": m.baza,
            "hand": names_of(m.hands[m.turn]),
            "table": [{"seat": s, "card": NAMES[c]} for s, c in m.table],
            "legal": names_of(m.legal()),
            "may_sing": m.may_sing,
        }
        if self.accuse:
            request["may_accuse"] = self.may_accuse(m.turn)
        return request

    def moves(self) -> list[tuple[str | None, str | None]]:
        """Every ``(card, sing)`` the player to move may answer (a review: only not accusing)."""
        if self.playoff is not None and not self.over:
            return self.playoff.moves()
        if self.reviews:
            return [(None, None)]
        m = self._current()
        cards: list[str | None] = list(names_of(m.legal()))
        cantos = m.cantos()
        out: list[tuple[str | None, str | None]] = [(c, None) for c in cards]
        out += [(None, rules.TUTE)] if rules.TUTE in cantos else []
        out += [(c, s) for s in cantos if s != rules.TUTE for c in cards]
        return out

    def may_accuse(self, seat: int) -> list[int]:
        """The seats ``seat`` may accuse now (``accuse``): the others dealt in who played in this mano."""
        m = self._current()
        return [s for s in m.order if s != seat and s in self.played]

    def view(self, event: Event, seat: int) -> Event:
        """``event`` as the player at ``seat`` receives it (:func:`arena.games.common.replies.view`;
        a playoff's event as :meth:`Playoff.view` shows it)."""
        if event["type"] == "playoff" and self.playoff is not None:
            return self.playoff.view(event, seat)
        return replies.view(event, seat)

    def ranking(self) -> list[list[int]]:
        """Winners first; then the eliminated, later elimination higher (ties per mano);
        then the disqualified, a later disqualification higher. After a playoff [25.3] its loser
        ranks second, unless the playoff disqualified it (then it is among the disqualified)."""
        groups: list[list[int]] = [sorted(self.winners)] if self.winners else []
        if self.playoff is not None and self.over:
            beaten = [s for s in self.playoff.seats if s not in self.winners and s not in self.disqualified]
            groups += [[s] for s in beaten]
        by_mano: dict[int, list[int]] = {}
        for s, k in self.eliminated_at.items():
            by_mano.setdefault(k, []).append(s)
        groups += [sorted(by_mano[k]) for k in sorted(by_mano, reverse=True)]
        groups += [[s] for s in reversed(self.disqualified)]
        return groups

    # ------------------------------------------------------------ actions

    def start(self) -> None:
        """Deal mano 1 among the active seats (``Partido(..., deal=False)`` only).

        Seats disqualified before it are left out, and the first mano follows the
        rules for the players left; with fewer than three left the partido ends at
        once, those left (maybe none) its winners, after 0 manos.
        """
        if self.started:
            raise rules.RulesError("the partido has already started")  # not shown
        self.started = True
        if sum(self.active) < rules.MIN_PLAYERS:
            self._end_partido()
        else:
            self._deal()

    def play(self, card: str | int | None, sing: str | None = None, accuse: int | None = None) -> None:
        """The player to move plays ``card``, singing ``sing`` first if given.

        Under ``accuse`` it may instead accuse seat ``accuse`` (no card, no canto), and a
        card it holds but may not play is accepted and marked; after the mano's last baza
        each dealt-in seat in turn reviews it: ``play(None, accuse=k)`` or ``play(None)``.
        Raises :class:`IllegalMove` (with the fault ``reason``) and changes nothing
        when the move is not allowed; the caller then calls :meth:`fault`.
        """
        if sing is None and accuse is None and self._plain and type(card) is int and 0 <= card < 40:
            m = self.mano  # the common case first: a card id, no canto, no accusation, no playoff
            assert m is not None
            hand = m.hands[m.turn]
            lead = m.lead
            if hand >> card & 1 and (lead < 0 or _legal_mask(hand, lead, m.winning, m.trump) >> card & 1):
                if self.record:
                    self._record_play(m, m.turn, card, False)
                    return
                m.play(card)
                if m.over:
                    self._last_baza_played(m)
                return
        if self.playoff is not None and not self.over:
            if accuse is not None:
                raise IllegalMove("protocol", _("no accusation in the playoff (tute de a dos)"))
            self.playoff.play(card, sing)
            if self.playoff.over:
                self._end_partido()
            return
        m = self._current()
        if accuse is not None or self.reviews:
            self._review_or_accuse(m, card, sing, accuse)
            return
        seat = m.turn
        if sing is not None:
            self._check_canto(m, seat, card, sing)
            if sing == rules.TUTE:
                self._emit({"type": "sang", "seat": seat, "canto": sing})
                m.sing(sing)
                self._finish_mano("tute")
                return
        if card is None:
            raise IllegalMove("protocol", _("a play needs a card (only tute is sung without one)"))
        c = card if type(card) is int and 0 <= card < 40 else card_id(card)
        if c < 0 or not m.hands[seat] >> c & 1:
            shown = card if isinstance(card, str) else repr(card)
            raise IllegalMove(
                "not_in_hand",
                _("{card} is not in the hand of seat {seat}").format(card=shown, seat=seat),
                card=shown,
            )
        legal = rules.legal_mask(m.hands[seat], m.lead, m.winning, m.trump)
        renuncio = not legal >> c & 1
        if renuncio and not self.accuse:
            raise IllegalMove(
                "renuncio",
                _("{card} is a renuncio: seat {seat} had to play one of {cards}").format(
                    card=NAMES[c], seat=seat, cards=", ".join(names_of(legal))
                ),
                card=NAMES[c],
            )
        if sing is not None:
            self._emit({"type": "sang", "seat": seat, "canto": sing})
            m.sing(sing)
        if self.accuse:
            self._note_play(seat, renuncio)
        if not self.record:
            m.play(c)
            if m.over:
                self._last_baza_played(m)
            return
        self._record_play(m, seat, c, renuncio)

    def _record_play(self, m: Mano, seat: int, c: int, renuncio: bool) -> None:
        """Play the checked card ``c`` of ``seat`` on ``m``, recording its events."""
        played: Event = {"type": "played", "seat": seat, "card": NAMES[c]}
        if renuncio:
            played["renuncio"] = True
        self.events.append(played)
        baza, table = m.baza, m.table
        winner = m.play(c)
        if winner >= 0:
            self.events.append(
                {
                    "type": "trick_end",
                    "trick": baza,
                    "winner": winner,
                    "cards": [{"seat": s, "card": NAMES[x]} for s, x in table],
                }
            )
            if m.over:
                self._last_baza_played(m)

    def _note_play(self, seat: int, renuncio: bool) -> None:
        if seat not in self.played:
            self.played.append(seat)
        if renuncio and seat not in self.renuncios:
            self.renuncios.append(seat)

    def _last_baza_played(self, m: Mano) -> None:
        """Score the mano, or under ``accuse`` first let every dealt-in seat review it."""
        if self.accuse:
            self.reviews = list(m.order)
        else:
            self._finish_mano("capote" if max(m.bazas) == m.nbazas else "points")

    def _review_or_accuse(
        self, m: Mano, card: str | int | None, sing: str | None, accuse: int | None
    ) -> None:
        """An accusation with a play reply, or a review's answer (see :meth:`play`)."""
        seat = self.reviews[0] if self.reviews else m.turn
        if not self.accuse:
            raise IllegalMove("protocol", _("accusations are made only under the accuse policy"))
        if card is not None or sing is not None:
            raise IllegalMove("protocol", _("an accusation or a review carries no card and no canto"))
        if accuse is not None and accuse not in self.may_accuse(seat):
            raise IllegalMove(
                "protocol",
                _("seat {seat} may not accuse seat {accused} (it may accuse: {seats})").format(
                    seat=seat, accused=accuse, seats=", ".join(map(str, self.may_accuse(seat))) or "-"
                ),
            )
        if accuse is None:
            self.reviews.pop(0)
            if not self.reviews:
                self._finish_mano("capote" if max(m.bazas) == m.nbazas else "points")
            return
        self.reviews = []
        proven = accuse in self.renuncios
        self._emit({"type": "accused", "by": seat, "seat": accuse, "proven": proven})
        self._finish_mano("accused", penalized=accuse if proven else seat, proven=proven)

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Judge a fault of ``seat``; returns False when it is ignored.

        Faults of players no longer active, or after the partido is decided, are
        ignored. A renuncio or false canto under ``penalize`` ends the mano with the
        offender alone losing two porotos; every other case disqualifies. Before
        :meth:`start` every fault disqualifies and the partido goes on to its start,
        however few are left: each such fault is judged.
        """
        if reason not in FAULT_REASONS:
            raise rules.RulesError(f"unknown fault reason {reason!r}")  # not shown
        if self.over or not self.active[seat]:
            return False
        if self.playoff is not None:
            return self._playoff_fault(seat, reason, detail, evidence)
        m = self.mano
        dealt_in = m is not None and (not m.over or bool(self.reviews)) and seat in m.order  # unscored
        if reason in ("renuncio", "false_canto") and self.rules.renuncio == "penalize" and dealt_in:
            self._emit({"type": "penalized", "seat": seat, "reason": reason, "detail": detail, **evidence})
            self._finish_mano("penalty", penalized=seat)
            return True
        self.active[seat] = False
        self.disqualified.append(seat)
        self._emit({"type": "disqualified", "seat": seat, "reason": reason, "detail": detail, **evidence})
        if dealt_in:
            self._finish_mano("void")
        elif self.started and sum(self.active) < rules.MIN_PLAYERS:
            self._end_partido()
        return True

    # ------------------------------------------------------------ internals

    def _current(self) -> Mano:
        if self.over or self.mano is None:
            raise IllegalMove("protocol", _("no play is awaited: the partido is over or not started"))
        return self.mano

    def _emit(self, event: Event) -> None:
        if self.record:
            self.events.append(event)

    def _check_canto(self, m: Mano, seat: int, card: str | int | None, sing: str) -> None:
        if not m.may_sing:
            raise IllegalMove(
                "protocol",
                _("seat {seat} may not sing now (it did not just win a baza)").format(seat=seat),
                canto=sing,
            )
        if sing == rules.TUTE and card is not None:
            raise IllegalMove("protocol", _("tute is sung without a card"))
        if not rules.is_valid_canto(sing, m.hands[seat], m.trump, m.sung_suits):
            raise IllegalMove(
                "false_canto",
                _("seat {seat} cannot sing {canto} now").format(seat=seat, canto=sing),
                canto=sing,
            )

    def _deal(self) -> None:
        self.mano_number += 1
        k = self.mano_number
        active = self.active
        seats = self.active_seats()
        a = len(seats)
        first = k == 1
        if k in self.stacked:
            start, deck = self.stacked[k][0], list(self.stacked[k][1])
            if sorted(deck) != list(range(40)) or not active[start]:
                raise rules.RulesError(
                    _("stacked deal of mano {mano}: not a 40-card deck and an active seat").format(mano=k)
                )
        else:
            start, deck = deal_order(self._key, k, seats)  # start: used in the first mano only
        mano_seat = start if first else rules.seat_right(self.mano_seat, active)
        seating = tuple(active)
        dealer, sitting_out, order = _seating(seating, mano_seat)  # first mano: dealt from the deal's seat
        m = len(order)
        hands = [0] * self.n
        end = 39 if a == 3 else 40
        for i, s in enumerate(order):
            hands[s] = sum(map(_BIT.__getitem__, deck[i:end:m]))  # distinct bits: OR
        dealt = hands[:] if self.record else hands
        leftover = deck[39] if a == 3 else None
        shown: int | None = None
        out_of_play: int | None = None
        swaps: list[rules.Swap] = []
        if first:
            trump = 0
            if a == 3:
                mano_seat, swaps, out_of_play = rules.first_mano_swap(hands, deck[39])
            elif a != 6:
                mano_seat = next(s for s in order if hands[s] >> TWO_ORO & 1)
            dealer, sitting_out, order = _seating(seating, mano_seat)
        elif a == 3:
            trump = deck[39] // 10
            swaps, out_of_play = rules.cambio(hands, deck[39])
        elif self.rules.has("rotating-trump"):
            trump = rules.rotating_trump(k)
        else:
            shown = deck[39]
            trump = shown // 10
        self.mano_seat, self.dealer, self.sitting_out = mano_seat, dealer, sitting_out
        self.mano = Mano(k, trump, order, hands)
        self._plain = not self.accuse
        self.played, self.renuncios = [], []
        if self.record:
            self._emit(
                {
                    "type": "mano_start",
                    "mano": k,
                    "dealer": dealer,
                    "mano_seat": mano_seat,
                    "sitting_out": sitting_out,
                    "active": seats,
                    "porotos": self.porotos[:],
                    "trump": SUITS[trump],
                    "shown": None if shown is None else NAMES[shown],
                    "out_of_play": None if out_of_play is None else NAMES[out_of_play],
                    "dealt": [names_of(h) if s in order else None for s, h in enumerate(dealt)],
                    "leftover": None if leftover is None else NAMES[leftover],
                    "swaps": [{"seat": s, "gave": NAMES[g], "took": NAMES[t]} for s, g, t in swaps],
                    "hands": [names_of(h) if s in order else None for s, h in enumerate(hands)],
                }
            )

    def _finish_mano(self, outcome: str, penalized: int = -1, proven: bool = False) -> None:
        """End the mano: ``penalized`` is the one loser of a ``penalty`` or ``accused`` outcome
        (the accused when ``proven``, else the accuser)."""
        m = self.mano
        assert m is not None
        m.over = True
        self.reviews = []
        if outcome == "void":
            losers: list[int] = []
        elif outcome in ("penalty", "accused"):
            losers = [penalized]
        else:
            losers = m.losers(self.rules)
        cost = 2 if outcome == "penalty" or proven else 1
        eliminated = []
        for s in losers:
            self.porotos[s] -= cost
            if self.porotos[s] <= 0 and self.active[s]:
                self.active[s] = False
                self.eliminated_at[s] = self.mano_number
                eliminated.append(s)
        if self.record:
            played_out = outcome in ("points", "capote")
            self._emit(
                {
                    "type": "mano_end",
                    "mano": self.mano_number,
                    "outcome": outcome,
                    "scores": m.scores() if played_out else None,
                    "tricks": [m.bazas[s] if s in m.order else None for s in range(self.n)],
                    "losers": losers,
                    "porotos": self.porotos[:],
                    "eliminated": eliminated,
                }
            )
        if outcome == "tute" and self.rules.has("tute-wins-partido"):
            for s in self.active_seats():  # the singer's survivors rank as eliminated now
                if s != m.tute_seat:
                    self.active[s] = False
                    self.eliminated_at[s] = self.mano_number
            self._end_partido()
        elif sum(self.active) < rules.MIN_PLAYERS:
            self._end_partido()
        else:
            self._deal()

    def _playoff_fault(self, seat: int, reason: str, detail: str, evidence: dict[str, Any]) -> bool:
        """A fault in the playoff, judged by its game; a disqualification there is one here too."""
        assert self.playoff is not None
        if not self.playoff.fault(seat, reason, detail, **evidence):
            return False
        if seat in self.playoff.disqualified and seat not in self.disqualified:
            self.active[seat] = False
            self.disqualified.append(seat)
        if self.playoff.over:
            self._end_partido()
        return True

    def _end_partido(self) -> None:
        self._plain = False
        left = self.active_seats()
        if self.rules.has(PLAYOFF) and self.playoff is None and len(left) == 2:  # [25.3]
            self.playoff = Playoff(left, self.seed, self.rules.renuncio, self._emit)
            if not self.playoff.over:
                return
        self.over = True
        self.winners = self.playoff.winners if self.playoff is not None else left
        self._emit(
            {
                "type": "partido_end",
                "winners": self.winners,
                "ranking": self.ranking(),
                "manos": self.mano_number,
            }
        )
