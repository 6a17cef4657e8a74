"""The torneo runner: entrants, a new or resumed torneo folder, partidos dispatched and committed.

The coordinator (this module, in the process that runs the command) alone
writes the store. It hands partidos to a :class:`~arena.tournament.backend.Backend` in
schedule order, never two of one deal in flight at once (:mod:`arena.tournament.dispatch`),
commits each result as it arrives, and decides withdrawals under ``max_faults`` from earlier
partidos only, so that with deterministic bots the results depend neither on the number of
workers nor on interruptions.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import json
import logging
import os
import shutil
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from arena import games
from arena.errors import ArenaError
from arena.i18n import N_, _, n_
from arena.protocol import DEFAULT_GAME
from arena.referee.connection import IDLE_MS, INIT_IDLE_MS, Limits
from arena.referee.players import PlayerLoadError, PlayerSpec, find_player
from arena.seeds import Seed
from arena.tournament.backend import Backend, BackendError
from arena.tournament.dispatch import DealGate
from arena.tournament.entrants import fingerprint
from arena.tournament.schedule import ScheduledPartido, make_schedule
from arena.tournament.store import DB_NAME, NO_START, REPLAYS, Entrant, Store, StoreError, fsync
from arena.tournament.worker import PartidoTask, check_entrant, play_task

log = logging.getLogger("arena.torneo")
RUN_STATUS = {"finished": N_("finished"), "interrupted": N_("interrupted"), "failed": N_("failed")}
"""How a run ended (stored as the key, shown in the log as its label)."""

WITHDRAWN_REASON = "max-faults"
LOG_NAME = "torneo.log"
SCAN_LIMIT = 4096
"""Undecided partidos looked at per dispatch (the first one is always decidable)."""


class TournamentError(ArenaError):
    """Something that stops the torneo before or while it runs (one line for the user)."""


class PartidoFailed(Exception):
    """A partido the referee could not play or commit (not its players' fault): retried by ``--resume``."""


class Interrupted(ArenaError):
    """Ctrl-C (or SIGTERM): the committed partidos stay, the rest is for ``--resume``."""

    def __init__(self, committed: int, total: int) -> None:
        super().__init__(
            _("interrupted with {committed} of {total} partidos settled").format(
                committed=committed, total=total
            )
        )
        self.committed = committed
        self.total = total


@dataclass(frozen=True)
class Config:
    """Every parameter that decides a torneo's results (stored; reloaded on resume)."""

    table_size: int = 4
    """Entrants per partido: players (Tute Cabrero), or sides of a game of teams (2 pairs)."""
    rounds: int = 1
    seed: int | None = None
    """An explicit seed (``--seed N``: predictable deals, for reproduction); None: deals from ``key``."""
    duplicate: bool = False
    partidos: int | None = None
    rules: dict[str, Any] = field(default_factory=lambda: games.spec(DEFAULT_GAME).rules_of(None).to_dict())
    init_ms: int = 10_000
    move_ms: int = 1_000
    init_wall_ms: int | None = None
    """The wall-clock backstops (None: the spec's defaults; a torneo stores the values it used)."""
    move_wall_ms: int | None = None
    idle_ms: int = IDLE_MS
    """Idle time allowed per reply (protocol 1.2; a torneo stored before it gets the default)."""
    init_idle_ms: int = INIT_IDLE_MS
    max_faults: int | None = None
    stop_on_broken: bool = False
    """Refuse to start when an entrant cannot start, instead of leaving it out."""
    until_separated: bool = False
    """After the schedule, more partidos where consecutive places are not separated (results.separate)."""
    budget: int | None = None
    """At most this many extra partidos under ``until_separated`` (None: chosen when the schedule ends,
    :mod:`arena.cli.separation`, and then stored; a torneo that played extra partidos without it: as
    many as the schedule has)."""
    paths: tuple[str, ...] = ()
    sandbox: str | None = None
    """The containment mechanism the partidos run under (``bwrap``, ``rlimits``, ``none``)."""
    game: str = DEFAULT_GAME
    """What is played (:func:`arena.games.names`); a torneo stored before it was named plays the default."""
    key: str | None = field(default=None, repr=False, compare=False)
    """The torneo's secret deal key (:func:`arena.seeds.new_key`) when ``seed`` is None.

    Kept in the store's ``meta`` table, never with the parameters (which the workbook shows).
    """

    @property
    def limits(self) -> Limits:
        return Limits(
            self.init_ms, self.move_ms, self.init_wall_ms, self.move_wall_ms, self.idle_ms, self.init_idle_ms
        )

    def to_store(self) -> dict[str, Any]:
        from arena import __version__

        values = {k: v for k, v in asdict(self).items() if k != "key"}
        return {**values, "paths": list(self.paths), "arena_version": __version__}

    @classmethod
    def from_store(cls, d: dict[str, Any]) -> Config:
        names = cls.__dataclass_fields__
        values = {k: v for k, v in d.items() if k in names}
        values["paths"] = tuple(values.get("paths", ()))
        return cls(**values)


def default_out(root: Path = Path("results")) -> Path:
    """A new dated folder name under ``results/``."""
    base = root / f"torneo-{dt.datetime.now():%Y%m%d-%H%M%S}"
    out, n = base, 1
    while out.exists():
        n += 1
        out = Path(f"{base}-{n}")
    return out


# ---------------------------------------------------------------- create / resume


SETUP_NAME = ".torneo-setup"
"""The folder in which :func:`create` makes a new torneo's store before moving it into ``DIR``: a
torneo folder without ``torneo.sqlite`` holding only this (and an empty ``replays/``) was left by a
start-up interrupted at a bad moment (``kill -9``), and a new torneo replaces it."""


def half_made(folder: Path) -> bool:
    """Whether ``folder`` was left by an interrupted start-up: no store, and nothing in it but the
    set-up folder (:data:`SETUP_NAME`) and an empty ``replays/`` (a new torneo may replace it)."""
    if not folder.is_dir() or (folder / DB_NAME).exists() or not (folder / SETUP_NAME).is_dir():
        return False
    for entry in folder.iterdir():
        if entry.name == REPLAYS and entry.is_dir() and not entry.is_symlink() and not any(entry.iterdir()):
            continue
        if entry.name != SETUP_NAME:
            return False
    return True


def _clear_half_made(folder: Path) -> None:
    """Remove what an interrupted start-up left in ``folder`` (see :func:`half_made`)."""
    shutil.rmtree(folder / SETUP_NAME, ignore_errors=True)
    with contextlib.suppress(OSError):
        (folder / REPLAYS).rmdir()  # only when empty


def check_empty(folder: Path) -> bool:
    """TournamentError unless ``folder`` is absent, an empty folder, or left half-made by an
    interrupted start-up (:func:`half_made`: then True, and :func:`create` replaces it).
    Nothing else is ever overwritten."""
    if half_made(folder):
        return True
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        if (folder / DB_NAME).exists():
            message = _(
                "{folder} is a torneo; continue it with --resume. Nothing was changed; choose another --out."
            )
        else:
            message = _("{folder} is not empty. Nothing was changed; choose another --out.")
        raise TournamentError(message.format(folder=folder))
    return False


def plan(config: Config, entrants: int) -> list[ScheduledPartido]:
    """The schedule of ``config`` for ``entrants``; TournamentError for impossible options.

    The deals come from ``config.seed`` when given, else from ``config.key``.
    """
    seed = config.seed if config.seed is not None else config.key
    if seed is None:
        raise TournamentError(_("a torneo needs a secret key (or an explicit --seed N) for its deals"))
    try:
        return make_schedule(
            entrants,
            config.table_size,
            config.rounds,
            seed,
            config.duplicate,
            config.partidos,
            sizes=games.spec(config.game).entrants_per_partido,
        )
    except ValueError as exc:
        raise TournamentError(str(exc)) from None


def create(
    folder: Path,
    config: Config,
    specs: Sequence[PlayerSpec],
    schedule: Sequence[ScheduledPartido],
    exclusions: Sequence[tuple[str, str, str]] = (),
) -> Store:
    """A new torneo in ``folder`` (absent, empty, or :func:`half_made`): configuration, entrants,
    schedule, key and ``exclusions`` (folder, kind, reason) stored.

    All of it is made in ``DIR/.torneo-setup/`` and moved into ``DIR`` with ``torneo.sqlite`` last
    (a rename): so ``DIR`` holds a store only once it is complete, and an interruption at any moment
    leaves either a torneo that ``--resume`` continues or what a new torneo replaces. Interrupted
    here (Ctrl-C), it removes what it made.
    """
    if check_empty(folder):
        _clear_half_made(folder)
    entrants = [
        Entrant(i, s.name, str(s.folder), s.kind, s.display_name, s.authors, fingerprint(s.folder))
        for i, s in enumerate(specs)
    ]
    key = config.key if config.seed is None else None
    existed = folder.exists()
    setup = folder / SETUP_NAME
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with Store.create(setup, config.to_store(), entrants, schedule, key) as made:
            if exclusions:
                made.record_exclusions(exclusions)
        for name in (REPLAYS, f"{DB_NAME}-wal", DB_NAME):  # the store last: it says the folder is made
            if (setup / name).exists():
                os.rename(setup / name, folder / name)
        shutil.rmtree(setup)
        fsync(folder)
    except BaseException:
        if not (folder / DB_NAME).exists():
            _clear_half_made(folder)
            if not existed:
                with contextlib.suppress(OSError):
                    folder.rmdir()
        raise
    return Store.open(folder)


def open_for_resume(folder: Path) -> tuple[Store, Config, list[PlayerSpec], list[str]]:
    """Reopen a torneo: its store, configuration, entrants (from their folders) and warnings."""
    if half_made(folder):
        raise TournamentError(
            _(
                "{folder} was left half-made by an interrupted start: no partido was played. "
                "Start the torneo again without --resume (it replaces the folder)."
            ).format(folder=folder)
        )
    try:
        store = Store.open(folder)
    except StoreError as exc:
        raise TournamentError(str(exc)) from None
    shutil.rmtree(folder / SETUP_NAME, ignore_errors=True)  # a start-up killed once its store was in place
    config = Config.from_store(store.config())
    specs, warnings = [], []
    for e in store.entrants():
        try:
            spec = find_player(e.folder)
        except PlayerLoadError as exc:
            store.close()
            raise TournamentError(_("entrant {player}: {error}").format(player=e.name, error=exc)) from None
        specs.append(replace(spec, name=e.name))
        if fingerprint(e.folder) != e.fingerprint:
            warnings.append(
                _("{player}: the files in {folder} changed since the torneo began").format(
                    player=e.name, folder=e.folder
                )
            )
    return store, config, specs, warnings


def check_entrants(
    backend: Backend, specs: Sequence[PlayerSpec], config: Config
) -> list[tuple[PlayerSpec, str]]:
    """Start and greet every entrant once; the ones that cannot run, each with its one-line reason."""
    handles = [
        backend.submit(check_entrant, spec, config.limits, config.sandbox, config.game) for spec in specs
    ]
    errors = []
    for spec, handle in zip(specs, handles, strict=True):
        try:
            errors.append(handle.result())
        except BackendError as exc:  # a worker that must not play (containment, another referee)
            raise TournamentError(str(exc)) from None
        except Exception as exc:  # the pool itself failed (a worker could not start, or died)
            raise TournamentError(
                _("the worker processes failed checking {player}: {error}").format(
                    player=spec.name, error=repr(exc)
                )
            ) from exc
    return [(spec, why) for spec, why in zip(specs, errors, strict=True) if why]


# ---------------------------------------------------------------- running


class Progress:
    """What the runner reports; the command line shows it (see ``arena/cli/progress.py``)."""

    def start(self, total: int, settled: int) -> None:
        """Before the first partido: schedule size and how many are already settled."""

    def advance(self, n: int = 1) -> None:
        """``n`` more partidos settled (committed or withdrawn)."""

    def tick(self) -> None:
        """Called about once a second while waiting."""

    def phase(self, label: str) -> None:
        """What the next partidos are for (``separando 3.º/4.º: 82%``), before they start."""

    def finish(self) -> None:
        """The run ended (completed or not)."""


@dataclass
class RunStats:
    total: int
    settled_before: int
    committed: int = 0
    withdrawn: int = 0
    seconds: float = 0.0
    split: dict[str, float] = field(default_factory=dict)
    """Seconds summed over the partidos committed in this run: ``start``, ``play`` and ``stop``
    in the workers (:func:`arena.referee.table.play_folders`), ``commit`` in the coordinator."""


def run(
    store: Store,
    backend: Backend,
    specs: Sequence[PlayerSpec],
    progress: Progress | None = None,
    warm: bool = True,
) -> RunStats:
    """Play every partido of ``store`` not yet settled; Interrupted on Ctrl-C / SIGTERM.

    ``warm``: players' processes start warm where the machine allows (:mod:`arena.containment.warm`);
    False: every process starts fresh (``--cold-start``). The results are the same.

    ``specs`` are the entrants (index order). A player folder that cannot load,
    or a backend that cannot run tasks, raises TournamentError after the committed
    partidos are kept. A partido whose referee fails (an unexpected exception, a
    worker that dies, a commit refused) is logged with its players, recorded
    (:meth:`Store.record_failure`) and left unsettled; the others go on, and then
    TournamentError names every such partido: ``--resume`` plays them again.
    """
    progress = progress or Progress()
    config = Config.from_store(store.config())
    schedule = store.scheduled()
    done = store.done_ids()
    store.clean_uncommitted()
    stats = RunStats(len(schedule), len(done))
    todo = {p.pos: p for p in schedule if p.id not in done}
    gate = DealGate(todo.values())
    dq = _disqualifications(store, len(specs))
    retried = sorted({pid for pid, _reason, _at in store.failures()} - done)
    if retried:
        log.info(_("retrying partidos that failed before: {partidos}").format(partidos=", ".join(retried)))
    failed: dict[int, str] = {}  # pos -> one line naming the partido, its players and the failure
    run_id = store.begin_run(backend.slots)
    log.info(
        n_(
            "torneo {folder}: {n} partido, {saved} already saved",
            "torneo {folder}: {n} partidos, {saved} already saved",
            len(schedule),
        ).format(folder=store.dir, n=len(schedule), saved=len(done))
    )
    progress.start(len(schedule), len(done))
    started = time.monotonic()
    in_flight: dict[Any, ScheduledPartido] = {}
    status = "interrupted"
    old_term = signal.getsignal(signal.SIGTERM)
    _raise_on_sigterm()
    try:
        while todo:
            before = len(todo)
            _dispatch(store, backend, specs, config, todo, in_flight, gate, dq, stats, progress, failed, warm)
            if not in_flight:
                if len(todo) == before:
                    break  # what is left failed, or waits on a failed partido (--max-faults)
                continue  # withdrawals only: decide the next ones
            for handle in backend.wait(list(in_flight), 1.0):
                partido = in_flight.pop(handle)
                gate.end(partido)  # done (its players stopped): another partido of its deal may start
                try:
                    disqualified = _commit(store, partido, handle, stats.split)
                except PartidoFailed as exc:
                    failed[partido.pos] = _failed(store, partido, specs, str(exc))
                    continue
                for e in disqualified:
                    bisect.insort(dq[e], partido.pos)
                del todo[partido.pos]
                gate.settle(partido)
                stats.committed += 1
                progress.advance()
            progress.tick()
        status = "failed" if failed else "finished"
    except KeyboardInterrupt:
        log.warning(_("torneo interrupted"))
        backend.stop()
        raise Interrupted(stats.settled_before + stats.committed + stats.withdrawn, stats.total) from None
    except BaseException:
        status = "failed"
        backend.stop()
        raise
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, old_term)
        stats.seconds = time.monotonic() - started
        progress.finish()
        if status != "finished":
            store.clean_uncommitted()
        store.end_run(run_id, status)
        log.info(
            n_(
                "end of the run: {status}, {n} new partido",
                "end of the run: {status}, {n} new partidos",
                stats.committed,
            ).format(status=_(RUN_STATUS[status]), n=stats.committed)
        )
    if failed:
        waiting = len(todo) - len(failed)
        if waiting:
            message = n_(
                "{n} partido could not be played, by a failure of the referee (not of its players): "
                "nothing of it was saved, the others were; partidos waiting for it (--max-faults): "
                "{waiting}. --resume plays it again:",
                "{n} partidos could not be played, by a failure of the referee (not of their players): "
                "nothing of them was saved, the others were; partidos waiting for them (--max-faults): "
                "{waiting}. --resume plays them again:",
                len(failed),
            )
        else:
            message = n_(
                "{n} partido could not be played, by a failure of the referee (not of its players): "
                "nothing of it was saved, the others were. --resume plays it again:",
                "{n} partidos could not be played, by a failure of the referee (not of their players): "
                "nothing of them was saved, the others were. --resume plays them again:",
                len(failed),
            )
        lines = "\n".join(f"  {failed[pos]}" for pos in sorted(failed))
        raise TournamentError(f"{message.format(n=len(failed), waiting=waiting)}\n{lines}")
    return stats


