"""The referee of one partido: engine + player connections -> replay + result.

A connection is anything with ``send`` / ``ask`` / ``close`` (see
:class:`Connection`): a Python object in this process, or a player program in
a subprocess. Every fault — a bad reply, an illegal move, a crash — becomes a
typed fault judged by the engine, with its evidence in the replay.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena import protocol
from arena.engine import IllegalMove, Partido
from arena.protocol import Message, ProtocolError
from arena.rules import RuleSet
from arena.sdk import Player


class PlayerFault(Exception):
    """A connection-level fault: ``reason`` is a fault type, ``evidence`` its replay fields."""

    def __init__(self, reason: str, detail: str, **evidence: Any) -> None:
        super().__init__(detail)
        self.reason = reason
        self.detail = detail
        self.evidence = evidence


class Connection(Protocol):
    """The referee's side of one player."""

    def send(self, event: Message) -> None:
        """Deliver an event; raise :class:`PlayerFault` if the player is gone."""

    def ask(self, request: Message, timeout_ms: int) -> Message:
        """Send a request and return the reply object; raise :class:`PlayerFault`."""

    def close(self) -> None:
        """Done with this player (``bye``, then make sure it is gone)."""


@dataclass
class Limits:
    init_ms: int = 10_000
    move_ms: int = 1_000

    def to_dict(self) -> dict[str, int]:
        return {"init_ms": self.init_ms, "move_ms": self.move_ms}


class InProcessConnection:
    """A :class:`Player` object called directly: for debugging and fast tests.

    Time limits are measured, not enforced (a breakpoint must not disqualify);
    exceptions raised by the player are ``crash`` faults.
    """

    def __init__(self, player: Player, name: str, limits: Limits | None = None) -> None:
        self.player = player
        self.name = name
        self.closed = False
        limits = limits or Limits()
        try:
            self.display_name = player.handle_hello(protocol.hello(0, name, limits.init_ms, limits.move_ms))
        except Exception as exc:
            raise PlayerFault("crash", f"hello raised {type(exc).__name__}: {exc}") from exc

    def send(self, event: Message) -> None:
        try:
            self.player.handle_event(event)
        except Exception as exc:
            raise PlayerFault("crash", f"{event['type']} event raised {type(exc).__name__}: {exc}") from exc

    def ask(self, request: Message, timeout_ms: int) -> Message:
        try:
            return self.player.handle_play(request)
        except Exception as exc:
            raise PlayerFault("crash", f"play raised {type(exc).__name__}: {exc}") from exc

    def close(self) -> None:
        self.closed = True


@dataclass
class Fault:
    mano: int
    seat: int
    reason: str
    detail: str
    penalized: bool = False


@dataclass
class PartidoResult:
    """What a partido decided, recorded with its rules."""

    partido: str
    seed: int
    rules: dict[str, Any]
    players: list[str]
    winners: list[int]
    ranking: list[list[int]]
    manos: int
    porotos: list[int]
    faults: list[Fault] = field(default_factory=list)
    move_ms: list[list[float]] = field(default_factory=list)
    """Reply times by seat, in milliseconds."""


EventSink = Callable[[Message], None]


