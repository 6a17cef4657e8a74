"""``arena new NAME``: a working player skeleton for a student to fill in."""

from __future__ import annotations

import re
from pathlib import Path

from arena.errors import ArenaError

PLAYER_TEMPLATE = '''"""{name}: a Tute Cabrero player.

Fill in `play`. Run `arena check {folder}` to test it against the sample
players, and `arena play {folder} sample_players/a_mas sample_players/a_menos`
to watch a partido. The guide: docs/student-guide.md.
"""

from arena.sdk import Move, Player, PlayRequest


class {cls}(Player):
    name = "{name}"

    def play(self, request: PlayRequest) -> Move | str:
        # What you know: request.hand, request.table (this trick), self.view
        # (trump, played cards, cantos, tricks, scores, porotos, ...).
        # Helpers: request.legal(), request.cantos(), request.winning().
        cantos = request.cantos()  # empty unless you just won a trick
        if "tute" in cantos:
            return Move(sing="tute")  # the mano ends: everybody else loses it
        legal = request.legal()
        return Move(card=legal[0], sing=cantos[0] if cantos else None)
'''


class NewPlayerError(ArenaError, ValueError):
    """The player cannot be created (bad name, folder already there)."""


def new_player(name: str, parent: Path) -> Path:
    """Create ``parent/name/player.py`` from the template; returns the folder."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", name):
        raise NewPlayerError(
            f"{name!r}: a player name starts with a letter and has only letters, digits, - and _"
        )
    folder = parent / name
    if folder.exists():
        raise NewPlayerError(f"{folder}: already exists; nothing was overwritten")
    folder.mkdir(parents=True)
    cls = "".join(part.capitalize() for part in re.split(r"[-_]", name))
    if cls in ("Player", "Move", "PlayRequest"):
        cls = "My" + cls
    (folder / "player.py").write_text(
        PLAYER_TEMPLATE.format(name=name, cls=cls, folder=folder.as_posix()), encoding="utf-8"
    )
    return folder
