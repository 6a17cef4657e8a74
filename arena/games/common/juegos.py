"""What the engines of the games played to N juegos share (Tute por parejas, Tute de a dos).

:class:`JuegosPartido` is the bookkeeping of such a partido: the rules taken as a rule set,
its dict or None, the deal key and stacked decks, :meth:`~JuegosPartido.start`, the faults
(disqualify, or penalize a renuncio under ``penalize``), the end of a mano scored in juegos,
the end of the partido, the ranking and the players' view of the events. A game's engine
subclasses it with its own mano (a :class:`Mano`), its decisions (``request``, ``moves``,
``play``) and the hooks below; a win goes to a *side*: a pair of partners, or a seat alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from arena import protocol
from arena.games.common import replies
from arena.games.common.cards import NAMES, card_id, names_of
from arena.games.common.deal import deal_key, deal_order
from arena.games.common.tute import RULE_FAULTS, IllegalMove, JuegosRules, RulesError, TuteActions
from arena.i18n import _
from arena.seeds import Seed

Event = dict[str, Any]
FAULT_REASONS: tuple[str, ...] = RULE_FAULTS + protocol.PROCESS_FAULTS
"""Every fault a partido records: against the rules, or of the player's program."""
PLAY_PHASE = "play"
"""The phase of a mano whose seat to move is asked for a card."""


class Mano:
    """One mano in play, what every game's mano keeps: hands by seat, the baza on the table, what
    each side took and sang. A game's mano adds its own state."""

    def __init__(self, number: int, trump: int, mano_seat: int, hands: Sequence[int]) -> None:
        self.number = number
        self.trump = trump
        self.mano_seat = mano_seat
        self.hands = list(hands)
        self.phase = PLAY_PHASE
        self.turn = mano_seat
        self.leader = mano_seat
        self.table: list[tuple[int, int]] = []
        self.baza = 1  # the baza in progress
        self.bazas = [0, 0]  # by side
        self.card_points = [0, 0]
        self.cantos = [0, 0]  # tantos sung, by side
        self.sung_suits = 0
        self.last_baza = -1  # the side that took the last baza so far
        self.over = False


R = TypeVar("R", bound=JuegosRules)
M = TypeVar("M", bound=Mano)


