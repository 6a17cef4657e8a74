"""``arena check PLAYER``: a student's submission checker.

Loads the folder, handshakes, plays a few partidos against the sample players
with the tournament's limits and rules, and reports every fault with a hint and
its incident report, the time per move against the limit, and common mistakes
(slow start-up, replies not flushed). Clean means: no fault.

The checked player runs as in a tournament, with one addition: when it times
out, before it is killed, a Python player is interrupted (``SIGINT``) so that its
traceback, in its standard error, says where its code was.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import games, protocol
from arena.containment import sandbox
from arena.containment.process import LineClosed, LineTimeout, LineTooLong, PlayerProcess
from arena.errors import ArenaError
from arena.games.gamespec import Game, seat_sides
from arena.i18n import N_, _, n_
from arena.inert import printable
from arena.player.runner import PRINT_NOTE
from arena.protocol import DEFAULT_GAME, Message
from arena.referee import diagnose
from arena.referee.connection import Limits, PlayerFault, SubprocessConnection
from arena.referee.narrate import reason_name
from arena.referee.players import PlayerSpec, find_player, unique_names
from arena.referee.replay import read_replay
from arena.referee.table import play_folders
from arena.seeds import new_key, short

_HERE = Path(__file__).resolve()


def sample_dirs(game: str = DEFAULT_GAME) -> tuple[Path, ...]:
    """Where ``game``'s sample opponents (its spec's ``samples`` folder) are looked for, in order,
    when ``--samples`` is not given."""
    name = games.spec(game).samples
    return (
        _HERE.parents[2] / name,  # beside the package: a checkout, an editable install
        _HERE.parents[1] / name,  # inside the package, if shipped as package data
        Path(name),  # the current folder (e.g. a copy of the project's samples)
    )


def _is_player(folder: Path) -> bool:
    """Whether ``folder`` holds a player: a ``player.py``, or a ``player.toml`` (any language)."""
    return (folder / "player.py").is_file() or (folder / "player.toml").is_file()


OPPONENTS = games.spec(DEFAULT_GAME).check_opponents
"""The default game's check opponents, in turn (each game's spec names its own)."""
STACK_WAIT_S = 1.0
"""How long a timed-out Python player is given to print its traceback after ``SIGINT``."""

Say = Callable[[str], None]


class SamplesNotFound(ArenaError, FileNotFoundError):
    """The sample opponents are not where the checker looks: the machine's setup, not the player's fault."""


@dataclass(frozen=True)
class Frame:
    """A frame of the player's code: its file relative to the player's folder, line, function, source."""

    file: str
    line: int
    function: str
    code: str = ""

    def __str__(self) -> str:
        if self.function == "<module>":
            place = _("{file}:{line}, at module level").format(file=self.file, line=self.line)
        else:
            place = _("{file}:{line}, in {function}()").format(
                file=self.file, line=self.line, function=self.function
            )
        return _("{place}: “{code}”").format(place=place, code=self.code.strip()) if self.code else place


@dataclass
class Stuck:
    """A timeout of the checked player: what it used, and where its code was when stopped."""

    cpu_ms: float | None
    elapsed_ms: float | None
    limit_ms: int
    """The CPU time it was allowed (``move_ms``, or ``init_ms`` at hello)."""
    where: list[Frame] = field(default_factory=list)
    """The player's own frames, innermost last (empty when they could not be had)."""


@dataclass
class CheckReport:
    """What the checker found."""

    player: str
    partidos: int = 0
    faults: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reply_ms: list[float] = field(default_factory=list)
    """Wall-clock time of each reply."""
    reply_cpu_ms: list[float] = field(default_factory=list)
    """CPU time of each reply (the player's whole process tree), where measured."""
    startup_ms: float = 0.0
    stuck: list[Stuck] = field(default_factory=list)
    """Each timeout's evidence and where the player's code was."""
    printed: list[Path] = field(default_factory=list)
    """The logs that hold what the player printed to stdout (harmless: the Python runner puts it there)."""

    @property
    def clean(self) -> bool:
        return not self.faults


