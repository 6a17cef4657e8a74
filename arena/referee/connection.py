"""The referee's side of a player: in this process, or a program in a subprocess.

Every connection-level problem becomes a :class:`PlayerFault` with a fault type
of ``protocol.md`` (``timeout``, ``protocol``, ``crash``) and its evidence.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from arena import games, protocol
from arena.containment import idle, sandbox, warm
from arena.containment.process import (
    LineClosed,
    LineTimeout,
    LineTooLong,
    PipedProcess,
    PlayerProcess,
    process_tree_cpu_ns,
)
from arena.errors import FaultError
from arena.games.common.player import BasePlayer as Player
from arena.i18n import N_, _
from arena.inert import EXCERPT, printable
from arena.player.loader import PlayerLoadError
from arena.player.runner import LOAD_ERROR
from arena.protocol import Message, ProtocolError
from arena.referee import diagnose
from arena.referee.players import PlayerSpec

BYE_GRACE_S = 0.2
TRANSCRIPT_LINES = 30
HELLO_CRASH = N_("ended or closed its output before replying to hello")
"""The detail of every crash at ``hello`` (:meth:`SubprocessConnection._hello_crash`), shown translated."""
HELLO_CRASH_LIMIT = N_("ended or closed its output before replying to hello ({limit})")
"""The same, with the limit it hit."""
PASS_ENV = "ARENA_PASS_ENV"
"""Names (comma-separated) of environment variables handed to players' otherwise clean environment."""


class PlayerFault(FaultError):
    """A connection-level fault (``timeout``, ``protocol``, ``crash``) with its evidence."""


def wall_backstop(cpu_ms: int) -> int:
    """The spec's default wall-clock backstop for a CPU-time limit: max(3 × limit, limit + 2 s)."""
    return max(3 * cpu_ms, cpu_ms + 2000)


IDLE_MS = 1_000
"""The default idle time allowed per reply (protocol revision 1.2)."""
INIT_IDLE_MS = 10_000
"""The default idle time allowed for ``hello`` (a start reads files: more)."""
IDLE_LOOK_MS = 50
"""A reply quicker than this is not measured for idle time (it cannot pass any allowance)."""


@dataclass
class Limits:
    """Time limits of the protocol, in milliseconds (protocol.md, "Faults", v1.2).

    ``init_ms`` and ``move_ms`` bound the player's CPU time (its whole process
    tree) for ``hello`` and for a move; ``init_wall_ms`` and ``move_wall_ms``
    are the wall-clock backstops (None: the spec's defaults); ``idle_ms`` and
    ``init_idle_ms`` the time a reply may spend neither computing nor waiting
    for a CPU (:mod:`arena.containment.idle`).
    """

    init_ms: int = 10_000
    move_ms: int = 1_000
    init_wall_ms: int | None = None
    move_wall_ms: int | None = None
    idle_ms: int = IDLE_MS
    init_idle_ms: int = INIT_IDLE_MS

    def __post_init__(self) -> None:
        if self.init_wall_ms is None:
            self.init_wall_ms = wall_backstop(self.init_ms)
        if self.move_wall_ms is None:
            self.move_wall_ms = wall_backstop(self.move_ms)

    @property
    def init_wall(self) -> int:
        assert self.init_wall_ms is not None
        return self.init_wall_ms

    @property
    def move_wall(self) -> int:
        assert self.move_wall_ms is not None
        return self.move_wall_ms

    def to_dict(self) -> dict[str, int]:
        return {
            "init_ms": self.init_ms,
            "move_ms": self.move_ms,
            "init_wall_ms": self.init_wall,
            "move_wall_ms": self.move_wall,
            "init_idle_ms": self.init_idle_ms,
            "idle_ms": self.idle_ms,
        }


