"""Player folders: find, describe and (for in-process play) load them.

A player is a folder named after it holding ``player.py`` (a class on
:class:`arena.sdk.Player`) or ``player.toml`` with ``command = [...]``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.loader import PlayerLoadError, load_player_class

__all__ = ["PlayerLoadError", "PlayerSpec", "find_player", "load_player_class"]


@dataclass(frozen=True)
class PlayerSpec:
    """A player folder as found on disk."""

    name: str
    folder: Path
    kind: str  # "python" or "command"
    command: tuple[str, ...] = ()
    display_name: str | None = None
    authors: tuple[str, ...] = field(default_factory=tuple)

    @property
    def source(self) -> str:
        return str(self.folder)


def is_player_folder(path: Path) -> bool:
    return path.is_dir() and ((path / "player.py").is_file() or (path / "player.toml").is_file())


def find_player(folder: str | Path) -> PlayerSpec:
    """Describe the player in ``folder``; PlayerLoadError if it is not a usable player."""
    path = Path(folder)
    if not path.is_dir():
        raise PlayerLoadError(f"{path}: not a folder")
    path = path.resolve()
    toml_file, py_file = path / "player.toml", path / "player.py"
    if toml_file.is_file():
        try:
            meta = tomllib.loads(toml_file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise PlayerLoadError(f"{toml_file}: bad TOML: {str(exc).splitlines()[0]}") from None
        command = meta.get("command")
        if command is None and py_file.is_file():
            return PlayerSpec(
                path.name,
                path,
                "python",
                display_name=_opt_str(meta, "name", toml_file),
                authors=_authors(meta, toml_file),
            )
        if not (isinstance(command, list) and command and all(isinstance(a, str) and a for a in command)):
            raise PlayerLoadError(
                f"{toml_file}: 'command' must be a non-empty list of strings, "
                'e.g. command = ["node", "bot.js"]'
            )
        return PlayerSpec(
            path.name,
            path,
            "command",
            tuple(command),
            _opt_str(meta, "name", toml_file),
            _authors(meta, toml_file),
        )
    if py_file.is_file():
        return PlayerSpec(path.name, path, "python")
    raise PlayerLoadError(f"{path}: no player.py or player.toml in this folder")


def _opt_str(meta: dict[str, object], key: str, where: Path) -> str | None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise PlayerLoadError(f"{where}: '{key}' must be a string")
    return value


def _authors(meta: dict[str, object], where: Path) -> tuple[str, ...]:
    value = meta.get("authors", [])
    if not (isinstance(value, list) and all(isinstance(a, str) for a in value)):
        raise PlayerLoadError(f"{where}: 'authors' must be a list of strings")
    return tuple(value)


def unique_names(specs: Sequence[PlayerSpec]) -> list[PlayerSpec]:
    """The specs, renamed ``ana#2``, ``ana#3`` where one folder name repeats at a table."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec.name] = seen.get(spec.name, 0) + 1
        out.append(spec if seen[spec.name] == 1 else replace(spec, name=f"{spec.name}#{seen[spec.name]}"))
    return out