def _opponents(
    samples: Path | None, wanted: tuple[str, ...] = OPPONENTS, dirs: tuple[Path, ...] | None = None
) -> list[PlayerSpec]:
    """The sample opponents, looked for in ``samples``, else ``dirs`` (default: :func:`sample_dirs`);
    :class:`SamplesNotFound` (one line naming what is missing) if absent."""
    dirs = sample_dirs() if dirs is None else dirs
    roots = [samples] if samples else list(dirs)
    for root in roots:
        if all(_is_player(root / name) for name in wanted):
            return [find_player(root / name) for name in wanted]
    needed = ", ".join(dict.fromkeys(wanted))
    seen = []
    for root in dict.fromkeys(roots):
        missing = [n for n in dict.fromkeys(wanted) if not _is_player(root / n)]
        if not root.is_dir():
            seen.append(_("{folder}: does not exist").format(folder=root.absolute()))
        else:
            seen.append(
                n_("{folder}: {players} is missing", "{folder}: {players} are missing", len(missing)).format(
                    folder=root.absolute(), players=", ".join(missing)
                )
            )
    raise SamplesNotFound(
        _(
            "cannot find the sample players ({needed}) — {seen}; give their folder with --samples FOLDER "
            "(the project's {folder} folder)"
        ).format(needed=needed, seen="; ".join(seen), folder=dirs[-1].name)
    )