class Referee:
    """Runs one partido between ``connections`` (seat order) and records every event."""

    def __init__(
        self,
        connections: Sequence[Connection],
        names: Sequence[str],
        seed: int,
        ruleset: RuleSet | None = None,
        limits: Limits | None = None,
        partido_id: str = "partido",
        sources: Sequence[str] | None = None,
        sinks: Sequence[EventSink] = (),
    ) -> None:
        self.connections = list(connections)
        self.names = list(names)
        self.limits = limits or Limits()
        self.partido = Partido(len(self.connections), seed, ruleset)
        self.partido_id = partido_id
        self.sources = list(sources or names)
        self.sinks = list(sinks)
        self.alive = [True] * len(self.connections)
        self.move_ms: list[list[float]] = [[] for _ in self.connections]
        self.faults: list[Fault] = []
        self._sent = 0
        self._next_id = 1

    def header(self) -> Message:
        """The replay's first line."""
        from arena import __version__

        p = self.partido
        return {
            "type": "partido_start",
            "partido": self.partido_id,
            "seed": p.seed,
            "arena_version": __version__,
            "rules": p.rules.to_dict(),
            "players": [
                {"seat": s, "name": n, "source": src}
                for s, (n, src) in enumerate(zip(self.names, self.sources, strict=True))
            ],
            "limits": self.limits.to_dict(),
        }

    def run(self) -> PartidoResult:
        p = self.partido
        self._record(self.header())
        for seat in range(p.n):
            self._send(
                seat,
                {
                    "type": "partido_start",
                    "partido": self.partido_id,
                    "seat": seat,
                    "players": self.names,
                    "rules": p.rules.to_dict(),
                },
            )
        self._flush()
        while not p.over:
            seat = p.to_move
            assert seat is not None
            self._turn(seat)
            self._flush()
        for seat in range(p.n):
            if self.alive[seat]:
                self.connections[seat].close()
        return PartidoResult(
            partido=self.partido_id,
            seed=p.seed,
            rules=p.rules.to_dict(),
            players=self.names,
            winners=p.winners,
            ranking=p.ranking(),
            manos=p.mano_number,
            porotos=p.porotos[:],
            faults=self.faults,
            move_ms=self.move_ms,
        )

    def _turn(self, seat: int) -> None:
        p = self.partido
        request = p.request()
        request["id"] = self._next_id
        self._next_id += 1
        start = time.perf_counter()
        try:
            reply = self.connections[seat].ask(request, self.limits.move_ms)
            ms = (time.perf_counter() - start) * 1000
            card, sing = protocol.check_play(reply, request["id"], request["may_sing"])
            before = len(p.events)
            p.play(card, sing)
        except PlayerFault as f:
            self._fault(seat, f.reason, f.detail, f.evidence)
        except ProtocolError as e:
            evidence = {"line": e.line} if e.line is not None else {"line": _line_of(reply)}
            self._fault(seat, "protocol", e.detail, evidence)
        except IllegalMove as e:
            self._fault(seat, e.reason, e.detail, e.evidence)
        else:
            self.move_ms[seat].append(ms)
            for event in p.events[before:]:
                if event["type"] == "played":
                    event["ms"] = round(ms, 3)

    def _fault(self, seat: int, reason: str, detail: str, evidence: dict[str, Any]) -> None:
        p = self.partido
        mano = p.mano_number
        if not p.fault(seat, reason, detail, **evidence):
            return
        penalized = seat not in p.disqualified
        self.faults.append(Fault(mano, seat, reason, detail, penalized))
        if not penalized:
            self.alive[seat] = False
            self.connections[seat].close()

    def _record(self, event: Message) -> None:
        for sink in self.sinks:
            sink(event)

    def _send(self, seat: int, event: Message) -> None:
        if not self.alive[seat]:
            return
        try:
            self.connections[seat].send(event)
        except PlayerFault as f:
            self._fault(seat, f.reason, f.detail, f.evidence)

    def _flush(self) -> None:
        """Record new engine events and deliver each player's view of them."""
        events = self.partido.events
        while self._sent < len(events):
            event = events[self._sent]
            self._sent += 1
            self._record(event)
            for seat in range(len(self.connections)):
                self._send(seat, protocol.view(event, seat))


def _line_of(reply: Any) -> str:
    try:
        return protocol.encode(reply).decode()[:200].rstrip("\n")
    except (TypeError, ValueError):
        return repr(reply)[:200]


def play_partido(
    players: Sequence[Player],
    seed: int,
    ruleset: RuleSet | None = None,
    names: Sequence[str] | None = None,
    replay: str | None = None,
    sinks: Sequence[EventSink] = (),
    partido_id: str = "partido",
) -> PartidoResult:
    """Play one partido in this process between Python player objects (seat order).

    Writes the replay file to ``replay`` when given; ``sinks`` also receive every
    omniscient event (the replay's lines).
    """
    from arena.replay import ReplayWriter

    names = list(names or [p.name or f"jugador{i}" for i, p in enumerate(players)])
    connections = [InProcessConnection(p, n) for p, n in zip(players, names, strict=True)]
    writer = ReplayWriter(replay) if replay else None
    try:
        referee = Referee(
            connections,
            names,
            seed,
            ruleset,
            partido_id=partido_id,
            sinks=[*sinks, *([writer] if writer else [])],
        )
        return referee.run()
    finally:
        if writer:
            writer.close()
