"""The player SDK of Tute de a dos: subclass :class:`DosPlayer`, write :meth:`~DosPlayer.play`.

Players import it as :mod:`arena.dos.sdk`. It mirrors the other games' SDKs: the same
:class:`Move`, the same hooks (``on_mano_start``, ``on_played``, ``on_drew``, …), a read-only
:class:`DosView` kept from the events. The rules are in ``docs/rules-dos.md`` and, as functions,
in :mod:`arena.dos.rules`.

Every request is one of two kinds (:attr:`DosRequest.kind`):

* ``"card"``: play one of ``request.legal``: return its name (``"3-copa"``). In phase 1
  (``request.monte`` > 0) every card in hand is legal (D13); in phase 2 follow suit and
  beat, else trump (D14).
* ``"sing"``: right after a baza you won (the *moment*, D15), do one of
  ``request.may_sing``: a canto (``Move(sing="cuarenta")``), the cambio
  (``Move(sing="cambio")``: give the 7 or the 2 of triunfo for the card face up under the
  monte, D16; you are then asked again if you may sing), or pass (``None``).

Example::

    from arena.dos.sdk import DosPlayer, DosRequest, Move

    class MyPlayer(DosPlayer):
        def play(self, request: DosRequest) -> Move | str | None:
            if request.kind == "card":
                return request.legal[0]
            if request.may_cambio:
                return Move(sing="cambio")
            return Move(sing=request.cantos[0]) if request.cantos else None

The module imports only the rules: a player's process starts without the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from arena.games.common import cards
from arena.games.common.player import BasePlayer, Message, SeenView, card_or_sing
from arena.games.common.player import Move as Move
from arena.games.common.tute import KING, KNIGHT
from arena.games.dos import rules as dr
from arena.games.dos import wire
from arena.games.dos.rules import DosRules

__all__ = ["CAMBIO", "DosPlayer", "DosRequest", "DosView", "Move", "SimplePlayer"]

CARD, SING = "card", "sing"
"""The kinds of request (:attr:`DosRequest.kind`)."""
CAMBIO = "cambio"
"""The ``sing`` of a cambio (D16), offered in ``may_sing`` beside the cantos."""


def _sorted(names: Iterable[str]) -> list[str]:
    """Card names in the referee's order (suit, then strength)."""
    return cards.names_of(cards.parse_mask(names))


def _winning(table: Sequence[tuple[int, str]], trump: int) -> tuple[int, str] | None:
    """The (seat, card) winning a baza in progress (D10), or None before the lead."""
    if not table:
        return None
    best = table[0]
    for seat, c in table[1:]:
        if dr.beats(cards.parse(c), cards.parse(best[1]), trump):
            best = (seat, c)
    return best


def _legal(hand: Iterable[str], table: Sequence[tuple[int, str]], trump: int, monte: int) -> list[str]:
    """The cards of ``hand`` D13/D14 allow on ``table`` with ``monte`` cards left (all when leading)."""
    led = cards.parse(table[0][1]) if table else dr.NO_CARD
    return cards.names_of(dr.legal_mask(cards.parse_mask(hand), led, trump, monte))