def check_player(
    folder: str | Path,
    *,
    partidos: int = 3,
    limits: Limits | None = None,
    ruleset: Any = None,
    out: Path | None = None,
    say: Say = print,
    samples: Path | None = None,
    mechanism: str | None = None,
    seed: int | None = None,
    game: str = DEFAULT_GAME,
) -> CheckReport:
    """Check the player in ``folder``; ``say`` receives the report's lines.

    Partido ``i`` deals from ``seed + i`` when ``seed`` is given (predictable, to
    reproduce), else from a new secret key. The sample opponents come from
    ``samples``, else from :func:`sample_dirs` (the game's spec names the opponents and the
    table sizes, in turn). A game of teams seats the player as a team of processes of its
    folder against each opponent team in turn, in the first team's seats in odd partidos and
    the second's in even ones.

    Raises :class:`arena.referee.players.PlayerLoadError` when the folder cannot run at all,
    :class:`SamplesNotFound` (before anything runs) when the sample players cannot be found.
    """
    limits = limits or Limits()
    say = _shown(say)
    spec = find_player(folder)
    game_spec = games.spec(game)
    sides = game_spec.teams
    tables = game_spec.check_tables
    opponents = _opponents(samples, game_spec.check_opponents, sample_dirs(game))
    mechanism = mechanism or sandbox.resolve("auto")
    report = CheckReport(spec.name)
    out = out or Path("results") / "check" / f"{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    say(
        _(
            "Checking {player} ({folder}) — {kind}, limits: hello {init_ms} ms, play {move_ms} ms of CPU"
        ).format(
            player=printable(spec.name),
            folder=printable(str(spec.folder)),
            kind=spec.kind,
            init_ms=limits.init_ms,
            move_ms=limits.move_ms,
        )
    )

    start = time.monotonic()
    conn = _Watched(spec, limits, out / "startup.logs", mechanism, game)  # PlayerLoadError stops here
    report.startup_ms = (time.monotonic() - start) * 1000
    conn.close()
    if conn.failed is not None:
        say(_("Start-up: no ready in {ms:.0f} ms").format(ms=report.startup_ms))
        report.faults.append(
            _("hello: {reason}: {detail}").format(
                reason=reason_name(conn.failed.reason), detail=printable(conn.failed.detail)
            )
        )
        say("  ✗ " + _("hello: {detail}").format(detail=printable(conn.failed.detail)))
        _say_hints(_hints(conn.failed.reason, conn.failed.detail, conn, hello=True), say)
        say("  " + _("Incident:"))
        say(_indent(conn.incident()))
        report.stuck += conn.stuck
    else:
        say(_("Start-up: ready in {ms:.0f} ms").format(ms=report.startup_ms))
        if report.startup_ms > limits.init_ms / 4:
            report.warnings.append(
                _(
                    "slow start-up: ready after {ms:.0f} ms, more than a quarter of init_ms ({init_ms} ms); "
                    "import less or leave the work for the first play"
                ).format(ms=report.startup_ms, init_ms=limits.init_ms)
            )

    names: set[str] = {spec.name}
    roots = {sandbox.PLAYER_DIR, str(spec.folder), str(spec.folder.resolve())}  # the folder as it saw it
    crashes: dict[Path, list[str]] = {}  # a log's folder: the details of the checked player's crashes there
    if conn.failed is not None and conn.failed.reason == "crash":
        crashes[out / "startup.logs"] = [conn.failed.detail]  # not shown
    reported: dict[tuple[str, str], int] = {}  # each fault's report in full once: where it was (0: start-up)
    renuncios = 0  # played and marked (accuse): no fault, yet a warning
    if conn.failed is not None:
        reported[diagnose.fault_key(conn.failed.reason, conn.failed.detail)] = 0
    for i in range(partidos):
        deals = new_key() if seed is None else seed + i
        if sides is None:
            n = tables[i % len(tables)]
            seat = i % n
            first = 0 if len(tables) > 1 else i // n * (n - 1)  # one size: each opponent in turn
            table = [opponents[(first + k) % len(opponents)] for k in range(n - 1)]
            table.insert(seat, spec)
            seats = [seat]
        else:
            side, other = i % len(sides), opponents[i % len(opponents)]
            table = [spec if t == side else other for t in seat_sides(sides)]
            n, seat, seats = len(table), sides[side][0], list(sides[side])
        names.update(unique_names(table)[s].name for s in seats)
        replay = out / f"partido-{i + 1}.jsonl"  # not shown
        watch = _Watch(seats)
        result, incidents = play_folders(
            table,
            deals,
            ruleset=ruleset,
            limits=limits,
            replay=replay,
            partido_id=f"check-{i + 1}",
            mechanism=mechanism,
            connect=watch,
            game=game,
        )
        report.partidos += 1
        for s in seats:
            report.reply_ms += result.reply_ms[s]
            report.reply_cpu_ms += [c for c in result.reply_cpu_ms[s] if c is not None]
        for watched in watch.watched.values():
            report.stuck += watched.stuck
            box = getattr(watched, "box", None)  # a connection that never started has none
            if box is not None:
                roots.add(box.cwd)
        mine = [f for f in result.faults if f.seat in seats]
        crashes[Path(f"{replay}.logs")] = [f.detail for f in mine if f.reason == "crash"]
        place = 1 + sum(len(g) for g in result.ranking[: _group(result.ranking, seat)])
        if seat in result.winners:
            outcome = _("won")
        elif sides is not None:
            outcome = _("lost, as a pair with itself against {pair}").format(
                pair=opponents[i % len(opponents)].name
            )
        else:
            outcome = _("finished in place {place} of {n}").format(place=place, n=n)
        faults = n_("{n} fault", "{n} faults", len(mine)).format(n=len(mine)) if mine else _("no faults")
        say(
            n_(
                "Partido {partido}: {n} players, seed {seed}, seat {seat}: "
                "{outcome} in {manos} mano, {faults}",
                "Partido {partido}: {n} players, seed {seed}, seat {seat}: "
                "{outcome} in {manos} manos, {faults}",
                result.manos,
            ).format(
                partido=i + 1,
                n=n,
                seed=short(deals),
                seat=seat,
                outcome=outcome,
                manos=result.manos,
                faults=faults,
            )
        )
        for f in mine:
            what = reason_name(f.reason)
            detail = printable(f.detail)
            # mano 0: judged at hello, before the deal
            when = _("mano {mano}").format(mano=f.mano) if f.mano else "hello"
            report.faults.append(
                _("partido {partido}, {when}: {reason}: {detail}").format(
                    partido=i + 1, when=when, reason=what, detail=detail
                )
            )
            if f.penalized:
                line = _("{when}: penalized: {reason} — {detail}")
            else:
                line = _("{when}: disqualified: {reason} — {detail}")
            say("  ✗ " + line.format(when=when, reason=what, detail=detail))
            _say_hints(_hints(f.reason, f.detail, watch.watched[f.seat], hello=not f.mano), say)
        for at, path in incidents.items():
            keys = [diagnose.fault_key(f.reason, f.detail) for f in result.faults if f.seat == at]
            before = reported.get(keys[0]) if len(keys) == 1 else None
            if before is not None:
                if before:
                    same = _("Incident ({path}): the same fault as in partido {partido}, reported above")
                else:
                    same = _("Incident ({path}): the same fault as at start-up, reported above")
                say("  " + same.format(path=printable(str(path)), partido=before))
                continue
            reported.update((key, i + 1) for key in keys)
            say("  " + _("Incident ({path}):").format(path=printable(str(path))))
            say(_indent(path.read_text(encoding="utf-8")))
        renuncios += _check_replay(replay, say, seats)

    if renuncios:  # only under accuse: a renuncio is played, and costs only when someone accuses it
        report.warnings.append(
            n_(
                "your player played {n} renuncio (a card outside the request's legal) that the rules let "
                "stand until someone accuses it; an accuser makes it cost you: play from legal",
                "your player played {n} renuncios (cards outside the request's legal) that the rules let "
                "stand until someone accuses them; an accuser makes them cost you: play from legal",
                renuncios,
            ).format(n=renuncios)
        )
    _timing(report, limits, say)
    logs = sorted(p for name in names for p in out.rglob(f"{name}.stderr.log"))  # not shown
    report.printed = [p for p in logs if PRINT_NOTE in p.read_text(encoding="utf-8", errors="replace")]
    if len(report.printed) == 1:
        say(
            _(
                "Standard output: what your player wrote with print() went to its log, not to the referee "
                "(it is not an error): {log}"
            ).format(log=printable(str(report.printed[0])))
        )
    elif report.printed:
        say(
            _(
                "Standard output: what your player wrote with print() went to its log, not to the referee "
                "(it is not an error): {log} and {n} more"
            ).format(log=printable(str(report.printed[0])), n=len(report.printed) - 1)
        )
    try:  # the folder as the student named it (as a crash's detail shows it)
        shown = str(spec.folder.relative_to(Path.cwd()))
    except ValueError:
        shown = str(spec.folder)
    _caught(logs, sorted(roots), shown, crashes, report)
    idle = [s for s in report.stuck if not _busy(s)]
    if spec.kind == "command" and idle:  # the Python runner always flushes: only a program can forget
        probe = flush_probe(spec, limits, mechanism, game)
        if probe:
            report.warnings.append(probe)
    for w in report.warnings:
        say(_("Warning: {warning}").format(warning=w))
    say(_("Logs and replays: {folder}").format(folder=printable(str(out))))
    if report.clean:
        say(_("Result: CLEAN ✓"))
    else:
        say(
            n_("Result: {n} fault ✗", "Result: {n} faults ✗", len(report.faults)).format(n=len(report.faults))
        )
    return report


