"""The partido of Tute por parejas as a deterministic state machine over :mod:`arena.games.parejas.rules`.

:class:`ParejasPartido` is what the referee drives through :class:`arena.game.Game`:
it deals every mano from the seed (with the shared machinery,
:func:`arena.games.common.deal.deal_key` and :func:`~arena.games.common.deal.deal_order`,
so a seed deals mano 1 as a four-player Cabrero partido does), asks one seat at a time for a
decision, checks every card, canto and concession, applies faults, scores the
manos in juegos and records the omniscient events.

**Decisions.** Every decision is a request for :attr:`ParejasPartido.to_move`, of
one of three kinds, told apart by the request's fields:

* *tirar las cartas* (``espanol`` only, P28): before the first card of a mano,
  each seat whose hand qualifies, in turn from the mano, gets a request with
  ``may_concede`` true and ``legal`` empty. It replies ``play(None, "tirar")`` to
  give up the mano, or ``play(None)`` to play on.
* *cantos* (P16-P21): right after a baza won by a pair (not the tenth), the
  baza's winner and then its partner are offered the cantos they may sing, until
  the pair has sung its limit (two under ``ludoteka``, one under ``espanol``) or
  both have passed. The request has ``may_sing`` not empty and ``legal`` empty;
  the reply is ``play(None, canto)`` or ``play(None)`` to pass. A seat with
  nothing to sing is not asked. A sung tute ends the mano.
* *a card*: ``legal`` lists the cards P13 allows, ``may_sing`` is empty and
  ``may_concede`` false; the reply is ``play(card)``.

Anything else raises :class:`arena.games.common.tute.IllegalMove` and changes nothing; the
caller then judges it with :meth:`ParejasPartido.fault`. A card not in hand is
``not_in_hand``; a card outside P13 is ``renuncio``; to a canto or *tirar* request,
a canto or *tirar* that is not offered (P22, A23) is ``false_canto`` (a renuncio);
a canto or *tirar* beside a card request, a card where none is awaited, no card where
one is, or an unknown canto name is ``protocol`` (as the referee's reply check judges them).

Pairs are indexed 0 (seats 0 and 2) and 1 (seats 1 and 3) in every list of two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena import protocol
from arena.games.common.cards import NAMES, POINTS, SUITS, card, mask, names_of, parse
from arena.games.common.deal import deal_key, deal_order
from arena.games.common.tute import RULE_FAULTS, TUTE, IllegalMove, RulesError
from arena.games.parejas import rules as pr
from arena.games.parejas import wire
from arena.games.parejas.rules import ParejasRules
from arena.i18n import _
from arena.seeds import Seed

Event = dict[str, Any]
TWO_ORO = card(2, "oro")
FAULT_REASONS: tuple[str, ...] = RULE_FAULTS + protocol.PROCESS_FAULTS
"""Every fault a partido records: against the rules, or of the player's program."""
SEATS = (0, 1, 2, 3)

TIRAR_PHASE, SING_PHASE, PLAY_PHASE = "tirar", "sing", "play"
"""What the seat to move is asked for: to give up or not, to sing or pass, a card."""


def stack_hands(hands: Sequence[Sequence[str]], first: int = 0) -> list[int]:
    """The deck order that deals ``hands`` (by seat, 10 names each) when dealing starts at ``first``.

    For :class:`ParejasPartido`'s ``stacked``. In mano 1 ``first`` is any seat
    (the ``2-oro`` decides the mano); in a later mano dealing starts at the mano,
    and the last name of the dealer's hand (the seat left of ``first``) is the
    40th card, shown as trump (P9).
    """
    deck = [parse(hands[(first + i) % pr.PLAYERS][r]) for r in range(pr.BAZAS) for i in range(pr.PLAYERS)]
    if sorted(deck) != list(range(40)) or any(len(h) != pr.BAZAS for h in hands):
        raise RulesError(_("stacked hands must hold the 40 cards exactly once"))
    return deck