MoreFn = Callable[[Store], "tuple[list[ScheduledPartido], str] | None"]  # not shown: a type
"""Given the store of a finished schedule: the next batch of extra partidos and what it is for
(a progress label), or None to stop. ``--until-separated`` passes
:func:`arena.results.separate.next_batch`; the tournament side never imports the results side."""


def play_more(
    store: Store,
    backend: Backend,
    specs: Sequence[PlayerSpec],
    more: MoreFn,
    progress: Progress | None,
    stats: RunStats,
    warm: bool = True,
) -> RunStats:
    """Ask ``more`` for batches of extra partidos and play each, until it has none.

    Each batch is asked for only once every earlier partido is settled.
    """
    progress = progress or Progress()
    while (found := more(store)) is not None:
        batch, label = found
        store.extend(batch)
        log.info(
            n_("{label}: {n} more partido", "{label}: {n} more partidos", len(batch)).format(
                label=label, n=len(batch)
            )
        )
        progress.phase(label)
        played = run(store, backend, specs, progress, warm)
        stats = RunStats(
            played.total,
            stats.settled_before,
            stats.committed + played.committed,
            stats.withdrawn + played.withdrawn,
            stats.seconds + played.seconds,
        )
    return stats


BUDGET_CHOSEN = "budget_chosen"
"""The ``meta`` row that says the ``--until-separated`` budget in the configuration was chosen by the
command (no ``--budget``) when the schedule ended, not given."""


