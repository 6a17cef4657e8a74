"""The player SDK: subclass :class:`Player`, write :meth:`Player.play`, done.

The same class runs in-process (``arena.referee.table.InProcessConnection``, for
debugging with breakpoints and prints) and in a subprocess (``arena.player.runner``,
for tournaments). This module imports only the cards and rules (the engine only
when :meth:`PlayRequest.simulation` is first called): a player process starts in
about the time of a bare interpreter.

Example::

    from arena.sdk import Player, PlayRequest

    class MyPlayer(Player):
        def play(self, request: PlayRequest) -> str:
            return request.legal()[0]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple, cast

from arena.games.cabrero import rules, wire
from arena.games.common import cards
from arena.games.common.player import BasePlayer, Message, SeenView
from arena.games.common.player import Move as Move
from arena.games.common.player import WrongGame as WrongGame
from arena.games.common.wire import PlayReply

if TYPE_CHECKING:
    from arena.games.cabrero.engine import Mano


_mano_class: type[Mano] | None = None
"""The engine's :class:`Mano`, once :meth:`PlayRequest.simulation` has imported it."""


def _winning(table: Sequence[tuple[int, str]], trump: int) -> tuple[int, str] | None:
    """The (seat, card) winning a baza in progress (:func:`arena.rules.baza_winner`), or None."""
    if not table:
        return None
    seat = rules.baza_winner([(s, cards.parse(c)) for s, c in table], trump)
    return next(t for t in table if t[0] == seat)


def _legal(hand: Iterable[str], table: Sequence[tuple[int, str]], trump: int) -> list[str]:
    """The cards of ``hand`` the rules allow on ``table`` (all of them when leading)."""
    mask = cards.parse_mask(hand)
    win = _winning(table, trump)
    if win is None:
        return cards.names_of(mask)
    lead = cards.parse(table[0][1]) // 10
    return cards.names_of(rules.legal_mask(mask, lead, cards.parse(win[1]), trump))


