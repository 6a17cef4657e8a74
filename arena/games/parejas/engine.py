"""The partido of Tute por parejas as a deterministic state machine over :mod:`arena.games.parejas.rules`.

:class:`ParejasPartido` is what the referee drives through :class:`arena.games.gamespec.Game`:
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

from collections.abc import Sequence

from arena.games.common.cards import NAMES, POINTS, SUITS, card, mask, names_of, parse
from arena.games.common.juegos import FAULT_REASONS as FAULT_REASONS
from arena.games.common.juegos import PLAY_PHASE, JuegosPartido, Mano
from arena.games.common.tute import TUTE, IllegalMove, RulesError
from arena.games.parejas import rules as pr
from arena.games.parejas import wire
from arena.games.parejas.rules import ParejasRules
from arena.i18n import N_, _

TWO_ORO = card(2, "oro")
SEATS = (0, 1, 2, 3)

TIRAR_PHASE, SING_PHASE = "tirar", "sing"
"""What the seat to move is asked for: to give up or not, to sing or pass (else a card, ``PLAY_PHASE``)."""


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


class _Mano(Mano):
    """One mano in play: hands by seat, the baza on the table, what each pair took and sang.

    ``baza`` runs 1..10; ``bazas``, ``card_points``, ``cantos`` (counted or not: P24 is
    applied at the end) and ``last_baza`` are by pair.
    """

    def __init__(self, number: int, trump: int, mano_seat: int, hands: Sequence[int]) -> None:
        super().__init__(number, trump, mano_seat, hands)
        self.lead = -1  # the led suit, -1 before the baza's first card
        self.winning = -1  # the card winning the baza so far
        self.has_sung = [False] * pr.PLAYERS
        self.moment_cantos = 0  # cantos sung since the last baza
        self.queue: list[int] = []  # seats still to be offered tirar, or a canto, the first one asked now


class ParejasPartido(JuegosPartido[ParejasRules, _Mano]):
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

    The bookkeeping (rules, faults, the end of a mano and of the partido, the ranking,
    the view) is :class:`arena.games.common.juegos.JuegosPartido`'s; each pair is a side.
    """

    PLAYERS = pr.PLAYERS
    SEATS = SEATS
    RULES = ParejasRules
    PENALTY_JUEGOS = pr.PENALTY_JUEGOS
    NEEDS_PLAYERS = N_("Tute por parejas needs exactly 4 players, not {n}")
    NOT_RULES = N_("the rules of Tute por parejas are a ParejasRules or its dict, not {value}")

    # ------------------------------------------------------------ queries

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

    # ------------------------------------------------------------ actions

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
            self._no_card(seat, card)
            if m.phase == TIRAR_PHASE:
                self._tirar(m, seat, sing)
            else:
                self._sing(m, seat, sing)
            return
        self._play_card(m, seat, self._checked_card(m, card))

    # ------------------------------------------------------------ internals

    def _side(self, seat: int) -> int:
        """A seat's pair (P4)."""
        return pr.pair_of(seat)

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
        m.last_baza = pair
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
        k, start, deck = self._next_deck()  # start: used in mano 1 only
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

    def _score(self, m: _Mano) -> tuple[list[int], int, int]:
        """Tantos (P23, P24), the pair that wins the mano (P25) and its juegos (P26)."""
        tantos = pr.tantos(m.card_points, m.last_baza, m.cantos, self._rules.ruleset)
        winner = pr.mano_winner(tantos, m.last_baza)
        return tantos, winner, pr.juegos_for(tantos[winner])

    def _decided(self, outcome: str, winner: int | None) -> bool:
        """A pair with N juegos wins the partido (P30), and so does a tute where P21 says so."""
        tute_wins = outcome == "tute" and self._rules.tute_wins_partido
        return tute_wins or super()._decided(outcome, winner)


def _from(seat: int) -> list[int]:
    """The four seats from ``seat`` going right."""
    return [(seat + i) % pr.PLAYERS for i in range(pr.PLAYERS)]
