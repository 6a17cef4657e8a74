"""The durable results of a torneo: ``DIR/torneo.sqlite`` and ``DIR/replays/``.

Only the coordinator writes. A partido counts once its row is committed; the
commit moves the worker's temporary replay (and its incident files and logs) to
their final names first, then inserts the rows in one transaction, so a crash at
any moment leaves either a committed partido or nothing that counts. The schema
is documented in ``docs/tournament.md``.

Each seat's figures (schema 3) are a row of ``seats``, its reply times packed as
microseconds (:func:`pack_times`), so that the standings of 10⁵ partidos are summed
by SQLite and read as arrays, not parsed from JSON lists of floats.

The folder is the referee's alone: ``DIR`` and ``DIR/replays`` are 0700, the store
(with its journal files) 0600; it holds the torneo's deal key (``meta.deal_key``)
and every partido's seed, secret until the torneo is complete.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.i18n import N_, _, shown, stored
from arena.inert import printable
from arena.referee.stats import FIELDS, NOT_COUNTS
from arena.seeds import Seed
from arena.tournament.schedule import ScheduledPartido
from arena.tournament.sides import end_by_side

FORMAT = "tute-arena-torneo"
SCHEMA_VERSION = 4
"""2: seeds are JSON text (an int, or a key as a string). 3: each seat's figures in ``seats``, with
its reply times packed (:func:`pack_times`) instead of ``partidos.move_ms`` and ``stats`` (JSON).
4: a seat's counts beyond the house's manos are the game's, one JSON object (``seats.counts``)
instead of Tute's four columns, so that any game's figures are kept. Stores of versions 1 (int seeds),
2 and 3 are read too, and a torneo begun under them goes on in its own version when resumed. The
columns ``seats.move_ms`` and ``seats.move_cpu_ms`` hold the measured reply times (their names
predate ``reply_ms``)."""
READABLE_VERSIONS = (1, 2, 3, 4)
DEAL_KEY = "deal_key"
"""The ``meta`` row of the torneo's secret key (absent under an explicit ``--seed``)."""
DB_NAME = "torneo.sqlite"
LOCK_NAME = "torneo.lock"
REPLAYS = "replays"
TEMP_PREFIX = ".tmp-"
SETTLE_S = 2.0
"""How long a writer's close waits for readers to let it fold the WAL in and leave WAL mode."""
_FAILURES = """CREATE TABLE IF NOT EXISTS failures (
    partido TEXT NOT NULL REFERENCES schedule(id), pos INTEGER NOT NULL, reason TEXT NOT NULL,
    at TEXT NOT NULL)"""
"""Partidos the referee failed on (not settled: ``--resume`` plays them again); made on first use."""

ACCUSE_FIELDS = ("renuncios", "renuncios_cazados", "acusaciones_bien", "acusaciones_mal")
"""The columns of the ``accusations`` table: the counts a Tute game keeps under the ``accuse`` policy."""
_ACCUSATIONS = """CREATE TABLE IF NOT EXISTS accusations (
    partido TEXT NOT NULL REFERENCES partidos(id), seat INTEGER NOT NULL,
    entrant INTEGER NOT NULL REFERENCES entrants(idx), renuncios INTEGER NOT NULL,
    renuncios_cazados INTEGER NOT NULL, acusaciones_bien INTEGER NOT NULL,
    acusaciones_mal INTEGER NOT NULL)"""
"""Under the ``accuse`` policy, each seat's renuncios and accusations (:data:`ACCUSE_FIELDS`) where any is
not zero; made on first use, so older stores need no migration."""

NO_START = "no arranca"  # not shown: stored as is (older torneos too); shown as EXCLUSION_KINDS[NO_START]
"""The kind of exclusion of a submission that cannot start (store ``excluded``)."""
NOT_A_PLAYER = "no es jugador"  # not shown: stored as is; shown as EXCLUSION_KINDS[NOT_A_PLAYER]
"""The kind of a folder under the paths that holds no player."""
EXCLUSION_KINDS = {NO_START: N_("cannot start"), NOT_A_PLAYER: N_("not a player")}
"""Each stored kind of exclusion as shown, marked for the catalog: show it with :func:`exclusion_kind`."""


def exclusion_kind(kind: str) -> str:
    """A stored kind of exclusion (:data:`NO_START`, :data:`NOT_A_PLAYER`) in the language in use."""
    return _(EXCLUSION_KINDS[kind]) if kind in EXCLUSION_KINDS else kind


CONFIG_LABELS = {
    "game": N_("game (--game)"),
    "table_size": N_("players per table (--table-size)"),
    "rounds": N_("rounds (--rounds)"),
    "seed": N_("explicit seed (--seed)"),
    "duplicate": N_("duplicate deals (--duplicate)"),
    "partidos": N_("balanced subset of partidos (--partidos)"),
    "rules": N_("rules"),
    "init_ms": N_("CPU ms for hello (--init-ms)"),
    "move_ms": N_("CPU ms per play (--move-ms)"),
    "init_wall_ms": N_("wall-clock ms for hello (--init-wall-ms)"),
    "move_wall_ms": N_("wall-clock ms per play (--move-wall-ms)"),
    "idle_ms": N_("idle ms per play (--idle-ms)"),
    "init_idle_ms": N_("idle ms for hello (--init-idle-ms)"),
    "max_faults": N_("disqualifications that withdraw a player (--max-faults)"),
    "stop_on_broken": N_("refuse to start if a submission cannot start (--stop-on-broken)"),
    "until_separated": N_("more partidos until places are separated (--until-separated)"),
    "budget": N_("most extra partidos (--budget)"),
    "paths": N_("player folders"),
    "sandbox": N_("containment of the players (--sandbox)"),
    "arena_version": N_("tute-arena version that created the torneo"),
    "created": N_("created"),
}
"""What the Configuración sheet calls each parameter of :meth:`Store.config` (those of
:meth:`arena.tournament.coordinator.Config.to_store`, and ``created``), marked for the catalog.
The store keeps the keys themselves: :meth:`~arena.tournament.coordinator.Config.from_store`
reads them back, and a torneo is the same whatever language it was begun in. They are translated
when shown, by :func:`shown_config`."""