def choose_budget(store: Store, budget: int) -> None:
    """Keep ``budget`` as the torneo's ``--until-separated`` budget (chosen, not given): a resumed
    torneo plays on with the same one."""
    with store.db:
        store.db.execute("INSERT OR REPLACE INTO config VALUES ('budget', ?)", (json.dumps(budget),))
        store.db.execute("INSERT OR REPLACE INTO meta VALUES (?, '1')", (BUDGET_CHOSEN,))


def play_on(store: Store, more: int | None) -> Config:
    """Turn ``--until-separated`` on for a resumed torneo (begun with or without it): at most ``more``
    partidos after those already added, or (None) a budget chosen anew once the schedule is settled;
    the stored configuration says so from now on. Returns it."""
    extra = sum(1 for p in store.scheduled() if p.round < 0)
    with store.db:
        store.db.execute("INSERT OR REPLACE INTO config VALUES ('until_separated', 'true')")
        store.db.execute("DELETE FROM meta WHERE key = ?", (BUDGET_CHOSEN,))
        if more is None:
            store.db.execute("DELETE FROM config WHERE key = 'budget'")
        else:
            budget = json.dumps(extra + more)
            store.db.execute("INSERT OR REPLACE INTO config VALUES ('budget', ?)", (budget,))
    return Config.from_store(store.config())


