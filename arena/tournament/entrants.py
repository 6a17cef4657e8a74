"""The entrants of a torneo: player folders found from the command's paths."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from arena.referee.players import PlayerLoadError, PlayerSpec, collect_players, unique_names

DEFAULT_PLAYERS = Path("players")
SAMPLE_PLAYERS = Path("sample_players")


class NoEntrants(PlayerLoadError):
    """No player folder where one was expected (one line for the user)."""


def collect_entrants(paths: Sequence[str | Path]) -> list[PlayerSpec]:
    """The entrants: a player folder is one; any other folder gives every player folder inside.

    With no path, ``players/`` (or ``sample_players/`` when it holds no player).
    The same folder given twice counts once; equal folder names get ``#2``, ``#3``.
    """
    if not paths:
        found = collect_players([DEFAULT_PLAYERS]) if DEFAULT_PLAYERS.is_dir() else []
        if not found and SAMPLE_PLAYERS.is_dir():
            found = collect_players([SAMPLE_PLAYERS])
        if not found:
            raise NoEntrants(f"no player in {DEFAULT_PLAYERS}/ nor {SAMPLE_PLAYERS}/; name the folders")
    else:
        found = []
        for p in paths:
            some = collect_players([p])
            if not some:
                raise NoEntrants(f"{p}: no player folder in it")
            found += some
    seen: set[Path] = set()
    unique = []
    for spec in found:
        if spec.folder not in seen:
            seen.add(spec.folder)
            unique.append(spec)
    return unique_names(unique)


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