def _caught(
    logs: list[Path], roots: list[str], shown: str, crashes: dict[Path, list[str]], report: CheckReport
) -> None:
    """Warn of the exception traces in the checked player's standard-error logs that are no crash: a
    player that catches its own bug (Bot.java's and bot.js's net: log it, play legal[0]) is never
    disqualified for it, and the bug shows only in its log."""
    traces: list[tuple[str, Path]] = []
    for log in logs:
        found = diagnose.exception_traces(log.read_text(encoding="utf-8", errors="replace"), roots, shown)
        for detail in crashes.get(log.parent, []):  # the trace a crash ended with is reported as the fault
            if found and found[-1] in detail:
                found.pop()
        traces += [(trace, log) for trace in found]
    if traces:
        first, log = traces[0]
        report.warnings.append(
            n_(
                "your player's standard error holds {n} exception trace (the first: {first}); it went on "
                "playing, so it is no fault here, but it is a bug: read {log}",
                "your player's standard error holds {n} exception traces (the first: {first}); it went on "
                "playing, so they are no fault here, but they are bugs: read {log}",
                len(traces),
            ).format(n=len(traces), first=first, log=printable(str(log)))
        )


class _Watch:
    """``play_folders``' ``connect``: the checked seats get a :class:`_Watched` connection, kept here."""

    def __init__(self, seats: list[int]) -> None:
        self.seats = seats
        self.watched: dict[int, _Watched] = {}

    def __call__(
        self,
        at: int,
        spec: PlayerSpec,
        limits: Limits,
        log_dir: Path | None,
        mechanism: str,
        rlimits: sandbox.Resources | None,
        game: str = DEFAULT_GAME,
    ) -> SubprocessConnection:
        if at not in self.seats:
            return SubprocessConnection(spec, limits, log_dir, mechanism, rlimits, game=game)
        self.watched[at] = _Watched(spec, limits, log_dir, mechanism, game)
        return self.watched[at]


