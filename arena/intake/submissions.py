"""Students' submissions from a learning platform, made player folders: ``arena submissions``.

Moodle's "Download all submissions" archive holds one folder per student,
``<Full Name>_<id>_assignsubmission_file_/``, with the files the student uploaded
— or a zip of them. :func:`import_archive` makes each submission a player folder
in DIR named after the student (:func:`slug`), with ``player.py`` or
``player.toml`` at its top, and says what it did with every student
(:class:`Outcome`); :func:`survey` says which folders of DIR are entrants.

Archives come from students, so nothing in one is trusted. Every entry's path is
checked before anything is written (no ``..``, absolute path, drive letter,
symbolic link or device); every file is written by this module, one chunk at a
time, against caps it counts itself (:class:`Caps`: entries, bytes, compression
ratio) rather than the sizes the archive declares; everything is unpacked into a
private folder inside DIR that replaces the student's folder only once complete.
A submission that breaks a rule rejects that student alone, with the reason.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import tomllib
import unicodedata
import warnings
import zipfile
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

from arena.errors import ArenaError
from arena.i18n import N_, _, n_
from arena.inert import printable
from arena.referee.players import PlayerLoadError, PlayerSpec, find_player, is_player_folder
from arena.tournament.entrants import fingerprint

MiB = 1 << 20
GiB = 1 << 30
CHUNK = 64 * 1024
"""Bytes decompressed at a time: the most any entry gets past a cap before it trips."""

MARKER = ".submission.json"
"""Written into every folder this module imports: whose submission it holds (a hidden file, so
not part of the player's fingerprint). A folder without it is never replaced."""
STAGE_PREFIX = ".submission-"
"""The private folders inside DIR where a submission is unpacked before it is swapped in."""

ENTRY_POINTS = ("player.toml", "player.py")
JUNK_DIRS = frozenset({"__MACOSX", "__pycache__"})
JUNK_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})
ARCHIVES = (".rar", ".7z", ".tar", ".tar.gz", ".tgz", ".tar.xz", ".gz")
"""Archives a submission may hold that are not unpacked (only zips are): named when no player is found."""

SLUG_LENGTH = 60

_FOLDER = re.compile(r"(?P<name>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>[a-z]+)_(?P<rest>.*)", re.DOTALL)
"""A Moodle submission folder (``rest`` empty), or a file of the flat layout (``rest``: its name)."""
_DRIVE = re.compile(r"[A-Za-z]:")


@dataclass(frozen=True)
class Caps:
    """What a submission may unpack to. The defaults fit a course's bots (source code, a few data
    files) many times over; a zip bomb entry stops after max(1 MiB, 100 × its compressed size) —
    1.6 MiB for 16 MiB of zeros in 16 KiB — and a student's whole submission at 64 MiB."""

    archive_entries: int = 20_000
    """Entries in the whole archive (a course of 500 with 40 files each), read before anything else."""
    files: int = 1_000
    """Files and folders in one student's submission, an inner zip's entries included."""
    bytes: int = 64 * MiB
    """Bytes one student's submission may unpack to, an inner zip and its contents included."""
    total_bytes: int = 2 * GiB
    """Bytes the whole import may write; past it, the students still to come are rejected."""
    ratio: int = 100
    """Most uncompressed bytes per compressed byte of an entry (source code: 3–10; deflate's
    ceiling, where zip bombs live: about 1000)..."""
    ratio_free: int = 1 * MiB
    """...checked once the entry has given this many bytes (a small file cannot do harm)."""