def budget_chosen(store: Store) -> bool:
    """Whether the torneo's budget was chosen by the command (:func:`choose_budget`)."""
    return store.db.execute("SELECT 1 FROM meta WHERE key = ?", (BUDGET_CHOSEN,)).fetchone() is not None


def _failed(store: Store, partido: ScheduledPartido, specs: Sequence[PlayerSpec], why: str) -> str:
    """Log and record a failed partido; returns one line naming it and its players."""
    from arena.inert import printable

    line = printable(f"{partido.id} ({', '.join(specs[e].name for e in partido.seats)}): {why}")
    log.error(_("{failure}; going on with the others, --resume retries it").format(failure=line))
    store.record_failure(partido, why)
    return line


def _commit(store: Store, partido: ScheduledPartido, handle: Any, split: dict[str, float]) -> set[int]:
    """Commit a finished task's partido; returns the entrants disqualified in it; adds its times
    to ``split`` (see :attr:`RunStats.split`).

    PartidoFailed when the referee failed on it; TournamentError when nothing can be played.
    """
    try:
        outcome = handle.result()
    except BackendError as exc:
        raise TournamentError(f"{partido.id}: {exc}") from None
    except Exception as exc:  # a worker died (killed, out of memory) or a bug
        raise PartidoFailed(_("the worker failed: {error}").format(error=repr(exc))) from exc
    if outcome["error"]:
        if outcome.get("failed"):
            raise PartidoFailed(outcome["error"])
        raise TournamentError(f"{partido.id}: {outcome['error']}")
    started = time.monotonic()
    try:
        store.commit(partido, outcome)
    except StoreError as exc:
        raise PartidoFailed(str(exc)) from None
    for part, seconds in [*outcome.get("timing", {}).items(), ("commit", time.monotonic() - started)]:
        split[part] = split.get(part, 0.0) + seconds
    return {partido.seats[f["seat"]] for f in outcome["result"]["faults"] if not f["penalized"]}