class _Watched(SubprocessConnection):
    """The checked player's connection: keeps each timeout's evidence in :attr:`stuck`.

    A Python player that times out is interrupted (``SIGINT``) before it is killed:
    the runner does not catch ``KeyboardInterrupt``, so Python prints a traceback
    to the player's standard error (its log and the incident report) ending where
    the player's code was. A player that ignores or catches the signal is killed
    as usual, only without that traceback.
    """

    def __init__(
        self, spec: PlayerSpec, limits: Limits, log_dir: Path | None, mechanism: str, game: str = DEFAULT_GAME
    ) -> None:
        self.stuck: list[Stuck] = []  # before the hello, which runs in the constructor
        super().__init__(spec, limits, log_dir, mechanism, game=game)
        if self.failed is not None and self.failed.reason == "timeout":
            self._stopped(self.failed, self.limits.init_ms)

    def ask(self, request: Message, cpu_ms: int, wall_ms: int | None = None) -> Message:
        try:
            return super().ask(request, cpu_ms, wall_ms)
        except PlayerFault as fault:
            if fault.reason == "timeout" and fault is not self.failed:
                self._stopped(fault, cpu_ms)
            raise

    def _stopped(self, fault: PlayerFault, limit_ms: int) -> None:
        where: list[Frame] = []
        pid = self._runner_pid() if self.spec.kind == "python" else None
        if pid is not None and not _ignores_sigint(pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGINT)
                self.process.exit_status(STACK_WAIT_S)  # gone once its traceback is written
                self.process.stderr.join(0.5)
                where = stuck_frames(self.process.stderr.tail(), self._player_roots())
        cpu, elapsed = fault.evidence.get("cpu_ms"), fault.evidence.get("elapsed_ms")
        self.stuck.append(
            Stuck(
                float(cpu) if isinstance(cpu, (int, float)) else None,
                float(elapsed) if isinstance(elapsed, (int, float)) else None,
                limit_ms,
                where,
            )
        )

    def _runner_pid(self) -> int | None:
        """The pid of ``python -m arena.player.runner`` (inside any sandbox's wrappers), if still there."""
        for pid in self.process.processes():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:  # not shown
                    argv = f.read().split(b"\0")
            except OSError:
                continue
            if argv[1:3] == [b"-m", b"arena.player.runner"]:
                return pid
        return None

    def _player_roots(self) -> list[str]:
        """The player's folder as its own process sees it, under each containment."""
        return [sandbox.PLAYER_DIR, self.box.cwd, str(self.spec.folder)]


