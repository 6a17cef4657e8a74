"""What every game's player SDK shares: the reply :class:`Move`, the :class:`SeenView` of the partido,
and :class:`BasePlayer`, the runners' side of a player (``hello``, events, requests).

A game's SDK (``arena.games.<game>.sdk``) subclasses :class:`BasePlayer` with its own
view, request and :meth:`BasePlayer.play`; the loader takes any subclass.
"""

from __future__ import annotations

from typing import Any, NamedTuple, cast

from arena.games.common import cards
from arena.games.common.wire import PlayReply

Message = dict[str, Any]


class Move(NamedTuple):
    """A reply to a play request: a card, optionally a canto sung before it.

    ``Move(sing="tute")`` sings tute with no card (the mano ends at once).
    ``Move(accuse=k)`` (only under the ``accuse`` policy, ``k`` in ``request.may_accuse``)
    accuses seat ``k`` of a renuncio in this mano instead of playing: the mano ends at once.
    """

    card: str | None = None
    sing: str | None = None
    accuse: int | None = None


class SeenView:
    """What a player has seen of the partido, alike in both games: its seat, the names, the mano's
    start (trump, dealer, mano), its hand, the cards played and the cantos sung.

    Everything is a property returning immutable values (tuples, strings, ints); cards
    are written ``"12-basto"``. Per-mano facts reset at each ``mano_start``. A game's view
    (``TableView``, ``ParejasView``, …) adds its own and folds the
    rest of each event in its ``update``, after :meth:`_see`.
    """

    def __init__(self) -> None:
        self._seat = -1
        self._players: tuple[str, ...] = ()
        self._start: Message = {}
        self._hand: list[str] = []
        self._played: list[tuple[int, str]] = []
        self._table: list[tuple[int, str]] = []
        self._sung: list[tuple[int, str]] = []
        self._results: list[Message] = []

    @property
    def seat(self) -> int:
        """Your seat (0-based)."""
        return self._seat

    @property
    def players(self) -> tuple[str, ...]:
        """Player names by seat."""
        return self._players

    @property
    def results(self) -> tuple[Message, ...]:
        """The ``mano_end`` events of the manos played so far."""
        return tuple(self._results)

    @property
    def mano(self) -> int:
        """The mano's number (1-based)."""
        return int(self._start.get("mano", 0))

    @property
    def mano_seat(self) -> int:
        """The seat that leads the first baza of the mano."""
        return int(self._start.get("mano_seat", -1))

    @property
    def dealer(self) -> int:
        return int(self._start.get("dealer", -1))

    @property
    def trump(self) -> str:
        """The trump suit: ``"oro"``, ``"copa"``, ``"espada"`` or ``"basto"``."""
        return str(self._start.get("trump", "oro"))

    @property
    def trump_suit(self) -> int:
        """The trump suit's index in :data:`arena.games.common.cards.SUITS`."""
        return cards.SUITS.index(self.trump)

    @property
    def shown(self) -> str | None:
        """The face-up card that set trump, still in the dealer's hand until played (or None)."""
        return self._start.get("shown")

    @property
    def hand(self) -> tuple[str, ...]:
        """Your cards now."""
        return tuple(self._hand)

    @property
    def played(self) -> tuple[tuple[int, str], ...]:
        """Every card played in this mano, as (seat, card), in order."""
        return tuple(self._played)

    @property
    def table(self) -> tuple[tuple[int, str], ...]:
        """The cards of the baza in progress, as (seat, card), in order."""
        return tuple(self._table)

    @property
    def sung(self) -> tuple[tuple[int, str], ...]:
        """The cantos sung in this mano, as (seat, canto)."""
        return tuple(self._sung)

    def update(self, event: Message) -> None:
        """Fold one event into the view (a game's view folds its own facts too)."""
        self._see(event.get("type"), event)

    def _see(self, kind: object, event: Message) -> None:
        """Fold the part of ``event`` both games share (a new partido starts the view afresh)."""
        if kind == "played":
            seat, card = event["seat"], event["card"]
            self._played.append((seat, card))
            self._table.append((seat, card))
            if seat == self._seat and card in self._hand:
                self._hand.remove(card)
        elif kind == "sang":
            self._sung.append((event["seat"], event["canto"]))
        elif kind == "mano_start":
            self._start = event
            self._hand = list(event["hand"] or [])
            self._played, self._table, self._sung = [], [], []
        elif kind == "mano_end":
            self._results.append(event)
        elif kind == "partido_start":
            self.__init__()  # type: ignore[misc]
            self._seat = event["seat"]
            self._players = tuple(event["players"])


