"""``arena new NAME``: a working player skeleton for a student to fill in.

A name is letters of any alphabet (``ñandú``, ``josé``, ``müller``), digits, ``-``
and ``_``, starting with a letter, at most 40 characters; it is kept in Unicode
NFC form. Refused: spaces, dots, slashes and other punctuation or symbols — the
name is a folder (no paths, no hidden ``.name``), a word on a command line (no
quoting) and, capitalized, the player's class name.
"""

from __future__ import annotations

import keyword
import re
import shlex
import unicodedata
from pathlib import Path

from arena.errors import ArenaError
from arena.i18n import _
from arena.protocol import DEFAULT_GAME

MAX_NAME = 40

class NewPlayerError(ArenaError, ValueError):
    """The player cannot be created (bad name, folder already there)."""


def check_name(name: str) -> str:
    """``name`` in NFC form if it is a good player name; else :class:`NewPlayerError` saying why."""
    name = unicodedata.normalize("NFC", name)
    bad = next((c for c in name if not _name_char(c)), None)
    if bad is not None or not name or not _letter(name[0]) or len(name) > MAX_NAME:
        if bad is None:
            message = _(
                "{name}: a player name starts with a letter and has only letters (of any alphabet: "
                "ñ, á, ü...), digits, - and _, up to {max} characters"
            )
        else:
            message = _(
                "{name}: a player name starts with a letter and has only letters (of any alphabet: "
                "ñ, á, ü...), digits, - and _, up to {max} characters ({char} is not allowed)"
            )
        char = _describe(bad) if bad is not None else ""
        raise NewPlayerError(message.format(name=repr(name), max=MAX_NAME, char=char))
    return name


def class_name(name: str) -> str:
    """The player's class name: ``ñandú-veloz`` → ``ÑandúVeloz`` (``My…`` where that would clash)."""
    cls = "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_]", name))
    taken = ("Player", "Move", "PlayRequest", "ParejasPlayer", "ParejasRequest", "DosPlayer", "DosRequest")
    if cls in taken or keyword.iskeyword(cls) or not cls.isidentifier():
        cls = "My" + cls
    return cls if cls.isidentifier() else "MyPlayer"


def shell_word(text: str) -> str:
    """``text`` as one word of a shell command: as it is when that is safe, else quoted."""
    if text and not re.search(r"[\s'\"\\$`!*?\[\]{}()<>|&;#~]", text):
        return text
    return shlex.quote(text)


def new_player(name: str, parent: Path, game: str = DEFAULT_GAME) -> Path:
    """Create ``parent/name/player.py`` from ``game``'s template (its spec's); returns the folder."""
    from arena.games import spec

    template = spec(game).template
    if not template:
        raise NewPlayerError(_("{game} has no player skeleton").format(game=spec(game).name))
    name = check_name(name)
    folder = parent / name
    if folder.exists():
        raise NewPlayerError(_("{folder}: already exists; nothing was overwritten").format(folder=folder))
    folder.mkdir(parents=True)
    shown = shell_word(folder.as_posix()).replace("\\", "\\\\").replace('"', '\\"')  # in a docstring
    (folder / "player.py").write_text(
        _(template).format(name=name, cls=class_name(name), folder=shown), encoding="utf-8"
    )
    return folder


def _letter(c: str) -> bool:
    return unicodedata.category(c).startswith("L")


def _name_char(c: str) -> bool:
    """A letter, a combining mark (an accent not composed with its letter), a digit, - or _."""
    return _letter(c) or unicodedata.category(c) in ("Mn", "Mc", "Nd") or c in "-_"


def _describe(c: str) -> str:
    if c.isspace():
        return _("a space")
    return f"{c!r}" if c.isprintable() else f"U+{ord(c):04X}"
