"""The referee's side of a player: in this process, or a program in a subprocess.

Every connection-level problem becomes a :class:`PlayerFault` with a fault type
of ``protocol.md`` (``timeout``, ``protocol``, ``crash``) and its evidence.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from arena import protocol, sandbox
from arena.loader import PlayerLoadError
from arena.players import PlayerSpec
from arena.process import LineClosed, LineTimeout, LineTooLong, PlayerProcess
from arena.protocol import Message, ProtocolError
from arena.rules import FaultError
from arena.runner import LOAD_ERROR
from arena.sdk import Player

BYE_GRACE_S = 0.2
TRANSCRIPT_LINES = 30
PASS_ENV = "ARENA_PASS_ENV"
"""Names (comma-separated) of environment variables handed to players' otherwise clean environment."""


class PlayerFault(FaultError):
    """A connection-level fault (``timeout``, ``protocol``, ``crash``) with its evidence."""


@dataclass
class Limits:
    """Time limits of the protocol, in milliseconds."""

    init_ms: int = 10_000
    move_ms: int = 1_000

    def to_dict(self) -> dict[str, int]:
        return {"init_ms": self.init_ms, "move_ms": self.move_ms}


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

    def ask(self, request: Message, timeout_ms: int) -> Message:
        """Send a request (setting its ``id``) and return the reply; raise :class:`PlayerFault`."""

    def incident(self) -> str:
        """The last protocol lines exchanged and the tail of standard error."""

    def close(self) -> None:
        """Done with this player: ``bye``, a short grace, then it is gone."""


class _Transcript:
    """The last lines exchanged, kept raw and formatted only for an incident report."""

    def __init__(self) -> None:
        self.lines: deque[tuple[float, str, str | bytes]] = deque(maxlen=TRANSCRIPT_LINES)
        self.start = time.monotonic()

    def add(self, arrow: str, text: str | bytes) -> None:
        self.lines.append((time.monotonic(), arrow, text))

    def render(self, stderr_tail: str) -> str:
        out = ["Last protocol lines (→ referee to player, ← player to referee):"]
        for at, arrow, text in self.lines:
            if isinstance(text, bytes):
                text = text.decode("utf-8", errors="replace").rstrip("\n")
            out.append(f"{(at - self.start) * 1000:9.1f} ms {arrow} {text[:600]}")
        out.append("")
        out += ["Tail of standard error:", stderr_tail.rstrip() or "(empty)", ""]
        return "\n".join(out)


class InProcessConnection:
    """A :class:`Player` object called directly: for debugging and fast tests.

    Time limits are measured, not enforced (a breakpoint must not disqualify);
    an exception raised by the player is a ``crash`` fault.
    """

    def __init__(self, player: Player, name: str, limits: Limits | None = None) -> None:
        self.player = player
        self.name = name
        self.failed: PlayerFault | None = None
        self.transcript = _Transcript()
        self.error_tail = ""
        self._next_id = 0
        limits = limits or Limits()
        hello = protocol.hello(0, name, limits.init_ms, limits.move_ms)
        self.display_name = name
        try:
            self.display_name = player.handle_hello(hello)
        except Exception as exc:
            self.failed = self._crash("hello", exc)

    def _crash(self, what: str, exc: Exception) -> PlayerFault:
        import traceback

        self.error_tail = "".join(traceback.format_exception(exc))[-4096:]
        return PlayerFault("crash", f"{what} raised {type(exc).__name__}: {exc}")

    def send(self, event: Message) -> None:
        self.transcript.add("→", repr(event))
        try:
            self.player.handle_event(event)
        except Exception as exc:
            raise self._crash(f"the {event['type']} event", exc) from exc

    def ask(self, request: Message, timeout_ms: int) -> Message:
        self._next_id += 1
        request["id"] = self._next_id
        self.transcript.add("→", repr(request))
        try:
            reply = self.player.handle_play(request)
        except Exception as exc:
            raise self._crash("play", exc) from exc
        self.transcript.add("←", repr(reply))
        return reply

    def flush(self) -> None:
        """Events are delivered at once in this process."""

    def incident(self) -> str:
        return self.transcript.render(self.error_tail)

    def close(self) -> None:
        """Nothing to stop in this process."""


