"""What runs in a worker process: its set-up, and the task of playing one partido.

Tasks and results are plain picklable values, so any backend can carry them: the
local process pool runs :func:`play_task` here, a Dask worker runs
:func:`arena.tournament.cluster.remote.play_remote`, which plays with the same :func:`play`.

A worker stops on SIGTERM: the players of the partido in progress are killed
(with everything they started) before it exits. It ignores SIGINT (Ctrl-C is the
coordinator's to handle) and stops by itself when the coordinator is gone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import games, i18n
from arena.containment.cgroups import pid_alive
from arena.containment.sandbox import SandboxFailure
from arena.i18n import _, n_, stored
from arena.protocol import DEFAULT_GAME
from arena.referee.connection import Limits
from arena.referee.players import PlayerSpec
from arena.seeds import Seed

log = logging.getLogger("arena.tournament.worker")

WATCH_S = 0.25
STOP_GRACE_S = 5.0
"""How long a worker whose coordinator is gone may take to stop by itself before it is ended."""
"""How often a worker checks that its coordinator is alive."""


class WorkerStopped(BaseException):
    """Raised in a worker's partido by SIGTERM, to unwind and kill its players."""


@dataclass(frozen=True)
class PartidoTask:
    """Everything a worker needs to play one scheduled partido."""

    id: str
    seed: Seed
    """The partido's seed (a secret key, or an int under ``--seed``): never logged."""
    specs: tuple[PlayerSpec, ...]
    """The players in seat order."""
    rules: dict[str, Any]
    limits: Limits
    replays: str
    """The folder of the temporary replay (``DIR/replays``)."""
    mechanism: str | None = None
    """The containment of the players (:mod:`arena.containment.sandbox`); None: the best that works here."""
    warm: bool = True
    """Start the players' processes warm where the machine allows (:mod:`arena.containment.warm`)."""
    game: str = DEFAULT_GAME
    """What is played (:func:`arena.games.names`). In a game of teams ``specs`` are the sides, each
    playing in every seat of its team (:mod:`arena.tournament.sides`), and the result is by side."""


SANDBOX_ATTEMPTS = 3
"""How many times a partido is played when the sandbox fails to start a player (then it fails)."""

_busy = False
_stopping = False


def init_worker(
    log_channel: Any, coordinator: int, lang: str | None = None, level: int = logging.INFO
) -> None:
    """Set up a worker process: the coordinator's language (a forkserver started earlier may have
    another), logging to the coordinator's log channel, signals, a watchdog."""
    if lang is not None:
        i18n.use(lang)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_term)
    if log_channel is not None:
        from arena.tournament.logchannel import PipeHandler

        root = logging.getLogger()
        for logger in [root, *(logging.getLogger(n) for n in list(root.manager.loggerDict))]:
            for handler in logger.handlers[:]:  # under fork: the coordinator's handlers came along
                logger.removeHandler(handler)
        root.addHandler(PipeHandler(log_channel))
        root.setLevel(level)
    threading.Thread(target=_watch, args=(coordinator,), name="watchdog", daemon=True).start()
    log.info(_("worker ready"))


def _watch(coordinator: int) -> None:
    """Stop this worker once its coordinator is gone (killed, even with SIGKILL).

    The signal goes to the main thread itself: sent to the process, it may land on
    another thread and leave the main thread blocked in a read for good.
    """
    while pid_alive(coordinator):
        time.sleep(WATCH_S)
    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)
    time.sleep(STOP_GRACE_S)  # the main thread unwinds its partido and exits; if it could not:
    _kill_players()
    os._exit(1)


def _on_term(signum: int, frame: Any) -> None:
    global _stopping
    if _stopping:
        return
    _stopping = True
    _kill_players()
    if _busy:
        raise WorkerStopped()
    _exit()


def _kill_players() -> None:
    """SIGKILL every descendant of this worker: its players and anything they started."""
    from arena.containment.process import descendants

    for _i in range(3):
        pids = descendants(os.getpid())
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in pids:
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(pid, 0)


def _exit() -> None:
    """Leave now, after the log records are out and no player is left."""
    _kill_players()
    log.warning(_("worker stopped"))  # written whole before the call returns: nothing to flush
    os._exit(0)


def play_task(task: PartidoTask) -> dict[str, Any]:
    """Play one partido; returns a plain dict (``error`` set when it could not be played).

    Keys: ``id``, ``replay`` (the temporary replay), ``incidents`` (seat -> file),
    ``logs`` (stderr logs folder), ``result`` (players, winners, ranking, manos,
    scores, faults, reply_ms), ``started``, ``finished``, ``worker``, ``error``;
    ``failed`` is true when the error is the referee's own (an unexpected exception):
    the partido is then retried by ``--resume`` while the torneo goes on.
    """
    global _busy
    try:
        _busy = True
        return play(task)
    except WorkerStopped:
        _exit()
        raise  # not reached
    finally:
        _busy = False


def temp_replay(replays: str | Path, partido: str) -> Path:
    """A new temporary replay name for ``partido`` in the folder ``replays``."""
    from arena.tournament.store import TEMP_PREFIX

    return Path(replays) / f"{TEMP_PREFIX}{partido}-{uuid.uuid4().hex[:8]}.jsonl"