def shown_config(values: dict[str, Any]) -> dict[str, Any]:
    """A torneo's parameters (:meth:`Store.config`) keyed as shown, in the language in use.

    A key without a label (from another version of tute-arena) is shown as it is stored.
    """
    return {(_(CONFIG_LABELS[k]) if k in CONFIG_LABELS else k): v for k, v in values.items()}


_EXCLUDED = """CREATE TABLE IF NOT EXISTS excluded (
    folder TEXT NOT NULL, kind TEXT NOT NULL, reason TEXT NOT NULL)"""
"""Folders left out of the torneo and why (``arena tournament`` intake); made on first use."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE config (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entrants (
    idx INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, folder TEXT NOT NULL, kind TEXT NOT NULL,
    display_name TEXT, authors TEXT NOT NULL, fingerprint TEXT NOT NULL);
CREATE TABLE schedule (
    pos INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, seed TEXT NOT NULL, deal INTEGER NOT NULL,
    round INTEGER NOT NULL, seats TEXT NOT NULL);
CREATE TABLE partidos (
    id TEXT PRIMARY KEY REFERENCES schedule(id), pos INTEGER NOT NULL UNIQUE, seed TEXT NOT NULL,
    seats TEXT NOT NULL, players TEXT NOT NULL, winners TEXT NOT NULL, ranking TEXT NOT NULL,
    manos INTEGER NOT NULL, porotos TEXT NOT NULL, replay TEXT NOT NULL,
    logs TEXT, worker TEXT, started TEXT NOT NULL, finished TEXT NOT NULL, committed TEXT NOT NULL);
CREATE TABLE seats (
    partido TEXT NOT NULL REFERENCES partidos(id), seat INTEGER NOT NULL,
    entrant INTEGER NOT NULL REFERENCES entrants(idx), won INTEGER NOT NULL, place REAL NOT NULL,
    manos INTEGER NOT NULL, manos_perdidas INTEGER NOT NULL, counts TEXT NOT NULL, faults TEXT NOT NULL,
    move_ms BLOB NOT NULL, move_cpu_ms BLOB NOT NULL);
CREATE TABLE faults (
    partido TEXT NOT NULL REFERENCES partidos(id), mano INTEGER NOT NULL, seat INTEGER NOT NULL,
    entrant INTEGER NOT NULL REFERENCES entrants(idx), reason TEXT NOT NULL, detail TEXT NOT NULL,
    penalized INTEGER NOT NULL, incident TEXT);
CREATE INDEX faults_partido ON faults(partido);
CREATE TABLE withdrawn (
    partido TEXT PRIMARY KEY REFERENCES schedule(id), pos INTEGER NOT NULL UNIQUE,
    entrants TEXT NOT NULL, reason TEXT NOT NULL, committed TEXT NOT NULL);
CREATE TABLE runs (
    run INTEGER PRIMARY KEY, started TEXT NOT NULL, ended TEXT, workers INTEGER NOT NULL,
    arena_version TEXT NOT NULL, status TEXT NOT NULL);
"""

_PARTIDO_COLUMNS = (
    "id, pos, seed, seats, players, winners, ranking, manos, porotos, replay, logs, worker, "  # not shown
    "started, finished, committed"  # not shown
)
INSERT_PARTIDO = f"INSERT INTO partidos ({_PARTIDO_COLUMNS}) VALUES ({', '.join('?' * 15)})"
"""A committed partido's ``partidos`` row (schema 3): see :func:`partido_rows`."""
TUTE_COUNTS_V3 = ("porotos_perdidos", "capotes", "tutes", "cantos")
"""Schema 3's columns of a seat's game counts (the Tute games', the only ones then)."""
_SEAT_COLUMNS = ("won", "place", *FIELDS, "counts", "faults", "move_ms", "move_cpu_ms")
_SEAT_COLUMNS_V3 = ("won", "place", *FIELDS, *TUTE_COUNTS_V3, "faults", "move_ms", "move_cpu_ms")
HOUSE_KEYS = NOT_COUNTS | frozenset(FIELDS)
"""The keys of a seat's figures that are not the game's counts."""


def _insert_seat(columns: Sequence[str]) -> str:
    return (
        f"INSERT INTO seats (partido, seat, entrant, {', '.join(columns)}) "
        f"VALUES ({', '.join('?' * (3 + len(columns)))})"
    )


INSERT_SEAT = _insert_seat(_SEAT_COLUMNS)
"""One ``seats`` row of a committed partido (schema 4): see :func:`partido_rows`."""
INSERT_SEAT_V3 = _insert_seat(_SEAT_COLUMNS_V3)
_INSERT_V2 = "INSERT INTO partidos VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
"""A committed partido in a torneo begun under schema 1 or 2 (reply times and figures as JSON)."""

TIMES_DTYPE = "<u4"
"""Each reply time as :func:`pack_times` stores it, as a NumPy dtype: little-endian unsigned 32 bits."""
TIMES_PER_MS = 1000
"""Stored units of a reply time per millisecond: microseconds."""
_U32 = next(code for code in "IL" if array(code).itemsize == 4)
_MAX_US = 2**32 - 1
_US = float(TIMES_PER_MS)


