"""Player folders: find, describe and (for in-process play) load them.

A player is a folder named after it holding ``player.py`` (a class on
:class:`arena.sdk.Player`) or ``player.toml`` with ``command = [...]``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from arena.i18n import _
from arena.player.loader import PlayerLoadError, load_player_class

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
        raise PlayerLoadError(_("{folder}: not a folder").format(folder=path))
    path = path.resolve()
    toml_file, py_file = path / "player.toml", path / "player.py"
    if toml_file.is_file():
        try:
            meta = tomllib.loads(toml_file.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise PlayerLoadError(
                _("{file}: bad TOML: {error}").format(file=toml_file, error=str(exc).splitlines()[0])
            ) from None
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
                _(
                    "{file}: 'command' must be a non-empty list of strings, "
                    'e.g. command = ["node", "bot.js"]'
                ).format(file=toml_file)
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
    raise PlayerLoadError(_("{folder}: no player.py or player.toml in this folder").format(folder=path))


def _opt_str(meta: dict[str, object], key: str, where: Path) -> str | None:
    value = meta.get(key)
    if value is not None and not isinstance(value, str):
        raise PlayerLoadError(_("{file}: '{key}' must be a string").format(file=where, key=key))
    return value


def _authors(meta: dict[str, object], where: Path) -> tuple[str, ...]:
    value = meta.get("authors", [])
    if not (isinstance(value, list) and all(isinstance(a, str) for a in value)):
        raise PlayerLoadError(_("{file}: 'authors' must be a list of strings").format(file=where))
    return tuple(value)


def unique_names(specs: Sequence[PlayerSpec]) -> list[PlayerSpec]:
    """The specs, renamed ``ana#2``, ``ana#3`` where one folder name repeats at a table."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec.name] = seen.get(spec.name, 0) + 1
        out.append(spec if seen[spec.name] == 1 else replace(spec, name=f"{spec.name}#{seen[spec.name]}"))
    return out
