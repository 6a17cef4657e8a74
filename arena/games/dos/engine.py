"""The partido of Tute de a dos as a deterministic state machine over :mod:`arena.games.dos.rules`.

:class:`DosPartido` is what the referee drives through :class:`arena.games.gamespec.Game`: it deals
every mano from the seed (:func:`arena.games.common.deal.deal_key` and
:func:`~arena.games.common.deal.deal_order`; the first mano's mano is the seat that
draw names, D6, B3), asks one seat at a time for a decision, checks every card, cambio
and canto, applies faults, scores the manos in juegos and records the omniscient events.

**Decisions.** Every decision is a request for :attr:`DosPartido.to_move`, of one of two
kinds, told apart by the request's fields:

* *a card*: ``legal`` lists the cards D13/D14 allow (never empty), ``may_sing`` is
  empty; the reply is ``play(card)``.
* *the moment* (D15): right after a baza won (not the 20th), its winner is offered
  what it may do now: ``legal`` is empty and ``may_sing`` lists the cantos it may sing
  (D18) and, when D16/D17 allow it, ``"cambio"``. The reply is ``play(None, canto)``,
  ``play(None, "cambio")`` or ``play(None)`` to pass. After a cambio the winner is asked
  again if it may still sing (B11); a canto or a pass ends the moment; a tute ends the
  mano (D20). A winner with nothing to do is not asked.

Anything else raises :class:`arena.games.common.tute.IllegalMove` and changes nothing; the
caller then judges it with :meth:`DosPartido.fault`. A card not in hand is ``not_in_hand``;
a card outside D14 is ``renuncio``; a canto or a cambio not offered now (D17, D21) is
``false_canto`` (a renuncio, D28; a false cambio is judged like a false canto, B22); a card
where none is awaited, no card where one is, or a ``sing`` that names neither a canto nor
the cambio is ``protocol``.

Lists of two (``tantos``, ``juegos``, …) are by seat.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.common.cards import NAMES, POINTS, SUITS, names_of
from arena.games.common.juegos import FAULT_REASONS as FAULT_REASONS
from arena.games.common.juegos import PLAY_PHASE, Event, JuegosPartido, Mano
from arena.games.common.tute import TUTE, IllegalMove
from arena.games.dos import rules as dr
from arena.games.dos import wire
from arena.games.dos.rules import DosRules
from arena.i18n import N_, _

SEATS = (0, 1)
CAMBIO = "cambio"
"""The ``sing`` of a cambio (D16): offered in ``may_sing`` beside the cantos."""

MOMENT_PHASE = "moment"
"""What the seat to move is asked for at the moment after a baza won (else a card, ``PLAY_PHASE``)."""


class _Mano(Mano):
    """One mano in play: hands by seat, the monte, the baza on the table, what each seat took and sang.

    ``baza`` runs 1..20 (at a moment: the one about to be led); ``bazas``, ``card_points``,
    ``cantos`` and ``last_baza`` are by seat.
    """

    def __init__(
        self, number: int, trump: int, mano_seat: int, hands: Sequence[int], monte: Sequence[int]
    ) -> None:
        super().__init__(number, trump, mano_seat, hands)
        self.monte = tuple(monte)
        self.led = dr.NO_CARD  # the card led in the baza in progress
        self.cambio_made = False  # at the moment in progress (B11)


class DosPartido(JuegosPartido[DosRules, _Mano]):
    """A partido of Tute de a dos between seats ``0`` and ``1``, dealt from ``seed`` under ``rules``.

    Drive it with :attr:`to_move`, :meth:`request`, :meth:`play` and :meth:`fault` until
    :attr:`over`. ``juegos`` (and ``porotos``, the same) hold each seat's juegos; ``winners``
    the winning seat once it is over. ``rules`` is a :class:`DosRules`, its
    :meth:`~DosRules.to_dict` or None (``habanero``, 2 juegos, ``disqualify``).

    ``stacked`` (tests and teaching) maps a mano's number to ``(mano seat, deck order)``; the
    seat is used in mano 1 only (later manos alternate, D6). With ``deal`` false mano 1
    waits for :meth:`start`, so that faults judged before it (the referee's ``hello``
    faults) come first.

    **Faults** (D28): a disqualified player loses the partido at once and the other wins it
    (the mano in progress is void); under ``penalize`` a renuncio or false canto (or false
    cambio) ends the mano at once and the other player wins **2 juegos** (B21), and the
    partido goes on unless that reaches N. Faults before :meth:`start` each disqualify their
    seat; :meth:`start` then ends the partido after 0 manos, won by the other seat (by nobody
    when both are disqualified). :meth:`ranking`: the winner first; then the other; a
    disqualified player last (D28).

    The bookkeeping (rules, faults, the end of a mano and of the partido, the view) is
    :class:`arena.games.common.juegos.JuegosPartido`'s; each seat is a side.
    """

    PLAYERS = dr.PLAYERS
    SEATS = SEATS
    RULES = DosRules
    PENALTY_JUEGOS = dr.PENALTY_JUEGOS
    HIDDEN_AT_START = ("hands", "monte")
    NEEDS_PLAYERS = N_("Tute de a dos needs exactly 2 players, not {n}")
    NOT_RULES = N_("the rules of Tute de a dos are a DosRules or its dict, not {value}")

    # ------------------------------------------------------------ queries

    def legal(self) -> list[str]:
        """The cards the seat to move may play (D13, D14); empty at a moment."""
        m = self._current()
        return names_of(self._legal_mask(m)) if m.phase == PLAY_PHASE else []

    def may_sing(self) -> list[str]:
        """What the seat to move may do at a moment: cantos (tute, cuarenta, veintes), then ``cambio``."""
        m = self._current()
        return self._offer(m) if m.phase == MOMENT_PHASE else []

    def request(self) -> wire.PlayRequest:
        """The ``play`` request for the seat to move (without ``id``).

        ``mano`` and ``baza`` (1-20; at a moment, the baza about to be led) number the
        decision; ``hand`` is the seat's cards; ``table`` the baza so far as ``{"seat",
        "card"}`` (at a moment, empty); ``trump`` the trump suit; ``shown`` the card face up
        under the monte (null once it is drawn); ``monte`` the cards left in it; ``legal``
        the cards it may play (empty at a moment); ``may_sing`` what it may do at a moment;
        ``tantos`` each seat's card points taken so far plus its cantos (the 10 de últimas
        come at the end); ``juegos`` each seat's juegos in the partido.
        """
        m = self._current()
        seat = m.turn
        turned = dr.turned_up(m.monte)
        return {
            "type": "play",
            "mano": self.mano_number,
            "baza": m.baza,
            "hand": names_of(m.hands[seat]),
            "table": [{"seat": s, "card": NAMES[c]} for s, c in m.table],
            "trump": SUITS[m.trump],
            "shown": NAMES[turned] if turned >= 0 else None,
            "monte": len(m.monte),
            "legal": self.legal(),
            "may_sing": self.may_sing(),
            "tantos": [m.card_points[s] + m.cantos[s] for s in SEATS],
            "juegos": self.juegos[:],
        }

    def moves(self) -> list[tuple[str | None, str | None]]:
        """Every ``(card, sing)`` the seat to move may answer: a legal card; at a moment, a pass, a canto
        or the cambio."""
        legal = self.legal()
        if legal:
            return [(c, None) for c in legal]
        return [(None, None), *((None, s) for s in self.may_sing())]

    def view(self, event: Event, seat: int) -> Event:
        """``event`` (one of :attr:`events`) as the player at ``seat`` may see it.

        ``mano_start`` shows its own ``hand`` only, never the other's nor the ``monte``; a
        ``drew`` of the other seat shows ``card`` null unless it is the card that was face up
        under the monte (``face_up``, D11: both players see it). Measured times of ``played``
        and the evidence of faults stay in the replay (as :func:`arena.games.common.replies.view` does).
        """
        if event["type"] == "drew" and event["seat"] != seat and event.get("face_up") is not True:
            return {**event, "card": None}
        return super().view(event, seat)

    # ------------------------------------------------------------ actions

    def play(self, card: str | int | None, sing: str | None = None, accuse: int | None = None) -> None:
        """The seat to move decides: a ``card`` from ``legal``, or at a moment ``sing`` a canto or
        ``"cambio"``, or ``play(None)`` to pass.

        ``accuse`` (Tute Cabrero's ``accuse`` policy) does not exist here (B21). Raises
        :class:`IllegalMove` (its ``reason`` the fault) and changes nothing when the decision is
        not allowed; the caller then calls :meth:`fault`.
        """
        m = self._current()
        seat = m.turn
        if accuse is not None:
            raise IllegalMove("protocol", _("Tute de a dos has no accusations"))
        if sing is not None:
            self._check_sing(m, seat, sing)
        if m.phase == MOMENT_PHASE:
            self._no_card(seat, card)
            if sing is None:
                self._end_moment(m)
            elif sing == CAMBIO:
                self._cambio(m, seat)
            else:
                self._sing(m, seat, sing)
            return
        self._play_card(m, seat, self._checked_card(m, card))

    # ------------------------------------------------------------ internals

    def _side(self, seat: int) -> int:
        """Each seat plays for itself (D4)."""
        return seat

    def _legal_mask(self, m: _Mano) -> int:
        return dr.legal_mask(m.hands[m.turn], m.led, m.trump, len(m.monte))

    def _offer(self, m: _Mano) -> list[str]:
        """What the winner may do at this moment: its cantos (D18), then the cambio if D16/D17 allow."""
        hand = m.hands[m.turn]
        out = dr.valid_cantos(hand, m.trump, m.sung_suits)
        if not m.cambio_made and dr.may_cambio(hand, m.monte):
            out.append(CAMBIO)
        return out

    def _check_sing(self, m: _Mano, seat: int, sing: object) -> None:
        """Raise IllegalMove unless ``sing`` is offered to ``seat`` now (D17, D21)."""
        if sing == CAMBIO:
            if m.phase != MOMENT_PHASE or CAMBIO not in self._offer(m):
                raise IllegalMove(
                    "false_canto",
                    _("seat {seat} may not make the cambio now: {why}").format(
                        seat=seat, why=self._no_cambio(m, seat)
                    ),
                    canto=CAMBIO,
                )
            return
        if not isinstance(sing, str) or not dr.is_canto_name(sing):
            raise IllegalMove(
                "protocol",
                _("unknown canto {canto}; known: tute, cuarenta, veinte-<suit>, cambio").format(
                    canto=repr(sing)
                ),
            )
        if m.phase != MOMENT_PHASE or sing not in self._offer(m):
            raise IllegalMove(
                "false_canto",
                _("seat {seat} cannot sing {canto} now").format(seat=seat, canto=sing),
                canto=sing,
            )

    def _no_cambio(self, m: _Mano, seat: int) -> str:
        """Why ``seat`` may not make the cambio now (D15-D17), in words."""
        if m.phase != MOMENT_PHASE:
            return _("only the winner of a baza may, right after it")
        if m.cambio_made:
            return _("one cambio was already made at this moment")
        turned = dr.turned_up(m.monte)
        if turned < 0:
            return _("the monte is empty")
        given = dr.cambio_card(turned)
        if given < 0:
            return _("{card} face up is not exchanged").format(card=NAMES[turned])
        return _("{card} is not in the hand").format(card=NAMES[given])

    def _play_card(self, m: _Mano, seat: int, c: int) -> None:
        m.hands[seat] &= ~(1 << c)
        m.table.append((seat, c))
        self.events.append({"type": "played", "seat": seat, "card": NAMES[c]})
        if len(m.table) < dr.PLAYERS:
            m.led = c
            m.turn = dr.other(seat)
            return
        winner = dr.baza_winner(m.leader, m.led, c, m.trump)  # D10
        m.bazas[winner] += 1
        m.card_points[winner] += POINTS[m.led] + POINTS[c]
        m.last_baza = winner
        self.events.append(
            {
                "type": "trick_end",
                "baza": m.baza,
                "cards": [{"seat": s, "card": NAMES[x]} for s, x in m.table],
                "winner": winner,
            }
        )
        m.table, m.led = [], dr.NO_CARD
        m.leader = winner
        if not dr.has_moment(m.baza):  # the 20th baza: the mano is scored (D22)
            self._finish_mano("points")
            return
        m.baza += 1
        m.phase, m.turn, m.cambio_made = MOMENT_PHASE, winner, False  # D15
        if not self._offer(m):
            self._end_moment(m)

    def _cambio(self, m: _Mano, seat: int) -> None:
        """The winner gives the 7 (or the 2) of triunfo for the card face up (D16); then it may sing."""
        turned = dr.turned_up(m.monte)
        given = dr.cambio_card(turned)
        m.hands[seat], m.monte = dr.cambio(m.hands[seat], m.monte)
        m.cambio_made = True
        self.events.append({"type": "exchanged", "seat": seat, "gave": NAMES[given], "took": NAMES[turned]})
        if not self._offer(m):
            self._end_moment(m)

    def _sing(self, m: _Mano, seat: int, canto: str) -> None:
        """A canto ends the moment (one a moment, D15, B14); a tute ends the mano (D20)."""
        self.events.append({"type": "sang", "seat": seat, "canto": canto})
        if canto == TUTE:
            self._finish_mano("tute", seat, dr.JUEGOS_PER_MANO)
            return
        m.cantos[seat] += dr.canto_points(canto, m.trump)
        m.sung_suits = dr.sing(m.sung_suits, canto, m.trump)
        self._end_moment(m)

    def _end_moment(self, m: _Mano) -> None:
        """Both draw, the winner first (D11); the winner leads the next baza (D9)."""
        winner = m.leader
        if len(m.monte) >= dr.PLAYERS:
            first, second = m.monte[0], m.monte[1]
            last = len(m.monte) == dr.PLAYERS  # the second card drawn is the one face up
            (h0, h1), m.monte = dr.draw(m.hands, m.monte, winner)
            m.hands = [h0, h1]
            self.events.append({"type": "drew", "seat": winner, "card": NAMES[first]})
            drew: Event = {"type": "drew", "seat": dr.other(winner), "card": NAMES[second]}
            if last:
                drew["face_up"] = True
            self.events.append(drew)
        m.phase, m.turn = PLAY_PHASE, winner

    def _deal(self) -> None:
        k, start, deck = self._next_deck()
        mano_seat = start if k == 1 else dr.next_mano(self.mano_seat)  # D6, B3
        d = dr.deal(deck, mano_seat)  # D7, D8
        self.mano_seat, self.dealer = mano_seat, dr.dealer_of(mano_seat)
        self.mano = _Mano(k, d.trump, mano_seat, d.hands, d.monte)
        self.events.append(
            {
                "type": "mano_start",
                "mano": k,
                "dealer": self.dealer,
                "mano_seat": mano_seat,
                "trump": SUITS[d.trump],
                "shown": NAMES[dr.turned_up(d.monte)],
                "hands": [names_of(h) for h in d.hands],
                "monte": [NAMES[c] for c in d.monte],
                "juegos": self.juegos[:],
            }
        )

    def _score(self, m: _Mano) -> tuple[list[int], int, int]:
        """Tantos (D22), the seat that wins the mano (D23) and its juegos (D26)."""
        tantos = dr.tantos(m.card_points, m.last_baza, m.cantos)
        return tantos, dr.mano_winner(tantos, m.last_baza), dr.JUEGOS_PER_MANO

    def _decided(self, outcome: str, winner: int | None) -> bool:
        """A seat with N juegos wins the partido (D27)."""
        return dr.partido_over(self.juegos, self._rules)