_TEXTS: dict[str, str] = {
    # The whole archive.
    "not_zip": N_("{path}: not a zip file ({detail})"),
    "no_folders": N_(
        "{path}: not a Moodle submissions download: no folder <Full Name>_<id>_assignsubmission_file_"
    ),
    "archive_entries": N_("{path}: {n} entries, more than the {cap} accepted"),
    "into": N_("{path}: not a folder"),
    "into_write": N_("{path}: cannot be created ({detail})"),
    # One student's submission.
    "escape": N_("{entry}: the path leaves the folder (..)"),
    "absolute": N_("{entry}: absolute path"),
    "drive": N_("{entry}: path with a drive letter"),
    "symlink": N_("{entry}: symbolic link (not accepted)"),
    "special": N_("{entry}: not a regular file"),
    "encrypted": N_("{entry}: encrypted with a password"),
    "files": N_("more than {cap} files"),
    "bytes": N_("unpacks to more than {cap}"),
    "total": N_("the whole archive unpacks to more than {cap}; no more submissions are imported"),
    "ratio": N_("{entry}: compressed more than {cap}:1 (a zip bomb?)"),
    "damaged": N_("{entry}: damaged zip ({detail})"),
    "unsupported": N_("{entry}: {detail}"),
    "write": N_("could not write: {detail}"),
    "repeated": N_("could not write: {entry}: repeated in the archive"),
    "inner_exists": N_("could not write: {entry}: {folder} already exists"),
    "marker_folder": N_("could not write: {marker} is a folder"),
    "empty": N_("empty submission"),
    "no_player": N_("no player.py or player.toml"),
    "no_player_archives": N_("no player.py or player.toml (only .zip files are opened: {names})"),
    "candidates": N_("more than one player in the submission: {paths}"),
    "taken": N_("{folder} already exists and is not a submission"),
    "not_file": N_("not a file submission ({plugin})"),
    "stray": N_("{entry}: outside every submission folder"),
}
"""Each reason's message by code (translated when shown: :meth:`SubmissionError.text`)."""


class SubmissionError(ArenaError):
    """Why an archive, or one student's submission in it, is not imported (``text()``: in the language
    in use)."""

    def __init__(self, code: str, **fields: object) -> None:
        self.code = code
        self.fields = {k: printable(v) if isinstance(v, str) else v for k, v in fields.items()}
        super().__init__(self.text())

    def text(self) -> str:
        return _(_TEXTS[self.code]).format(**self.fields)

    def __str__(self) -> str:
        return self.text()


class ArchiveError(SubmissionError):
    """The archive as a whole cannot be imported: nothing was written."""


class Rejected(SubmissionError):
    """One student's submission is not imported; the others go on."""


@dataclass
class Outcome:
    """What the import did with one student's submission (or with an entry outside every one)."""

    student: str
    id: str
    status: str  # "imported", "updated" or "rejected"
    folder: str | None = None
    """The player folder's name in DIR (for a rejection: the one kept from before, if any)."""
    slug: str | None = None
    """The name the student's folder would have had without a collision."""
    clash: str | None = None
    """Why it was named ``slug-id`` instead (renamed): ``namesake`` (another student of the archive
    has the same slug) or ``exists`` (a folder of DIR not theirs has that name)."""
    moved_up: str | None = None
    """The folder of the submission holding the player, moved up to the top (reorganised)."""
    dropped: int = 0
    """Files of a reorganised submission outside the player's folder, not imported."""
    unchanged: bool = False
    """Updated with a folder identical to the one replaced: the same files, contents and modes."""
    made_executable: str | None = None
    """The program of player.toml's ``command`` (``./bot``) the import made executable: Moodle's zips
    often keep no Unix modes."""
    invalid: str | None = None
    """Why the imported folder is not a valid player, as ``arena submissions list`` says (:func:`entry`)."""
    reason: Rejected | None = None

    @property
    def imported(self) -> bool:
        return self.status in ("imported", "updated")

    @property
    def renamed(self) -> bool:
        return self.imported and self.clash is not None

    def text(self) -> str:
        """The table's Result cell: ``imported``, ``updated (unchanged)``, ``rejected: …``."""
        if self.reason is not None:
            if self.folder:
                return _("rejected: {reason}; the earlier submission stays in {folder}").format(
                    reason=self.reason.text(), folder=self.folder
                )
            return _("rejected: {reason}").format(reason=self.reason.text())
        if self.status == "imported":
            parts = [_("imported (unchanged)") if self.unchanged else _("imported")]
        else:
            parts = [_("updated (unchanged)") if self.unchanged else _("updated")]
        if self.renamed and self.clash == "namesake":
            parts.append(_("renamed: another student is also {slug}").format(slug=self.slug))
        elif self.renamed:
            parts.append(_("renamed: {slug} exists and is not theirs").format(slug=self.slug))
        if self.moved_up is not None and self.dropped:
            parts.append(
                n_(
                    "reorganised: {folder}/ moved up to the top, {n} other file left out",
                    "reorganised: {folder}/ moved up to the top, {n} other files left out",
                    self.dropped,
                ).format(folder=self.moved_up, n=self.dropped)
            )
        elif self.moved_up is not None:
            parts.append(_("reorganised: {folder}/ moved up to the top").format(folder=self.moved_up))
        if self.made_executable is not None:
            parts.append(
                _("{program} made executable (player.toml's command)").format(
                    program=printable(self.made_executable)
                )
            )
        text = ", ".join(parts)
        if self.invalid:
            text = _("{result} — NOT VALID: {problem}").format(result=text, problem=self.invalid)
        return text