class Connection(Protocol):
    """What the referee needs of a player."""

    name: str
    display_name: str
    failed: PlayerFault | None
    """A fault found before the partido (at hello), judged when the partido starts."""

    def send(self, event: Message) -> None:
        """Deliver (or queue) an event; raise :class:`PlayerFault` if the player is gone."""

    def flush(self) -> None:
        """Push queued events out without waiting; raise :class:`PlayerFault` if gone."""

    last_cpu_ms: float | None
    """The CPU time the last reply cost the player (None where it cannot be measured)."""
    last_wall_ms: float
    """The wall-clock time the last reply took."""

    def ask(self, request: Message, cpu_ms: int, wall_ms: int | None = None) -> Message:
        """Send a request (setting its ``id``) and return the reply; raise :class:`PlayerFault`.

        ``cpu_ms`` bounds the player's CPU time, ``wall_ms`` (default: the spec's
        backstop for ``cpu_ms``) the wall clock.
        """

    def incident(self, lines: bool = True) -> str:
        """The last protocol lines exchanged (unless not ``lines``) and the tail of standard error."""

    def say_bye(self) -> None:
        """Tell the player the partido is over, without waiting (:meth:`close` then stops it)."""

    def close(self) -> None:
        """Done with this player: ``bye``, a short grace, then it is gone."""


class _Transcript:
    """The last lines exchanged, kept raw and formatted only for an incident report."""

    def __init__(self) -> None:
        self.lines: deque[tuple[float, str, str | bytes]] = deque(maxlen=TRANSCRIPT_LINES)
        self.start = time.monotonic()

    def add(self, arrow: str, text: str | bytes) -> None:
        self.lines.append((time.monotonic(), arrow, text))

    def render(self, stderr_tail: str, lines: bool = True) -> str:
        out = [_("Last protocol lines (→ referee to player, ← player to referee):")] if lines else []
        for at, arrow, text in self.lines if lines else ():
            if isinstance(text, bytes):
                text = text.decode("utf-8", errors="replace").rstrip("\n")
            out.append(f"{(at - self.start) * 1000:9.1f} ms {arrow} {text[:600]}")
        if lines:
            out.append("")
        out += [_("Tail of standard error:"), stderr_tail.rstrip() or _("(nothing written)"), ""]
        return "\n".join(out)


class InProcessConnection:
    """A :class:`Player` object called directly: for debugging and fast tests.

    Time limits are measured, not enforced (a breakpoint must not disqualify);
    an exception raised by the player is a ``crash`` fault.
    """

    def __init__(
        self, player: Player, name: str, limits: Limits | None = None, game: str = protocol.DEFAULT_GAME
    ) -> None:
        self.player = player
        self.name = name
        self.failed: PlayerFault | None = None
        self.transcript = _Transcript()
        self.error_tail = ""
        self._next_id = 0
        self.last_cpu_ms: float | None = None
        self.last_wall_ms = 0.0
        limits = limits or Limits()
        hello = protocol.hello(0, name, limits.to_dict(), game)
        self.display_name = name
        try:
            self.display_name = player.handle_hello(hello)
        except Exception as exc:
            self.failed = self._crash("hello", exc)

    def _crash(self, what: str, exc: Exception) -> PlayerFault:
        import traceback

        self.error_tail = "".join(traceback.format_exception(exc))[-4096:]
        detail = _("{what} raised {error}: {message}").format(
            what=what, error=type(exc).__name__, message=exc
        )
        return PlayerFault("crash", detail, exit=None)  # no process

    def send(self, event: Message) -> None:
        self.transcript.add("→", repr(event))
        try:
            self.player.handle_event(event)
        except Exception as exc:
            raise self._crash(_("the {event} event").format(event=event["type"]), exc) from exc

    def ask(self, request: Message, cpu_ms: int, wall_ms: int | None = None) -> Message:
        """Limits are measured, not enforced, in this process (a breakpoint must not disqualify)."""
        self._next_id += 1
        request["id"] = self._next_id
        self.transcript.add("→", repr(request))
        cpu0, start = time.thread_time(), time.perf_counter()
        try:
            if request["type"] == "review":
                reply = self.player.handle_review(request)
            else:
                reply = self.player.handle_play(request)
        except Exception as exc:
            raise self._crash("play", exc) from exc
        self.last_cpu_ms = (time.thread_time() - cpu0) * 1000
        self.last_wall_ms = (time.perf_counter() - start) * 1000
        self.transcript.add("←", repr(reply))
        return reply

    def flush(self) -> None:
        """Events are delivered at once in this process."""

    def incident(self, lines: bool = True) -> str:
        return self.transcript.render(self.error_tail, lines)

    def say_bye(self) -> None:
        """Nothing to tell: the object is not called again."""

    def close(self) -> None:
        """Nothing to stop in this process."""


