"""Player folders: find, describe and (for in-process play) load them.

A player is a folder named after it holding ``player.py`` (a class on
:class:`arena.sdk.Player`) or ``player.toml`` with ``command = [...]``.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from arena.sdk import Player


class PlayerLoadError(ValueError):
    """A player folder that cannot be used; the message is one line naming the folder."""


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


def load_player_class(folder: str | Path) -> type[Player]:
    """Import ``player.py`` from ``folder`` and return its player class.

    The class is the one subclass of :class:`Player` defined in that file (or the
    one named ``player_class`` there). Any failure is a one-line PlayerLoadError.
    """
    path = Path(folder).resolve()
    file = path / "player.py"
    if not file.is_file():
        raise PlayerLoadError(f"{path}: no player.py in this folder")
    module_name = f"arena_player_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise PlayerLoadError(f"{file}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path))
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise PlayerLoadError(f"{file}: import failed: {type(exc).__name__}: {_first_line(exc)}") from None
    finally:
        if sys.path and sys.path[0] == str(path):
            sys.path.pop(0)
    chosen = getattr(module, "player_class", None)
    if chosen is not None:
        if not (inspect.isclass(chosen) and issubclass(chosen, Player)):
            raise PlayerLoadError(f"{file}: player_class is not a subclass of arena.sdk.Player")
        return chosen
    found = [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj)
        and issubclass(obj, Player)
        and obj is not Player
        and obj.__module__ == module_name
    ]
    if not found:
        raise PlayerLoadError(f"{file}: no player class (a subclass of arena.sdk.Player) defined here")
    if len(found) > 1:
        names = ", ".join(c.__name__ for c in found)
        raise PlayerLoadError(f"{file}: several player classes ({names}); set player_class = <the one>")
    return found[0]


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "(no message)"


def collect_players(paths: list[str | Path]) -> list[PlayerSpec]:
    """Entrants from paths: a player folder is one; any other folder gives each player inside it."""
    out: list[PlayerSpec] = []
    for p in map(Path, paths):
        if is_player_folder(p):
            out.append(find_player(p))
        elif p.is_dir():
            out.extend(find_player(sub) for sub in sorted(p.iterdir()) if is_player_folder(sub))
        else:
            raise PlayerLoadError(f"{p}: not a folder")
    return out
