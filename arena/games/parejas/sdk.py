"""The player SDK of Tute por parejas: subclass :class:`ParejasPlayer`, write :meth:`~ParejasPlayer.play`.

Players import it as :mod:`arena.parejas.sdk`. It mirrors :mod:`arena.sdk` (Tute Cabrero): the
same :class:`Move`, the same hooks (``on_mano_start``, ``on_played``, …), a read-only
:class:`ParejasView` kept from the events. The rules are in ``docs/rules-parejas.md`` and, as
functions, in :mod:`arena.parejas.rules`.

Every request is one of three kinds (:attr:`ParejasRequest.kind`):

* ``"card"``: play one of ``request.legal``: return its name (``"3-copa"``);
* ``"sing"``: right after a baza your pair won, sing one of ``request.may_sing``
  (``Move(sing="cuarenta")``) or pass (``None``);
* ``"tirar"`` (``espanol`` only, before the mano's first card, with a hand of
  10 card points or less): give up the mano (``Move(sing="tirar")``: the other
  pair wins 2 juegos) or play on (``None``).

Example::

    from arena.parejas.sdk import Move, ParejasPlayer, ParejasRequest

    class MyPair(ParejasPlayer):
        def play(self, request: ParejasRequest) -> Move | str | None:
            if request.kind == "card":
                return request.legal[0]
            if request.kind == "sing":
                return Move(sing=request.may_sing[0])
            return None  # play the mano on
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple, cast

from arena.games.common import cards
from arena.games.common.player import BasePlayer, Message, SeenView, card_or_sing
from arena.games.common.player import Move as Move
from arena.games.parejas import rules as pr
from arena.games.parejas import wire
from arena.games.parejas.rules import ParejasRules

__all__ = ["Move", "ParejasPlayer", "ParejasRequest", "ParejasView"]

CARD, SING, TIRAR = "card", "sing", "tirar"
"""The kinds of request (:attr:`ParejasRequest.kind`)."""


def _winning(table: Sequence[tuple[int, str]], trump: int) -> tuple[int, str] | None:
    """The (seat, card) winning a baza in progress (:func:`arena.parejas.rules.baza_winner`), or None."""
    if not table:
        return None
    seat = pr.baza_winner([(s, cards.parse(c)) for s, c in table], trump)
    return next(t for t in table if t[0] == seat)


def _legal(hand: Iterable[str], table: Sequence[tuple[int, str]], trump: int, ruleset: str) -> list[str]:
    """The cards of ``hand`` P13 allows on ``table`` (all of them when leading)."""
    mask = cards.parse_mask(hand)
    win = _winning(table, trump)
    if win is None:
        return cards.names_of(mask)
    lead = cards.parse(table[0][1]) // 10
    return cards.names_of(pr.legal_mask(mask, lead, cards.parse(win[1]), trump, ruleset))


class ParejasView(SeenView):
    """A read-only view of everything the player legitimately knows, kept from the events.

    Everything is a property returning immutable values (tuples, strings, ints);
    cards are written ``"12-basto"``; lists of two are by pair (pair 0: seats 0
    and 2; pair 1: seats 1 and 3). Per-mano facts reset at each ``mano_start``.
    It never holds another seat's hand: only your own and the cards played.
    """

    def __init__(self) -> None:
        super().__init__()
        self._teams: tuple[tuple[int, ...], ...] = pr.PAIRS
        self._rules = ParejasRules()
        self._last_baza: tuple[tuple[int, str], ...] = ()
        self._bazas = [0, 0]
        self._card_points = [0, 0]
        self._canto_points = [0, 0]
        self._juegos: tuple[int, ...] = (0, 0)

    # ---- the partido
    @property
    def partner(self) -> int:
        """Your partner's seat: the one opposite yours."""
        return pr.partner(self._seat)

    @property
    def pair(self) -> int:
        """Your pair: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
        return pr.pair_of(self._seat)

    @property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each pair: ``((0, 2), (1, 3))``."""
        return self._teams

    @property
    def rules(self) -> ParejasRules:
        """The rules of this partido: ``ruleset`` (ludoteka, espanol), ``juegos`` to win, ``renuncio``."""
        return self._rules

    @property
    def juegos(self) -> tuple[int, ...]:
        """Juegos won so far in the partido, by pair."""
        return self._juegos

    # ---- this mano (and what SeenView keeps: mano, trump, shown, hand, played, table, sung)
    @property
    def last_baza(self) -> tuple[tuple[int, str], ...]:
        """The cards of the last finished baza."""
        return self._last_baza

    @property
    def bazas(self) -> tuple[int, ...]:
        """Bazas taken in this mano, by pair."""
        return tuple(self._bazas)

    @property
    def card_points(self) -> tuple[int, ...]:
        """Card points taken in this mano, by pair (the 10 de últimas come at the end)."""
        return tuple(self._card_points)

    @property
    def canto_points(self) -> tuple[int, ...]:
        """Tantos sung in this mano (cuarenta 40, veinte 20), by pair."""
        return tuple(self._canto_points)

    @property
    def tantos(self) -> tuple[int, ...]:
        """Tantos so far in this mano, by pair: card points + cantos.

        As the request's ``tantos``: the 10 de últimas and, under ``espanol``,
        the 30 that cantos need (P24) are applied only when the mano is scored.
        """
        return tuple(c + s for c, s in zip(self._card_points, self._canto_points, strict=True))

    # ---- helpers
    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza in progress, or None before the lead."""
        return _winning(self._table, self.trump_suit)

    def legal(self) -> list[str]:
        """The cards of your hand the rules allow on the table now (all of them when you lead)."""
        return _legal(self._hand, self._table, self.trump_suit, self._rules.ruleset)

    @property
    def sung_suits(self) -> int:
        """The suits whose rey and caballo were sung in this mano, as a set of suit bits."""
        out = 0
        for _seat, canto in self._sung:
            if canto != pr.TUTE:
                out |= 1 << pr.canto_suit(canto, self.trump_suit)
        return out

    def cantos(self) -> list[str]:
        """The cantos your hand could sing at a canto moment (what is offered: the request's ``may_sing``)."""
        has_sung = any(seat == self._seat for seat, _canto in self._sung)
        return pr.valid_cantos(
            cards.parse_mask(self._hand), self.trump_suit, self.sung_suits, has_sung, self._rules.ruleset
        )

    def unseen(self) -> list[str]:
        """Cards whose place you do not know: not yours, not played, not the face-up ``shown``."""
        known = set(self._hand) | {c for _seat, c in self._played}
        if self.shown:
            known.add(self.shown)
        return [c for c in cards.NAMES if c not in known]

    def update(self, event: Message) -> None:
        """Fold one protocol event into the view (the SDK calls this for you)."""
        kind = event.get("type")
        self._see(kind, event)
        if kind == "trick_end":
            pair = pr.pair_of(event["winner"])
            self._bazas[pair] += 1
            self._card_points[pair] += sum(cards.POINTS[cards.parse(c["card"])] for c in event["cards"])
            self._last_baza = tuple(self._table)
            self._table = []
        elif kind == "sang":
            if event["canto"] != pr.TUTE:
                self._canto_points[pr.pair_of(event["seat"])] += pr.canto_points(
                    event["canto"], self.trump_suit
                )
        elif kind == "mano_start":
            self._juegos = tuple(event["juegos"])
            self._last_baza = ()
            self._bazas, self._card_points, self._canto_points = [0, 0], [0, 0], [0, 0]
        elif kind in ("mano_end", "partido_end"):
            self._juegos = tuple(event["juegos"])
        elif kind == "partido_start":
            self._teams = tuple(tuple(t) for t in event.get("teams", pr.PAIRS))
            self._rules = ParejasRules.from_dict(event["rules"])


class ParejasRequest(NamedTuple):
    """A request to decide, with what the referee tells: its :attr:`kind` says what is asked.

    ``legal`` the cards you may play (empty unless a card is asked); ``may_sing``
    the cantos offered (tute, cuarenta, veintes); ``may_concede`` whether you may
    give up the mano; ``tantos`` and ``juegos`` by pair (tantos as
    :attr:`ParejasView.tantos`).
    """

    mano: int
    baza: int
    hand: tuple[str, ...]
    table: tuple[tuple[int, str], ...]
    trump: str
    legal: tuple[str, ...]
    may_sing: tuple[str, ...]
    may_concede: bool
    partner: int
    tantos: tuple[int, ...]
    juegos: tuple[int, ...]
    view: ParejasView

    @classmethod
    def from_message(cls, msg: wire.PlayRequest, view: ParejasView) -> ParejasRequest:
        return cls(
            mano=msg["mano"],
            baza=msg["baza"],
            hand=tuple(msg["hand"]),
            table=tuple((t["seat"], t["card"]) for t in msg["table"]),
            trump=msg["trump"],
            legal=tuple(msg["legal"]),
            may_sing=tuple(msg["may_sing"]),
            may_concede=bool(msg["may_concede"]),
            partner=msg["partner"],
            tantos=tuple(msg["tantos"]),
            juegos=tuple(msg["juegos"]),
            view=view,
        )

    @property
    def kind(self) -> str:
        """What is asked: ``"card"`` (play one of ``legal``), ``"sing"`` (a canto or pass), ``"tirar"``."""
        if self.legal:
            return CARD
        return SING if self.may_sing else TIRAR

    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza so far, or None when you lead."""
        return _winning(self.table, cards.SUITS.index(self.trump))

    def partner_winning(self) -> bool:
        """Whether your partner is winning the baza so far."""
        win = self.winning()
        return win is not None and win[0] == self.partner


class ParejasPlayer(BasePlayer):
    """Base class of a Tute por parejas player. Override :meth:`play`; the rest is optional.

    Hooks: override ``on_<event type>(event)`` (``on_mano_start``, ``on_played``,
    ``on_trick_end``, ``on_sang``, ``on_mano_end``, …); :attr:`view` already tracks
    the partido. A ``hello`` for another game (Tute Cabrero) is refused.
    """

    game = "tute-parejas"
    view: ParejasView

    def __init__(self) -> None:
        self.view = ParejasView()

    def play(self, request: ParejasRequest) -> Move | str | None:
        """Decide: a card name when ``request.kind == "card"``; else ``Move(sing=…)`` or None to pass.

        ``Move(sing="tirar")`` gives up the mano when ``kind == "tirar"``. A string
        is always a card; a card is never sent unless a card is asked, and a canto
        never with a card.
        """
        from arena.i18n import _

        raise NotImplementedError(_("a player must implement play()"))

    # ---- used by the runners; players need not call these

    def handle_play(self, msg: Message) -> Message:
        """Answer a ``play`` request with a reply message of its kind."""
        request = ParejasRequest.from_message(cast(wire.PlayRequest, msg), self.view)
        return card_or_sing(msg, request.kind == CARD, self.play(request))