class SubprocessConnection:
    """A player program in its own process, spoken to over protocol v1.

    Starts the program and does the hello handshake. A folder that cannot run at
    all (no interpreter or command, a ``player.py`` that does not load) raises
    :class:`PlayerLoadError`; a late or wrong ``ready`` is kept in :attr:`failed`.
    ``mechanism`` is the containment (:data:`arena.containment.sandbox.MECHANISMS`; default: the
    best that works here). ``game`` is what ``hello`` names (:func:`arena.games.names`).
    """

    game: str = protocol.DEFAULT_GAME

    def __init__(
        self,
        spec: PlayerSpec,
        limits: Limits | None = None,
        log_dir: Path | None = None,
        mechanism: str | None = None,
        rlimits: sandbox.Resources | None = None,
        greet: bool = True,
        warm_start: bool = True,
        game: str = protocol.DEFAULT_GAME,
    ) -> None:
        self.spec = spec
        self.game = game
        self._reader = games.spec(game).read_reply
        self.mechanism = mechanism = mechanism or sandbox.resolve("auto")
        self.name = spec.name
        self.display_name = spec.display_name or spec.name
        self.limits = limits or Limits()
        self.failed: PlayerFault | None = None
        self.transcript = _Transcript()
        self.last_line: bytes | None = None
        self.fault_line: bytes | None = None
        """The stdout line a ``protocol`` fault was about (``arena check`` tells debugging output by it)."""
        self.resources = rlimits or sandbox.Resources()
        self.runtime: tuple[str, str] | None = None
        """What a crash's standard error said of the runtime (:func:`diagnose.runtime_failure`) and the
        advice for it, once found (``arena check``'s hint repeats the advice)."""
        self.last_cpu_ms: float | None = None
        self.last_wall_ms = 0.0
        self._next_id = 0
        self._answered: set[int] = set()
        self._said_bye = False
        self.box: sandbox.Box
        self.process: PipedProcess
        passed = {k: os.environ[k] for k in os.environ.get(PASS_ENV, "").split(",") if k in os.environ}
        log = None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            log = log_dir / f"{spec.name}.stderr.log"  # not shown
        server = warm.server() if warm_start and spec.kind == "python" and mechanism == "bwrap" else None
        if server is not None:
            self._start_warm(server, rlimits, passed, log)
        else:
            self._start_cold(rlimits, passed, log)
        self.closed = False
        if greet:
            self.greet()

    def _start_cold(
        self, rlimits: sandbox.Resources | None, passed: dict[str, str], log: Path | None
    ) -> None:
        """A fresh process: sandbox, interpreter and runtime started for this partido."""
        spec, mechanism = self.spec, self.mechanism
        if spec.kind == "python":
            argv = [sys.executable, "-m", "arena.player.runner", str(spec.folder)]
        else:
            argv = list(spec.command)
            _check_command(spec.folder, argv[0])
        try:
            self.box = sandbox.contain(argv, spec.folder, mechanism, rlimits, spec.kind == "python", passed)
        except sandbox.SandboxError as exc:
            raise PlayerLoadError(str(exc)) from None
        try:
            wrapper = "bwrap" if mechanism == "bwrap" else None
            self.process = PlayerProcess(
                self.box.argv, self.box.cwd, self.box.env, log, wrapper=wrapper, pass_fds=self.box.pass_fds
            )
            self.box.started()
        except OSError as exc:
            self.box.release()
            raise PlayerLoadError(
                _("{folder}: cannot start {program}: {error}").format(
                    folder=spec.folder, program=repr(argv[0]), error=exc.strerror
                )
            ) from None

    def _start_warm(
        self,
        server: warm.Server,
        rlimits: sandbox.Resources | None,
        passed: dict[str, str],
        log: Path | None,
    ) -> None:
        """A process forked by the warm-start server, contained as a fresh one would be."""
        try:
            self.box = sandbox.warm_box(self.spec.folder, rlimits, passed)
        except sandbox.SandboxError as exc:
            raise PlayerLoadError(str(exc)) from None
        try:
            self.process = server.start(self.box, log, rlimits)
        except (OSError, warm.WarmStartError) as exc:
            self.box.release()
            raise sandbox.SandboxFailure(
                _("{folder}: the sandbox could not start the player: {why}").format(
                    folder=self.spec.folder, why=exc
                )
            ) from None

    def greet(self) -> None:
        """The hello handshake (done by the constructor unless ``greet=False``): a fault is kept
        in :attr:`failed`; a folder that cannot run raises :class:`PlayerLoadError`.

        Starting every seat's process first and greeting them after lets their start-ups
        overlap (each one's CPU time is its own: the limits are unaffected)."""
        try:
            self.process.ready()
        except (OSError, warm.WarmStartError) as exc:
            self.close()
            raise sandbox.SandboxFailure(
                _("{folder}: the sandbox could not start the player: {why}").format(
                    folder=self.spec.folder, why=exc
                )
            ) from None
        try:
            self._hello()
        except PlayerFault as fault:
            self.failed = fault

    def _hello(self) -> None:
        request = protocol.hello(self._new_id(), self.name, self.limits.to_dict(), self.game)
        try:
            obj = self._round_trip(request, self.limits.init_ms, self.limits.init_wall)
        except PlayerFault as fault:
            if fault.reason == "crash":
                self.process.stderr.join(1.0)  # the process is gone: let its last words arrive
                tail = self.process.stderr.tail()
                for line in tail.splitlines():
                    if line.startswith(LOAD_ERROR):
                        self.close()
                        message = line[len(LOAD_ERROR) :].strip()
                        if self.mechanism == "bwrap" and message.startswith(sandbox.PLAYER_DIR):
                            message = str(self.spec.folder) + message[len(sandbox.PLAYER_DIR) :]
                        raise PlayerLoadError(message) from None
                raise self._hello_crash() from None
            raise
        except Exception:  # the referee's own failure, not the player's: leave no process behind
            self.close()
            raise
        try:
            name = protocol.check_ready(obj, request["id"])
        except ProtocolError as exc:
            raise PlayerFault("protocol", exc.detail, line=_text(self.last_line)) from None
        self.display_name = self.spec.display_name or name or self.name

    def _hello_crash(self) -> PlayerFault:
        """A crash at ``hello``, worded the same however and whenever the referee saw it.

        A broken pipe or a closed output, an exit already known or not: that is timing,
        not the player's doing. The detail is :data:`HELLO_CRASH` (plus the limit hit,
        when known); the exit status or signal is the ``exit`` evidence (null if running).
        """
        try:
            seen = self._crash(_(HELLO_CRASH))  # waits briefly for the exit status
        except Exception:  # the referee's own failure (a sandbox that never ran it): leave nothing behind
            self.close()
            raise
        status = seen.evidence.get("exit")
        assert status is None or isinstance(status, (int, str))
        sig = status if isinstance(status, str) else None
        tail = self.process.stderr.tail()
        runtime = diagnose.runtime_failure(tail) if status is not None else None
        limit = self.box.limit_hit(sig) or (None if runtime else sandbox.limit_hint(tail, sig))
        detail = _(HELLO_CRASH_LIMIT).format(limit=limit) if limit else _(HELLO_CRASH)
        return PlayerFault("crash", self._explained(detail, status), exit=status)

    def _explained(self, detail: str, status: int | str | None) -> str:
        """``detail`` of a crash led by what the player's standard error says: the exception and the
        student's file and line, or a runtime that ran out of memory or threads, with the limit and the
        fix. Only once the process is gone (its last words are then all there: the same line however
        the referee saw the crash); one line, bounded (:mod:`arena.referee.diagnose`)."""
        if status is None:
            return detail
        tail = self.process.stderr.tail()
        runtime = diagnose.runtime_failure(tail)
        if runtime is not None:
            advice = diagnose.runtime_advice(
                runtime, self.box.cgroup is not None, self.resources.memory_mb, self.resources.processes
            )
            self.runtime = (runtime, advice)
            return _("{problem} — {detail}; {advice}").format(
                problem=_(diagnose.RUNTIME_WORDS[runtime]), detail=detail, advice=advice
            )
        folder = self.spec.folder.absolute()
        roots = [sandbox.PLAYER_DIR, self.box.cwd, str(folder), str(folder.resolve())]
        error = diagnose.exception_summary(tail, roots, _shown_folder(folder))
        return _("{error} — {detail}").format(error=error, detail=detail) if error else detail

    def _check_sandbox(self, status: int | None) -> None:
        """Raise :class:`SandboxFailure` if the process ended before the sandbox ever ran the player."""
        if status is None or not self.box.never_ran():
            return
        self.process.stderr.join(0.5)
        said = [line for line in self.process.stderr.tail().splitlines() if line.strip()]
        why = printable(said[-1][:EXCERPT]) if said else _("exit status {status}").format(status=status)
        self.close()
        raise sandbox.SandboxFailure(
            _("{folder}: the sandbox could not start the player: {why}").format(
                folder=self.spec.folder, why=why
            )
        )

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _crash(self, what: str) -> PlayerFault:
        status = self.process.exit_status(0.2)
        self._check_sandbox(status)
        if status is None:
            return PlayerFault("crash", _("{what} (standard output closed)").format(what=what), exit=None)
        signum = -status if status < 0 else status - 128 if self.mechanism == "bwrap" and status > 128 else 0
        self.process.stderr.join(0.5)
        sig = None
        if signum:
            try:
                sig = signal.Signals(signum).name
            except ValueError:
                sig = str(signum)
        tail = self.process.stderr.tail()
        limit = self.box.limit_hit(sig) or (
            None if diagnose.runtime_failure(tail) else sandbox.limit_hint(tail, sig)
        )
        if sig:
            if limit:
                detail = _("{what}: killed by {signal} ({limit})").format(what=what, signal=sig, limit=limit)
            else:
                detail = _("{what}: killed by {signal}").format(what=what, signal=sig)
            return PlayerFault("crash", self._explained(detail, sig), exit=sig)
        if limit:
            detail = _("{what}: exited with status {status} ({limit})").format(
                what=what, status=status, limit=limit
            )
        else:
            detail = _("{what}: exited with status {status}").format(what=what, status=status)
        return PlayerFault("crash", self._explained(detail, status), exit=status)

    def _write(self, message: Message, timeout_s: float) -> bool:
        return self._write_line(self._encode(message), timeout_s)

    def _encode(self, message: Message) -> bytes:
        """``message``'s line, kept in the transcript (the referee's work: done before a clock starts)."""
        data = protocol.encode(message)
        self.transcript.add("→", data)
        return data

    def _write_line(self, data: bytes, timeout_s: float) -> bool:
        try:
            return self.process.write(data, timeout_s)
        except (BrokenPipeError, ConnectionResetError):
            raise self._crash(_("the player process is gone")) from None

    def _cpu_ns(self) -> int | None:
        """CPU time used so far by the player's whole process tree (cgroup, else /proc)."""
        used = self.box.cpu_ns()
        return used if used is not None else process_tree_cpu_ns(self.process.pid)

    def _read_reply(self, cpu_ms: int, wall_ms: int, start: float, cpu0: int | None, idle_ms: int) -> bytes:
        """The reply line, waiting while the player has CPU time, idle time and wall time left.

        Raises :class:`PlayerFault` ``timeout`` once the player's CPU time since the
        request passes ``cpu_ms``, its idle time passes ``idle_ms``, or the wall clock
        passes the backstop ``wall_ms``.
        """
        deadline = start + wall_ms / 1000
        cores = self.box.cpus or os.cpu_count() or 1
        clock: idle.IdleClock | None = None  # made once the reply takes longer than IDLE_LOOK_MS
        look = start + IDLE_LOOK_MS / 1000
        first = cpu0 is not None
        try:
            while True:
                now = time.monotonic()
                bound = (now - start) * 1000 * cores
                if first and now < look and bound < min(cpu_ms, wall_ms):
                    # Just after the write: the CPU time cannot have passed the limit (it grows at most
                    # `cores` times faster than the clock), nor the wall clock, nor idle time (not yet
                    # looked at): the bound serves for the first wait, with no reading.
                    used: float | None = bound
                else:
                    used = self._cpu_used_ms(cpu0)
                    if used is not None and used > cpu_ms:
                        detail = _("used more than {ms} ms of CPU time").format(ms=cpu_ms)
                        raise self._timeout(detail, start, used)
                    now = time.monotonic()
                first = False
                left = deadline - now
                if left <= 0:
                    raise self._timeout(
                        _("no reply within {ms} ms of wall-clock time").format(ms=wall_ms), start, used
                    )
                # CPU time grows at most `cores` times faster than the wall clock: no need to look sooner.
                wait = left if used is None else min(left, max(0.002, (cpu_ms - used) / 1000 / cores))
                if clock is None and idle.measurable():
                    if now >= look:
                        clock = idle.tree_clock(self.box, self.process.pid)
                        clock.start()
                    else:
                        wait = min(wait, look - now)
                if clock is not None:
                    wait = min(wait, self._idle_left(clock, idle_ms, start, used))
                try:
                    return self.process.read_line(wait)
                except LineTimeout:
                    continue
        finally:
            if clock is not None:
                clock.close()  # its open schedstat files

    def _idle_left(self, clock: idle.IdleClock, idle_ms: int, start: float, used: float | None) -> float:
        """How long (s) until the reply's idle time could pass ``idle_ms``: it grows no faster than
        the clock. Raises the ``timeout`` once it has passed."""
        idle_now = clock.idle_ms()
        if idle_now is None:
            return math.inf
        if idle_now > idle_ms:
            detail = _("idle for {idle} ms (neither computing nor waiting for a CPU; at most {ms} ms)")
            raise self._timeout(
                detail.format(idle=round(idle_now), ms=idle_ms), start, used, idle_ms=round(idle_now, 3)
            )
        return max(0.005, (idle_ms - idle_now) / 1000)

    def _cpu_used_ms(self, cpu0: int | None) -> float | None:
        now = self._cpu_ns() if cpu0 is not None else None
        return None if now is None or cpu0 is None else (now - cpu0) / 1e6

    def _timeout(self, detail: str, start: float, cpu_used: float | None, **evidence: float) -> PlayerFault:
        self.transcript.add("←", f"(timeout: {detail})")
        return PlayerFault(
            "timeout",
            detail,
            elapsed_ms=round((time.monotonic() - start) * 1000),
            cpu_ms=None if cpu_used is None else round(cpu_used, 3),
            **evidence,
        )

    def _round_trip(self, request: Message, cpu_ms: int, wall_ms: int) -> Message:
        """Write ``request``; its reply, judged by :func:`protocol.judge_reply`, or a :class:`PlayerFault`.

        Sets :attr:`last_cpu_ms` and :attr:`last_wall_ms` to what the reply cost.
        """
        if self.process.pending(wait=False):  # a line came while no request was waiting
            self._unsolicited(self.process.read_line(0))
        data = self._encode(request)
        cpu0 = self._cpu_ns()
        start = time.monotonic()
        if not self._write_line(data, wall_ms / 1000):
            detail = _("did not read its input within {ms} ms").format(ms=wall_ms)
            raise self._timeout(detail, start, self._cpu_used_ms(cpu0))
        idle_ms = self.limits.init_idle_ms if request.get("type") == "hello" else self.limits.idle_ms
        try:
            line = self._read_reply(cpu_ms, wall_ms, start, cpu0, idle_ms)
        except LineClosed:
            self.transcript.add("←", _("(standard output closed)"))
            raise self._crash(_("closed its output before replying")) from None
        except LineTooLong as exc:
            text = exc.head.decode("utf-8", errors="replace")
            self.transcript.add("←", text + "…")
            self.fault_line = exc.head
            raise PlayerFault(
                "protocol",
                _debugging(_("reply line over {limit} bytes").format(limit=protocol.MAX_LINE_BYTES), text),
                line=text[:EXCERPT],
            ) from None
        self.last_wall_ms = (time.monotonic() - start) * 1000
        self.last_cpu_ms = self._cpu_used_ms(cpu0)
        if self.last_wall_ms > wall_ms:  # read after the backstop: late, whenever it was written
            raise self._timeout(
                _("no reply within {ms} ms of wall-clock time").format(ms=wall_ms), start, self.last_cpu_ms
            )
        if self.last_cpu_ms is not None and self.last_cpu_ms > cpu_ms:  # the reply came too late
            raise self._timeout(
                _("used more than {ms} ms of CPU time").format(ms=cpu_ms), start, self.last_cpu_ms
            )
        self.transcript.add("←", line)
        self.last_line = line
        try:  # any bytes: judged by the spec, a fault of the player, never an error of the referee
            obj = protocol.judge_reply(line, request, self._reader, self._answered)
        except ProtocolError as exc:
            self.fault_line = line
            raise PlayerFault("protocol", _debugging(exc.detail, line), line=exc.line) from None
        self._answered.add(request["id"])
        return obj

    def _unsolicited(self, line: bytes) -> None:
        self.transcript.add("←", line)
        self.fault_line = line
        raise PlayerFault("protocol", _debugging(_(protocol.UNSOLICITED), line), line=_text(line))

    def send(self, event: Message) -> None:
        """Queue an event; it goes out at the next :meth:`flush` or request."""
        if self.closed:
            return
        data = protocol.encode(event)
        self.transcript.add("→", data)
        self.process.queue(data)

    def flush(self) -> None:
        if self.closed:
            return
        try:
            self.process.write(b"", 0.0)
        except (BrokenPipeError, ConnectionResetError):
            raise self._crash(_("the player process is gone")) from None

    def ask(self, request: Message, cpu_ms: int, wall_ms: int | None = None) -> Message:
        if self.failed is not None:
            raise self.failed
        request["id"] = self._new_id()
        return self._round_trip(request, cpu_ms, wall_ms if wall_ms is not None else wall_backstop(cpu_ms))

    def incident(self, lines: bool = True) -> str:
        if self.process.exit_status() is not None:
            self.process.stderr.join(0.5)  # the process is gone: let its last words arrive
        else:
            self.process.stderr.catch_up(0.5)  # alive: what it wrote so far, kept
        return self.transcript.render(self.process.stderr.tail(), lines)

    def say_bye(self) -> None:
        """Tell the player the partido is over (once; :meth:`close` then stops it)."""
        if self.closed or self._said_bye:
            return
        self._said_bye = True
        # a player already gone is no failure here: close() also runs while another exception
        # (a worker's stop on SIGTERM) unwinds, and must not replace it
        with contextlib.suppress(PlayerFault, sandbox.SandboxFailure):
            self._write({"type": "bye"}, 0.0)

    def close(self) -> None:
        if self.closed:
            return
        self.say_bye()
        self.closed = True
        self.process.kill_tree(BYE_GRACE_S, also=self.box.kill)
        self.box.release()