def pack_times(ms: Sequence[float]) -> bytes:
    """Reply times (ms) as schema 3 stores them: little-endian unsigned 32-bit microseconds.

    The referee measures to the microsecond, so nothing is lost; a time beyond 2³² − 1 µs
    (71 minutes) is kept as that.
    """
    try:
        packed = array(_U32, map(round, map(_US.__mul__, ms)))
    except OverflowError:
        packed = array(_U32, [min(_MAX_US, max(0, round(t * _US))) for t in ms])
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def unpack_times(blob: bytes) -> tuple[float, ...]:
    """The reply times (ms) of :func:`pack_times`."""
    packed = array(_U32)
    packed.frombytes(blob)
    if sys.byteorder == "big":
        packed.byteswap()
    return tuple(us / TIMES_PER_MS for us in packed)


def partido_rows(
    partido: ScheduledPartido,
    result: dict[str, Any],
    replay: str,
    logs: str | None,
    worker: str | None,
    started: str,
    finished: str,
    committed: str,
    version: int = SCHEMA_VERSION,
) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]]:
    """A finished partido as schema 4 (or 3) stores it: its ``partidos`` row (:data:`INSERT_PARTIDO`)
    and a ``seats`` row per seat (:data:`INSERT_SEAT`); ``result`` as a worker gives it (with ``stats``)."""
    seats = list(partido.seats)
    row = (
        partido.id,
        partido.pos,
        _j(partido.seed),
        _j(seats),
        _j(result["players"]),
        _j(result["winners"]),
        _j(result["ranking"]),
        result["manos"],
        _j(result["scores"]),
        replay,
        logs,
        worker,
        started,
        finished,
        committed,
    )
    figures = [
        (
            partido.id,
            s,
            seats[s],
            int(bool(stats["won"])),
            float(stats["place"]),
            *(stats[f] for f in FIELDS),
            *(
                (_j({k: v for k, v in stats.items() if k not in HOUSE_KEYS}),)
                if version >= 4
                else tuple(stats.get(f, 0) for f in TUTE_COUNTS_V3)
            ),
            _j(stats.get("faults", [])),
            pack_times(result["reply_ms"][s]),
            pack_times(stats.get("reply_cpu_ms", [])),
        )
        for s, stats in enumerate(result["stats"])
    ]
    return row, figures


def _renamed(stats: dict[str, Any]) -> dict[str, Any]:
    """A seat's figures as a store of schema 1 or 2 kept them, with today's names."""
    return {("reply_cpu_ms" if k == "move_cpu_ms" else k): v for k, v in stats.items()}


def _loads_all(texts: Sequence[str]) -> list[Any]:
    """Many JSON texts parsed in one call (several times faster than one call each)."""
    if not texts:
        return []
    values = json.loads("[" + ",".join(texts) + "]")
    if len(values) != len(texts):  # a damaged value spanning several: parse them one by one
        return [json.loads(t) for t in texts]
    return values


def _shared(texts: Iterable[str], make: Callable[[Any], Any]) -> list[Any]:
    """``make(json.loads(t))`` for each text, made once per distinct text (rankings repeat a lot)."""
    seen: dict[str, Any] = {}
    out = []
    for t in texts:
        value = seen.get(t)
        if value is None:
            value = seen[t] = make(json.loads(t))
        out.append(value)
    return out


def _groups(ranking: list[list[int]]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(g) for g in ranking)


class StoreError(ArenaError):
    """A folder that is no torneo, a damaged store, or a commit that cannot be made (one line)."""


@dataclass(frozen=True)
class Entrant:
    index: int
    name: str
    folder: str
    kind: str
    display_name: str | None
    authors: tuple[str, ...]
    fingerprint: str
    """sha256 of the folder's files when the torneo was created."""


@dataclass(frozen=True)
class FaultRecord:
    mano: int
    seat: int
    entrant: int
    reason: str
    detail: str
    penalized: bool
    incident: str | None
    """Incident file, relative to DIR."""


@dataclass(frozen=True)
class PartidoRecord:
    """A committed partido. ``winners`` and ``ranking`` hold seats; ``seats[s]`` is the entrant."""

    id: str
    pos: int
    seed: Seed
    seats: tuple[int, ...]
    players: tuple[str, ...]
    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    manos: int
    scores: tuple[int, ...]
    """The game's score of each seat at the end (the column ``partidos.porotos``, named before
    other games)."""
    faults: tuple[FaultRecord, ...]
    reply_ms: tuple[tuple[float, ...], ...]
    """Reply times by seat, in milliseconds."""
    stats: tuple[dict[str, Any], ...]
    """Per-seat figures of :func:`arena.referee.stats.partido_stats` (without ``reply_ms``)."""
    replay: str
    """Relative to DIR."""
    logs: str | None
    worker: str | None
    started: str
    finished: str
    committed: str

    @property
    def winner_entrants(self) -> tuple[int, ...]:
        return tuple(self.seats[s] for s in self.winners)

    @property
    def disqualified_entrants(self) -> tuple[int, ...]:
        """Entrants disqualified in this partido (penalties do not count)."""
        return tuple(sorted({f.entrant for f in self.faults if not f.penalized}))


@dataclass(frozen=True)
class Withdrawal:
    """A scheduled partido not played: ``entrants`` had been withdrawn (``reason``) before it."""

    partido: str
    pos: int
    entrants: tuple[int, ...]
    reason: str
    committed: str


