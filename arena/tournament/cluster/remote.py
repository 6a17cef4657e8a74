"""Partidos on a machine that does not share the torneo folder: the worker's side and the return trip.

A remote worker (:mod:`arena.tournament.cluster.backend`) gets each entrant as a bundle
(:mod:`arena.tournament.cluster.bundles`), checks that it runs the coordinator's containment, and
plays with the same :func:`arena.tournament.worker.play` as a local worker, into a folder of
its own. It returns the result with the bytes of the replay, the incident files
and the stderr logs (capped), and its log records. On the coordinator,
:func:`accept` checks that the worker runs the same referee and
:func:`materialize` writes the files to their temporary names in ``DIR/replays``,
from where :meth:`arena.tournament.store.Store.commit` takes them as from a local worker.

Nothing here imports Dask.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from arena import games, i18n
from arena.i18n import _
from arena.protocol import DEFAULT_GAME
from arena.referee.connection import Limits
from arena.referee.players import PlayerSpec, unique_names
from arena.tournament.backend import BackendError
from arena.tournament.cluster.bundles import BundleError, localize, unpack
from arena.tournament.sides import seat_specs
from arena.tournament.worker import PartidoTask

LOG_CAP = 2 << 20
"""Bytes of each stderr log sent back (the referee already caps them at 1 MiB)."""


@functools.cache
def identity() -> tuple[str, str]:
    """(tute-arena version, sha256 of the ``arena`` package's files): the referee this process runs."""
    from arena import __version__
    from arena.tournament.entrants import fingerprint

    return __version__, fingerprint(Path(__file__).resolve().parents[2])  # the whole arena package


def worker_name() -> str:
    return f"{os.uname().nodename}:{os.getpid()}"


def containment_problem(mechanism: str | None) -> str | None:
    """Why this machine cannot contain players as the torneo requires, or None."""
    from arena.containment.sandbox import bwrap_works

    if mechanism == "bwrap" and not bwrap_works():
        return _(
            "worker {worker}: the torneo runs its players under bwrap, which does not work there "
            "(install bubblewrap; see `arena doctor`)"
        ).format(worker=worker_name())
    return None


def _unbundle(
    specs: Sequence[PlayerSpec], digests: Sequence[str], bundles: Mapping[str, bytes]
) -> tuple[list[PlayerSpec], list[dict[bytes, bytes]]]:
    """The specs played from their unpacked bundles, and by seat: its cache path -> its own folder."""
    out: list[PlayerSpec] = []
    paths: list[dict[bytes, bytes]] = []
    for spec, digest in zip(specs, digests, strict=True):
        local = localize(spec, unpack(digest, bundles[digest]))
        paths.append({os.fsencode(local.folder): os.fsencode(spec.source)})
        out.append(local)
    return out, paths


def _unmap(data: bytes, *paths: Mapping[bytes, bytes]) -> bytes:
    """``data`` naming entrants' own folders instead of their cache folders (as a local run would)."""
    for cache, own in {k: v for m in reversed(paths) for k, v in m.items()}.items():
        data = data.replace(cache, own)
    return data


def _text(text: str | None, *paths: Mapping[bytes, bytes]) -> str | None:
    return None if text is None else os.fsdecode(_unmap(os.fsencode(text), *paths))


class _Records(logging.Handler):
    """Keeps the records of one thread (a Dask worker plays several partidos at once)."""

    def __init__(self) -> None:
        super().__init__()
        self.thread = threading.get_ident()
        self.records: list[dict[str, Any]] = []
        self.process_name = f"dask@{os.uname().nodename}"

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            d = dict(record.__dict__, msg=record.getMessage(), args=None, exc_info=None, exc_text=None)
            d["processName"] = self.process_name
            self.records.append(d)


@contextlib.contextmanager
def _captured() -> Iterator[list[dict[str, Any]]]:
    logger = logging.getLogger("arena")
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    handler = _Records()
    logger.addHandler(handler)
    try:
        yield handler.records
    finally:
        logger.removeHandler(handler)


def _read(path: Path, cap: int | None = None) -> bytes:
    with path.open("rb") as f:
        return f.read(cap if cap is not None else -1)


def _speak(lang: str | None) -> None:
    """Speak the coordinator's language here (its messages and log records come back to it).

    The whole worker process speaks it (:func:`arena.i18n.use`): the partidos it plays at once
    are those of one coordinator, so no thread changes it under another's feet in practice.
    """
    if lang is not None and lang != i18n.language():
        i18n.use(lang)


def play_remote(
    task: PartidoTask, digests: Sequence[str], bundles: Mapping[str, bytes], lang: str | None = None
) -> dict[str, Any]:
    """Play ``task`` here, its players unpacked from ``bundles`` (digest -> bytes) by seat ``digests``;
    ``lang``: the coordinator's language (None: this process's).

    Returns :func:`arena.tournament.worker.play`'s dict plus ``files`` (``replay`` bytes,
    ``incidents``: seat -> (name after the replay's stem, bytes), ``logs``: name ->
    bytes or None), ``records`` (log records), ``arena`` (:func:`identity`) and
    ``problem`` (why this worker must not play, or None).
    """
    from arena.tournament import worker

    _speak(lang)
    base: dict[str, Any] = {"id": task.id, "arena": identity(), "records": [], "files": None}
    problem = containment_problem(task.mechanism)
    if problem:
        return {**base, "problem": problem}
    try:
        specs, paths = _unbundle(task.specs, digests, bundles)
    except BundleError as exc:
        return {**base, "problem": f"worker {worker_name()}: {exc}"}
    with tempfile.TemporaryDirectory(prefix="tute-arena-partido-") as tmp, _captured() as records:
        out = worker.play(replace(task, specs=tuple(specs), replays=tmp))
        out["error"] = _text(out["error"], *paths)
        files: dict[str, Any] | None = None
        if not out["error"]:
            replay, logs = Path(out["replay"]), Path(out["logs"])
            sides = games.spec(task.game).teams  # a game of teams: a side plays as ana and ana#2
            seat_paths = seat_specs(paths, sides) if sides else paths
            named = unique_names(seat_specs(specs, sides)) if sides else specs
            by_log = {f"{s.name}.stderr.log": p for s, p in zip(named, seat_paths, strict=True)}  # not shown
            files = {
                "replay": _read(replay) if replay.is_file() else None,
                "incidents": {
                    seat: (Path(p).name[len(replay.stem) :], _unmap(_read(Path(p)), paths[seat]))
                    for seat, p in out["incidents"].items()
                },
                "logs": {
                    f.name: _unmap(_read(f, LOG_CAP), by_log.get(f.name, {})) for f in sorted(logs.iterdir())
                }
                if logs.is_dir()
                else None,
            }
            for fault in out["result"]["faults"]:
                fault["detail"] = _text(fault["detail"], paths[fault["seat"]])
    return {**out, **base, "records": records, "files": files, "problem": None}


def check_remote(
    spec: PlayerSpec,
    digest: str,
    bundle: bytes,
    limits: Limits,
    mechanism: str | None = None,
    game: str = DEFAULT_GAME,
    lang: str | None = None,
) -> dict[str, Any]:
    """:func:`arena.tournament.worker.check_entrant` here, from the entrant's bundle
    (``lang``: the coordinator's language, None: this process's).

    Returns ``error`` (the check's), ``problem`` (this worker's), ``arena`` and ``worker``.
    """
    from arena.tournament.worker import check_entrant

    _speak(lang)
    out: dict[str, Any] = {
        "error": None,
        "arena": identity(),
        "problem": containment_problem(mechanism),
        "worker": worker_name(),
    }
    if out["problem"]:
        return out
    try:
        (local,), paths = _unbundle([spec], [digest], {digest: bundle})
    except BundleError as exc:
        return {**out, "problem": f"worker {worker_name()}: {exc}"}
    out["error"] = _text(check_entrant(local, limits, mechanism, game), *paths)
    return out


# ---------------------------------------------------------------- on the coordinator


def accept(outcome: dict[str, Any]) -> dict[str, Any]:
    """A remote outcome whose worker may play: BackendError otherwise. Replays its log records here."""
    if outcome.get("problem"):
        raise BackendError(outcome["problem"])
    if tuple(outcome["arena"]) != identity():
        (theirs, their_files), (ours, our_files) = outcome["arena"], identity()
        raise BackendError(
            _(
                "{worker} runs tute-arena {theirs} (files {their_files}), this coordinator {ours} "
                "(files {our_files}): install the same tute-arena on every worker"
            ).format(
                worker=outcome.get("worker") or _("a worker"),
                theirs=theirs,
                their_files=their_files[:12],
                ours=ours,
                our_files=our_files[:12],
            )
        )
    for record in outcome.get("records", []):
        logging.getLogger(record["name"]).handle(logging.makeLogRecord(record))
    return outcome


def _safe(name: str) -> str:
    if not name or "/" in name or "\0" in name or name in (".", ".."):
        raise BackendError(_("a worker sent a file named {name}; not written").format(name=repr(name)))
    return name


def _write_private(path: Path, data: bytes) -> None:
    """Write a new file readable by the referee's user alone (0600): replays, incidents, logs."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def materialize(outcome: dict[str, Any], replays: Path) -> dict[str, Any]:
    """Write a remote partido's files to temporary names in ``replays``: what ``worker.play`` returns."""
    from arena.tournament.worker import temp_replay

    out = {k: v for k, v in accept(outcome).items() if k not in ("files", "records", "arena", "problem")}
    files = outcome["files"]
    if out.get("error") or files is None:
        return out
    temp = temp_replay(replays, out["id"])
    if files["replay"] is not None:
        _write_private(temp, files["replay"])
    incidents = {}
    for seat, (suffix, data) in files["incidents"].items():
        path = replays / _safe(temp.stem + suffix)
        _write_private(path, data)
        incidents[seat] = str(path)
    logs = Path(f"{temp}.logs")
    if files["logs"] is not None:
        logs.mkdir(mode=0o700)
        for name, data in files["logs"].items():
            _write_private(logs / _safe(name), data)
    out.update(replay=str(temp), incidents=incidents, logs=str(logs))
    return out