def _raise_on_sigterm() -> None:
    """SIGTERM stops the coordinator as Ctrl-C does (in the main thread only, as Python allows)."""

    def handler(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)


def _disqualifications(store: Store, n: int) -> list[list[int]]:
    """Per entrant, the sorted positions of the committed partidos it was disqualified in."""
    out: list[list[int]] = [[] for _i in range(n)]
    for record in store.results(figures=False):  # faults only: a big torneo's times stay unread
        for e in record.disqualified_entrants:
            out[e].append(record.pos)
    for positions in out:
        positions.sort()
    return out


def _dispatch(
    store: Store,
    backend: Backend,
    specs: Sequence[PlayerSpec],
    config: Config,
    todo: dict[int, ScheduledPartido],
    in_flight: dict[Any, ScheduledPartido],
    gate: DealGate,
    dq: list[list[int]],
    stats: RunStats,
    progress: Progress,
    failed: Collection[int] = (),
    warm: bool = True,
) -> None:
    """Submit the next decidable partidos (up to twice the slots in flight), record withdrawals.

    Never a partido of a deal in flight (``gate``): the first decidable partido of each free deal
    is a candidate, and :meth:`DealGate.pick` chooses among them.

    ``failed`` partidos (positions) are not submitted again in this run, and still
    count as unsettled for the decisions on later ones.

    Under ``max_faults`` F, partido i is decided once, for each of its entrants,
    either F disqualifications are known before i (withdrawn) or fewer than F are
    possible before i (even if every unsettled earlier partido disqualified it).
    """
    f = config.max_faults
    cap = 2 * backend.slots
    room = cap - len(in_flight)
    if room <= 0:
        return
    endgame = gate.endgame(cap)
    busy = {p.pos for p in in_flight.values()} | set(failed)
    pending: Counter[int] = Counter()  # unsettled earlier partidos, per entrant
    settled: list[ScheduledPartido] = []
    ready: list[ScheduledPartido] = []
    deals: set[Seed] = set()  # the deals of ``ready``
    for scanned, p in enumerate(todo.values()):
        if (len(deals) >= room and not endgame) or scanned >= SCAN_LIMIT:
            break
        decided, withdrawn = True, []
        if f is not None:
            for e in p.seats:
                before = bisect.bisect_left(dq[e], p.pos)
                if before >= f:
                    withdrawn.append(e)
                elif before + pending[e] >= f:
                    decided = False
        if p.pos not in busy and decided:
            if withdrawn:
                store.commit_withdrawal(p, withdrawn, WITHDRAWN_REASON)
                log.info(
                    n_(
                        "{partido} not played: {players} withdrawn",
                        "{partido} not played: {players} withdrawn",
                        len(withdrawn),
                    ).format(partido=p.id, players=", ".join(specs[e].name for e in withdrawn))
                )
                settled.append(p)
                stats.withdrawn += 1
                progress.advance()
                continue
            if gate.free(p):
                ready.append(p)
                deals.add(p.seed)
        pending.update(p.seats)
    for p in settled:
        del todo[p.pos]
        gate.settle(p)
    for p in gate.pick(ready, room, cap):
        task = PartidoTask(
            p.id,
            p.seed,
            tuple(specs[e] for e in p.seats),
            config.rules,
            config.limits,
            str(store.replays),
            config.sandbox,
            warm,
            config.game,
        )
        gate.start(p)  # before the task exists: it refuses a second partido of a deal in flight
        in_flight[backend.submit(play_task, task)] = p


