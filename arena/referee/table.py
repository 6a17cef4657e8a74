"""The referee of one partido: engine + player connections -> replay + result.

A connection is anything with ``send`` / ``ask`` / ``close`` (see
:class:`Connection`): a Python object in this process, or a player program in
a subprocess. Every fault — a bad reply, an illegal move, a crash — becomes a
typed fault judged by the engine, with its evidence in the replay.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena import games, protocol
from arena.containment import sandbox
from arena.errors import FaultError
from arena.games.common.player import BasePlayer as Player
from arena.games.gamespec import Game
from arena.i18n import _
from arena.inert import EXCERPT, printable
from arena.protocol import DEFAULT_GAME, Message, ProtocolError
from arena.referee.connection import Connection, InProcessConnection, Limits, PlayerFault
from arena.referee.narrate import reason_name
from arena.referee.players import PlayerSpec, unique_names
from arena.seeds import Seed

if TYPE_CHECKING:
    from arena.referee.connection import SubprocessConnection

__all__ = [
    "Connection",
    "Fault",
    "InProcessConnection",
    "Limits",
    "PartidoResult",
    "Referee",
    "play_partido",
]


@dataclass
class Fault:
    mano: int
    """The mano in progress; 0 for a fault judged at hello, before the first deal."""
    seat: int
    reason: str
    detail: str
    penalized: bool = False


@dataclass
class PartidoResult:
    """What a partido decided, recorded with its rules."""

    partido: str
    seed: Seed
    rules: dict[str, Any]
    players: list[str]
    winners: list[int]
    ranking: list[list[int]]
    manos: int
    scores: list[int]
    """The game's score of each seat at the end (:attr:`Game.scores`; the store's
    ``partidos.porotos``)."""
    faults: list[Fault] = field(default_factory=list)
    reply_ms: list[list[float]] = field(default_factory=list)
    """Measured reply times by seat, in milliseconds (wall clock); the CPU budget per move is
    :attr:`Limits.move_ms`."""
    reply_cpu_ms: list[list[float | None]] = field(default_factory=list)
    """The CPU time of each reply by seat, in milliseconds (None where not measured)."""


EventSink = Callable[[Message], None]


class Referee:
    """Runs one partido between ``connections`` (seat order) and records every event."""

    def __init__(
        self,
        connections: Sequence[Connection],
        names: Sequence[str],
        seed: Seed,
        *,
        ruleset: Any = None,
        limits: Limits | None = None,
        partido_id: str = "partido",
        sources: Sequence[str] | None = None,
        sinks: Sequence[EventSink] = (),
        incident_prefix: Path | None = None,
        game: str = DEFAULT_GAME,
    ) -> None:
        self.connections = list(connections)
        self.incident_prefix = incident_prefix
        self.incidents: dict[int, Path] = {}
        self.names = list(names)
        self.limits = limits or Limits()
        self.game = game
        self.spec = games.spec(game)
        self.partido: Game = self.spec.new_partido(len(self.connections), seed, ruleset, deal=False)
        # (dealt in run())
        self.partido_id = partido_id
        self.sources = list(sources or names)
        self.sinks = list(sinks)
        self.alive = [True] * len(self.connections)
        self.reply_ms: list[list[float]] = [[] for _conn in self.connections]
        self.reply_cpu_ms: list[list[float | None]] = [[] for _conn in self.connections]
        self.faults: list[Fault] = []
        self._sent = 0

    def header(self) -> Message:
        """The replay's first line."""
        from arena import __version__

        p = self.partido
        return {
            "type": "partido_start",
            "partido": self.partido_id,
            "seed": p.seed,
            "arena_version": __version__,
            **self._game_fields(),
            "rules": p.rules.to_dict(),
            "players": [
                {"seat": s, "name": n, "source": src}
                for s, (n, src) in enumerate(zip(self.names, self.sources, strict=True))
            ],
            "limits": self.limits.to_dict(),
        }

    def _game_fields(self) -> Message:
        """``game`` and ``teams`` of ``partido_start``: named for a game other than Tute Cabrero only."""
        if self.game == DEFAULT_GAME:
            return {}
        sides = games.spec(self.game).teams
        return {"game": self.game, **({"teams": [list(t) for t in sides]} if sides else {})}

    def run(self, close: bool = True) -> PartidoResult:
        """Play the partido to its end; ``close`` the connections still alive afterwards.

        (``close=False`` keeps them open to give a process several partidos.)
        """
        p = self.partido
        self._record(self.header())
        # Every hello is judged before mano 1 is dealt: each failed one disqualifies its
        # seat (its own line, ranked last), and the deal is among the others; with fewer
        # than three left the partido ends here, after 0 manos, those left its winners.
        for seat, conn in enumerate(self.connections):
            if conn.failed is not None:
                self._fault(seat, conn.failed.reason, conn.failed.detail, conn.failed.evidence)
        p.start()
        for seat in range(p.n):
            self._send(
                seat,
                {
                    "type": "partido_start",
                    "partido": self.partido_id,
                    **self._game_fields(),
                    "seat": seat,
                    "players": self.names,
                    "rules": p.rules.to_dict(),
                },
            )
        self._flush()
        while not p.over:
            mover = p.to_move
            assert mover is not None
            self._turn(mover)
            self._flush()
        if close:  # every bye first: the players' exits overlap
            alive = [self.connections[seat] for seat in range(p.n) if self.alive[seat]]
            for conn in alive:
                conn.say_bye()
            for conn in alive:
                conn.close()
        return PartidoResult(
            partido=self.partido_id,
            seed=p.seed,
            rules=p.rules.to_dict(),
            players=self.names,
            winners=p.winners,
            ranking=p.ranking(),
            manos=p.mano_number,
            scores=list(p.scores),
            faults=self.faults,
            reply_ms=self.reply_ms,
            reply_cpu_ms=self.reply_cpu_ms,
        )

    def _turn(self, seat: int) -> None:
        p = self.partido
        request = dict(p.request())
        conn = self.connections[seat]
        reply: Any = None
        timed: tuple[float, float | None] | None = None  # the reply's times, once it arrived
        try:
            reply = conn.ask(request, self.limits.move_ms, self.limits.move_wall)
            ms, cpu = conn.last_wall_ms, conn.last_cpu_ms
            timed = ms, cpu
            decision = self.spec.read_reply(reply, request)
            before = len(p.events)
            p.act(decision)
        except FaultError as f:  # from the connection (PlayerFault) or the engine (IllegalMove)
            asked = (request, reply) if reply is not None and f.reason in self.spec.rule_faults else None
            self._timed(seat, timed)  # a renuncio's reply came in time: its time counts
            self._fault(seat, f.reason, f.detail, f.evidence, asked)
        except ProtocolError as e:
            raw = getattr(conn, "last_line", None)
            line = e.line or (raw.decode("utf-8", "replace")[:EXCERPT] if raw else _line_of(reply))
            self._timed(seat, timed)
            self._fault(seat, "protocol", e.detail, {"line": line})
        else:
            self._timed(seat, timed)
            for event in p.events[before:]:
                if event["type"] == self.spec.reply_event:
                    event["ms"] = round(ms, 3)
                    event["cpu_ms"] = None if cpu is None else round(cpu, 3)

    def _timed(self, seat: int, timed: tuple[float, float | None] | None) -> None:
        """Count a reply's wall-clock and CPU time (None: no reply arrived)."""
        if timed is not None:
            self.reply_ms[seat].append(timed[0])
            self.reply_cpu_ms[seat].append(timed[1])

    def _fault(
        self,
        seat: int,
        reason: str,
        detail: str,
        evidence: dict[str, Any],
        asked: tuple[Message, Any] | None = None,
    ) -> None:
        """Judge a fault of ``seat``; its incident report. ``asked``: the request and the reply of a
        rule fault (a renuncio, a card not in hand, a false canto): the report then shows them and
        the field at fault instead of the last protocol lines."""
        p = self.partido
        mano = p.mano_number
        if not p.fault(seat, reason, detail, **evidence):
            return
        penalized = seat not in p.disqualified
        self.faults.append(Fault(mano, seat, reason, detail, penalized))
        conn = self.connections[seat]
        if self.incident_prefix is not None:
            path = Path(f"{self.incident_prefix}.incident-{seat}-{conn.name}.txt")  # not shown
            head = _("Incident in {partido}, mano {mano}, seat {seat} ({player}): {reason} ({what})").format(
                partido=self.partido_id,
                mano=mano,
                seat=seat,
                player=conn.name,
                reason=reason,
                what=reason_name(reason),
            )
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)  # not for players' eyes
            with os.fdopen(fd, "a", encoding="utf-8") as f:  # several penalties append
                # The player's text (names, replies, standard error) shown inert: escapes only.
                body = (
                    conn.incident()
                    if asked is None
                    else rule_report(conn, reason, *asked) + conn.incident(False)
                )
                f.write(f"{printable(head)}: {printable(detail)}\n\n{printable(body, True)}\n")
            self.incidents[seat] = path
        if not penalized:
            self.alive[seat] = False
            conn.close()

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
        """Record new engine events and queue each player's view of them.

        The queued events go out with a player's next request, or to every player at once when
        one of the game's :attr:`~arena.games.gamespec.GameSpec.push_after` events (the end of a baza,
        of a mano, …): one write per player per baza rather than per card, so that players are not
        woken for every card while keeping up with the game.
        """
        events = self.partido.events
        while self._sent < len(events):  # a fault found on the way adds events: loop until none
            push = False
            while self._sent < len(events):
                event = events[self._sent]
                self._sent += 1
                self._record(event)
                push = push or event["type"] in self.spec.push_after
                for seat in range(len(self.connections)):
                    self._send(seat, self.partido.view(event, seat))
            if not push:
                continue
            for seat, conn in enumerate(self.connections):
                if self.alive[seat]:
                    try:
                        conn.flush()
                    except PlayerFault as f:
                        self._fault(seat, f.reason, f.detail, f.evidence)