def _ignores_sigint(pid: int) -> bool:
    """Whether ``pid`` ignores SIGINT (inherited from a referee started in the background by a shell)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:  # not shown
            ignored = next((line.split()[1] for line in f if line.startswith("SigIgn:")), "0")
    except (OSError, IndexError):
        return False
    return bool(int(ignored, 16) >> (signal.SIGINT - 1) & 1)


_FRAME = re.compile(
    r'^  File "(?P<file>.+)", line (?P<line>\d+), in (?P<func>.+)\n(?:    (?P<code>(?! *\^)\S.*)\n)?', re.M
)


def stuck_frames(stderr_tail: str, roots: list[str]) -> list[Frame]:
    """The player's frames in the last ``KeyboardInterrupt`` traceback of ``stderr_tail``, innermost last.

    A frame is the player's when its file is inside one of ``roots`` (its folder as
    it sees it); its file is given relative to that folder. Empty when there is no
    such traceback, or none of its frames is the player's code.
    """
    start = stderr_tail.rfind("Traceback (most recent call last):")  # not shown
    block = stderr_tail[start:] if start >= 0 else stderr_tail
    if not re.search(r"^KeyboardInterrupt\s*$", block, re.M):
        return []
    frames = []
    for m in _FRAME.finditer(block):
        for root in roots:
            prefix = root.rstrip("/") + "/"
            if m["file"].startswith(prefix):
                frames.append(Frame(m["file"][len(prefix) :], int(m["line"]), m["func"], m["code"] or ""))
                break
    return frames


def _group(ranking: list[list[int]], seat: int) -> int:
    return next(k for k, group in enumerate(ranking) if seat in group)


def _shown(say: Say) -> Say:
    """``say`` with every line inert: nothing a player wrote can move the cursor or recolour."""
    return lambda text: say(printable(text, multiline=True))


def _indent(text: str) -> str:
    """A block of the player's text (an incident), escaped, then indented line by line."""
    return "\n".join("    " + line for line in printable(text, multiline=True).rstrip().splitlines())


HINTS = {
    "crash": N_("the process ended: read the end of its standard error in the incident, below"),
}


READY_EXAMPLE = '{"type":"ready","id":<id>,"name":"…"}'  # not shown
"""The reply ``hello`` waits for (the hint at hello speaks of it, not of ``play``)."""


def _hints(reason: str, detail: str, conn: _Watched, hello: bool = False) -> list[str]:
    """The hint lines for a fault of the checked player (its connection holds a timeout's evidence,
    the stdout line of a protocol fault, its standard error); ``hello``: the fault was at hello."""
    if reason == "protocol":
        line = getattr(conn, "fault_line", None)
        if diagnose.looks_like_debugging(line):
            return [
                _("something that is not a reply reached stdout: {line}").format(line=_quoted(line)),
                "  " + _("write your debugging output to stderr: stdout is only for protocol replies"),
                "  "
                + _(
                    "Node: console.error(…); Java: System.err.println(…); C: fprintf(stderr, …); "
                    "Python: print(…, file=sys.stderr)"
                ),
            ]
        if hello:
            return [_("hello waits for one line, exactly {example}, flushed").format(example=READY_EXAMPLE)]
        example = _(games.spec(conn.game).reply_example)
        return [_("the reply must be exactly {example}").format(example=example)]
    if reason == "timeout":
        return timeout_hints(conn.stuck[-1] if conn.stuck else None, conn.spec.kind)
    if reason == "crash":
        return crash_hints(conn, hello)
    hint = games.spec(conn.game).fault_hints.get(reason) or HINTS.get(reason)  # the game's own obligations
    if hint is None and reason in games.spec(conn.game).rule_faults:
        hint = N_("play only what the game's rules allow at that moment (its rules page says which)")
    return [_(hint)] if hint else []


def _quoted(line: bytes | None) -> str:
    """A player's stdout line, short and on one line, for a hint."""
    text = (line or b"").decode("utf-8", errors="replace").rstrip("\n")
    return repr(text[:80] + ("…" if len(text) > 80 else ""))


def crash_hints(conn: _Watched, hello: bool = False) -> list[str]:
    """What a crash of the checked player's process says: a runtime that ran out of memory or
    threads (the limit and the fix), the exception and where, or where to read its last words."""
    runtime = getattr(conn, "runtime", None)
    if runtime is not None:
        if hello:
            first = _("the runtime could not start: it met a limit of the sandbox, not a bug in your code")
        else:
            first = _("the program met a limit of the sandbox")
        return [first, "  " + runtime[1]]
    process = getattr(conn, "process", None)
    javac = diagnose.java_not_built(process.stderr.tail()) if process is not None else None
    if javac is not None:
        return [_("did you compile it? {javac} (in the player's folder)").format(javac=javac)]
    return [_(HINTS["crash"])]