@dataclass
class _Submission:
    """One student's entries in the archive: (entry, path inside the submission, path shown)."""

    student: str
    id: str
    entries: list[tuple[zipfile.ZipInfo, list[str], str]] = field(default_factory=list)
    problem: Rejected | None = None
    plugins: set[str] = field(default_factory=set)


def slug(name: str) -> str:
    """A folder name for a student: lower case, spaces ``_``, accents and ñ kept, other signs dropped.

    >>> slug("Ana María Núñez")
    'ana_maría_núñez'
    >>> slug("José O'Brien-Pérez")
    'josé_obrien-pérez'
    """
    text = re.sub(r"\s+", "_", unicodedata.normalize("NFC", name).strip().lower())
    kept = "".join(c for c in text if c.isalpha() or c.isdecimal() or c in "_-")
    return kept.strip("_-")[:SLUG_LENGTH].strip("_-")


def import_archive(archive: str | Path, into: str | Path, caps: Caps | None = None) -> list[Outcome]:
    """Import every student's submission in a Moodle ``archive`` into player folders in ``into``.

    Returns one :class:`Outcome` per student (and per entry outside every
    submission folder), in table order. Raises :class:`ArchiveError` only when the
    archive as a whole is unusable, before anything is written.
    """
    caps = caps or Caps()
    archive, into = Path(archive), Path(into)
    if into.exists() and not into.is_dir():
        raise ArchiveError("into", path=str(into))
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise ArchiveError("not_zip", path=str(archive), detail=str(exc)) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > caps.archive_entries:
            raise ArchiveError("archive_entries", path=str(archive), n=len(infos), cap=caps.archive_entries)
        submissions, strays = _group(infos)
        if not submissions:
            raise ArchiveError("no_folders", path=str(archive))
        try:
            into.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ArchiveError("into_write", path=str(into), detail=exc.strerror or str(exc)) from None
        previous = _previous(into)
        names = _names(submissions, into, previous)
        total = _Spent(caps.total_bytes)
        outcomes = []
        for sub in sorted(submissions, key=lambda s: (slug(s.student), s.id)):
            outcomes.append(_import_one(zf, sub, into, names[sub.id], previous, archive.name, caps, total))
    return outcomes + strays


def _group(infos: Iterable[zipfile.ZipInfo]) -> tuple[list[_Submission], list[Outcome]]:
    """The archive's entries by student (Moodle's folder per student, or its flat file names)."""
    subs: dict[str, _Submission] = {}
    strays: dict[str, Outcome] = {}
    for info in infos:
        name = _name(info)
        parts, problem = _parts(name)
        if not parts or _junk(parts):
            continue
        m = _FOLDER.fullmatch(parts[0])
        if m is None:
            key = parts[0] if problem is None else name
            if key not in strays:
                reason = Rejected(problem or "stray", entry=key)
                strays[key] = Outcome(key, "", "rejected", reason=reason)
            continue
        sub = subs.setdefault(m["id"], _Submission(unicodedata.normalize("NFC", m["name"]), m["id"]))
        sub.plugins.add(m["plugin"])
        if m["plugin"] != "file":
            continue
        rel = ([m["rest"]] if m["rest"] else []) + parts[1:]
        if problem is not None and sub.problem is None:
            sub.problem = Rejected(problem, entry=name)
        if rel and not _junk(rel):
            sub.entries.append((info, rel, "/".join(rel)))
    return list(subs.values()), list(strays.values())


def _name(info: zipfile.ZipInfo) -> str:
    """The entry's name: UTF-8 when flagged, else UTF-8 if it decodes (many zippers do not flag it)."""
    if info.flag_bits & 0x800:
        return info.filename
    try:
        return info.filename.encode("cp437").decode("utf-8")
    except UnicodeError:
        return info.filename


