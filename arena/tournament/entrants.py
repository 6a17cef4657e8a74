"""The entrants of a torneo: player folders found from the command's paths."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena import games
from arena.i18n import _
from arena.referee.players import PlayerLoadError, PlayerSpec, find_player, is_player_folder, unique_names

DEFAULT_PLAYERS = Path("players")
SAMPLE_PLAYERS = Path("sample_players")


PACKAGE = Path(__file__).resolve().parents[1]
"""The ``arena`` package's folder: samples sit beside it in a checkout, inside it in a wheel."""


def sample_folder(kind: str | Path) -> Path:
    """The samples' folder named ``kind`` (a game's spec's ``samples``): in the current folder, else
    beside the package (a checkout, an editable install), else inside it (an installed wheel, where
    hatch_build.py puts every ``sample_*/``); ``kind`` itself when none is a folder."""
    kind = Path(kind)
    places = [kind, PACKAGE.parent / kind, PACKAGE / kind]
    return next((p for p in places if p.is_dir()), kind)


def default_folders(game: str) -> tuple[Path, Path]:
    """Where a torneo of ``game`` looks for entrants when no path is given: the instructor's, then the
    samples' (the game's spec names both; the samples are found from any folder: :func:`sample_folder`)."""
    spec = games.spec(game)
    return Path(spec.default_folders[0]), sample_folder(spec.samples)


class NoEntrants(PlayerLoadError):
    """No player folder where one was expected (one line for the user)."""


@dataclass(frozen=True)
class Skipped:
    """A folder under the given paths that is not an entrant, and why (one line, in the language in use)."""

    folder: Path
    reason: str


ENTRY_POINTS = ("player.py", "player.toml")
NESTED_DEPTH = 4
"""How deep a misplaced ``player.py`` is looked for, to say where it is."""


def _hidden(path: Path) -> bool:
    return path.name.startswith(".") or path.name == "__pycache__"


def why_not_a_player(folder: Path) -> str:
    """Why ``folder`` is not a player folder, with the move that would fix it where there is one."""
    files = [
        p
        for p in folder.rglob("*")
        if p.is_file() and not any(_hidden(Path(part)) for part in p.relative_to(folder).parts)
    ]
    if not files:
        return _("empty folder")
    homes = sorted(
        {
            p.parent
            for p in files
            if p.name in ENTRY_POINTS and len(p.relative_to(folder).parts) <= NESTED_DEPTH
        }
    )
    if len(homes) == 1:
        inner = homes[0].relative_to(folder)
        return _("the player is nested in {folder}/{inner}/: move its contents to {folder}/").format(
            folder=folder.name, inner=inner
        )
    if len(homes) > 1:
        shown = ", ".join(f"{folder.name}/{h.relative_to(folder)}/" for h in homes[:4])
        return _("{n} possible entry points ({shown}): leave only one, at the very top").format(
            n=len(homes), shown=shown
        )
    names = ", ".join(sorted(p.name for p in files)[:4]) + (", …" if len(files) > 4 else "")
    return _("no player.py or player.toml (it has: {names})").format(names=names)


def survey(paths: Sequence[str | Path]) -> tuple[list[PlayerSpec], list[Skipped]]:
    """Every player folder under ``paths`` and every other folder there with the reason it is not one.

    A path that is a player folder is one entrant; any other folder gives each of its
    subfolders (hidden ones and ``__pycache__`` aside): an entrant, or a :class:`Skipped`.
    A player folder whose ``player.toml`` is broken is skipped with the error.
    """
    found: list[PlayerSpec] = []
    skipped: list[Skipped] = []
    for p in map(Path, paths):
        if is_player_folder(p):
            found.append(find_player(p))
            continue
        if not p.is_dir():
            raise PlayerLoadError(_("{path}: not a folder").format(path=p))
        for sub in sorted(p.iterdir()):
            if not sub.is_dir() or _hidden(sub):
                continue
            if is_player_folder(sub):
                try:
                    found.append(find_player(sub))
                except PlayerLoadError as exc:
                    skipped.append(Skipped(sub, str(exc)))
            else:
                skipped.append(Skipped(sub, why_not_a_player(sub)))
    return found, skipped


def collect_entrants(paths: Sequence[str | Path]) -> list[PlayerSpec]:
    """The entrants (see :func:`collect_intake`), without the folders left out."""
    return collect_intake(paths)[0]


def collect_intake(
    paths: Sequence[str | Path], defaults: tuple[Path, Path] = (DEFAULT_PLAYERS, SAMPLE_PLAYERS)
) -> tuple[list[PlayerSpec], list[Skipped]]:
    """The entrants, and the folders that are not: a player folder is one; any other folder
    gives every player folder inside.

    With no path, ``players/`` (or ``sample_players/`` when it holds no player): ``defaults``.
    The same folder given twice counts once; equal folder names get ``#2``, ``#3``.
    """
    skipped: list[Skipped] = []
    if not paths:
        mine, samples = defaults
        found, skipped = survey([mine]) if mine.is_dir() else ([], [])
        if not found and samples.is_dir():
            found, skipped = survey([samples])
        if not found:
            raise NoEntrants(
                _("no player in {players}/ nor {samples}/; name the folders").format(
                    players=mine, samples=samples
                )
            )
    else:
        found = []
        for p in paths:
            some, left = survey([p])
            if not some:
                reasons = "; ".join(f"{s.folder.name}: {s.reason}" for s in left[:5])
                if reasons:
                    message = _("{path}: no player folder in it ({reasons})")
                    raise NoEntrants(message.format(path=p, reasons=reasons))
                raise NoEntrants(_("{path}: no player folder in it").format(path=p))
            found += some
            skipped += left
    seen: set[Path] = set()
    unique = []
    for spec in found:
        if spec.folder not in seen:
            seen.add(spec.folder)
            unique.append(spec)
    return unique_names(unique), skipped


def with_samples(
    specs: Sequence[PlayerSpec], table_size: int, samples: Path | None = None, kind: Path = SAMPLE_PLAYERS
) -> list[PlayerSpec]:
    """``specs`` topped up with sample players (not already in) up to one table (``--with-samples``);
    ``kind``: the samples' folder name (the game's spec's ``samples``)."""
    if samples is None:
        samples = sample_folder(kind)
    out = list(specs)
    have = {s.folder for s in out}
    for spec in survey([samples])[0] if samples.is_dir() else []:
        if len(out) >= table_size:
            break
        if spec.folder not in have:
            out.append(spec)
    return unique_names(out)


def fingerprint(folder: str | Path) -> str:
    """sha256 over a folder's files (paths and contents), skipping caches and hidden files."""
    root = Path(folder)
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts) or not path.is_file():
            continue
        h.update(str(rel).encode() + b"\0")
        try:
            h.update(hashlib.sha256(path.read_bytes()).digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()
