"""Player folders as content-addressed bundles, for workers on other machines.

A bundle is a deterministic tar of a player folder — entries sorted, mtime 0,
owner 0, mode 0644 (0755 for executables and folders) — and its name is the
sha256 of its bytes. A worker checks that name against the bytes it received
before unpacking them, once, into a cache folder named by it (a temporary
folder renamed into place, so a half-unpacked bundle is never used).

What goes in: every file and folder but ``__pycache__``; a symbolic link to a
file inside the folder as that file; no other link (bubblewrap would not show a
link out of the folder either).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import shutil
import stat
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path, PurePosixPath

from arena.errors import ArenaError
from arena.i18n import _
from arena.referee.players import PlayerSpec

CACHE_VAR = "ARENA_BUNDLE_CACHE"
SKIP = frozenset({"__pycache__"})


class BundleError(ArenaError):
    """A bundle that does not match its name or holds something unsafe (one line)."""


@dataclass(frozen=True)
class UnpackedSpec(PlayerSpec):
    """An entrant played from its unpacked bundle: ``folder`` is the cache, ``source`` its own folder.

    The replay names ``source``, so it reads the same as the coordinator's.
    """

    origin: str = ""

    @property
    def source(self) -> str:
        return self.origin or str(self.folder)


def _entries(root: Path) -> Iterator[tuple[str, Path | None]]:
    """(relative POSIX path, file to read or None for a folder), sorted, links resolved inside ``root``."""
    found: list[tuple[str, Path | None]] = []
    for top, dirs, files in os.walk(root):
        here = Path(top)
        dirs[:] = [d for d in dirs if d not in SKIP and not (here / d).is_symlink()]
        for d in dirs:
            found.append(((here / d).relative_to(root).as_posix(), None))
        for f in files:
            path = here / f
            real = Path(os.path.realpath(path))
            if not real.is_relative_to(root) or not real.is_file():
                continue  # a link out of the folder, a broken link, a socket...
            found.append((path.relative_to(root).as_posix(), real))
    yield from sorted(found)


def pack(folder: str | Path) -> tuple[str, bytes]:
    """The bundle of ``folder``: (sha256 hex digest, tar bytes). Same files, same bundle."""
    root = Path(folder).resolve()
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, path in _entries(root):
            info = tarfile.TarInfo(name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if path is None:
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
                continue
            data = path.read_bytes()
            info.size = len(data)
            info.mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
            tar.addfile(info, io.BytesIO(data))
    data = buf.getvalue()
    return hashlib.sha256(data).hexdigest(), data


def cache_dir() -> Path:
    """Where bundles are unpacked: ``$ARENA_BUNDLE_CACHE``, else ``<tmp>/tute-arena-bundles-<uid>``.

    Made readable by others (a player may run as an unprivileged uid) and refused
    when it belongs to someone else or others may write in it.
    """
    default = Path(tempfile.gettempdir()) / f"tute-arena-bundles-{os.getuid()}"  # not shown
    root = Path(os.environ.get(CACHE_VAR) or default)
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    st = root.stat()
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise BundleError(
            _("{folder}: not this user's, or others may write in it; set {variable}").format(
                folder=root, variable=CACHE_VAR
            )
        )
    return root


def _check_member(member: tarfile.TarInfo) -> None:
    path = PurePosixPath(member.name)
    if not (member.isfile() or member.isdir()) or path.is_absolute() or ".." in path.parts:
        raise BundleError(
            _("bundle entry {name}: only plain files and folders inside it").format(name=repr(member.name))
        )


def unpack(digest: str, data: bytes, cache: Path | None = None) -> Path:
    """The folder of bundle ``digest``, unpacked from ``data`` unless it already is.

    BundleError when ``data`` is not the bundle named ``digest`` (damaged or forged).
    """
    if hashlib.sha256(data).hexdigest() != digest:
        raise BundleError(
            _("bundle {digest}: its bytes do not match its name; not used").format(digest=digest[:12])
        )
    root = cache or cache_dir()
    target = root / digest
    if target.is_dir():
        return target
    temp = Path(tempfile.mkdtemp(prefix=f".tmp-{digest[:12]}-", dir=root))
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            members = tar.getmembers()
            for member in members:
                _check_member(member)
            if hasattr(tarfile, "data_filter"):  # Python 3.12+ and patched 3.11: refuse links out, devices
                tar.extractall(temp, members, filter="data")
            else:
                tar.extractall(temp, members)
        for path in temp.rglob("*"):
            if path.is_file():  # read-only: a player run without containment cannot change the cache
                path.chmod(stat.S_IMODE(path.stat().st_mode) & 0o555 | 0o444)
        temp.chmod(0o755)
        try:
            os.rename(temp, target)
        except OSError:
            if not target.is_dir():  # else another task unpacked the same bundle first
                raise
    finally:
        with contextlib.suppress(FileNotFoundError):
            shutil.rmtree(temp)
    return target


def localize(spec: PlayerSpec, folder: Path) -> UnpackedSpec:
    """``spec`` played from ``folder`` (its unpacked bundle), keeping its name and its source."""
    values = {f.name: getattr(spec, f.name) for f in fields(PlayerSpec)}
    return UnpackedSpec(**{**values, "folder": folder, "origin": spec.source})