def _parts(name: str) -> tuple[list[str], str | None]:
    """The components of an entry's path, and what makes it unsafe (None: nothing)."""
    text = name.replace("\\", "/")
    problem = "drive" if _DRIVE.match(text) else "absolute" if text.startswith("/") else None
    if _DRIVE.match(text):
        text = text[2:]
    parts = [p for p in text.split("/") if p not in ("", ".")]
    if problem is None and ".." in parts:
        problem = "escape"
    return parts, problem


def _previous(into: Path) -> dict[str, str]:
    """Folders of DIR imported before: student id → folder name (symbolic links never count)."""
    found: dict[str, str] = {}
    for sub in sorted(into.iterdir()):
        marker = sub / MARKER
        if sub.name.startswith(".") or sub.is_symlink() or not sub.is_dir() or marker.is_symlink():
            continue
        try:
            if marker.stat().st_size > 64 * 1024:
                continue
            data = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        ident = data.get("id") if isinstance(data, dict) else None
        if isinstance(ident, str):
            found.setdefault(ident, sub.name)
    return found


def _names(
    subs: Sequence[_Submission], into: Path, previous: dict[str, str]
) -> dict[str, tuple[str, str | None] | Rejected]:
    """Each student's folder and why it is not the slug: the one imported before, else the slug, else
    ``slug-id`` on a collision (with another student of the archive, or a folder of DIR not theirs)."""
    bases = {s.id: _base(s) for s in subs}
    count = Counter(bases.values())
    claimed = {previous[s.id] for s in subs if s.id in previous}
    names: dict[str, tuple[str, str | None] | Rejected] = {}
    for s in sorted(subs, key=lambda s: (bases[s.id], s.id)):
        if s.id in previous:
            names[s.id] = (previous[s.id], None)
            continue
        base = bases[s.id]
        name, clash = base, None
        if count[base] > 1:
            clash = "namesake"
        elif base in claimed or os.path.lexists(into / base):
            clash = "exists"
        if clash:
            name = f"{base}-{s.id}"
        if name in claimed or os.path.lexists(into / name):
            names[s.id] = Rejected("taken", folder=str(into / name))
        else:
            claimed.add(name)
            names[s.id] = (name, clash)
    return names


def _base(sub: _Submission) -> str:
    """The folder a student's submission goes to when nobody else claims it."""
    return slug(sub.student) or f"entrega-{sub.id}"


class _Spent:
    """Bytes written against a cap (``add`` says whether they are past it)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.bytes = 0

    def add(self, n: int) -> bool:
        self.bytes += n
        return self.bytes > self.cap


class _Budget:
    """One student's caps while unpacking, and the whole import's bytes."""

    def __init__(self, caps: Caps, total: _Spent) -> None:
        self.caps = caps
        self.total = total
        self.files = 0
        self.bytes = _Spent(caps.bytes)

    def entries(self, n: int, declared: int) -> None:
        """Before unpacking: the entries an archive lists and the bytes it declares (cheap, not trusted)."""
        if self.files + n > self.caps.files:
            raise Rejected("files", cap=self.caps.files)
        if self.bytes.bytes + declared > self.caps.bytes:
            raise Rejected("bytes", cap=_size(self.caps.bytes))

    def entry(self) -> None:
        self.files += 1
        if self.files > self.caps.files:
            raise Rejected("files", cap=self.caps.files)

    def spend(self, n: int) -> None:
        if self.total.add(n):
            raise Rejected("total", cap=_size(self.total.cap))
        if self.bytes.add(n):
            raise Rejected("bytes", cap=_size(self.caps.bytes))


def _size(n: int) -> str:
    return f"{n // GiB} GiB" if n % GiB == 0 else f"{n // MiB} MiB" if n % MiB == 0 else f"{n} bytes"


def _import_one(
    zf: zipfile.ZipFile,
    sub: _Submission,
    into: Path,
    named: tuple[str, str | None] | Rejected,
    previous: dict[str, str],
    archive: str,
    caps: Caps,
    total: _Spent,
) -> Outcome:
    """Unpack, arrange and swap in one student's submission; a broken rule rejects it alone."""
    before = previous.get(sub.id)
    out = Outcome(sub.student, sub.id, "updated" if before else "imported", before, _base(sub))
    stage: Path | None = None
    try:
        if isinstance(named, Rejected):
            raise named
        name, out.clash = named
        if sub.problem is not None:
            raise sub.problem
        if not sub.entries:
            plugins = sorted(sub.plugins - {"file"})
            raise Rejected("not_file", plugin=plugins[0]) if plugins else Rejected("empty")
        budget = _Budget(caps, total)
        budget.entries(len(sub.entries), sum(info.file_size for info, _rel, _shown in sub.entries))
        stage = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=into))
        raw = stage / "raw"
        raw.mkdir()
        for info, rel, shown in sub.entries:
            _unpack(zf, info, rel, shown, raw, budget)
        player, out.moved_up, out.dropped = _arrange(raw, stage, budget)
        out.made_executable = _make_executable(player)
        target = into / name
        out.unchanged = before is not None and _same(target, player)
        _mark(player, sub, archive)
        _swap(player, target, stage)
        out.folder = name
    except Rejected as exc:
        out.status, out.reason = "rejected", exc
    except OSError as exc:  # a name the file system refuses, a file where a folder goes, a full disk
        out.status, out.reason = "rejected", Rejected("write", detail=exc.strerror or str(exc))
    finally:
        if stage is not None:
            shutil.rmtree(stage, ignore_errors=True)
    if out.imported and out.folder:
        out.invalid = entry(into / out.folder).problem
    return out