class WrongGame(RuntimeError):
    """Raised at ``hello`` by a player asked to play a game it was not written for."""

    def __init__(self, game: str, mine: str) -> None:
        from arena.games import hint_for
        from arena.i18n import _

        hint = hint_for(game)
        if hint:
            text = _("this player plays {mine}, not {game}: subclass {hint}").format(
                mine=mine, game=game, hint=hint
            )
        else:
            text = _("this player plays {mine}, not {game}").format(mine=mine, game=game)
        super().__init__(text)
        self.game, self.mine = game, mine


DEFAULT_GAME = "tute-cabrero"
"""The game a ``hello`` that names none is about (protocol v1.1 before a second game)."""


class BasePlayer:
    """The runners' side of every game's player: ``hello``, the events, the hooks.

    A game's SDK subclass sets :attr:`game`, a view in ``__init__`` and answers requests
    in :meth:`handle_play` (and :meth:`handle_review` where the game has one).
    """

    name: str = ""
    """Display name sent in the ``ready`` reply (default: the folder's name)."""

    game: str = DEFAULT_GAME
    """The game this class plays; a ``hello`` naming another raises :class:`WrongGame`."""

    view: SeenView

    def setup(self, name: str, limits: dict[str, int]) -> None:
        """Called once at ``hello`` with the folder's name and the time limits."""

    # ---- used by the runners; players need not call these

    def handle_hello(self, msg: Message) -> str:
        game = msg.get("game", DEFAULT_GAME)  # Tute Cabrero's hello names no game
        if game != self.game:
            raise WrongGame(str(game), self.game)
        self.setup(msg["name"], dict(msg["limits"]))
        return self.name or msg["name"]

    playoff: type[BasePlayer] | None = None
    """The class that plays a playoff of another game inside this one (Tute Cabrero's
    ``hasta-un-ganador``: the last two play tute de a dos); None: that game's plain player."""

    def hosted(self, msg: Message) -> BasePlayer | None:
        """The playoff's player, when ``msg`` is a request of the game played in a playoff."""
        player = self.__dict__.get("_playoff")
        return player if player is not None and msg.get("game", self.game) != self.game else None

    def _playoff_event(self, event: Message) -> bool:
        """Fold a ``playoff_start`` or ``playoff`` event (True), else nothing (False)."""
        kind = event.get("type")
        if kind == "playoff_start":
            self.__dict__["_playoff"] = None
            seats, me = list(event["seats"]), self.view.seat
            if me in seats:
                cls = self.playoff or _plain_player(str(event["game"]))
                player = cls()
                player.handle_event(
                    {
                        "type": "partido_start",
                        "partido": "playoff",
                        "seat": seats.index(me),
                        "players": [self.view.players[s] for s in seats],
                        "rules": event["rules"],
                    }
                )
                self.__dict__["_playoff"] = player
            return True
        if kind == "playoff":
            hosted = self.__dict__.get("_playoff")
            if hosted is not None:
                hosted.handle_event(event["event"])
            return True
        return False

    def handle_event(self, event: Message) -> None:
        if self._playoff_event(event):
            return
        self.view.update(event)
        kind = event.get("type")
        hooks = self.__dict__.setdefault("_hooks", {})
        if kind not in hooks:
            hooks[kind] = getattr(self, f"on_{kind}", None)
        hook = hooks[kind]
        if hook is not None:
            hook(event)

    def handle_play(self, msg: Message) -> Message:
        """Answer a ``play`` request with a reply message."""
        raise NotImplementedError

    def handle_review(self, msg: Message) -> Message:
        """Answer a ``review`` request (only a game that asks one overrides this)."""
        raise NotImplementedError


def card_or_sing(msg: Message, card_asked: bool, answer: Move | str | None) -> Message:
    """The reply to a request that asks a card (``card_asked``) or else a canto or a pass, from what
    ``play()`` returned: a card name, a :class:`Move`, or None (a pass). A card is sent only when one
    is asked (ValueError when it is asked and missing), a canto never with a card."""
    move = Move(card=answer) if isinstance(answer, str) else answer or Move()
    reply: PlayReply = {"type": "play", "id": msg["id"]}
    if card_asked:
        if move.card is None:
            from arena.i18n import _

            raise ValueError(
                _("a card is asked: play() must return one of request.legal, not {move}").format(
                    move=repr(answer)
                )
            )
        reply["card"] = move.card
    elif move.sing is not None:
        reply["sing"] = move.sing
    return cast(Message, reply)


def _plain_player(game: str) -> type[BasePlayer]:
    """The plain player class a game's spec names (``default_player``), imported now."""
    import importlib

    from arena.games import spec

    module, _dot, name = spec(game).default_player.rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    assert isinstance(cls, type) and issubclass(cls, BasePlayer)  # not shown
    return cls
