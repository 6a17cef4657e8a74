"""``arena check PLAYER``: a student's submission checker.

Loads the folder, handshakes, plays a few partidos against the sample players
with the tournament's limits and rules, and reports every fault with its
incident report, the time per move against the limit, and common mistakes
(writing to stdout, slow start-up, not flushing). Clean means: no fault.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from arena import protocol
from arena.game import new_partido
from arena.inert import printable
from arena.referee import sandbox
from arena.referee.connection import Limits, SubprocessConnection
from arena.referee.narrate import REASONS
from arena.referee.players import PlayerSpec, find_player, unique_names
from arena.referee.process import LineClosed, LineTimeout, LineTooLong, PlayerProcess
from arena.referee.replay import read_replay
from arena.referee.table import play_folders
from arena.rules import RuleSet
from arena.runner import PRINT_NOTE
from arena.seeds import new_key, short

SAMPLE_DIRS = (Path("sample_players"), Path(__file__).resolve().parents[2] / "sample_players")
"""Where the sample opponents are looked for: the current folder first, then beside the package."""
OPPONENTS = ("a_mas", "a_menos", "random_legal", "a_mas", "a_menos")
TABLES = (3, 4, 5)
"""Table sizes of the check's partidos, in turn."""

Say = Callable[[str], None]


@dataclass
class CheckReport:
    """What the checker found."""

    player: str
    partidos: int = 0
    faults: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    """Wall-clock time of each reply."""
    move_cpu_ms: list[float] = field(default_factory=list)
    """CPU time of each reply (the player's whole process tree), where measured."""
    startup_ms: float = 0.0

    @property
    def clean(self) -> bool:
        return not self.faults


def _opponents(samples: Path | None) -> list[PlayerSpec]:
    roots = [samples] if samples else list(SAMPLE_DIRS)
    for root in roots:
        if all((root / name / "player.py").is_file() for name in OPPONENTS):
            return [find_player(root / name) for name in OPPONENTS]
    raise FileNotFoundError(
        f"{roots[0]}: the sample players are not there; run arena check from the project's folder"
    )