class _Mano:
    """One mano in play: hands by seat, the baza on the table, what each pair took and sang."""

    def __init__(self, number: int, trump: int, mano_seat: int, hands: list[int]) -> None:
        self.number = number
        self.trump = trump
        self.mano_seat = mano_seat
        self.hands = hands
        self.phase = PLAY_PHASE
        self.turn = mano_seat
        self.leader = mano_seat
        self.table: list[tuple[int, int]] = []
        self.lead = -1  # the led suit, -1 before the baza's first card
        self.winning = -1  # the card winning the baza so far
        self.baza = 1  # the baza in progress, 1..10
        self.bazas = [0, 0]  # by pair
        self.card_points = [0, 0]
        self.cantos = [0, 0]  # tantos sung, by pair (counted or not: P24 is applied at the end)
        self.sung_suits = 0
        self.has_sung = [False] * pr.PLAYERS
        self.moment_cantos = 0  # cantos sung since the last baza
        self.queue: list[int] = []  # seats still to be offered tirar, or a canto, the first one asked now
        self.last_pair = -1
        self.over = False


class ParejasPartido:
    """A partido of Tute por parejas among seats ``0..3``, dealt from ``seed`` under ``rules``.

    Drive it with :attr:`to_move`, :meth:`request`, :meth:`play` and :meth:`fault`
    until :attr:`over`. ``porotos`` holds each seat's pair's juegos (partners
    equal); ``winners`` the winning pair's seats once it is over. ``rules`` is a
    :class:`ParejasRules`, its :meth:`~ParejasRules.to_dict` or None (``ludoteka``).

    ``stacked`` (tests and teaching) maps a mano's number to ``(first seat dealt,
    deck order)`` (see :func:`stack_hands`); the first seat is used in mano 1 only.
    With ``deal`` false mano 1 waits for :meth:`start`, so that faults judged
    before it (the referee's ``hello`` faults) come first.

    **Faults** (``docs/rules.md``, "Faults", read for pairs; A26 leaves it to the
    referee, and these are the readings chosen): a disqualified player's pair
    loses the partido at once, the other pair wins it (the mano in progress is
    void); under ``penalize`` a renuncio or false canto ends the mano at once and
    the other pair wins **2 juegos**, as in 003's table rule, and the partido goes
    on unless that reaches N. Faults before :meth:`start` each disqualify their
    seat; :meth:`start` then ends the partido after 0 manos, won by the pair with
    nobody disqualified (by nobody when both pairs have a disqualified seat).
    """

    n: int
    events: list[Event]
    porotos: list[int]
    winners: list[int]
    disqualified: list[int]
    mano_number: int
    over: bool

    def __init__(
        self,
        n: int,
        seed: Seed,
        rules: ParejasRules | Mapping[str, Any] | None = None,
        *,
        stacked: Mapping[int, tuple[int, Sequence[int]]] | None = None,
        deal: bool = True,
    ) -> None:
        if n != pr.PLAYERS:
            raise RulesError(_("Tute por parejas needs exactly 4 players, not {n}").format(n=n))
        if rules is None:
            rules = ParejasRules()
        elif isinstance(rules, Mapping):
            rules = ParejasRules.from_dict(rules)
        elif not isinstance(rules, ParejasRules):
            raise RulesError(
                _("the rules of Tute por parejas are a ParejasRules or its dict, not {value}").format(
                    value=repr(rules)
                )
            )
        self.n = n
        self._seed = seed
        self._key = deal_key(seed)
        self._rules = rules
        self.stacked = dict(stacked or {})
        self.events = []
        self.juegos = [0, 0]
        self.porotos = [0] * n
        self.winners = []
        self.disqualified = []
        self.mano_number = 0
        self.mano: _Mano | None = None
        self.mano_seat = -1
        self.dealer = -1
        self.over = False
        self.started = False
        """Whether :meth:`start` ran: mano 1 was dealt, or the partido ended before it."""
        if deal:
            self.start()

    # ------------------------------------------------------------ queries

    @property
    def rules(self) -> ParejasRules:
        """The partido's rule set."""
        return self._rules

    @property
    def seed(self) -> Seed:
        """What the deals come from."""
        return self._seed

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is awaited, or None when the partido is over (or not started)."""
        return None if self.over or self.mano is None else self.mano.turn

    def legal(self) -> list[str]:
        """The cards the seat to move may play; empty when it is asked only to sing or give up."""
        m = self._current()
        if m.phase != PLAY_PHASE:
            return []
        return names_of(self._legal_mask(m))

    def may_sing(self) -> list[str]:
        """The cantos the seat to move may sing now (tute, cuarenta, veintes in suit order)."""
        m = self._current()
        return self._may_sing(m) if m.phase == SING_PHASE else []

    def may_concede(self) -> bool:
        """Whether the seat to move may give up the mano (``espanol``'s *tirar las cartas*)."""
        return self._current().phase == TIRAR_PHASE

    def request(self) -> wire.PlayRequest:
        """The ``play`` request for the seat to move (without ``id``).

        ``mano`` and ``baza`` (1-10) number the decision; ``hand`` is the seat's
        cards; ``table`` the baza so far as ``{"seat", "card"}`` in playing order;
        ``trump`` the trump suit; ``legal`` the cards it may play (empty when it is
        asked only to sing or give up); ``may_sing`` the cantos it may sing now;
        ``may_concede`` whether it may *tirar las cartas*; ``partner`` its
        partner's seat; ``tantos`` each pair's card points taken so far plus the
        cantos it sang (under ``espanol`` P24 is applied only at the end, without
        the 10 de últimas); ``juegos`` each pair's juegos in the partido.
        """
        m = self._current()
        seat = m.turn
        return {
            "type": "play",
            "mano": self.mano_number,
            "baza": m.baza,
            "hand": names_of(m.hands[seat]),
            "table": [{"seat": s, "card": NAMES[c]} for s, c in m.table],
            "trump": SUITS[m.trump],
            "legal": self.legal(),
            "may_sing": self.may_sing(),
            "may_concede": self.may_concede(),
            "partner": pr.partner(seat),
            "tantos": [m.card_points[p] + m.cantos[p] for p in (0, 1)],
            "juegos": self.juegos[:],
        }

    def moves(self) -> list[tuple[str | None, str | None]]:
        """Every ``(card, sing)`` the seat to move may answer: a legal card, or a canto, tirar or a pass."""
        legal = self.legal()
        if legal:
            return [(c, None) for c in legal]
        offered = [*self.may_sing(), *([pr.TIRAR] if self.may_concede() else [])]
        return [(None, None), *((None, s) for s in offered)]

    def view(self, event: Event, seat: int) -> Event:
        """``event`` as the player at ``seat`` may see it: in ``mano_start`` only its own ``hand``.

        Measured times of ``played`` and the evidence of faults stay in the replay
        (as :func:`arena.protocol.view` does for Tute Cabrero).
        """
        kind = event["type"]
        if kind == "mano_start":
            shown = {k: v for k, v in event.items() if k != "hands"}
            shown["hand"] = list(event["hands"][seat])
            return shown
        if kind == "played":
            return {"type": "played", "seat": event["seat"], "card": event["card"]}
        if kind in ("disqualified", "penalized"):
            return protocol.view(event, seat)
        return dict(event)

    def ranking(self) -> list[list[int]]:
        """The winning pair first, as one group; then the other pair; the disqualified last.

        A disqualified player ranks below everyone (``docs/rules.md``, "Faults"),
        so a pair that lost by its player's disqualification ranks as the partner,
        then the offender. Before the end, everyone not disqualified ties.
        """
        groups: list[list[int]] = [sorted(self.winners)] if self.winners else []
        rest = [s for s in SEATS if s not in self.winners and s not in self.disqualified]
        if rest:
            groups.append(rest)
        groups += [[s] for s in reversed(self.disqualified)]
        return groups

    # ------------------------------------------------------------ actions

    def start(self) -> None:
        """Deal mano 1 (``deal=False`` only); after faults before it, end the partido instead."""
        if self.started:
            raise RulesError("the partido has already started")  # not shown
        self.started = True
        if self.disqualified:
            losers = {pr.pair_of(s) for s in self.disqualified}
            self._end_partido(None if len(losers) == 2 else 1 - losers.pop())
        else:
            self._deal()

    def play(self, card: str | int | None, sing: str | None = None, accuse: int | None = None) -> None:
        """The seat to move decides: a ``card`` from ``legal``, or ``sing`` a canto or ``"tirar"``.

        ``play(None)`` passes when the seat is asked only to sing or give up; ``accuse``
        (Tute Cabrero's ``accuse`` policy) does not exist here. Raises :class:`IllegalMove`
        (its ``reason`` the fault) and changes nothing when the decision is not allowed;
        the caller then calls :meth:`fault`.
        """
        m = self._current()
        seat = m.turn
        if accuse is not None:
            raise IllegalMove("protocol", _("Tute por parejas has no accusations"))
        if sing is not None and m.phase == PLAY_PHASE:  # A23: the reply's shape, not a renuncio
            raise IllegalMove(
                "protocol",
                _("seat {seat} is asked for a card: a canto or tirar is answered only when offered").format(
                    seat=seat
                ),
                canto=sing if isinstance(sing, str) else repr(sing),
            )
        if sing is not None:
            self._check_sing(m, seat, sing)
        if m.phase != PLAY_PHASE:
            if card is not None:
                raise IllegalMove(
                    "protocol",
                    _("seat {seat} is asked to sing or pass, not for a card").format(seat=seat),
                    card=card if isinstance(card, str) else repr(card),
                )
            if m.phase == TIRAR_PHASE:
                self._tirar(m, seat, sing)
            else:
                self._sing(m, seat, sing)
            return
        if card is None:
            raise IllegalMove("protocol", _("seat {seat} must play a card now").format(seat=seat))
        c = _card_id(card)
        if c < 0 or not m.hands[seat] >> c & 1:
            shown = card if isinstance(card, str) else repr(card)
            raise IllegalMove(
                "not_in_hand",
                _("{card} is not in the hand of seat {seat}").format(card=shown, seat=seat),
                card=shown,
            )
        legal = self._legal_mask(m)
        if not legal >> c & 1:
            raise IllegalMove(
                "renuncio",
                _("{card} is a renuncio: seat {seat} had to play one of {cards}").format(
                    card=NAMES[c], seat=seat, cards=", ".join(names_of(legal))
                ),
                card=NAMES[c],
            )
        self._play_card(m, seat, c)

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Judge a fault of ``seat``; returns False when it is ignored (see the class's "Faults").

        Faults after the partido is decided, or of a seat already disqualified,
        are ignored. A renuncio or false canto under ``penalize`` during a mano
        costs the offender's pair the mano (the other pair wins 2 juegos); every
        other fault disqualifies, and the offender's pair loses the partido.
        """
        if reason not in FAULT_REASONS:
            raise RulesError(f"unknown fault reason {reason!r}")  # not shown
        if self.over or seat in self.disqualified:
            return False
        m = self.mano
        in_mano = m is not None and not m.over
        if reason in ("renuncio", "false_canto") and self._rules.renuncio == "penalize" and in_mano:
            self.events.append(
                {"type": "penalized", "seat": seat, "reason": reason, "detail": detail, **evidence}
            )
            self._finish_mano("penalty", 1 - pr.pair_of(seat), pr.PENALTY_JUEGOS)
            return True
        self.disqualified.append(seat)
        self.events.append(
            {"type": "disqualified", "seat": seat, "reason": reason, "detail": detail, **evidence}
        )
        if not self.started:
            return True  # start() decides
        if in_mano:
            self._finish_mano("void")
        self._end_partido(1 - pr.pair_of(seat))
        return True

    # ------------------------------------------------------------ internals

    def _current(self) -> _Mano:
        if self.over or self.mano is None:
            raise IllegalMove("protocol", _("no play is awaited: the partido is over or not started"))
        return self.mano

    def _legal_mask(self, m: _Mano) -> int:
        return pr.legal_mask(m.hands[m.turn], m.lead, m.winning, m.trump, self._rules.ruleset)

    def _may_sing(self, m: _Mano, seat: int | None = None) -> list[str]:
        s = m.turn if seat is None else seat
        if m.moment_cantos >= self._rules.canto_limit:
            return []
        return pr.valid_cantos(m.hands[s], m.trump, m.sung_suits, m.has_sung[s], self._rules.ruleset)

    def _check_sing(self, m: _Mano, seat: int, sing: object) -> None:
        """Raise IllegalMove unless ``sing`` is offered to ``seat`` now."""
        if sing == pr.TIRAR:
            if m.phase != TIRAR_PHASE:
                raise IllegalMove(
                    "false_canto",
                    _("seat {seat} may not give up the mano now (tirar las cartas)").format(seat=seat),
                    canto=sing,
                )
            return
        if not isinstance(sing, str) or not pr.is_canto_name(sing):
            raise IllegalMove(
                "protocol",
                _("unknown canto {canto}; known: tute, cuarenta, veinte-<suit>").format(canto=repr(sing)),
            )
        if m.phase != SING_PHASE or sing not in self._may_sing(m):
            raise IllegalMove(
                "false_canto",
                _("seat {seat} cannot sing {canto} now").format(seat=seat, canto=sing),
                canto=sing,
            )

    def _tirar(self, m: _Mano, seat: int, sing: str | None) -> None:
        if sing == pr.TIRAR:
            self.events.append({"type": "conceded", "seat": seat})
            self._finish_mano("tirar", 1 - pr.pair_of(seat), pr.TIRAR_JUEGOS)
            return
        m.queue.pop(0)
        if m.queue:
            m.turn = m.queue[0]
        else:
            m.phase, m.turn = PLAY_PHASE, m.mano_seat

    def _sing(self, m: _Mano, seat: int, sing: str | None) -> None:
        if sing is None:
            m.queue.pop(0)
            self._next_singer(m)
            return
        points = pr.canto_points(sing, m.trump)
        self.events.append(
            {"type": "sang", "seat": seat, "canto": sing, "points": None if sing == TUTE else points}
        )
        m.has_sung[seat] = True
        if sing == TUTE:
            juegos = 0 if self._rules.tute_wins_partido else pr.TUTE_JUEGOS  # P21, A17
            self._finish_mano("tute", pr.pair_of(seat), juegos)
            return
        m.sung_suits |= 1 << pr.canto_suit(sing, m.trump)
        m.cantos[pr.pair_of(seat)] += points
        m.moment_cantos += 1
        self._next_singer(m)

    def _next_singer(self, m: _Mano) -> None:
        """Ask the first seat in the queue that may still sing, else the leader for a card."""
        while m.queue:
            if self._may_sing(m, m.queue[0]):
                m.phase, m.turn = SING_PHASE, m.queue[0]
                return
            m.queue.pop(0)
        m.phase, m.turn = PLAY_PHASE, m.leader

    def _play_card(self, m: _Mano, seat: int, c: int) -> None:
        m.hands[seat] &= ~(1 << c)
        if not m.table:
            m.lead, m.winning = c // 10, c
        elif pr.beats(c, m.winning, m.trump):
            m.winning = c
        m.table.append((seat, c))
        self.events.append({"type": "played", "seat": seat, "card": NAMES[c]})
        if len(m.table) < pr.PLAYERS:
            m.turn = pr.right(seat)
            return
        winner = pr.baza_winner(m.table, m.trump)
        pair = pr.pair_of(winner)
        points = sum(POINTS[x] for _s, x in m.table)
        m.bazas[pair] += 1
        m.card_points[pair] += points
        m.last_pair = pair
        self.events.append(
            {
                "type": "trick_end",
                "baza": m.baza,
                "winner": winner,
                "cards": [{"seat": s, "card": NAMES[x]} for s, x in m.table],
                "points": points,
            }
        )
        m.table, m.lead, m.winning = [], -1, -1
        if m.baza == pr.BAZAS:
            self._finish_mano("points")
            return
        m.baza += 1
        m.leader = winner
        m.moment_cantos = 0
        m.queue = [winner, pr.partner(winner)]
        self._next_singer(m)

    def _deal(self) -> None:
        self.mano_number += 1
        k = self.mano_number
        if k in self.stacked:
            start, deck = self.stacked[k][0], list(self.stacked[k][1])
            if sorted(deck) != list(range(40)) or start not in SEATS:
                raise RulesError(
                    _("stacked deal of mano {mano}: not a 40-card deck and an active seat").format(mano=k)
                )
        else:
            start, deck = deal_order(self._key, k, SEATS)  # start: used in mano 1 only
        if k > 1:
            start = pr.right(self.mano_seat)  # P8: the new mano, to the right of the last one
        hands = [0] * pr.PLAYERS
        for i in range(pr.PLAYERS):
            hands[(start + i) % pr.PLAYERS] = mask(deck[i :: pr.PLAYERS])
        shown: int | None = None
        if k == 1:  # P7: oro is trump and the holder of 2-oro is mano
            trump = 0
            mano_seat = next(s for s in SEATS if hands[s] >> TWO_ORO & 1)
        else:  # P9: the dealer's last card, shown and kept
            mano_seat = start
            shown = deck[-1]
            trump = shown // 10
        self.mano_seat, self.dealer = mano_seat, pr.left(mano_seat)
        m = self.mano = _Mano(k, trump, mano_seat, hands)
        self.events.append(
            {
                "type": "mano_start",
                "mano": k,
                "dealer": self.dealer,
                "mano_seat": mano_seat,
                "trump": SUITS[trump],
                "shown": None if shown is None else NAMES[shown],
                "hands": [names_of(h) for h in hands],
                "juegos": self.juegos[:],
            }
        )
        if self._rules.may_concede:
            m.queue = [s for s in _from(mano_seat) if pr.may_tirar(hands[s])]
            if m.queue:
                m.phase, m.turn = TIRAR_PHASE, m.queue[0]

    def _finish_mano(self, outcome: str, winner: int | None = None, juegos: int = 0) -> None:
        """End the mano: score it (``points``) or give ``winner`` its ``juegos``; deal on or end."""
        m = self.mano
        assert m is not None
        m.over = True
        tantos: list[int] | None = None
        if outcome == "points":
            tantos = pr.tantos(m.card_points, m.last_pair, m.cantos, self._rules.ruleset)
            winner = pr.mano_winner(tantos, m.last_pair)
            juegos = pr.juegos_for(tantos[winner])
        won = [0, 0]
        if winner is not None:
            won[winner] = juegos
            self.juegos[winner] += juegos
            self.porotos = [self.juegos[pr.pair_of(s)] for s in SEATS]
        self.events.append(
            {
                "type": "mano_end",
                "mano": m.number,
                "outcome": outcome,
                "bazas": m.bazas[:],
                "card_points": m.card_points[:],
                "cantos": m.cantos[:],
                "last_baza": m.last_pair if outcome == "points" else None,
                "tantos": tantos,
                "winner": winner,
                "juegos_won": won,
                "juegos": self.juegos[:],
            }
        )
        if outcome == "void":
            return  # the caller ends the partido
        tute_wins = outcome == "tute" and self._rules.tute_wins_partido
        if tute_wins or (winner is not None and self.juegos[winner] >= self._rules.juegos):
            self._end_partido(winner)
        else:
            self._deal()

    def _end_partido(self, winner: int | None) -> None:
        """End the partido, won by pair ``winner`` (None: by nobody)."""
        self.over = True
        self.winners = list(pr.PAIRS[winner]) if winner is not None else []
        self.events.append(
            {
                "type": "partido_end",
                "winners": self.winners[:],
                "juegos": self.juegos[:],
                "ranking": self.ranking(),
                "manos": self.mano_number,
            }
        )


def _from(seat: int) -> list[int]:
    """The four seats from ``seat`` going right."""
    return [(seat + i) % pr.PLAYERS for i in range(pr.PLAYERS)]


def _card_id(c: object) -> int:
    """The card id of a name or id; -1 when it is no card at all."""
    if isinstance(c, str):
        try:
            return parse(c)
        except ValueError:
            return -1
    return c if type(c) is int and 0 <= c < 40 else -1