class TableView(SeenView):
    """A read-only view of everything the player legitimately knows, kept from the events.

    Everything is a property returning immutable values (tuples, strings, ints);
    cards are written ``"12-basto"``. Per-mano facts reset at each ``mano_start``.
    """

    def __init__(self) -> None:
        super().__init__()
        self._rules = rules.RuleSet()
        self._porotos: tuple[int, ...] = ()
        self._active: tuple[int, ...] = ()
        self._last_baza: tuple[tuple[int, str], ...] = ()
        self._done: list[tuple[tuple[int, str], ...]] = []
        self._bazas: list[int] = []
        self._scores: list[int] = []

    # ---- the partido
    @property
    def ruleset(self) -> rules.RuleSet:
        """The rules of this partido (ruleset, variants, renuncio policy)."""
        return self._rules

    @property
    def porotos(self) -> tuple[int, ...]:
        """Porotos (lives) left, by seat."""
        return self._porotos

    @property
    def active(self) -> tuple[int, ...]:
        """The seats still playing the partido."""
        return self._active

    # ---- this mano
    @property
    def sitting_out(self) -> int | None:
        """The six-player dealer who sits this mano out, or None."""
        return self._start.get("sitting_out")

    @property
    def out_of_play(self) -> str | None:
        """The face-up card out of play (three players), or None."""
        return self._start.get("out_of_play")

    @property
    def swaps(self) -> tuple[tuple[int, str, str | None], ...]:
        """The cambio exchanges as (seat, gave, took); ``took`` is None where hidden."""
        return tuple((w["seat"], w["gave"], w["took"]) for w in self._start.get("swaps", ()))

    @property
    def last_baza(self) -> tuple[tuple[int, str], ...]:
        """The cards of the last finished baza (rule 24 lets you look at it)."""
        return self._last_baza

    @property
    def order(self) -> tuple[int, ...]:
        """The seats dealt in this mano, from the mano (who leads the first baza) going right:
        also at its ``mano_end``, when a seat it eliminated is no longer :attr:`active`."""
        n = len(self._players) or len(self._porotos)
        live = set(self._start.get("active", self._active)) - {self.sitting_out}
        start = self.mano_seat
        return tuple([s for i in range(n) if (s := (start + i) % n) in live])

    @property
    def bazas(self) -> tuple[int, ...]:
        """Bazas taken in this mano, by seat."""
        return tuple(self._bazas)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points so far in this mano by seat: cards taken + cantos (the 10 de última come last)."""
        return tuple(self._scores)

    # ---- helpers
    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza in progress, or None before the lead."""
        return _winning(self._table, self.trump_suit)

    def legal(self) -> list[str]:
        """The cards of your hand the rules allow now (all of them when you lead)."""
        return _legal(self._hand, self._table, self.trump_suit)

    @property
    def sung_suits(self) -> int:
        """The pair cantos already sung in this mano, as a set of suit bits."""
        out = 0
        for _seat, canto in self._sung:
            if canto != rules.TUTE:
                out |= 1 << rules.canto_suit(canto, self.trump_suit)
        return out

    def cantos(self) -> list[str]:
        """The cantos your hand could sing (valid only when you may sing: see PlayRequest)."""
        return rules.valid_cantos(cards.parse_mask(self._hand), self.trump_suit, self.sung_suits)

    def proven_renuncios(self) -> dict[int, tuple[str, ...]]:
        """What the public play of this mano proves, by seat: the cards each seat played when it held
        another it played later that the rules would have had it play (:func:`arena.rules.proven_renuncios`).

        Under the ``accuse`` policy, accusing one of these seats is always right; another
        seat may have renunciado unseen (its proof is a card not played yet).
        """
        bazas = [[(s, cards.parse(c)) for s, c in t] for t in [*self._done, self._table]]
        proven = rules.proven_renuncios(bazas, self.trump_suit)
        return {s: tuple(cards.NAMES[c] for c in found) for s, found in sorted(proven.items())}

    def unseen(self) -> list[str]:
        """Cards whose place you do not know: not yours, not played, not face up."""
        known = set(self._hand) | {c for _seat, c in self._played}
        known |= {c for c in (self.shown, self.out_of_play) if c}
        known |= {took for _seat, _gave, took in self.swaps if took}
        return [c for c in cards.NAMES if c not in known]

    def update(self, event: Message) -> None:
        """Fold one protocol event into the view (the SDK calls this for you)."""
        kind = event.get("type")
        self._see(kind, event)
        if kind == "trick_end":
            winner = event["winner"]
            self._bazas[winner] += 1
            self._scores[winner] += sum(cards.POINTS[cards.parse(c["card"])] for c in event["cards"])
            self._last_baza = tuple(self._table)
            self._done.append(self._last_baza)
            self._table = []
        elif kind == "sang":
            if event["canto"] != rules.TUTE:
                suit = rules.canto_suit(event["canto"], self.trump_suit)
                self._scores[event["seat"]] += rules.canto_points(suit, self.trump_suit)
        elif kind == "mano_start":
            self._porotos = tuple(event["porotos"])
            self._active = tuple(event["active"])
            n = len(self._players) or len(event["porotos"])
            self._last_baza, self._done = (), []
            self._bazas, self._scores = [0] * n, [0] * n
        elif kind == "mano_end":
            self._porotos = tuple(event["porotos"])
            self._active = tuple(s for s in self._active if s not in event["eliminated"])
        elif kind == "disqualified":
            self._active = tuple(s for s in self._active if s != event["seat"])
        elif kind == "partido_start":
            r = event["rules"]
            self._rules = rules.RuleSet(r["ruleset"], r["variants"], r["renuncio"])