class SubprocessConnection:
    """A player program in its own process, spoken to over protocol v1.

    Starts the program and does the hello handshake. A folder that cannot run at
    all (no interpreter or command, a ``player.py`` that does not load) raises
    :class:`PlayerLoadError`; a late or wrong ``ready`` is kept in :attr:`failed`.
    ``mechanism`` is the containment (:data:`arena.sandbox.MECHANISMS`; default: the
    best that works here).
    """

    def __init__(
        self,
        spec: PlayerSpec,
        limits: Limits | None = None,
        log_dir: Path | None = None,
        mechanism: str | None = None,
        rlimits: sandbox.Limits | None = None,
    ) -> None:
        self.spec = spec
        self.mechanism = mechanism = mechanism or sandbox.resolve("auto")
        self.name = spec.name
        self.display_name = spec.display_name or spec.name
        self.limits = limits or Limits()
        self.failed: PlayerFault | None = None
        self.transcript = _Transcript()
        self.last_line: bytes | None = None
        self._next_id = 0
        self._answered: set[int] = set()
        if spec.kind == "python":
            argv = [sys.executable, "-m", "arena.runner", str(spec.folder)]
        else:
            argv = list(spec.command)
            _check_command(spec.folder, argv[0])
        passed = {k: os.environ[k] for k in os.environ.get(PASS_ENV, "").split(",") if k in os.environ}
        try:
            self.box = sandbox.contain(argv, spec.folder, mechanism, rlimits, spec.kind == "python", passed)
        except sandbox.SandboxError as exc:
            raise PlayerLoadError(str(exc)) from None
        log = None
        if log_dir is not None:
            log_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            log = log_dir / f"{spec.name}.stderr.log"
        try:
            wrapper = "bwrap" if mechanism == "bwrap" else None
            self.process = PlayerProcess(self.box.argv, self.box.cwd, self.box.env, log, wrapper=wrapper)
        except OSError as exc:
            self.box.release()
            raise PlayerLoadError(f"{spec.folder}: cannot start {argv[0]!r}: {exc.strerror}") from None
        self.closed = False
        try:
            self._hello()
        except PlayerFault as fault:
            self.failed = fault

    def _hello(self) -> None:
        request = protocol.hello(self._new_id(), self.name, self.limits.init_ms, self.limits.move_ms)
        try:
            obj = self._round_trip(request, self.limits.init_ms)
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
            raise
        except Exception:  # the referee's own failure, not the player's: leave no process behind
            self.close()
            raise
        try:
            name = protocol.check_ready(obj, request["id"])
        except ProtocolError as exc:
            raise PlayerFault("protocol", exc.detail, line=_text(self.last_line)) from None
        self.display_name = self.spec.display_name or name or self.name

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def _crash(self, what: str) -> PlayerFault:
        status = self.process.exit_status(0.2)
        if status is None:
            return PlayerFault("crash", f"{what} (standard output closed)", exit=None)
        signum = -status if status < 0 else status - 128 if self.mechanism == "bwrap" and status > 128 else 0
        self.process.stderr.join(0.5)
        sig = None
        if signum:
            try:
                sig = signal.Signals(signum).name
            except ValueError:
                sig = str(signum)
        limit = self.box.limit_hit() or sandbox.limit_hint(self.process.stderr.tail(), sig)
        why = f" ({limit})" if limit else ""
        if sig:
            return PlayerFault("crash", f"{what}: killed by {sig}{why}", exit=sig)
        return PlayerFault("crash", f"{what}: exited with status {status}{why}", exit=status)

    def _write(self, message: Message, timeout_s: float) -> bool:
        data = protocol.encode(message)
        self.transcript.add("→", data)
        try:
            return self.process.write(data, timeout_s)
        except (BrokenPipeError, ConnectionResetError):
            raise self._crash("the player process is gone") from None

    def _round_trip(self, request: Message, timeout_ms: int) -> Message:
        """Write ``request``; its reply, judged by :func:`protocol.judge_reply`, or a :class:`PlayerFault`."""
        if self.process.pending(wait=False):  # a line came while no request was waiting
            self._unsolicited(self.process.read_line(0))
        start = time.monotonic()
        deadline = start + timeout_ms / 1000
        if not self._write(request, timeout_ms / 1000):
            raise PlayerFault(
                "timeout",
                f"did not read its input within {timeout_ms} ms",
                elapsed_ms=round((time.monotonic() - start) * 1000),
            )
        try:
            line = self.process.read_line(max(0.0, deadline - time.monotonic()))
        except LineTimeout:
            elapsed = round((time.monotonic() - start) * 1000)
            self.transcript.add("←", f"(nothing within {timeout_ms} ms)")
            raise PlayerFault("timeout", f"no reply within {timeout_ms} ms", elapsed_ms=elapsed) from None
        except LineClosed:
            self.transcript.add("←", "(standard output closed)")
            raise self._crash("closed its output before replying") from None
        except LineTooLong as exc:
            text = exc.head.decode("utf-8", errors="replace")
            self.transcript.add("←", text + "…")
            raise PlayerFault(
                "protocol", f"reply line over {protocol.MAX_LINE_BYTES} bytes", line=text[:200]
            ) from None
        self.transcript.add("←", line)
        self.last_line = line
        try:  # any bytes: judged by the spec, a fault of the player, never an error of the referee
            obj = protocol.judge_reply(line, request, self._answered)
        except ProtocolError as exc:
            raise PlayerFault("protocol", exc.detail, line=exc.line) from None
        self._answered.add(request["id"])
        return obj

    def _unsolicited(self, line: bytes) -> None:
        self.transcript.add("←", line)
        raise PlayerFault("protocol", protocol.UNSOLICITED, line=_text(line))

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
            raise self._crash("the player process is gone") from None

    def ask(self, request: Message, timeout_ms: int) -> Message:
        if self.failed is not None:
            raise self.failed
        request["id"] = self._new_id()
        return self._round_trip(request, timeout_ms)

    def incident(self) -> str:
        if self.process.exit_status() is not None:
            self.process.stderr.join(0.5)  # the process is gone: let its last words arrive
        return self.transcript.render(self.process.stderr.tail())

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(PlayerFault):
            self._write({"type": "bye"}, 0.0)
        self.process.kill_tree(BYE_GRACE_S, also=self.box.kill)
        self.box.release()


def _text(line: bytes | None) -> str | None:
    """The first 200 characters of a raw line, for the replay's evidence."""
    return None if line is None else line.decode("utf-8", errors="replace")[:200]


def _check_command(folder: Path, program: str) -> None:
    """A command player's program must exist: a path inside its folder, or a name on PATH."""
    import shutil

    if "/" in program:
        target = folder / program if not program.startswith("/") else Path(program)
        if not target.is_file():
            raise PlayerLoadError(f"{folder}: command {program!r} not found")
    elif shutil.which(program, path="/usr/local/bin:/usr/bin:/bin") is None:
        raise PlayerLoadError(f"{folder}: command {program!r} is not installed (not on /usr/bin or /bin)")