def now() -> str:
    """The current time, ISO 8601 in UTC, to the millisecond."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def _j(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _seed_in(value: int | str) -> Seed:
    """A seed as stored: JSON text (version 2), or an int (version 1, or SQLite's conversion there)."""
    return value if isinstance(value, int) else json.loads(value)


def _private(folder: Path) -> None:
    """Make an existing torneo folder the referee's alone (folders 0700, store files 0600)."""
    for path, mode in [(folder, 0o700), (folder / REPLAYS, 0o700)] + [
        (folder / f"{DB_NAME}{suffix}", 0o600) for suffix in ("", "-wal", "-shm", "-journal")
    ]:
        with contextlib.suppress(OSError):
            os.chmod(path, mode)


def _take_lock(path: Path) -> int | None:
    """``path`` opened (made if missing) and locked (flock, exclusive); None if another process holds it.

    Starts over when the holder removed the file between our open and our lock (see :meth:`Store.lock`).
    """
    import fcntl

    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return None
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # we locked a file its holder had just removed: take the one there now


def fsync(path: Path) -> None:
    """Flush a file or a folder (its entries) to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Store:
    """A torneo's folder: configuration, schedule and committed results."""

    def __init__(
        self, folder: Path, db: sqlite3.Connection, readonly: bool = False, version: int = SCHEMA_VERSION
    ) -> None:
        self.dir = folder
        self.db = db
        self.readonly = readonly
        self.version = version
        """The store's schema version (a torneo begun by an older tute-arena keeps its own)."""
        self._fsyncs: cf.ThreadPoolExecutor | None = None
        self._lock: int | None = None
        self._closed = False

    # ------------------------------------------------------------ opening

    @classmethod
    def create(
        cls,
        folder: str | Path,
        config: dict[str, Any],
        entrants: Sequence[Entrant],
        schedule: Sequence[ScheduledPartido],
        key: str | None = None,
    ) -> Store:
        """Make a new torneo in ``folder`` (absent or empty; StoreError otherwise).

        ``key``: the torneo's secret deal key (None under an explicit seed), kept in ``meta``.
        """
        folder = Path(folder)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise StoreError(_("{folder}: not an empty folder").format(folder=folder))
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        (folder / REPLAYS).mkdir(mode=0o700, exist_ok=True)
        _private(folder)  # also a folder that existed (empty) before
        temp = folder / f"{TEMP_PREFIX}{DB_NAME}"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # SQLite's journals inherit the mode
        os.fchmod(fd, 0o600)
        os.close(fd)
        meta = [("format", FORMAT), ("schema_version", str(SCHEMA_VERSION)), ("created", now())]
        db = sqlite3.connect(temp)
        try:
            with db:
                db.executescript(_SCHEMA)
                db.executemany("INSERT INTO meta VALUES (?, ?)", meta + ([(DEAL_KEY, key)] if key else []))
                db.executemany("INSERT INTO config VALUES (?, ?)", [(k, _j(v)) for k, v in config.items()])
                db.executemany(
                    "INSERT INTO entrants VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (e.index, e.name, e.folder, e.kind, e.display_name, _j(e.authors), e.fingerprint)
                        for e in entrants
                    ],
                )
                db.executemany(
                    "INSERT INTO schedule VALUES (?, ?, ?, ?, ?, ?)",
                    [(p.pos, p.id, _j(p.seed), p.deal, p.round, _j(p.seats)) for p in schedule],
                )
        finally:
            db.close()
        fsync(temp)
        os.replace(temp, folder / DB_NAME)
        fsync(folder)
        return cls.open(folder)

    @classmethod
    def open(cls, folder: str | Path, readonly: bool = False) -> Store:
        """Open an existing torneo; StoreError (one line) for a foreign or damaged folder."""
        folder = Path(folder)
        path = folder / DB_NAME
        if not folder.is_dir():
            raise StoreError(_("{folder}: no such folder").format(folder=folder))
        if not path.is_file():
            raise StoreError(
                _("{folder}: not a torneo folder (no {file})").format(folder=folder, file=DB_NAME)
            )
        try:
            db = sqlite3.connect(f"{path.resolve().as_uri()}?mode={'ro' if readonly else 'rw'}", uri=True)
            meta = dict(db.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                _("{path}: not a tute-arena torneo store ({error})").format(path=path, error=exc)
            ) from None
        if meta.get("format") != FORMAT:
            db.close()
            raise StoreError(_("{path}: not a tute-arena torneo store").format(path=path))
        version = int(meta.get("schema_version", "0"))
        if version not in READABLE_VERSIONS:
            db.close()
            raise StoreError(
                _("{path}: store schema {version}; this tute-arena reads {readable}").format(
                    path=path, version=version, readable=SCHEMA_VERSION
                )
            )
        if not readonly:
            _private(folder)  # a torneo begun by an older version may have been readable by others
            try:
                db.execute("PRAGMA journal_mode=WAL")  # readers never wait on the writer; undone on close
            except sqlite3.OperationalError as exc:  # a reader held it past the busy timeout
                db.close()
                raise StoreError(
                    _("{path}: cannot open the store for writing ({error})").format(path=path, error=exc)
                ) from None
            db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        return cls(folder, db, readonly, version)

    def lock(self) -> None:
        """Hold ``DIR/torneo.lock`` while writing: StoreError if another process holds it.

        The kernel drops the lock when the holder dies, even by ``kill -9`` (the file stays,
        unlocked: the next coordinator takes it). :meth:`close` removes the file while still
        holding it, so a process that opened it just before finds, once it has the lock, that
        the name is gone (or is another file) and starts over: two never both hold it.
        """
        fd = _take_lock(self.dir / LOCK_NAME)
        if fd is None:
            raise StoreError(
                _("{folder}: another arena tournament is running in this folder").format(folder=self.dir)
            )
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock = fd

    def close(self) -> None:
        """Close the store; a writer leaves only ``torneo.sqlite`` behind.

        A writer (not ``readonly``) that holds the lock, or can take it because no coordinator
        runs, folds the WAL into the database and turns it back to rollback mode, so that SQLite
        removes ``-wal`` and ``-shm`` and read-only opens after it (``arena standings``) make none;
        then removes ``torneo.lock``. SQLite refuses the switch while another connection has the
        store open (a coordinator, or ``arena standings`` reading): those files then stay, and
        the next writer's close removes them. A read-only store never writes or removes anything.
        """
        if self._closed:
            return
        self._closed = True
        lock, self._lock = self._lock, None
        try:
            if not self.readonly:
                if lock is None:  # opened for writing without lock(): settle only if no coordinator runs
                    with contextlib.suppress(OSError):
                        lock = _take_lock(self.dir / LOCK_NAME)
                if lock is not None:
                    self._settle()
        finally:
            if self._fsyncs is not None:
                self._fsyncs.shutdown()
            self.db.close()
            if lock is not None:
                with contextlib.suppress(OSError):
                    os.unlink(self.dir / LOCK_NAME)  # still held: see lock()
                os.close(lock)

    def _settle(self) -> None:
        """Checkpoint the WAL and leave WAL mode: best effort, for :data:`SETTLE_S` at most.

        SQLite refuses to leave WAL mode (at once, without waiting) while another connection
        has the store open: we try again until it is closed or the time is up.
        """
        if self.db.in_transaction:
            return  # a write not committed is rolled back by close; nothing to fold in
        deadline = time.monotonic() + SETTLE_S
        with contextlib.suppress(sqlite3.Error):
            self.db.execute(f"PRAGMA busy_timeout = {int(SETTLE_S * 1000)}")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        while True:
            try:
                self.db.execute("PRAGMA journal_mode=DELETE").fetchall()
                return
            except sqlite3.OperationalError:
                if time.monotonic() >= deadline:
                    return  # still read elsewhere: the next writer's close settles it
                time.sleep(0.05)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def config(self) -> dict[str, Any]:
        """Every parameter of the torneo (values as given at creation), plus ``created``."""
        out = {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM config")}
        out["created"] = self.db.execute("SELECT value FROM meta WHERE key = 'created'").fetchone()[0]
        return out

    def deal_key(self) -> str | None:
        """The torneo's secret deal key; None when its deals come from an explicit ``--seed``.

        Show it only once the torneo is complete (see :mod:`arena.results.report`).
        """
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (DEAL_KEY,)).fetchone()
        return row[0] if row else None

    def entrants(self) -> list[Entrant]:
        rows = self.db.execute(
            "SELECT idx, name, folder, kind, display_name, authors, fingerprint FROM entrants ORDER BY idx"
        )
        return [Entrant(i, n, f, k, d, tuple(json.loads(a)), fp) for i, n, f, k, d, a, fp in rows]

    def scheduled(self) -> list[ScheduledPartido]:
        rows = self.db.execute("SELECT pos, id, seed, seats, deal, round FROM schedule ORDER BY pos")
        return [
            ScheduledPartido(p, i, _seed_in(seed), tuple(json.loads(seats)), d, r)
            for p, i, seed, seats, d, r in rows
        ]

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """Read as one transaction: every read inside sees the same committed partidos, even while a
        coordinator commits more (it runs in WAL mode, where a reader never holds it up)."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.rollback()  # nothing was written: ends the read

    def results(self, figures: bool = True) -> list[PartidoRecord]:
        """Committed partidos in schedule order, each with its faults.

        Without ``figures``, each record's ``stats`` and ``reply_ms`` are empty (much faster: for
        the standings of a big torneo, which sum them with :meth:`seat_totals` and :meth:`reply_times`).
        """
        faults: dict[str, list[FaultRecord]] = {}
        for row in self.db.execute(
            "SELECT partido, mano, seat, entrant, reason, detail, penalized, incident FROM faults "
            "ORDER BY rowid"
        ):
            fault = FaultRecord(row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7])
            faults.setdefault(row[0], []).append(fault)
        old = ", move_ms, stats" if figures and self.version < 3 else ""  # not shown: SQL columns
        rows = self.db.execute(f"SELECT {_PARTIDO_COLUMNS}{old} FROM partidos ORDER BY pos").fetchall()
        if not rows:
            return []
        columns = list(zip(*rows, strict=True))
        pid, pos, seed, seats, players, winners, ranking, manos, porotos, *rest = columns[:15]
        seeds = _loads_all(seed) if all(isinstance(x, str) for x in seed) else [_seed_in(x) for x in seed]
        by_seat: dict[str, tuple[tuple[dict[str, Any], ...], tuple[tuple[float, ...], ...]]] = {}
        if figures and self.version < 3:
            by_seat = {
                p: (tuple(_renamed(x) for x in json.loads(st)), tuple(tuple(m) for m in json.loads(ms)))
                for p, ms, st in zip(pid, columns[15], columns[16], strict=True)
            }
        elif figures:
            by_seat = self._seat_figures()
        none: tuple[tuple[dict[str, Any], ...], tuple[tuple[float, ...], ...]] = ((), ())
        records = []
        for i, p, sd, st, pl, w, r, m, po, *more in zip(
            pid,
            pos,
            seeds,
            _loads_all(seats),
            _loads_all(players),
            _shared(winners, tuple),
            _shared(ranking, _groups),
            manos,
            _loads_all(porotos),
            *rest,
            strict=True,
        ):
            stats, times = by_seat.get(i, none)
            fs = tuple(faults.get(i, ()))
            records.append(
                PartidoRecord(i, p, sd, tuple(st), tuple(pl), w, r, m, tuple(po), fs, times, stats, *more)
            )
        return records

    def _seat_figures(self) -> dict[str, tuple[tuple[dict[str, Any], ...], tuple[tuple[float, ...], ...]]]:
        """Schema 3: by partido, each seat's figures as :func:`arena.referee.stats.partido_stats`
        gives them (without ``reply_ms``) and each seat's reply times."""
        seats: dict[str, dict[int, tuple[dict[str, Any], tuple[float, ...]]]] = {}
        columns = _SEAT_COLUMNS if self.version >= 4 else _SEAT_COLUMNS_V3
        cur = self.db.execute(f"SELECT partido, seat, {', '.join(columns)} FROM seats")
        for pid, seat, won, place, *counts, faults, wall, cpu in cur:
            house = dict(zip(FIELDS, counts, strict=False))
            if self.version >= 4:
                game = json.loads(counts[-1])
            else:
                game = dict(zip(TUTE_COUNTS_V3, counts[2:], strict=True))
            stats = {
                **house,
                **game,
                "faults": json.loads(faults),
                "reply_cpu_ms": list(unpack_times(cpu)),
                "won": bool(won),
                "place": place,
            }
            seats.setdefault(pid, {})[seat] = (stats, unpack_times(wall))
        return {
            pid: (tuple(by[s][0] for s in sorted(by)), tuple(by[s][1] for s in sorted(by)))
            for pid, by in seats.items()
        }

    def seat_totals(self) -> dict[int, dict[str, float]] | None:
        """Each entrant's seats summed by SQLite (schema 3): ``seats`` (partidos played), ``won``,
        ``place`` (the sum of its places) and each count of :data:`arena.referee.stats.FIELDS`;
        None for an older store (the figures are in each partido's JSON: see :meth:`results`)."""
        if self.version < 3:
            return None
        keys = ("won", "place", *FIELDS, *(() if self.version >= 4 else TUTE_COUNTS_V3))
        sums = ", ".join(f"SUM({k})" for k in keys)
        cur = self.db.execute(f"SELECT entrant, COUNT(*), {sums} FROM seats GROUP BY entrant")
        out: dict[int, dict[str, float]] = {
            row[0]: dict(zip(("seats", *keys), row[1:], strict=True)) for row in cur
        }
        if self.version >= 4:  # the game's counts, summed by key inside SQLite
            cur = self.db.execute(
                "SELECT entrant, key, SUM(value) FROM seats, json_each(seats.counts) GROUP BY entrant, key"
            )
            for entrant, key, total in cur:
                out[entrant][key] = total
        return out

    def seat_losses(self, count: str) -> dict[str, list[tuple[int, int]]] | None:
        """By partido, each seat's game count ``count`` (what it gave up) and its manos, by seat
        (schema 3 and later; 0 where the count is not kept); None for an older store."""
        if self.version < 3:
            return None
        if self.version >= 4:
            column = "COALESCE(json_extract(counts, ?), 0)"  # not shown: SQL
            args: tuple[str, ...] = (f"$.{count}",)
        elif count in TUTE_COUNTS_V3:
            column, args = count, ()  # a column of schema 3, one of the four names above
        else:
            column, args = "0", ()
        out: dict[str, list[tuple[int, int]]] = {}
        query = f"SELECT partido, seat, {column}, manos FROM seats ORDER BY partido, seat"  # not shown: SQL
        cur = self.db.execute(query, args)
        for pid, _seat, lost, manos in cur:
            out.setdefault(pid, []).append((int(lost), int(manos)))
        return out

    def reply_times(self) -> dict[int, tuple[list[bytes], list[bytes]]] | None:
        """Each entrant's reply times (schema 3), one packed blob (:func:`pack_times`) per seat it
        played: (wall clock, its own CPU time); None for an older store."""
        if self.version < 3:
            return None
        out: dict[int, tuple[list[bytes], list[bytes]]] = {}
        for entrant, wall, cpu in self.db.execute("SELECT entrant, move_ms, move_cpu_ms FROM seats"):
            lists = out.get(entrant)
            if lists is None:
                lists = out[entrant] = ([], [])
            lists[0].append(wall)
            lists[1].append(cpu)
        return out

    def withdrawn(self) -> list[Withdrawal]:
        rows = self.db.execute("SELECT partido, pos, entrants, reason, committed FROM withdrawn ORDER BY pos")
        return [Withdrawal(p, pos, tuple(json.loads(e)), r, c) for p, pos, e, r, c in rows]

    def done_ids(self) -> set[str]:
        """Scheduled partidos that are settled: committed or withdrawn."""
        rows = self.db.execute("SELECT id FROM partidos UNION SELECT partido FROM withdrawn")
        return {r[0] for r in rows}

    def counts(self) -> tuple[int, int, int]:
        """(scheduled, committed, withdrawn)."""
        (s,) = self.db.execute("SELECT COUNT(*) FROM schedule").fetchone()
        (c,) = self.db.execute("SELECT COUNT(*) FROM partidos").fetchone()
        (w,) = self.db.execute("SELECT COUNT(*) FROM withdrawn").fetchone()
        return s, c, w

    def runs(self) -> list[dict[str, Any]]:
        """Each run of the torneo command on this folder: started, ended, workers, version, status."""
        cur = self.db.execute("SELECT run, started, ended, workers, arena_version, status FROM runs")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row, strict=True)) for row in cur]

    # ------------------------------------------------------------ writing

    @property
    def replays(self) -> Path:
        return self.dir / REPLAYS

    def temp_replay(self, partido: str, token: str) -> Path:
        """Where a worker writes the replay of ``partido`` before it is committed."""
        return self.replays / f"{TEMP_PREFIX}{partido}-{token}.jsonl"

    def clean_uncommitted(self) -> list[Path]:
        """Remove replays, incident files and logs of partidos not committed; returns them."""
        done = {r[0] for r in self.db.execute("SELECT id FROM partidos")}
        removed = []
        for path in sorted(self.replays.iterdir()):
            stem = path.name.split(".", 1)[0]
            if path.name.startswith(TEMP_PREFIX) or stem not in done:
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
                removed.append(path)
        return removed

    def commit(self, partido: ScheduledPartido, outcome: dict[str, Any]) -> None:
        """Make a finished partido count: check its replay, move its files, insert its rows.

        ``outcome`` is the worker's result (see :func:`arena.tournament.worker.play_task`).
        StoreError if the replay is missing, cut short, or disagrees with the result.
        """
        temp = Path(outcome["replay"])
        result = outcome["result"]
        end = _last_event(temp)
        if end is None or end.get("type") != "partido_end":
            raise StoreError(
                _("{replay}: the replay has no partido_end line; {partido} does not count").format(
                    replay=temp, partido=partido.id
                )
            )
        if "sides" in result:  # a game of teams: the replay is by seat, the result by side
            end = end_by_side(end, result["sides"])
        if end.get("winners") != result["winners"] or end.get("ranking") != result["ranking"]:
            raise StoreError(
                _("{replay}: the replay's partido_end disagrees with the result of {partido}").format(
                    replay=temp, partido=partido.id
                )
            )
        self._brief_repeats(partido, result, outcome)
        final, incidents, logs = self._move_in(partido, outcome, temp)
        insert, row, figures = self._rows(partido, result, outcome, (self._rel(final), logs))
        with self.db:
            self.db.execute(insert, row)
            if figures:
                self.db.executemany(INSERT_SEAT if self.version >= 4 else INSERT_SEAT_V3, figures)
            self._insert_faults(partido, result, incidents)
            self._insert_accusations(partido, result)

    def _rows(
        self,
        partido: ScheduledPartido,
        result: dict[str, Any],
        outcome: dict[str, Any],
        files: tuple[str, str | None],
    ) -> tuple[str, tuple[Any, ...], list[tuple[Any, ...]]]:
        """A partido's ``partidos`` row (with its INSERT) and ``seats`` rows, in this store's version;
        ``files``: its replay and logs, relative to DIR."""
        if self.version >= 3 and not result.get("stats"):  # not from a worker of this version
            result = {**result, "stats": _replay_stats(self.dir / files[0])}
        row, figures = partido_rows(
            partido,
            result,
            *files,
            outcome.get("worker"),
            outcome["started"],
            outcome["finished"],
            now(),
            version=self.version,
        )
        if self.version >= 3:
            return INSERT_PARTIDO, row, figures
        # a torneo begun under schema 1 or 2: the figures and reply times are JSON in the partido's row
        return _INSERT_V2, (*row[:9], _j(result["reply_ms"]), _j(result["stats"]), *row[9:]), []

    def _brief_repeats(
        self, partido: ScheduledPartido, result: dict[str, Any], outcome: dict[str, Any]
    ) -> None:
        """A fault an entrant already made in an earlier partido (the same fault:
        :func:`arena.referee.diagnose.fault_key`) is reported in full once: this partido's incident
        file keeps its first line (the fault and its detail) and names the partido and the file of
        the full report, instead of repeating it."""
        from arena.referee.diagnose import fault_key

        for seat, path in outcome["incidents"].items():
            mine = [f for f in result["faults"] if f["seat"] == int(seat)]
            if len(mine) != 1:  # several faults in one file (penalties): kept whole
                continue
            key = fault_key(mine[0]["reason"], shown(mine[0]["detail"]))
            earlier = self.db.execute(
                "SELECT partido, detail, incident FROM faults WHERE entrant = ? AND reason = ? "  # not shown
                "AND incident IS NOT NULL ORDER BY rowid",  # not shown
                (partido.seats[int(seat)], mine[0]["reason"]),
            )
            first = next((r for r in earlier if fault_key(mine[0]["reason"], shown(r[1])) == key), None)
            if first is None:
                continue
            with contextlib.suppress(OSError):
                head = Path(path).read_text(encoding="utf-8").split("\n", 1)[0]
                note = _("The same fault as in partido {partido}: its full report is {file}").format(
                    partido=first[0], file=first[2]
                )
                Path(path).write_text(f"{head}\n\n{printable(note)}\n", encoding="utf-8")  # names: inert

    def _move_in(
        self, partido: ScheduledPartido, outcome: dict[str, Any], temp: Path
    ) -> tuple[Path, dict[int, str], str | None]:
        """Move a partido's incident files, logs and replay to their final names, durably (before its
        rows: until they commit, files there count for nothing and a resume removes them); returns
        the replay, and the incident files by seat and the logs folder relative to DIR."""
        final = self.replays / f"{partido.id}.jsonl"
        incidents: dict[int, str] = {}
        for seat, path in sorted(outcome["incidents"].items()):
            path = Path(path)
            target = self.replays / (partido.id + path.name[len(temp.stem) :])
            os.replace(path, target)
            incidents[int(seat)] = self._rel(target)
        logs = None
        if outcome.get("logs") and Path(outcome["logs"]).is_dir():
            target = Path(f"{final}.logs")
            os.replace(outcome["logs"], target)
            logs = self._rel(target)
        os.replace(temp, final)
        self._fsync_all([final, self.replays, *(self.dir / i for i in incidents.values())])
        return final, incidents, logs

    def _fsync_all(self, paths: Sequence[Path]) -> None:
        """fsync ``paths`` (files moved into a folder, and the folder) all at once, from threads: the
        filesystem makes them durable in one journal commit, where one after another takes one each
        (three times faster on a busy disk)."""
        if self._fsyncs is None:
            self._fsyncs = cf.ThreadPoolExecutor(max_workers=2, thread_name_prefix="arena-fsync")
        started = [self._fsyncs.submit(fsync, p) for p in paths[1:]]
        fsync(paths[0])
        for done in started:
            done.result()

    def _insert_accusations(self, partido: ScheduledPartido, result: dict[str, Any]) -> None:
        rows = [
            (partido.id, seat, partido.seats[seat], *(stats.get(f, 0) for f in ACCUSE_FIELDS))
            for seat, stats in enumerate(result.get("stats") or [])
            if any(stats.get(f, 0) for f in ACCUSE_FIELDS)
        ]
        if rows:
            self.db.execute(_ACCUSATIONS)
            self.db.executemany(f"INSERT INTO accusations VALUES ({', '.join('?' * 7)})", rows)

    def accusation_totals(self) -> dict[int, dict[str, int]]:
        """Each entrant's sums of :data:`arena.referee.stats.ACCUSE_FIELDS` (the ``accuse`` policy)."""
        sums = ", ".join(f"SUM({f})" for f in ACCUSE_FIELDS)
        try:
            rows = self.db.execute(f"SELECT entrant, {sums} FROM accusations GROUP BY entrant").fetchall()
        except sqlite3.OperationalError:  # no renuncio nor accusation ever: no table
            return {}
        return {row[0]: dict(zip(ACCUSE_FIELDS, row[1:], strict=True)) for row in rows}

    def _insert_faults(
        self, partido: ScheduledPartido, result: dict[str, Any], incidents: dict[int, str]
    ) -> None:
        self.db.executemany(
            "INSERT INTO faults VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    partido.id,
                    f["mano"],
                    f["seat"],
                    partido.seats[f["seat"]],
                    f["reason"],
                    stored(f["detail"]),
                    int(f["penalized"]),
                    incidents.get(f["seat"]),
                )
                for f in result["faults"]
            ],
        )

    def extend(self, partidos: Sequence[ScheduledPartido]) -> None:
        """Append ``partidos`` to the schedule (``--until-separated``), all or none."""
        with self.db:
            self.db.executemany(
                "INSERT INTO schedule VALUES (?, ?, ?, ?, ?, ?)",
                [(p.pos, p.id, _j(p.seed), p.deal, p.round, _j(p.seats)) for p in partidos],
            )

    def commit_withdrawal(self, partido: ScheduledPartido, entrants: Sequence[int], reason: str) -> None:
        """Record that ``partido`` is not played because ``entrants`` were withdrawn."""
        with self.db:
            self.db.execute(
                "INSERT INTO withdrawn VALUES (?, ?, ?, ?, ?)",
                (partido.id, partido.pos, _j(sorted(entrants)), reason, now()),
            )

    def record_failure(self, partido: ScheduledPartido, reason: str) -> None:
        """Note that the referee failed on ``partido`` (one line ``reason``); it stays unsettled.

        The ``failures`` table is made on first use, so older stores need no migration.
        """
        with self.db:
            self.db.execute(_FAILURES)
            self.db.execute(
                "INSERT INTO failures (partido, pos, reason, at) VALUES (?, ?, ?, ?)",
                (partido.id, partido.pos, stored(reason), now()),
            )

    def failures(self) -> list[tuple[str, str, str]]:
        """Every failure recorded, oldest first: (partido, reason, time); a retried partido stays listed."""
        try:
            return self.db.execute("SELECT partido, reason, at FROM failures ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:  # no failure ever: no table
            return []

    def record_exclusions(self, rows: Sequence[tuple[str, str, str]]) -> None:
        """Note folders left out of the torneo: (folder, kind, reason); kind ``no arranca`` (a
        submission that cannot start) or ``no es jugador`` (a folder without a player)."""
        with self.db:
            self.db.execute(_EXCLUDED)
            self.db.executemany(
                "INSERT INTO excluded (folder, kind, reason) VALUES (?, ?, ?)",
                [(folder, kind, stored(reason)) for folder, kind, reason in rows],
            )

    def exclusions(self) -> list[tuple[str, str, str]]:
        """The folders left out, as recorded: (folder, kind, reason)."""
        try:
            return self.db.execute("SELECT folder, kind, reason FROM excluded ORDER BY rowid").fetchall()
        except sqlite3.OperationalError:  # nothing was ever left out: no table
            return []

    def begin_run(self, workers: int) -> int:
        from arena import __version__

        with self.db:
            cur = self.db.execute(
                "INSERT INTO runs (started, workers, arena_version, status) VALUES (?, ?, ?, 'running')",
                (now(), workers, __version__),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def end_run(self, run: int, status: str) -> None:
        with self.db:
            self.db.execute("UPDATE runs SET ended = ?, status = ? WHERE run = ?", (now(), status, run))

    def _rel(self, path: Path) -> str:
        return str(path.relative_to(self.dir))


def _replay_stats(replay: Path) -> list[dict[str, Any]]:
    """Each seat's figures, counted from a committed partido's replay."""
    from arena.referee.replay import read_replay
    from arena.referee.stats import partido_stats

    return partido_stats(read_replay(replay))


def _last_event(path: Path) -> dict[str, Any] | None:
    """The last JSON line of a file (None when missing, empty or not JSON)."""
    try:
        with path.open("rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            f.seek(max(0, size - 65536))
            lines = f.read().splitlines()
    except OSError:
        return None
    with contextlib.suppress(ValueError, IndexError):
        event = json.loads(lines[-1])
        return event if isinstance(event, dict) else None
    return None