def check_player(
    folder: str | Path,
    *,
    partidos: int = 3,
    limits: Limits | None = None,
    ruleset: RuleSet | None = None,
    out: Path | None = None,
    say: Say = print,
    samples: Path | None = None,
    mechanism: str | None = None,
    seed: int | None = None,
) -> CheckReport:
    """Check the player in ``folder``; ``say`` receives the report's lines.

    Partido ``i`` deals from ``seed + i`` when ``seed`` is given (predictable, to
    reproduce), else from a new secret key.

    Raises :class:`arena.referee.players.PlayerLoadError` when the folder cannot run at all.
    """
    limits = limits or Limits()
    say = _shown(say)
    spec = find_player(folder)
    report = CheckReport(spec.name)
    out = out or Path("results") / "check" / f"{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    say(
        f"Comprobando {printable(spec.name)} ({printable(str(spec.folder))}) — {spec.kind}, "
        f"límites: hello {limits.init_ms} ms, jugada {limits.move_ms} ms"
    )

    start = time.monotonic()
    conn = SubprocessConnection(spec, limits, out / "startup.logs", mechanism)  # PlayerLoadError stops here
    report.startup_ms = (time.monotonic() - start) * 1000
    conn.close()
    ready = "sin ready" if conn.failed is not None else "listo"
    say(f"Arranque: {ready} en {report.startup_ms:.0f} ms")
    if conn.failed is not None:
        report.faults.append(
            f"hello: {REASONS.get(conn.failed.reason, conn.failed.reason)}: {printable(conn.failed.detail)}"
        )
        say(f"  ✗ hello: {printable(conn.failed.detail)}")
        say(_indent(conn.incident()))
    elif report.startup_ms > limits.init_ms / 4:
        report.warnings.append(
            f"slow start-up: ready after {report.startup_ms:.0f} ms, over a quarter of init_ms "
            f"({limits.init_ms} ms); import less or defer work to the first play"
        )

    opponents = _opponents(samples)
    timed_out = False
    names: set[str] = {spec.name}
    for i in range(partidos):
        n = TABLES[i % len(TABLES)]
        deals = new_key() if seed is None else seed + i
        seat = i % n
        table = [*opponents[: n - 1]]
        table.insert(seat, spec)
        names.add(unique_names(table)[seat].name)
        replay = out / f"partido-{i + 1}.jsonl"
        result, incidents = play_folders(
            table,
            deals,
            ruleset=ruleset,
            limits=limits,
            replay=replay,
            partido_id=f"check-{i + 1}",
            mechanism=mechanism,
        )
        report.partidos += 1
        report.move_ms += result.move_ms[seat]
        report.move_cpu_ms += [c for c in result.move_cpu_ms[seat] if c is not None]
        mine = [f for f in result.faults if f.seat == seat]
        place = 1 + sum(len(g) for g in result.ranking[: _group(result.ranking, seat)])
        outcome = "ganó" if seat in result.winners else f"terminó {place}.º de {n}"
        say(
            f"Partido {i + 1}: {n} jugadores, semilla {short(deals)}, asiento {seat}: {outcome} en "
            f"{result.manos} manos, {'sin faltas' if not mine else f'{len(mine)} falta(s)'}"
        )
        for f in mine:
            what = REASONS.get(f.reason, f.reason)
            verb = "castigado" if f.penalized else "descalificado"
            when = f"mano {f.mano}" if f.mano else "hello"  # mano 0: judged at hello, before the deal
            report.faults.append(f"partido {i + 1}, {when}: {what}: {printable(f.detail)}")
            say(f"  ✗ {when}: {verb} por {what} — {printable(f.detail)}")
            hint = _hint(f.reason, f.detail)
            if hint:
                say(f"    pista: {hint}")
            timed_out |= f.reason == "timeout"
        for path in incidents.values():
            say(f"  Incidente ({printable(str(path))}):")
            say(_indent(path.read_text(encoding="utf-8")))
        _check_replay(replay, say)

    _timing(report, limits, say)
    logs = [p for name in names for p in out.rglob(f"{name}.stderr.log")]
    if any(PRINT_NOTE in p.read_text(encoding="utf-8", errors="replace") for p in logs):
        report.warnings.append(
            "the player writes to stdout (print): the Python runner sends it to your log, but "
            "only replies may go to stdout in the protocol; print(..., file=sys.stderr) instead"
        )
    if timed_out or (conn.failed is not None and conn.failed.reason == "timeout"):
        probe = flush_probe(spec, limits, mechanism or "none")
        if probe:
            report.warnings.append(probe)
    for w in report.warnings:
        say(f"Aviso: {w}")
    say(f"Registros y replays: {printable(str(out))}")
    say("Resultado: LIMPIO ✓" if report.clean else f"Resultado: {len(report.faults)} falta(s) ✗")
    return report


def _group(ranking: list[list[int]], seat: int) -> int:
    return next(k for k, group in enumerate(ranking) if seat in group)


def _shown(say: Say) -> Say:
    """``say`` with every line inert: nothing a player wrote can move the cursor or recolour."""
    return lambda text: say(printable(text, multiline=True))


def _indent(text: str) -> str:
    """A block of the player's text (an incident), escaped, then indented line by line."""
    return "\n".join("    " + line for line in printable(text, multiline=True).rstrip().splitlines())


HINTS = {
    "timeout": "too slow, or the reply was not flushed: write one line and flush stdout",
    "crash": "the process ended: read the tail of its standard error above",
    "renuncio": "follow suit and beat if you can; else follow suit; else trump and beat; else anything",
    "false_canto": "sing only right after winning a trick, with both cards in hand, once per pair",
    "not_in_hand": 'play a card from `hand` of the request, written like "12-basto"',
}