def _say_hints(lines: list[str], say: Say) -> None:
    """Each hint as ``hint: …``; a line starting with spaces continues the one before, aligned under it."""
    label = _("hint: {hint}")
    indent = " " * (4 + len(label.format(hint="")))
    for line in lines:
        say(indent + line.strip() if line.startswith(" ") else "    " + label.format(hint=line))


def _busy(stuck: Stuck) -> bool:
    """Whether a timed-out player was computing: it used up its CPU time, or half the wall time."""
    if stuck.cpu_ms is None or stuck.elapsed_ms is None:
        return False
    return stuck.cpu_ms >= stuck.limit_ms or stuck.cpu_ms >= stuck.elapsed_ms / 2


def timeout_hints(stuck: Stuck | None, kind: str = "python") -> list[str]:
    """What a timeout's evidence says: computing or waiting, and where the code was when stopped."""
    if stuck is None or stuck.elapsed_ms is None:
        return [_("it did not reply in time: write one line per reply and flush stdout")]
    cpu, wall = stuck.cpu_ms, stuck.elapsed_ms
    if cpu is None:
        lines = [
            _(
                "it did not reply in {wall:.0f} ms of wall-clock time "
                "(its CPU time could not be measured here)"
            ).format(wall=wall)
        ]
    elif _busy(stuck):
        lines = [
            _(
                "it used {cpu:.0f} ms of CPU in {wall:.0f} ms of wall-clock time (limit {limit} ms of CPU): "
                "it was computing non-stop — a loop that never ends, or a search too large?"
            ).format(cpu=cpu, wall=wall, limit=stuck.limit_ms)
        ]
    elif cpu < wall / 10:
        if kind == "command":
            waiting = _(
                "it waited {wall:.0f} ms of wall-clock time using only {cpu:.0f} ms of CPU: "
                "it was not computing, it was waiting — is it sleeping, reading stdin, "
                "or did it write the reply without flushing stdout?"
            )
        else:
            waiting = _(
                "it waited {wall:.0f} ms of wall-clock time using only {cpu:.0f} ms of CPU: "
                "it was not computing, it was waiting — is it sleeping (time.sleep), reading stdin "
                "or waiting for another process or thread?"
            )
        lines = [waiting.format(wall=wall, cpu=cpu)]
    else:
        lines = [
            _(
                "it used {cpu:.0f} ms of CPU in {wall:.0f} ms of wall-clock time: "
                "it computed at times and waited at times "
                "(is it waiting for another process, or was the machine very loaded?)"
            ).format(cpu=cpu, wall=wall)
        ]
    if stuck.where:
        lines.append(_("when it was stopped, your code was at {frame}").format(frame=stuck.where[-1]))
        lines += [
            "  " + _("called from {frame}").format(frame=frame) for frame in reversed(stuck.where[-3:-1])
        ]
        lines.append(
            "  " + _("(the checker interrupted it to see this: hence the KeyboardInterrupt in the incident)")
        )
    return lines


def _spread(times: list[float]) -> tuple[float, float, float]:
    """Median, p95 and maximum of one population; median ≤ p95 ≤ maximum by construction.

    The p95 is ``statistics.quantiles(method="inclusive")``: interpolated between the
    data, never beyond the maximum (the default, ``exclusive``, extrapolates past it
    when there are few moves); clamped against floating-point rounding.
    """
    top = max(times)
    median = statistics.median(times)
    p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) >= 2 else top
    return median, min(max(p95, median), top), top