def rule_report(conn: Connection, reason: str, request: Message, reply: Any) -> str:
    """A rule fault's report: the request (its ``hand``, ``table``, ``legal``), the reply, and the field
    of the reply at fault with what it had to be (then the tail of standard error follows)."""
    out = [_("The request:"), "  → " + protocol.encode(request).decode().rstrip("\n")]
    for name in ("hand", "table", "legal", "may_sing"):
        value = request.get(name)
        if isinstance(value, list):
            shown = [f"{v.get('card')} ({v.get('seat')})" if isinstance(v, dict) else str(v) for v in value]
            out.append(f"  {name}: {', '.join(shown) or '—'}")
    raw = getattr(conn, "last_line", None)
    out += [
        _("The reply:"),
        "  ← " + (raw.decode("utf-8", "replace").rstrip("\n") if raw else _line_of(reply)),
    ]
    fields = {k: reply[k] for k in ("card", "sing", "accuse") if isinstance(reply, dict) and k in reply}
    said = _line_of(fields).rstrip("\n")
    legal = request.get("legal")
    allowed = request.get("may_sing")
    if reason in ("renuncio", "not_in_hand") and isinstance(legal, list) and legal:
        out.append(
            _("it replied `{reply}`; the card field must be one of legal: {legal}").format(
                reply=said, legal=", ".join(map(str, legal))
            )
        )
    elif reason == "false_canto" and isinstance(allowed, list):
        out.append(
            _("it replied `{reply}`; the sing field must be one of may_sing: {allowed}").format(
                reply=said, allowed=", ".join(map(str, allowed)) or "—"
            )
        )
    else:
        out.append(_("it replied `{reply}`").format(reply=said))
    return "\n".join(out) + "\n\n"


