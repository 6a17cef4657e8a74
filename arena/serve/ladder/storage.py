"""The ladder's stored files: compressed once a partido is done, read back as they were, pruned.

A done partido's replay ``DIR/ladder/<ladder>/<partido>.jsonl`` becomes ``<partido>.jsonl.gz`` (the
path the row's ``replay`` then names) and each non-empty standard error log of
``<partido>.jsonl.logs/`` becomes ``<name>.stderr.log.gz`` (:func:`compress_partido`). The pages read
them through :func:`read_bytes` and :func:`stored`, so they serve the same text as before; a
replay or log left uncompressed (a partido done before this, or a crash between the two steps) is
read as it is. Replays are JSON lines of the same few events: they shrink about tenfold.

:func:`prune` keeps, for every version, the files of its last ``ARENA_SERVE_KEEP_PARTIDOS``
partidos (default 1000, 0: keep all) and deletes the others' (replay, logs, incidents), clearing
their rows' ``replay``: the results stay, in the database, for the standings. A partido is kept
while it is among the last ones of any of its versions. The finals (``DIR/finals/``) are never
touched: they are their own ``arena tournament`` folders. The worker process prunes every
``PRUNE_EVERY_S`` seconds (:func:`arena.serve.ladder.tasks.prune_files`).
"""

from __future__ import annotations

import contextlib
import gzip
import os
import shutil
from pathlib import Path

GZ = ".gz"
KEEP_PARTIDOS = 1000
"""The default of ``ARENA_SERVE_KEEP_PARTIDOS``: each version's last partidos whose files are kept."""
PRUNE_EVERY_S = 600.0
"""How often the worker process prunes."""


def keep_partidos() -> int:
    """Each version's last partidos whose files are kept (``ARENA_SERVE_KEEP_PARTIDOS``; 0: all)."""
    try:
        return max(0, int(os.environ.get("ARENA_SERVE_KEEP_PARTIDOS", str(KEEP_PARTIDOS))))
    except ValueError:
        return KEEP_PARTIDOS


def plain(path: Path) -> Path:
    """``path`` without its ``.gz``: the name the referee wrote it under."""
    return path.with_name(path.name.removesuffix(GZ))


def compress(path: Path) -> Path:
    """``path`` gzip-compressed into ``path.gz`` (written beside it, then renamed in place), the
    original removed; the new path. An empty or missing file is left as it is (its path returned)."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size == 0:
            return path
    except OSError:
        return path
    target = path.with_name(path.name + GZ)
    temp = path.with_name(f".{path.name}{GZ}.part")
    with path.open("rb") as source, open(temp, "wb") as raw:
        with gzip.GzipFile(filename=path.name, mode="wb", fileobj=raw, compresslevel=6, mtime=0) as out:
            shutil.copyfileobj(source, out, 1 << 20)
        raw.flush()
        os.fsync(raw.fileno())
    os.replace(temp, target)
    path.unlink()
    return target


def compress_partido(replay: Path) -> Path:
    """A done partido's replay (``….jsonl``) and its logs compressed; the replay's new path (the
    plain one when there is no replay, as for a version that could not start)."""
    logs = Path(f"{replay}.logs")
    if logs.is_dir() and not logs.is_symlink():
        for log in sorted(logs.iterdir()):
            if not log.name.endswith(GZ) and not log.name.startswith("."):
                compress(log)
    return compress(replay)


def remove_partido(replay: Path) -> None:
    """Every file of a partido whose replay is (or was to be) ``replay``, compressed or not: the
    replay, its logs, its incidents."""
    base = plain(replay)
    for path in (base, base.with_name(base.name + GZ), base.with_name(f".{base.name}{GZ}.part")):
        path.unlink(missing_ok=True)  # the last: a compression cut short
    shutil.rmtree(f"{base}.logs", ignore_errors=True)
    with contextlib.suppress(OSError):
        for incident in base.parent.glob(f"{base.stem}.incident-*"):
            incident.unlink(missing_ok=True)


def stored(path: Path) -> Path | None:
    """The file ``path`` names as it is stored: itself, else compressed (``path.gz``); None if neither."""
    for found in (path, path.with_name(path.name + GZ)):
        if found.is_file():
            return found
    return None


def read_bytes(path: Path) -> bytes:
    """A stored file's content as it was written (decompressed when its name ends in ``.gz``)."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.name.endswith(GZ) else data


def first_line(path: Path) -> bytes:
    """A stored file's first line (without reading the rest of a compressed one)."""
    with gzip.open(path, "rb") if path.name.endswith(GZ) else path.open("rb") as f:
        return f.readline()


def to_prune(partidos: list[tuple[int, list[int]]], keep: int) -> set[int]:
    """Of ``partidos`` ((id, versions) of the done partidos that still have files), those no version
    keeps: each version keeps its ``keep`` latest (highest ids). None when ``keep`` is 0."""
    if keep <= 0:
        return set()
    seen: dict[int, int] = {}
    kept: set[int] = set()
    for pk, versions in sorted(partidos, key=lambda p: -p[0]):
        for v in versions:
            seen[v] = seen.get(v, 0) + 1
            if seen[v] <= keep:
                kept.add(pk)
    return {pk for pk, _v in partidos} - kept


def prune(keep: int | None = None) -> int:
    """Delete the files of the done ladder partidos no version keeps (:func:`to_prune`), clearing
    their rows' ``replay``; how many. Only files under ``DIR/ladder/`` are ever removed."""
    from django.conf import settings

    from arena.serve.ladder.models import LadderPartido, Seat, seat_tables

    keep = keep_partidos() if keep is None else keep
    if keep <= 0:
        return 0
    root = (Path(settings.DIR) / "ladder").resolve()
    done = LadderPartido.objects.filter(status=LadderPartido.DONE).exclude(replay="")
    rows = list(done.values_list("id", "replay"))
    tables = seat_tables(Seat.objects.filter(partido__in=done))
    gone = to_prune([(pk, tables.get(pk, [])) for pk, _r in rows], keep)
    pruned = 0
    for pk, replay in rows:
        if pk not in gone:
            continue
        path = Path(replay)
        if not path.resolve().is_relative_to(root):
            continue  # not a ladder file: never ours to delete
        row = LadderPartido.objects.filter(pk=pk, status=LadderPartido.DONE, replay=replay)
        if row.update(replay=""):
            remove_partido(path)
            pruned += 1
    return pruned