def _timing(report: CheckReport, limits: Limits, say: Say) -> None:
    if not report.reply_ms:
        say(_("Time per play: no plays"))
        return
    wall = _spread(report.reply_ms)
    cpu = _spread(report.reply_cpu_ms) if report.reply_cpu_ms else None
    if cpu is not None:
        n = len(report.reply_cpu_ms)
        say(
            n_(
                "CPU per play ({n} play): median {median:.1f} ms, p95 {p95:.1f} ms, maximum {top:.1f} ms "
                "(limit {limit} ms of CPU)",
                "CPU per play ({n} plays): median {median:.1f} ms, p95 {p95:.1f} ms, maximum {top:.1f} ms "
                "(limit {limit} ms of CPU)",
                n,
            ).format(n=n, median=cpu[0], p95=cpu[1], top=cpu[2], limit=limits.move_ms)
        )
    n = len(report.reply_ms)
    say(
        n_(
            "Wall clock per play ({n} play): median {median:.1f} ms, p95 {p95:.1f} ms, maximum {top:.1f} ms "
            "(backstop {backstop} ms)",
            "Wall clock per play ({n} plays): median {median:.1f} ms, p95 {p95:.1f} ms, maximum {top:.1f} ms "
            "(backstop {backstop} ms)",
            n,
        ).format(n=n, median=wall[0], p95=wall[1], top=wall[2], backstop=limits.move_wall)
    )
    if cpu is not None:
        worst = cpu[2]
        slow = _(
            "a play used {ms:.0f} ms of CPU, more than half the limit of {limit} ms: "
            "on a slower machine, in the torneo, it could run out of time"
        )
    else:
        worst = wall[2]
        slow = _(
            "a play used {ms:.0f} ms of wall-clock time, more than half the limit of {limit} ms: "
            "on a slower machine, in the torneo, it could run out of time"
        )
    if worst > limits.move_ms / 2:
        report.warnings.append(slow.format(ms=worst, limit=limits.move_ms))


def _check_replay(replay: Path, say: Say, seats: Sequence[int] = ()) -> int:
    """Say whether the replay is complete; how many renuncios ``seats`` played (marked under accuse)."""
    events = read_replay(replay)
    if events[-1]["type"] != "partido_end":
        say("  ✗ " + _("the replay {replay} has no partido_end").format(replay=replay))
    return sum(1 for e in events if e["type"] == "played" and e.get("renuncio") and e.get("seat") in seats)


def flush_probe(
    spec: PlayerSpec, limits: Limits, mechanism: str = "none", game: str = DEFAULT_GAME
) -> str | None:
    """Find out whether a timeout was a reply left in the player's output buffer.

    Sends hello and one play request; if no reply comes in time, closes the
    player's input (as at the end of a partido, when buffers are flushed on
    exit) and looks at what it then writes.
    """
    n = games.spec(game).table_sizes[0]
    p: Game = games.spec(game).new_partido(n, 1)
    seat = p.to_move
    assert seat is not None
    start = next(e for e in p.events if e["type"] == "mano_start")
    python = spec.kind == "python"
    argv = [sys.executable, "-m", "arena.player.runner", str(spec.folder)] if python else spec.command
    box = sandbox.contain(argv, spec.folder, mechanism, python_player=spec.kind == "python")
    try:
        proc = PlayerProcess(box.argv, box.cwd, box.env, pass_fds=box.pass_fds)
        box.started()
    except OSError:
        box.release()
        return None
    try:
        lines = [
            protocol.hello(1, spec.name, limits.to_dict(), game=games.spec(game).name),
            {
                "type": "partido_start",
                "partido": "probe",
                "seat": seat,
                "players": [chr(ord("a") + s) for s in range(n)],
                "rules": p.rules.to_dict(),
            },
            p.view(start, seat),
            {**p.request(), "id": 2},
        ]
        proc.write(b"".join(protocol.encode(m) for m in lines), 1.0)
        answered = _read_lines(proc, (limits.init_ms + limits.move_ms) / 1000)
        if len(answered) >= 2:
            return None
        proc.popen.stdin.close()  # type: ignore[union-attr]
        late = _read_lines(proc, 2.0)
        if len(answered) + len(late) >= 2:
            return _(
                "it does not flush: the replies arrived only when its input was closed; "
                "flush stdout after every line "
                "(print(..., flush=True), sys.stdout.flush(), fflush(stdout), System.out.flush())"
            )
        return None
    finally:
        proc.kill_tree(0.0, also=box.kill)
        box.release()


def _read_lines(proc: PlayerProcess, timeout: float) -> list[bytes]:
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            lines.append(proc.read_line(max(0.0, deadline - time.monotonic())))
        except (LineTimeout, LineClosed, LineTooLong):
            break
    return lines
