"""The player SDK: subclass :class:`Player`, write :meth:`Player.play`, done.

The same class runs in-process (``arena.referee.InProcessConnection``, for
debugging with breakpoints and prints) and in a subprocess (``arena.runner``,
for tournaments). This module imports only the cards and rules: a player process
starts in about the time of a bare interpreter.

Example::

    from arena.sdk import Player, PlayRequest

    class MyPlayer(Player):
        def play(self, request: PlayRequest) -> str:
            return request.legal()[0]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from arena import cards, rules

Message = dict[str, Any]


class Move(NamedTuple):
    """A reply to a play request: a card, optionally a canto sung before it.

    ``Move(sing="tute")`` sings tute with no card (the mano ends at once).
    """

    card: str | None = None
    sing: str | None = None


class TableView:
    """What a player legitimately knows, kept up to date from the events.

    ``played`` is every card played in this mano by whom, in order; ``sung`` every
    canto; ``tricks`` the tricks taken by seat; ``trick_cards`` the current trick.
    """

    def __init__(self) -> None:
        self.seat = -1
        self.players: list[str] = []
        self.rules: dict[str, Any] = {}
        self.mano = 0
        self.dealer = -1
        self.mano_seat = -1
        self.sitting_out: int | None = None
        self.active: list[int] = []
        self.porotos: list[int] = []
        self.trump = "oro"
        self.shown: str | None = None
        self.out_of_play: str | None = None
        self.swaps: list[dict[str, Any]] = []
        self.hand: list[str] = []
        self.played: list[tuple[int, str]] = []
        self.sung: list[tuple[int, str]] = []
        self.tricks: dict[int, int] = {}
        self.trick_cards: list[tuple[int, str]] = []

    def update(self, event: Message) -> None:
        kind = event.get("type")
        if kind == "partido_start":
            self.seat = event["seat"]
            self.players = list(event["players"])
            self.rules = dict(event["rules"])
        elif kind == "mano_start":
            for key in (
                "mano",
                "dealer",
                "mano_seat",
                "sitting_out",
                "active",
                "porotos",
                "trump",
                "shown",
                "out_of_play",
                "swaps",
            ):
                setattr(self, key, event[key])
            self.hand = list(event["hand"] or [])
            self.played, self.sung, self.tricks, self.trick_cards = [], [], {}, []
        elif kind == "played":
            self.played.append((event["seat"], event["card"]))
            self.trick_cards.append((event["seat"], event["card"]))
            if event["seat"] == self.seat and event["card"] in self.hand:
                self.hand.remove(event["card"])
        elif kind == "sang":
            self.sung.append((event["seat"], event["canto"]))
        elif kind == "trick_end":
            self.tricks[event["winner"]] = self.tricks.get(event["winner"], 0) + 1
            self.trick_cards = []
        elif kind == "mano_end":
            self.porotos = list(event["porotos"])

    @property
    def trump_suit(self) -> int:
        return cards.SUITS.index(self.trump)

    @property
    def sung_suits(self) -> int:
        """The pair cantos already sung in this mano, as a set of suit bits."""
        out = 0
        for _, canto in self.sung:
            if canto != rules.TUTE:
                out |= 1 << rules.canto_suit(canto, self.trump_suit)
        return out


class PlayRequest(NamedTuple):
    """A request to play, with the rules helpers a player needs to answer it."""

    mano: int
    trick: int
    hand: tuple[str, ...]
    table: tuple[tuple[int, str], ...]
    may_sing: bool
    view: TableView

    @classmethod
    def from_message(cls, msg: Message, view: TableView) -> PlayRequest:
        return cls(
            mano=msg["mano"],
            trick=msg["trick"],
            hand=tuple(msg["hand"]),
            table=tuple((t["seat"], t["card"]) for t in msg["table"]),
            may_sing=msg["may_sing"],
            view=view,
        )

    def legal(self) -> list[str]:
        """The cards of the hand the rules allow now."""
        hand = cards.parse_mask(self.hand)
        trump = self.view.trump_suit
        if not self.table:
            return cards.names_of(hand)
        first = cards.parse(self.table[0][1])
        winning = first
        for _, name in self.table[1:]:
            c = cards.parse(name)
            if rules.beats(c, winning, trump):
                winning = c
        return cards.names_of(rules.legal_mask(hand, first // 10, winning, trump))

    def cantos(self) -> list[str]:
        """The cantos that may be sung now (empty unless ``may_sing``)."""
        if not self.may_sing:
            return []
        return rules.valid_cantos(cards.parse_mask(self.hand), self.view.trump_suit, self.view.sung_suits)


class Player:
    """Base class of every player. Override :meth:`play`; the rest is optional.

    Hooks: override ``on_<event type>(event)`` (``on_mano_start``, ``on_played``,
    ``on_trick_end``, …) to watch the partido; :attr:`view` already tracks it.
    """

    name: str = ""
    """Display name sent in the ``ready`` reply (default: the folder's name)."""

    def __init__(self) -> None:
        self.view = TableView()

    def setup(self, name: str, limits: dict[str, int]) -> None:
        """Called once at ``hello`` with the folder's name and the time limits."""

    def play(self, request: PlayRequest) -> Move | str:
        """Choose a card (a name like ``"3-copa"``) or a :class:`Move` with a canto."""
        raise NotImplementedError("a player must implement play()")

    # ---- used by the runners; players need not call these

    def handle_hello(self, msg: Message) -> str:
        self.setup(msg["name"], dict(msg["limits"]))
        return self.name or msg["name"]

    def handle_event(self, event: Message) -> None:
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
        move = self.play(PlayRequest.from_message(msg, self.view))
        if isinstance(move, str):
            move = Move(card=move)
        reply: Message = {"type": "play", "id": msg["id"]}
        if move.card is not None:
            reply["card"] = move.card
        if move.sing is not None:
            reply["sing"] = move.sing
        return reply