def execute(
    folder: Path,
    specs: Sequence[PlayerSpec],
    config: Config,
    workers: int,
    progress: Progress | None = None,
    schedule: Sequence[ScheduledPartido] | None = None,
    *,
    context: Any = None,
    started: Callable[[], None] | None = None,
    scheduler: str | None = None,
    more: MoreFn | None = None,
    left_out: Sequence[tuple[str, str, str]] = (),
    excluded: Callable[[list[tuple[PlayerSpec, str]], int], None] | None = None,
    warm: bool = True,
) -> RunStats:
    """Run a torneo: new (with its ``schedule``) or resumed (``schedule`` None).

    A new torneo leaves out the entrants that cannot start (unless ``config.stop_on_broken``),
    plans the schedule again for the rest, records them with ``left_out`` (folders that are no
    player: folder, kind, reason) in the store and tells ``excluded`` (them, the new schedule's size).

    ``more``: after the schedule, extra partidos (:data:`MoreFn`), as ``--until-separated`` asks.

    Starts ``workers`` processes here (``context``: a multiprocessing context,
    default :func:`~arena.tournament.backend.default_context`), or with ``scheduler`` uses
    the Dask cluster at that address instead; checks every entrant can run,
    creates the store when new, logs to ``DIR/torneo.log``, and plays what is
    missing; ``started`` is called just before the first partido. Raises
    Interrupted, TournamentError.
    """
    import multiprocessing

    from arena.tournament.backend import LocalBackend, default_context
    from arena.tournament.logchannel import LogSink

    context = context or multiprocessing.get_context(default_context())
    sink = LogSink(context)
    try:
        backend = _cluster(scheduler) if scheduler else LocalBackend(workers, sink.channel, context)
    except BaseException:
        sink.close()
        raise
    store: Store | None = None
    finished = False
    try:
        broken = check_entrants(backend, specs, config)
        reasons = " | ".join(why for _spec, why in broken)
        if broken and (schedule is None or config.stop_on_broken):
            raise TournamentError(_("these players cannot run: {reasons}").format(reasons=reasons))
        if broken:
            gone = {spec.folder for spec, _why in broken}
            specs = [s for s in specs if s.folder not in gone]
            if len(specs) < config.table_size:
                raise TournamentError(
                    n_(
                        "only {n} player can run, fewer than a table of {k}; these cannot: {reasons}",
                        "only {n} players can run, fewer than a table of {k}; these cannot: {reasons}",
                        len(specs),
                    ).format(n=len(specs), k=config.table_size, reasons=reasons)
                )
            schedule = plan(config, len(specs))
            for spec, why in broken:
                log.warning(
                    _("{player} is left out of the torneo: {reason}").format(player=spec.name, reason=why)
                )
            if excluded is not None:
                excluded(broken, len(schedule))
        try:
            if schedule is None:
                store = Store.open(folder)
            else:
                rows = [(str(spec.folder), NO_START, why) for spec, why in broken]
                store = create(folder, config, specs, schedule, [*rows, *left_out])
            store.lock()
        except StoreError as exc:
            raise TournamentError(str(exc)) from None
        sink.start(folder / LOG_NAME)
        if started:
            started()
        stats = run(store, backend, specs, progress, warm)
        if more is not None:
            stats = play_more(store, backend, specs, more, progress, stats, warm)
        backend.close()
        finished = True
        return stats
    finally:
        if not finished:
            backend.stop()
        sink.close()
        if store is not None:
            store.close()


def _cluster(scheduler: str) -> Backend:
    """The Dask backend of the cluster at ``scheduler``; TournamentError (one line) if unusable."""
    from arena.tournament.cluster.backend import DaskBackend

    try:
        return DaskBackend(scheduler)
    except BackendError as exc:
        raise TournamentError(str(exc)) from None


def resume_hint(folder: Path, scheduler: str | None = None) -> str:
    """How to go on with an interrupted torneo: the command, in one line."""
    cluster = f" --scheduler {scheduler}" if scheduler else ""
    command = f"arena tournament --resume {folder}{cluster}"  # not shown: a command, shown as it is
    return _("To continue: {command}").format(command=command)


def default_workers() -> int:
    return os.cpu_count() or 1