def _same(old: Path, new: Path) -> bool:
    """Whether two player folders hold the same files with the same contents and modes (hidden files
    aside, as the fingerprint): an update that changes nothing."""
    return fingerprint(old) == fingerprint(new) and _modes(old) == _modes(new)


def _modes(folder: Path) -> dict[str, int]:
    """Each file's permission bits by its path (what the fingerprint leaves out)."""
    out = {}
    for path in folder.rglob("*"):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts) or not path.is_file():
            continue
        out[rel.as_posix()] = stat.S_IMODE(path.stat().st_mode)
    return out


def _make_executable(player: Path) -> str | None:
    """Make the program of the folder's player.toml ``command`` executable when it is a relative path to
    a file inside the folder (``./bot``) that is not: zips without Unix modes (Python's ``zipfile``,
    Windows' zippers) lose the bit. Returns the program as player.toml names it when it did."""
    try:
        meta = tomllib.loads((player / "player.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    command = meta.get("command")
    if not (isinstance(command, list) and command and isinstance(command[0], str)):
        return None
    program = command[0]
    if "/" not in program or program.startswith("/") or ".." in Path(program).parts:
        return None
    target = player / program
    try:
        if target.is_symlink() or not target.resolve().is_relative_to(player.resolve()):
            return None
        st = target.lstat()
        if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o100:
            return None
        target.chmod(stat.S_IMODE(st.st_mode) | 0o111)
    except OSError:
        return None
    return program


def _unpack(
    zf: zipfile.ZipFile, info: zipfile.ZipInfo, rel: list[str], shown: str, dest: Path, budget: _Budget
) -> None:
    """Write one entry under ``dest`` after checking it; junk (``__MACOSX``, ``.pyc``…) is skipped."""
    if ".." in rel:  # checked before, by the caller, with the reason; never written in any case
        raise Rejected("escape", entry=shown)
    mode = info.external_attr >> 16
    kind = stat.S_IFMT(mode)
    if kind == stat.S_IFLNK:
        raise Rejected("symlink", entry=shown)
    if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
        raise Rejected("special", entry=shown)
    if info.flag_bits & 0x1:
        raise Rejected("encrypted", entry=shown)
    if _junk(rel):
        return
    budget.entry()
    target = dest.joinpath(*rel)
    if info.is_dir() or kind == stat.S_IFDIR:
        target.mkdir(parents=True, exist_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    executable = kind == stat.S_IFREG and mode & 0o100
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    try:
        fd = os.open(target, flags, 0o755 if executable else 0o644)
    except FileExistsError:
        raise Rejected("repeated", entry=shown) from None
    with os.fdopen(fd, "wb") as out:
        try:
            with zf.open(info) as src:
                _copy(src, out, info, shown, budget)
        except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise Rejected("damaged", entry=shown, detail=str(exc)) from None
        except NotImplementedError as exc:  # a compression method zipfile lacks (deflate64, ...)
            raise Rejected("unsupported", entry=shown, detail=str(exc)) from None
        except RuntimeError as exc:  # zipfile's "encrypted, password required", an unflagged one
            raise Rejected("unsupported", entry=shown, detail=str(exc)) from None


def _copy(src: IO[bytes], out: IO[bytes], info: zipfile.ZipInfo, shown: str, budget: _Budget) -> None:
    """Copy one entry a chunk at a time, counting what comes out (not what the archive declares)."""
    caps = budget.caps
    limit = caps.ratio * max(info.compress_size, 1)
    written = 0
    while chunk := src.read(CHUNK):
        written += len(chunk)
        if written > caps.ratio_free and written > limit:
            raise Rejected("ratio", entry=shown, cap=caps.ratio)
        budget.spend(len(chunk))
        out.write(chunk)


def _expand(inner: Path, dest: Path, label: str, budget: _Budget) -> None:
    """Unpack a zip the student submitted (``label``: its name) under ``dest``, as carefully as the outer."""
    try:
        zf = zipfile.ZipFile(inner)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise Rejected("damaged", entry=label, detail=str(exc)) from None
    with zf:
        infos = zf.infolist()
        budget.entries(len(infos), sum(i.file_size for i in infos))
        for info in infos:
            name = _name(info)
            parts, problem = _parts(name)
            shown = f"{label}: {name}"
            if problem is not None:
                raise Rejected(problem, entry=shown)
            if parts:
                _unpack(zf, info, parts, shown, dest, budget)


def _junk(rel: Sequence[str]) -> bool:
    """Whether an entry is what zippers and interpreters leave (``__MACOSX``, ``.DS_Store``, ``.pyc``)."""
    name = rel[-1]
    return (
        any(p in JUNK_DIRS for p in rel)
        or name in JUNK_FILES
        or name.startswith("._")
        or name.endswith(".pyc")
    )


def _candidates(root: Path) -> list[Path]:
    """Folders under ``root`` holding a player.py or player.toml, shallowest first (links never followed)."""
    found = []
    for here, dirs, files in os.walk(root):
        dirs.sort()
        if any(f in files for f in ENTRY_POINTS):
            found.append(Path(here))
    return sorted(found, key=lambda p: (len(p.parts), p))


def _arrange(raw: Path, stage: Path, budget: _Budget) -> tuple[Path, str | None, int]:
    """The folder of the unpacked submission that is the player, what was moved up, and files left out.

    A submission with no player outside its zips has its zips opened: a single one
    in place, several each in a folder of its name. Then one wrapping folder is
    looked through; a player deeper down is taken if it is the only one.
    """
    if not _candidates(raw):
        zips = sorted(p for p in raw.iterdir() if p.is_file() and p.suffix.lower() == ".zip")
        for n, z in enumerate(zips):
            inner = stage / f"inner-{n}.zip"  # not shown
            os.rename(z, inner)
            dest = raw if len(zips) == 1 else raw / z.stem
            if dest != raw and os.path.lexists(dest):
                raise Rejected("inner_exists", entry=z.name, folder=z.stem)
            dest.mkdir(exist_ok=True)
            _expand(inner, dest, z.name, budget)
            inner.unlink()
    top = raw
    inside = list(raw.iterdir())
    if not inside:
        raise Rejected("empty")
    if len(inside) == 1 and inside[0].is_dir():
        top = inside[0]
    found = _candidates(top)
    if not found:
        archives = sorted(p.name for p in raw.rglob("*") if p.name.lower().endswith(ARCHIVES))
        if archives:
            raise Rejected("no_player_archives", names=", ".join(archives))
        raise Rejected("no_player")
    if found[0] == top:
        return top, None, 0
    if len(found) > 1:
        paths = [(f / _entry_point(f)).relative_to(raw).as_posix() for f in found]
        raise Rejected("candidates", paths=", ".join(paths))
    player = found[0]
    outside = sum(1 for p in top.rglob("*") if p.is_file() and player not in p.parents)
    return player, player.relative_to(raw).as_posix(), outside


def _entry_point(folder: Path) -> str:
    return next(f for f in ENTRY_POINTS if (folder / f).is_file())


def _mark(player: Path, sub: _Submission, archive: str) -> None:
    """Write the marker that makes this folder the student's (replacing any the student sent)."""
    marker = player / MARKER
    if marker.is_dir():
        raise Rejected("marker_folder", marker=MARKER)
    data = {
        "student": sub.student,
        "id": sub.id,
        "archive": archive,
        "imported": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    marker.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _swap(new: Path, target: Path, stage: Path) -> None:
    """Put ``new`` at ``target``: a rename; an earlier import is first renamed into ``stage`` (and
    put back if the second rename fails), so ``target`` is never a half-written folder."""
    if not os.path.lexists(target):
        os.rename(new, target)
        return
    old = stage / "old"
    os.rename(target, old)
    try:
        os.rename(new, target)
    except OSError:
        os.rename(old, target)
        raise


def unpack_player(archive: str | Path, dest: str | Path, caps: Caps | None = None) -> Path:
    """Unpack one player's zip (an upload, not a Moodle download) into the new folder ``dest``, with
    the checks and caps of an import, and return the folder in it that is the player (``dest`` itself
    or one folder down). Raises :class:`Rejected` with the reason; ``dest`` is then removed."""
    dest = Path(dest)
    caps = caps or Caps()
    budget = _Budget(caps, _Spent(caps.bytes))
    dest.mkdir(parents=True)
    raw = dest / "raw"
    raw.mkdir()
    try:
        _expand(Path(archive), raw, Path(archive).name, budget)
        player, _moved, _dropped = _arrange(raw, dest, budget)
    except Rejected:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    except OSError as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise Rejected("write", detail=exc.strerror or str(exc)) from None
    return player


@dataclass(frozen=True)
class Entry:
    """A folder of DIR as ``arena submissions list`` sees it (as a torneo would: links are followed)."""

    folder: str
    student: str | None
    """The student whose submission it holds (its marker), if it was imported."""
    player: bool
    """It holds a player.py or player.toml: a torneo takes it as an entrant."""
    command: tuple[str, ...] | None = None
    """How it runs when it is a usable player: () for a Python player, else its command."""
    problem: str | None = None
    """Why a player folder is not usable (``find_player``'s one line)."""
    link: bool = False

    @property
    def valid(self) -> bool:
        return self.player and self.problem is None

    def text(self) -> str:
        """The table's Entrant cell: ``valid (python)``, ``NOT VALID: …``, ``not a player: …``."""
        if self.valid and not self.command:
            return _("valid (python)")
        if self.valid and self.command:
            return _("valid (command: {command})").format(command=printable(" ".join(self.command)))
        if self.player:
            return _("NOT VALID: {problem}").format(problem=self.problem)
        return _("not a player: no player.py or player.toml (a torneo leaves it out)")


def survey(into: str | Path) -> list[Entry]:
    """Every folder of ``into`` (hidden ones aside): whose, and whether a torneo can take it."""
    into = Path(into)
    if not into.is_dir():
        raise ArchiveError("into", path=str(into))
    return [entry(sub) for sub in sorted(into.iterdir()) if not sub.name.startswith(".") and sub.is_dir()]


def entry(sub: Path) -> Entry:
    """One folder as ``arena submissions list`` sees it: whose, and whether a torneo can take it."""
    student, link = _student(sub), sub.is_symlink()
    if not is_player_folder(sub):
        return Entry(sub.name, student, False, link=link)
    try:
        spec = find_player(sub)
    except PlayerLoadError as exc:
        return Entry(sub.name, student, True, problem=printable(str(exc)), link=link)
    problem = static_problem(spec)
    return Entry(sub.name, student, True, command=spec.command, problem=problem, link=link)


SOURCE_CAP = 4 * 1024 * 1024
"""A ``.py`` file larger than this is not compiled by ``arena submissions list`` (it says so)."""
PYTHONS = re.compile(r"python(3(\.\d+)?)?$")
"""A command's program that runs Python: its ``.py`` files are compiled as a Python player's."""


def static_problem(spec: PlayerSpec) -> str | None:
    """What is wrong with a player folder that shows without running anything (one line), else None:
    a ``.py`` file that does not compile (its file and line), for a Python player or a command run by
    ``python3``; for a command player, a program that is not there or not executable."""
    folder = Path(spec.folder)
    if spec.command:
        problem = _command_problem(folder, spec.command[0])
        if problem or not PYTHONS.match(os.path.basename(spec.command[0])):
            return problem
    for path in _sources(folder):
        problem = _compile_problem(folder, path)
        if problem:
            return problem
    return None


def _sources(folder: Path) -> list[Path]:
    """Every ``.py`` file of ``folder`` (hidden folders and ``__pycache__`` aside; links not followed)."""
    found = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        found += [Path(top) / n for n in sorted(names) if n.endswith(".py") and not n.startswith(".")]
    return sorted(found, key=lambda p: (p.name != "player.py", p.relative_to(folder).parts))


def _compile_problem(folder: Path, path: Path) -> str | None:
    """Why ``path`` does not compile (``compile()``, nothing run), else None."""
    shown = printable(str(path.relative_to(folder)))
    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > SOURCE_CAP:
            return _("{file}: too large to check ({size} bytes)").format(file=shown, size=st.st_size)
        source = path.read_bytes()
    except OSError as exc:
        return _("{file}: cannot be read ({error})").format(file=shown, error=exc.strerror or exc)
    try:
        with warnings.catch_warnings():  # a SyntaxWarning (say, "\\d" in a str) is no error
            warnings.simplefilter("ignore")
            compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        where = _("{file}, line {line}").format(file=shown, line=exc.lineno) if exc.lineno else shown
        return _("syntax error in {where}: {error}").format(where=where, error=printable(str(exc.msg)))
    except (ValueError, RecursionError, MemoryError) as exc:  # null bytes; nesting too deep
        return _("{file} does not compile: {error}").format(file=shown, error=printable(str(exc)))
    return None


def _command_problem(folder: Path, program: str) -> str | None:
    """Why a command player's program cannot start (not there, not executable), else None."""
    if "/" in program:
        target = Path(program) if program.startswith("/") else folder / program
        if not target.is_file():
            return _("command {program} not found").format(program=printable(repr(program)))
        if not os.access(target, os.X_OK):
            return _("command {program} is not executable (chmod +x {program})").format(
                program=printable(program)
            )
        return None
    if shutil.which(program, path="/usr/local/bin:/usr/bin:/bin") is None:
        return _("command {program} is not installed (not on /usr/bin or /bin)").format(
            program=printable(repr(program))
        )
    return None


def _student(folder: Path) -> str | None:
    found = whose(folder)
    return printable(found[0]) if found else None


def whose(folder: str | Path) -> tuple[str, str] | None:
    """The student (full name, Moodle id) whose submission ``folder`` holds, from the marker the
    import wrote after unpacking it (a file of that name in the submission is overwritten); None
    for a folder no import made (the samples, a folder made by hand) or a marker that is not one."""
    marker = Path(folder) / MARKER
    try:
        if marker.is_symlink() or not marker.is_file() or marker.stat().st_size > 64 * 1024:
            return None
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    student, ident = data.get("student"), data.get("id")
    if not isinstance(student, str) or not isinstance(ident, str) or not ident.isdecimal():
        return None
    return student, ident


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Plain aligned columns for the terminal (the last one not padded)."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def import_table(outcomes: Sequence[Outcome], into: str | Path) -> str:
    """The import's table, one student a row, and a line of totals."""
    head = [_("Student"), "Id", _("Folder"), _("Result")]
    rows = [[printable(o.student), o.id or "—", o.folder or "—", o.text()] for o in outcomes]
    n = Counter(o.status for o in outcomes)
    totals = _("{imported}, {updated}, {rejected}, in {folder}").format(
        imported=n_("{n} imported", "{n} imported", n["imported"]).format(n=n["imported"]),
        updated=n_("{n} updated", "{n} updated", n["updated"]).format(n=n["updated"]),
        rejected=n_("{n} rejected", "{n} rejected", n["rejected"]).format(n=n["rejected"]),
        folder=into,
    )
    invalid = sum(1 for o in outcomes if o.imported and o.invalid)
    if invalid:
        totals += "; " + n_(
            "{n} of them NOT VALID (see above)", "{n} of them NOT VALID (see above)", invalid
        ).format(n=invalid)
    return table(head, rows) + "\n\n" + totals


def survey_table(entries: Sequence[Entry]) -> str:
    """The list's table, one folder a row, and a line of totals."""
    head = [_("Folder"), _("Student"), _("Entrant")]
    rows = [
        [
            _("{folder} (link)").format(folder=printable(e.folder)) if e.link else printable(e.folder),
            e.student or "—",
            e.text(),
        ]
        for e in entries
    ]
    valid = sum(e.valid for e in entries)
    bad = sum(e.player and not e.valid for e in entries)
    totals = ", ".join(
        [
            n_("{n} valid entrant", "{n} valid entrants", valid).format(n=valid),
            n_("{n} player folder not valid", "{n} player folders not valid", bad).format(n=bad),
        ]
    )
    return table(head, rows) + "\n\n" + totals