def _shown_folder(folder: Path) -> str:
    """A player's folder as its author names it: relative to the current folder when inside it."""
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)


def _debugging(detail: str, line: bytes | str) -> str:
    """A ``protocol`` fault's detail, with where debugging belongs when ``line`` looks like it."""
    if not diagnose.looks_like_debugging(line):
        return detail
    return _("{detail}; {hint}").format(detail=detail, hint=_(diagnose.DEBUG_TO_STDERR))


def _text(line: bytes | None) -> str | None:
    """The first 200 characters of a raw line, for the replay's evidence."""
    return None if line is None else line.decode("utf-8", errors="replace")[:EXCERPT]


def _check_command(folder: Path, program: str) -> None:
    """A command player's program must exist: a path inside its folder, or a name on PATH."""
    import shutil

    if "/" in program:
        target = folder / program if not program.startswith("/") else Path(program)
        if not target.is_file():
            build = diagnose.build_command(folder, program)
            if build is not None:  # a source beside it: not built yet
                raise PlayerLoadError(
                    _("{folder}: command {program} not found — did you build it? e.g. {build}").format(
                        folder=folder, program=repr(program), build=build
                    )
                )
            raise PlayerLoadError(
                _("{folder}: command {program} not found").format(folder=folder, program=repr(program))
            )
    elif shutil.which(program, path="/usr/local/bin:/usr/bin:/bin") is None:
        raise PlayerLoadError(
            _("{folder}: command {program} is not installed (not on /usr/bin or /bin)").format(
                folder=folder, program=repr(program)
            )
        )