def _hint(reason: str, detail: str) -> str | None:
    if reason == "protocol":
        if "no request was waiting" in detail or "not valid" in detail:
            return "something that is not a reply reached stdout: write debugging to stderr"
        return 'the reply must be exactly {"type":"play","id":<the request\'s id>,"card":"..."}'
    return HINTS.get(reason)


def _spread(times: list[float]) -> tuple[float, float, float]:
    """Median, p95 (inclusive: never above the maximum) and maximum."""
    p95 = statistics.quantiles(times, n=20, method="inclusive")[-1] if len(times) >= 2 else times[0]
    return statistics.median(times), p95, max(times)


def _timing(report: CheckReport, limits: Limits, say: Say) -> None:
    if not report.move_ms:
        say("Tiempo por jugada: sin jugadas")
        return
    wall = _spread(report.move_ms)
    cpu = _spread(report.move_cpu_ms) if report.move_cpu_ms else None
    if cpu is not None:
        say(
            f"CPU por jugada ({len(report.move_cpu_ms)} jugadas): mediana {cpu[0]:.1f} ms, "
            f"p95 {cpu[1]:.1f} ms, máximo {cpu[2]:.1f} ms (límite {limits.move_ms} ms de CPU)"
        )
    say(
        f"Reloj por jugada ({len(report.move_ms)} jugadas): mediana {wall[0]:.1f} ms, "
        f"p95 {wall[1]:.1f} ms, máximo {wall[2]:.1f} ms (respaldo {limits.move_wall} ms)"
    )
    worst = cpu[2] if cpu is not None else wall[2]
    if worst > limits.move_ms / 2:
        report.warnings.append(
            f"a move took {worst:.0f} ms of CPU time, over half the {limits.move_ms} ms limit: a slower "
            "machine in the tournament could time you out"
        )


def _check_replay(replay: Path, say: Say) -> None:
    events = read_replay(replay)
    if events[-1]["type"] != "partido_end":
        say(f"  ✗ the replay {replay} has no partido_end")


def flush_probe(spec: PlayerSpec, limits: Limits, mechanism: str = "none") -> str | None:
    """Find out whether a timeout was a reply left in the player's output buffer.

    Sends hello and one play request; if no reply comes in time, closes the
    player's input (as at the end of a partido, when buffers are flushed on
    exit) and looks at what it then writes.
    """
    p = new_partido(3, 1)
    seat = p.to_move
    assert seat is not None
    start = next(e for e in p.events if e["type"] == "mano_start")
    argv = [sys.executable, "-m", "arena.runner", str(spec.folder)] if spec.kind == "python" else spec.command
    box = sandbox.contain(argv, spec.folder, mechanism, python_player=spec.kind == "python")
    try:
        proc = PlayerProcess(box.argv, box.cwd, box.env, pass_fds=box.pass_fds)
        box.started()
    except OSError:
        box.release()
        return None
    try:
        lines = [
            protocol.hello(1, spec.name, limits.to_dict()),
            {
                "type": "partido_start",
                "partido": "probe",
                "seat": seat,
                "players": ["a", "b", "c"],
                "rules": p.rules.to_dict(),
            },
            protocol.view(start, seat),
            {**p.request(), "id": 2},
        ]
        proc.write(b"".join(protocol.encode(m) for m in lines), 1.0)
        answered = _read_lines(proc, (limits.init_ms + limits.move_ms) / 1000)
        if len(answered) >= 2:
            return None
        proc.popen.stdin.close()  # type: ignore[union-attr]
        late = _read_lines(proc, 2.0)
        if len(answered) + len(late) >= 2:
            return (
                "not flushing: the replies arrived only when the player's input was closed; "
                "flush stdout after every line (print(..., flush=True), sys.stdout.flush(), "
                "fflush(stdout), System.out.flush())"
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