class PlayRequest(NamedTuple):
    """A request to play, with the rules helpers a player needs to answer it.

    :meth:`legal` gives the cards you may play (a list of names); :attr:`legal_cards` is the
    request's own ``legal`` field as the referee sent it.
    """

    mano: int
    baza: int
    hand: tuple[str, ...]
    table: tuple[tuple[int, str], ...]
    may_sing: bool
    view: TableView
    may_accuse: tuple[int, ...] = ()
    """Under the ``accuse`` policy: the seats you may accuse now (``Move(accuse=k)``); else empty."""
    legal_cards: tuple[str, ...] | None = None
    """The request's ``legal`` (protocol revision 1.3): the cards of the hand the rules allow now,
    in card order, as the referee judges them; None for a request without it (built by hand, or
    from an older referee), when :meth:`legal` computes them from the hand and the table."""

    @classmethod
    def from_message(cls, msg: wire.PlayRequest, view: TableView) -> PlayRequest:
        return cls(
            mano=msg["mano"],
            baza=msg["trick"],
            hand=tuple(msg["hand"]),
            table=tuple((t["seat"], t["card"]) for t in msg["table"]),
            may_sing=msg["may_sing"],
            view=view,
            may_accuse=tuple(msg.get("may_accuse", ())),
            legal_cards=tuple(msg["legal"]) if "legal" in msg else None,
        )

    def legal(self) -> list[str]:
        """The cards of the hand the rules allow now (the request's ``legal``, :attr:`legal_cards`;
        computed from the hand and the table when the request has none)."""
        if self.legal_cards is not None:
            return list(self.legal_cards)
        return _legal(self.hand, self.table, self.view.trump_suit)

    def cantos(self) -> list[str]:
        """The cantos that may be sung now (empty unless ``may_sing``)."""
        if not self.may_sing:
            return []
        return rules.valid_cantos(cards.parse_mask(self.hand), self.view.trump_suit, self.view.sung_suits)

    def winning(self) -> tuple[int, str] | None:
        """The (seat, card) winning the baza so far, or None when you lead."""
        return self.view.winning()

    def simulation(self, *, hidden_hands: Mapping[int, int | Iterable[str]] | None = None) -> Mano:
        """The mano as it stands, as an engine :class:`arena.engine.Mano` to simulate on.

        Your hand is filled in; ``hidden_hands`` gives the other seats' hands as you
        assume or sample them (seat -> card names or a card mask); the seats left out
        hold no cards (0) until you set them, e.g. with ``Mano.with_hands``. Built by
        ``Mano.from_position``: RulesError when the hidden hands do not fit (a card
        seen elsewhere, or the wrong number of cards). Playing on it never touches
        the view nor the partido.
        """
        global _mano_class
        if _mano_class is None:  # the engine, imported the first time only
            from arena.games.cabrero.engine import Mano

            _mano_class = Mano
        view = self.view
        n = len(view.players) or len(view.porotos)
        me = view.seat
        trump = view.trump_suit
        hands = [0] * n
        hands[me] = cards.parse_mask(self.hand)
        if hidden_hands:
            for seat, hand in hidden_hands.items():
                if seat == me or not 0 <= seat < n:
                    from arena.i18n import _

                    raise ValueError(
                        _("hidden_hands are the other seats' hands: not seat {seat} (yours: {mine})").format(
                            seat=seat, mine=me
                        )
                    )
                hands[seat] = hand if isinstance(hand, int) else cards.parse_mask(hand)
        sung = view.sung
        bazas = [*view.bazas, *[0] * (n - len(view.bazas))]
        card_points = [*view.scores, *[0] * (n - len(view.scores))]  # less the cantos' points:
        for seat, name in sung:
            if name != rules.TUTE:
                card_points[seat] -= rules.canto_points(rules.canto_suit(name, trump), trump)
        return _mano_class.from_position(
            number=self.mano,
            trump=trump,
            order=view.order,
            hands=hands,
            turn=me,
            table=[(s, cards.parse(c)) for s, c in self.table],
            bazas=bazas,
            card_points=card_points,
            sung=sung,
            may_sing=self.may_sing,
        )


class ReviewRequest(NamedTuple):
    """Under the ``accuse`` policy, after a mano's last baza: accuse one of ``may_accuse``, or not."""

    may_accuse: tuple[int, ...]
    view: TableView

    def proven(self) -> list[int]:
        """The seats of ``may_accuse`` the public play proves renunciaron (see ``view.proven_renuncios``)."""
        shown = self.view.proven_renuncios()
        return [s for s in self.may_accuse if s in shown]


class Player(BasePlayer):
    """Base class of a Tute Cabrero player. Override :meth:`play`; the rest is optional.

    Hooks: override ``on_<event type>(event)`` (``on_mano_start``, ``on_played``,
    ``on_trick_end``, …) to watch the partido; :attr:`view` already tracks it.
    """

    game = "tute-cabrero"
    view: TableView

    def __init__(self) -> None:
        self.view = TableView()

    def play(self, request: PlayRequest) -> Move | str:
        """Choose a card (a name like ``"3-copa"``) or a :class:`Move` with a canto (or an accusation)."""
        from arena.i18n import _

        raise NotImplementedError(_("a player must implement play()"))

    def review(self, request: ReviewRequest) -> int | None:
        """Under the ``accuse`` policy, after the mano's last baza: a seat to accuse, or None (default)."""
        return None

    # ---- used by the runners; players need not call these

    def handle_play(self, msg: Message) -> Message:
        """Answer a ``play`` request with a reply message (a playoff's, by :attr:`playoff`'s player)."""
        hosted = self.hosted(msg)
        if hosted is not None:
            return hosted.handle_play(msg)
        move = self.play(PlayRequest.from_message(cast(wire.PlayRequest, msg), self.view))
        if isinstance(move, str):
            move = Move(card=move)
        if move.accuse is not None:
            accuse: wire.AccuseReply = {"type": "accuse", "id": msg["id"], "seat": move.accuse}
            return cast(Message, accuse)
        reply: PlayReply = {"type": "play", "id": msg["id"]}
        if move.card is not None:
            reply["card"] = move.card
        if move.sing is not None:
            reply["sing"] = move.sing
        return cast(Message, reply)

    def handle_review(self, msg: Message) -> Message:
        """Answer a ``review`` request (the ``accuse`` policy) with a reply message."""
        request = cast(wire.ReviewRequest, msg)
        accused = self.review(ReviewRequest(tuple(request["may_accuse"]), self.view))
        reply: wire.ReviewReply = {"type": "review", "id": msg["id"], "accuse": accused}
        return cast(Message, reply)