class DosView(SeenView):
    """A read-only view of everything the player legitimately knows, kept from the events.

    Everything is a property returning immutable values (tuples, strings, ints); cards are
    written ``"12-basto"``; lists of two are by seat. Per-mano facts reset at each
    ``mano_start``. It never holds the other's hand or the monte's order: only your own
    hand, the cards played, the card face up and the other's cards you have seen it take
    (a cambio, the face-up card drawn) or sing.
    """

    def __init__(self) -> None:
        super().__init__()
        self._rules = DosRules()
        self._shown: str | None = None
        self._monte = 0
        self._known: list[str] = []
        self._last_baza: tuple[tuple[int, str], ...] = ()
        self._bazas = [0, 0]
        self._card_points = [0, 0]
        self._canto_points = [0, 0]
        self._juegos: tuple[int, ...] = (0, 0)

    # ---- the partido
    @property
    def other(self) -> int:
        """The other player's seat (D4)."""
        return dr.other(self._seat)

    @property
    def rules(self) -> DosRules:
        """The rules of this partido: ``ruleset`` (habanero), ``juegos`` to win (N), ``renuncio``."""
        return self._rules

    @property
    def juegos(self) -> tuple[int, ...]:
        """Juegos won so far in the partido, by seat."""
        return self._juegos

    # ---- this mano (and what SeenView keeps: mano, trump, hand, played, table, sung)
    @property
    def shown(self) -> str | None:
        """The card face up under the monte now (the turned-up triunfo, or the card a cambio put
        there), drawn last; None once the monte is empty (D8, D11)."""
        return self._shown

    @property
    def monte(self) -> int:
        """Cards left in the monte, the face-up one included (24 after the deal, D8)."""
        return self._monte

    @property
    def phase(self) -> int:
        """1 while the monte has cards, 2 once it is empty (D12)."""
        return dr.phase(self._monte)

    @property
    def other_known(self) -> tuple[str, ...]:
        """The other's cards you know it holds now: taken by a cambio, the face-up card it drew,
        a rey and caballo it sang (and has not played since)."""
        return tuple(_sorted(self._known))

    @property
    def last_baza(self) -> tuple[tuple[int, str], ...]:
        """The cards of the last finished baza."""
        return self._last_baza

    @property
    def bazas(self) -> tuple[int, ...]:
        """Bazas taken in this mano, by seat."""
        return tuple(self._bazas)

    @property
    def card_points(self) -> tuple[int, ...]:
        """Card points taken in this mano, by seat (the 10 de últimas come at the end, D22)."""
        return tuple(self._card_points)

    @property
    def canto_points(self) -> tuple[int, ...]:
        """Tantos sung in this mano (cuarenta 40, veinte 20), by seat."""
        return tuple(self._canto_points)

    @property
    def tantos(self) -> tuple[int, ...]:
        """Tantos so far in this mano, by seat: card points + cantos (as the request's ``tantos``)."""
        return tuple(c + s for c, s in zip(self._card_points, self._canto_points, strict=True))

    @property
    def sung_suits(self) -> int:
        """The suits whose rey and caballo were sung in this mano, as a set of suit bits."""
        out = 0
        for _seat, canto in self._sung:
            if canto != dr.TUTE:
                out = dr.sing(out, canto, self.trump_suit)
        return out

    # ---- helpers
    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza in progress, or None before the lead."""
        return _winning(self._table, self.trump_suit)

    def legal(self) -> list[str]:
        """The cards of your hand the rules allow on the table now (all of them when you lead)."""
        return _legal(self._hand, self._table, self.trump_suit, self._monte)

    def cantos(self) -> list[str]:
        """The cantos your hand could sing at a moment now (D18): tute, cuarenta, veintes."""
        return dr.valid_cantos(cards.parse_mask(self._hand), self.trump_suit, self.sung_suits)

    def may_cambio(self) -> bool:
        """Whether your hand could make the cambio at a moment now (D16): the monte has cards and you
        hold the 7 (or the 2) of triunfo the card face up asks for."""
        if self._shown is None:
            return False
        given = dr.cambio_card(cards.parse(self._shown))
        return given >= 0 and cards.NAMES[given] in self._hand

    def unseen(self) -> list[str]:
        """Cards whose place you do not know: not yours, not played, not face up, not known in the
        other's hand (they are in the other's hand or the monte)."""
        known = set(self._hand) | {c for _seat, c in self._played} | set(self._known)
        if self._shown:
            known.add(self._shown)
        return [c for c in cards.NAMES if c not in known]

    def update(self, event: Message) -> None:
        """Fold one protocol event into the view (the SDK calls this for you)."""
        kind = event.get("type")
        self._see(kind, event)
        if kind == "played":
            if event["seat"] != self._seat and event["card"] in self._known:
                self._known.remove(event["card"])
        elif kind == "trick_end":
            winner = event["winner"]
            self._bazas[winner] += 1
            self._card_points[winner] += sum(cards.POINTS[cards.parse(c["card"])] for c in event["cards"])
            self._last_baza = tuple(self._table)
            self._table = []
        elif kind == "drew":
            self._drew(event["seat"], event.get("card"))
        elif kind == "exchanged":
            seat, gave, took = event["seat"], event["gave"], event["took"]
            if seat == self._seat:
                self._hand = _sorted([c for c in self._hand if c != gave] + [took])
            else:
                self._known = [c for c in self._known if c != gave] + [took]
            self._shown = gave
        elif kind == "sang":
            seat, canto = event["seat"], event["canto"]
            if canto != dr.TUTE:
                self._canto_points[seat] += dr.canto_points(canto, self.trump_suit)
                if seat != self._seat:
                    suit = dr.canto_suit(canto, self.trump_suit)
                    pair = [cards.NAMES[KING[suit]], cards.NAMES[KNIGHT[suit]]]
                    self._known += [c for c in pair if c not in self._known]
        elif kind == "mano_start":
            self._shown = event.get("shown")
            self._monte = dr.MONTE_SIZE
            self._juegos = tuple(event["juegos"])
            self._known, self._last_baza = [], ()
            self._bazas, self._card_points, self._canto_points = [0, 0], [0, 0], [0, 0]
        elif kind in ("mano_end", "partido_end"):
            self._juegos = tuple(event.get("juegos", self._juegos))
        elif kind == "partido_start":
            self._rules = DosRules.from_dict(event.get("rules", {}))

    def _drew(self, seat: int, card: str | None) -> None:
        """A card drawn from the monte (D11): yours, or the other's (its name only when it was face up)."""
        self._monte = max(0, self._monte - 1)
        if card is not None:
            if seat == self._seat:
                self._hand = _sorted([*self._hand, card])
            elif card not in self._known:
                self._known.append(card)
        if self._monte == 0 or (card is not None and card == self._shown):
            self._shown = None