def _line_of(reply: Any) -> str:
    """An in-process reply as evidence (any value: never raises)."""
    try:
        return protocol.encode(reply).decode()[:EXCERPT].rstrip("\n")
    except (TypeError, ValueError, RecursionError):
        return protocol.brief(reply)


def play_partido(
    players: Sequence[Player],
    seed: Seed,
    *,
    ruleset: Any = None,
    names: Sequence[str] | None = None,
    replay: str | None = None,
    sinks: Sequence[EventSink] = (),
    partido_id: str = "partido",
    game: str = DEFAULT_GAME,
) -> PartidoResult:
    """Play one partido of ``game`` in this process between Python player objects (seat order).

    Writes the replay file to ``replay`` when given; ``sinks`` also receive every
    omniscient event (the replay's lines).
    """
    from arena.referee.replay import ReplayWriter

    names = list(names or [p.name or f"jugador{i}" for i, p in enumerate(players)])
    connections = [InProcessConnection(p, n, game=game) for p, n in zip(players, names, strict=True)]
    writer = ReplayWriter(replay) if replay else None
    try:
        referee = Referee(
            connections,
            names,
            seed,
            ruleset=ruleset,
            partido_id=partido_id,
            sinks=[*sinks, *([writer] if writer else [])],
            game=game,
        )
        return referee.run()
    finally:
        if writer:
            writer.close()