class JuegosPartido(TuteActions, Generic[R, M]):
    """A partido played to N juegos among seats ``0..PLAYERS-1``, dealt from ``seed`` under ``rules``.

    ``juegos`` holds each side's juegos, ``porotos`` each seat's side's; ``winners`` the
    winning side's seats once it is over. A subclass sets the class attributes and supplies:

    * :meth:`_side`: the side (0 or 1) of a seat; a side's seats win or lose together;
    * :meth:`_legal_mask`: the cards the seat to move may play;
    * :meth:`_deal`: deal the next mano (after :meth:`_next_deck`), set :attr:`mano` and record
      its ``mano_start``;
    * :meth:`_score`: the tantos, the winning side and its juegos of a mano played out;
    * :meth:`_decided` (optional): whether a mano just scored ends the partido (by default,
      when the winner has N juegos).

    ``stacked`` maps a mano's number to ``(a seat, deck order)``, used instead of the seed's
    deal; with ``deal`` false mano 1 waits for :meth:`start`.
    """

    PLAYERS: ClassVar[int]
    SEATS: ClassVar[tuple[int, ...]]
    RULES: ClassVar[type[JuegosRules]]
    """The game's rule set class; ``rules`` given as a dict is read with its ``from_dict``."""
    PENALTY_JUEGOS: ClassVar[int]
    """Juegos the other side wins on a penalized renuncio or false canto."""
    HIDDEN_AT_START: ClassVar[tuple[str, ...]] = ("hands",)
    """The fields of ``mano_start`` a player does not see (it sees its own ``hand``)."""
    NEEDS_PLAYERS: ClassVar[str]
    """The message (marked with ``N_``, ``{n}`` the players given) for a wrong number of players."""
    NOT_RULES: ClassVar[str]
    """The message (marked with ``N_``, ``{value}`` what was given) for rules of the wrong kind."""

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
        rules: R | Mapping[str, Any] | None = None,
        *,
        stacked: Mapping[int, tuple[int, Sequence[int]]] | None = None,
        deal: bool = True,
    ) -> None:
        if n != self.PLAYERS:
            raise RulesError(_(self.NEEDS_PLAYERS).format(n=n))
        if rules is None or isinstance(rules, Mapping):
            chosen = self.RULES.from_dict(rules or {})  # None: the game's default rules
        elif isinstance(rules, self.RULES):
            chosen = rules
        else:
            raise RulesError(_(self.NOT_RULES).format(value=repr(rules)))
        self.n = n
        self._seed = seed
        self._key = deal_key(seed)
        self._rules = cast(R, chosen)
        self.stacked = dict(stacked or {})
        self.events = []
        self.juegos = [0, 0]
        self.porotos = [0] * n
        self.winners = []
        self.disqualified = []
        self.mano_number = 0
        self.mano: M | None = None
        self.mano_seat = -1
        self.dealer = -1
        self.over = False
        self.started = False
        """Whether :meth:`start` ran: mano 1 was dealt, or the partido ended before it."""
        if deal:
            self.start()

    # ------------------------------------------------------------ hooks

    def _side(self, seat: int) -> int:
        """The side of ``seat``: 0 or 1."""
        raise NotImplementedError

    def _deal(self) -> None:
        """Deal the next mano: number it and take its deck with :meth:`_next_deck`."""
        raise NotImplementedError

    def _legal_mask(self, m: M) -> int:
        """The cards the seat to move may play now, as a set."""
        raise NotImplementedError

    def _score(self, m: M) -> tuple[list[int], int, int]:
        """A mano played out: each side's tantos, the side that wins it and the juegos it wins."""
        raise NotImplementedError

    def _decided(self, outcome: str, winner: int | None) -> bool:
        """Whether the mano just ended (not void), won by side ``winner``, ends the partido."""
        return winner is not None and self.juegos[winner] >= self._rules.juegos

    # ------------------------------------------------------------ queries

    @property
    def rules(self) -> R:
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

    def view(self, event: Event, seat: int) -> Event:
        """``event`` as the player at ``seat`` may see it: in ``mano_start`` only its own ``hand``.

        Measured times of ``played`` and the evidence of faults stay in the replay (as
        :func:`arena.games.common.replies.view` does for Tute Cabrero).
        """
        kind = event["type"]
        if kind == "mano_start":
            shown = {k: v for k, v in event.items() if k not in self.HIDDEN_AT_START}
            shown["hand"] = list(event["hands"][seat])
            return shown
        if kind == "played":
            return {"type": "played", "seat": event["seat"], "card": event["card"]}
        if kind in ("disqualified", "penalized"):
            return replies.view(event, seat)
        return dict(event)

    def ranking(self) -> list[list[int]]:
        """The winning side first, as one group; then the other side; the disqualified last.

        A disqualified player ranks below everyone (``docs/rules.md``, "Faults"), so a pair
        that lost by its player's disqualification ranks as the partner, then the offender.
        Before the end, everyone not disqualified ties.
        """
        groups: list[list[int]] = [sorted(self.winners)] if self.winners else []
        rest = [s for s in self.SEATS if s not in self.winners and s not in self.disqualified]
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
            losers = {self._side(s) for s in self.disqualified}
            self._end_partido(None if len(losers) == 2 else 1 - losers.pop())
        else:
            self._deal()

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Judge a fault of ``seat``; returns False when it is ignored (see the class's "Faults").

        Faults after the partido is decided, or of a seat already disqualified, are ignored.
        A renuncio or false canto under ``penalize`` during a mano costs the offender's side
        the mano (the other side wins :attr:`PENALTY_JUEGOS`); every other fault disqualifies,
        and the offender's side loses the partido.
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
            self._finish_mano("penalty", 1 - self._side(seat), self.PENALTY_JUEGOS)
            return True
        self.disqualified.append(seat)
        self.events.append(
            {"type": "disqualified", "seat": seat, "reason": reason, "detail": detail, **evidence}
        )
        if not self.started:
            return True  # start() decides
        if in_mano:
            self._finish_mano("void")
        self._end_partido(1 - self._side(seat))
        return True

    # ------------------------------------------------------------ internals

    def _current(self) -> M:
        if self.over or self.mano is None:
            raise IllegalMove("protocol", _("no play is awaited: the partido is over or not started"))
        return self.mano

    def _no_card(self, seat: int, card: object) -> None:
        """Raise IllegalMove if a ``card`` is given where ``seat`` is asked to sing or pass."""
        if card is not None:
            raise IllegalMove(
                "protocol",
                _("seat {seat} is asked to sing or pass, not for a card").format(seat=seat),
                card=card if isinstance(card, str) else repr(card),
            )

    def _checked_card(self, m: M, card: str | int | None) -> int:
        """The card the seat to move plays: IllegalMove unless it holds it and :meth:`_legal_mask` has it."""
        seat = m.turn
        if card is None:
            raise IllegalMove("protocol", _("seat {seat} must play a card now").format(seat=seat))
        c = card_id(card)
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
        return c

    def _next_deck(self) -> tuple[int, int, list[int]]:
        """Number the next mano: its number, the seat the deal picks and the deck, stacked or dealt."""
        self.mano_number += 1
        k = self.mano_number
        if k in self.stacked:
            start, deck = self.stacked[k][0], list(self.stacked[k][1])
            if sorted(deck) != list(range(40)) or start not in self.SEATS:
                raise RulesError(
                    _("stacked deal of mano {mano}: not a 40-card deck and an active seat").format(mano=k)
                )
        else:
            start, deck = deal_order(self._key, k, self.SEATS)
        return k, start, deck

    def _finish_mano(self, outcome: str, winner: int | None = None, juegos: int = 0) -> None:
        """End the mano: score it (``points``) or give side ``winner`` its ``juegos``; deal on or end."""
        m = self.mano
        assert m is not None
        m.over = True
        tantos: list[int] | None = None
        if outcome == "points":
            tantos, winner, juegos = self._score(m)
        won = [0, 0]
        if winner is not None:
            won[winner] = juegos
            self.juegos[winner] += juegos
            self.porotos = [self.juegos[self._side(s)] for s in self.SEATS]
        self.events.append(
            {
                "type": "mano_end",
                "mano": m.number,
                "outcome": outcome,
                "bazas": m.bazas[:],
                "card_points": m.card_points[:],
                "cantos": m.cantos[:],
                "last_baza": m.last_baza if outcome == "points" else None,
                "tantos": tantos,
                "winner": winner,
                "juegos_won": won,
                "juegos": self.juegos[:],
            }
        )
        if outcome == "void":
            return  # the caller ends the partido
        if self._decided(outcome, winner):
            self._end_partido(winner)
        else:
            self._deal()

    def _end_partido(self, winner: int | None) -> None:
        """End the partido, won by side ``winner`` (None: by nobody)."""
        self.over = True
        self.winners = [s for s in self.SEATS if winner is not None and self._side(s) == winner]
        self.events.append(
            {
                "type": "partido_end",
                "winners": self.winners[:],
                "juegos": self.juegos[:],
                "ranking": self.ranking(),
                "manos": self.mano_number,
            }
        )