def play(task: PartidoTask) -> dict[str, Any]:
    """Play one partido into ``task.replays`` (the body of :func:`play_task`, without its signals)."""
    from arena.player.loader import PlayerLoadError
    from arena.referee.players import unique_names
    from arena.referee.table import play_folders
    from arena.tournament.sides import by_side, seat_specs
    from arena.tournament.store import now

    replay = temp_replay(task.replays, task.id)
    sides = games.spec(task.game).teams
    specs = tuple(seat_specs(task.specs, sides)) if sides else task.specs
    names = [s.name for s in unique_names(specs)]
    out: dict[str, Any] = {
        "id": task.id,
        "replay": str(replay),
        "incidents": {},
        "logs": f"{replay}.logs",
        "result": None,
        "started": now(),
        "finished": None,
        "worker": f"{os.uname().nodename}:{os.getpid()}",
        "error": None,
    }
    log.info(
        _("{partido} starts: {players}").format(partido=task.id, players=", ".join(names))
    )  # never the seed: the log is no place for it
    start = time.monotonic()
    events: list[dict[str, Any]] = []
    timing: dict[str, float] = {}
    try:
        for attempt in range(1, SANDBOX_ATTEMPTS + 1):
            events.clear()
            try:
                result, incidents = play_folders(
                    specs,
                    task.seed,
                    ruleset=games.spec(task.game).rules_of(task.rules),
                    limits=task.limits,
                    replay=replay,
                    sinks=[events.append],
                    partido_id=task.id,
                    mechanism=task.mechanism,
                    timings=timing,
                    warm=task.warm,
                    game=task.game,
                )
                break
            except SandboxFailure as exc:  # the machine's failure, never the player's: play it again
                if attempt == SANDBOX_ATTEMPTS:
                    raise
                log.warning(
                    _("{partido}: {error}; played again (attempt {attempt})").format(
                        partido=task.id, error=exc, attempt=attempt + 1
                    )
                )
                _discard(replay)
                time.sleep(0.5 * attempt)
        stats = _stats(events)
    except PlayerLoadError as exc:
        log.error("%s: %s", task.id, exc)
        out["error"] = str(exc)
        return out
    except Exception as exc:  # the referee failed, not a player: nothing counts, --resume retries it
        out["error"] = _failure(exc)
        out["failed"] = True
        log.error(
            _("{partido} ({players}) could not be played: {error}").format(
                partido=task.id, players=", ".join(names), error=out["error"]
            ),
            exc_info=True,
        )
        return out
    out["finished"] = now()
    out["timing"] = timing  # seconds: start, play, stop (for benchmarks/performance/tournament.py)
    out["result"] = {
        "players": result.players,
        "winners": result.winners,
        "ranking": result.ranking,
        "manos": result.manos,
        "scores": result.scores,
        "faults": [
            {
                "mano": f.mano,
                "seat": f.seat,
                "reason": f.reason,
                "detail": stored(f.detail),  # a code, said in the language of whoever reads it
                "penalized": f.penalized,
            }
            for f in result.faults
        ],
        "reply_ms": [[round(ms, 3) for ms in seat] for seat in result.reply_ms],
        "stats": stats,
    }
    if sides:
        names_ = [s.name for s in task.specs]
        once = games.spec(task.game).team_counts
        out["result"], incidents = by_side(out["result"], incidents, names_, sides, once)
    out["incidents"] = {seat: str(path) for seat, path in incidents.items()}
    faults = "; ".join(f"{names[f.seat]} {f.reason}" for f in result.faults) or _("no faults")
    log.info(
        n_(
            "{partido} finished in {seconds} s: {n} mano, won by {winners}, {faults}",
            "{partido} finished in {seconds} s: {n} manos, won by {winners}, {faults}",
            result.manos,
        ).format(
            partido=task.id,
            seconds=f"{time.monotonic() - start:.2f}",
            n=result.manos,
            winners=", ".join(names[s] for s in result.winners),
            faults=faults,
        )
    )
    return out


def _discard(replay: Path) -> None:
    """Remove what an attempt that does not count left behind: its replay, logs and incidents."""
    replay.unlink(missing_ok=True)
    shutil.rmtree(f"{replay}.logs", ignore_errors=True)
    for incident in replay.parent.glob(f"{replay.stem}.incident-*"):
        incident.unlink(missing_ok=True)


def _failure(exc: BaseException) -> str:
    """One line on an unexpected exception of the referee (its text may quote a player: inert)."""
    from arena.inert import printable

    return printable(_("the referee failed: {kind}: {error}").format(kind=type(exc).__name__, error=exc))[
        :300
    ]


def _stats(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-seat figures for the standings, without the reply times (stored apart)."""
    from arena.referee.stats import partido_stats

    return [{k: v for k, v in seat.items() if k != "reply_ms"} for seat in partido_stats(events)]


def check_entrant(
    spec: PlayerSpec, limits: Limits, mechanism: str | None = None, game: str = DEFAULT_GAME
) -> str | None:
    """Start a player and greet it (``hello`` naming ``game``); the load error (one line) if its
    folder cannot run."""
    from arena.player.loader import PlayerLoadError
    from arena.referee.connection import SubprocessConnection

    global _busy
    try:
        _busy = True
        try:
            SubprocessConnection(spec, limits, mechanism=mechanism, game=game).close()
        except PlayerLoadError as exc:
            return str(exc)
        except Exception as exc:  # the referee's failure, not a folder that cannot run: its partidos say more
            log.error(
                _("{player}: {error} when greeting it").format(player=spec.name, error=_failure(exc)),
                exc_info=True,
            )
        return None
    except WorkerStopped:
        _exit()
        raise
    finally:
        _busy = False