Connect = Callable[..., "SubprocessConnection"]
"""Starts one seat's connection: ``(seat, spec, limits, log_dir, mechanism, rlimits, game=game)``."""


def play_folders(
    specs: Sequence[PlayerSpec],
    seed: Seed,
    *,
    ruleset: Any = None,
    limits: Limits | None = None,
    replay: Path | None = None,
    sinks: Sequence[EventSink] = (),
    partido_id: str = "partido",
    mechanism: str | None = None,
    rlimits: sandbox.Resources | None = None,
    connect: Connect | None = None,
    timings: dict[str, float] | None = None,
    warm: bool = True,
    game: str = DEFAULT_GAME,
) -> tuple[PartidoResult, dict[int, Path]]:
    """Play one partido between player folders, each in its own process.

    ``connect(seat, spec, limits, log_dir, mechanism, rlimits)`` starts a seat's connection
    (default: a :class:`SubprocessConnection`); ``arena check`` watches its player with it.

    Every process is started and greeted first: a folder that cannot run raises
    :class:`PlayerLoadError` (one line naming it) before anything is played, and
    no process is left behind. Returns the result and the incident files by seat.
    Standard error logs go beside the replay (``<replay>.logs/``). ``mechanism`` is the
    containment (see :func:`arena.containment.sandbox.resolve`; default: the best that works here).
    ``timings``, when given, receives the seconds spent starting and greeting the players
    (``start``), playing (``play``) and stopping them (``stop``). ``warm``: Python players' processes
    start warm where the machine allows (:mod:`arena.containment.warm`); False: fresh (``--cold-start``).
    ``game``: what is played (:func:`arena.games.names`); ``connect`` is then called with ``game=``.
    """
    clock = [time.monotonic()]
    mechanism = mechanism or sandbox.resolve("auto")
    sandbox.preflight(mechanism)  # a setup problem is named here, never charged to the players
    from arena.referee.connection import SubprocessConnection
    from arena.referee.replay import ReplayWriter

    limits = limits or Limits()
    log_dir = Path(f"{replay}.logs") if replay else None
    if replay:
        replay.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # a new folder: the referee's alone
    specs = unique_names(specs)
    connections: list[SubprocessConnection] = []
    try:
        for seat, spec in enumerate(specs):
            if connect is None:  # every process started first, greeted after: the start-ups overlap
                conn = SubprocessConnection(
                    spec, limits, log_dir, mechanism, rlimits, greet=False, warm_start=warm, game=game
                )
                connections.append(conn)
            else:
                connections.append(connect(seat, spec, limits, log_dir, mechanism, rlimits, game=game))
        if connect is None:
            for conn in connections:
                conn.greet()
        clock.append(time.monotonic())
        writer = ReplayWriter(replay) if replay else None
        try:
            referee = Referee(
                connections,
                [spec.name for spec in specs],
                seed,
                ruleset=ruleset,
                limits=limits,
                partido_id=partido_id,
                sources=[spec.source for spec in specs],
                sinks=[*sinks, *([writer] if writer else [])],
                incident_prefix=replay.with_suffix("") if replay else None,
                game=game,
            )
            result = referee.run(close=False)  # closed below, with the rest
        finally:
            if writer:
                writer.close()
    finally:
        clock.append(time.monotonic())
        for conn in connections:  # every bye first: the players' exits overlap
            conn.say_bye()
        for conn in connections:
            conn.close()
    if timings is not None:
        done = time.monotonic()
        timings.update(start=clock[1] - clock[0], play=clock[2] - clock[1], stop=done - clock[2])
    return result, referee.incidents