class DosRequest(NamedTuple):
    """A request to decide, with what the referee tells: its :attr:`kind` says what is asked.

    ``legal`` the cards you may play (empty unless a card is asked); ``may_sing`` what you may
    do at a moment (cantos, then ``"cambio"``); ``shown`` the card face up under the monte
    (None once drawn); ``monte`` the cards left in it; ``tantos`` and ``juegos`` by seat
    (tantos as :attr:`DosView.tantos`).
    """

    mano: int
    baza: int
    hand: tuple[str, ...]
    table: tuple[tuple[int, str], ...]
    trump: str
    shown: str | None
    monte: int
    legal: tuple[str, ...]
    may_sing: tuple[str, ...]
    tantos: tuple[int, ...]
    juegos: tuple[int, ...]
    view: DosView

    @classmethod
    def from_message(cls, msg: wire.PlayRequest, view: DosView) -> DosRequest:
        return cls(
            mano=msg["mano"],
            baza=msg["baza"],
            hand=tuple(msg["hand"]),
            table=tuple((t["seat"], t["card"]) for t in msg["table"]),
            trump=msg["trump"],
            shown=msg["shown"],
            monte=msg["monte"],
            legal=tuple(msg["legal"]),
            may_sing=tuple(msg["may_sing"]),
            tantos=tuple(msg["tantos"]),
            juegos=tuple(msg["juegos"]),
            view=view,
        )

    @property
    def kind(self) -> str:
        """What is asked: ``"card"`` (play one of ``legal``) or ``"sing"`` (a canto, the cambio or a pass)."""
        return CARD if self.legal else SING

    @property
    def may_cambio(self) -> bool:
        """Whether the cambio is offered now (``"cambio"`` in ``may_sing``)."""
        return CAMBIO in self.may_sing

    @property
    def cantos(self) -> tuple[str, ...]:
        """The cantos offered now (``may_sing`` without the cambio)."""
        return tuple(s for s in self.may_sing if s != CAMBIO)

    @property
    def phase(self) -> int:
        """1 while the monte has cards (any card is legal), 2 once it is empty (D12)."""
        return dr.phase(self.monte)

    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza so far, or None when you lead."""
        return _winning(self.table, cards.SUITS.index(self.trump))


class DosPlayer(BasePlayer):
    """Base class of a Tute de a dos player. Override :meth:`play`; the rest is optional.

    Hooks: override ``on_<event type>(event)`` (``on_mano_start``, ``on_played``,
    ``on_trick_end``, ``on_drew``, ``on_exchanged``, ``on_sang``, ``on_mano_end``, …);
    :attr:`view` already tracks the partido. A ``hello`` for another game is refused.
    """

    game = "tute-dos"
    view: DosView

    def __init__(self) -> None:
        self.view = DosView()

    def play(self, request: DosRequest) -> Move | str | None:
        """Decide: a card name when ``request.kind == "card"``; else ``Move(sing=…)`` (a canto or
        ``"cambio"``) or None to pass. A string is always a card; a card is never sent unless a
        card is asked, and a canto never with a card.
        """
        from arena.i18n import _

        raise NotImplementedError(_("a player must implement play()"))

    # ---- used by the runners; players need not call these

    def handle_play(self, msg: Message) -> Message:
        """Answer a ``play`` request with a reply message of its kind."""
        request = DosRequest.from_message(cast(wire.PlayRequest, msg), self.view)
        return card_or_sing(msg, request.kind == CARD, self.play(request))


class SimplePlayer(DosPlayer):
    """A plain player: it makes the cambio or sings whenever it may, else plays its first legal card.

    The one that plays a Tute Cabrero playoff [25.3] for a Cabrero player that brings none
    (``Player.playoff``, ``docs/rules.md``); subclass :class:`DosPlayer` to play better.
    """

    def play(self, request: DosRequest) -> Move | str | None:
        if request.kind == CARD:
            return request.legal[0]
        return Move(sing=request.may_sing[0]) if request.may_sing else None
