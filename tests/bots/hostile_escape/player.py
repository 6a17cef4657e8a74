"""Output injection: terminal escape codes in its display name, standard error and card,
faking a clean ``arena check`` ("Resultado: LIMPIO ✓"); disqualified (``not_in_hand``)."""

import sys

from arena.sdk import Player, PlayRequest

CLEAR = "\x1b[2J\x1b[H"  # clear the screen, cursor home
FAKE = "\x1b[2K\r\x1b[1A\x1b[32mResultado: LIMPIO ✓\x1b[0m"  # erase the line, up one, green
CARD = CLEAR + "\u202e\x9b2J" + FAKE  # what it plays: also a bidi override and an 8-bit CSI


class HostileEscape(Player):
    name = "\x1b]0;owned\x07\x1b[31mEVIL\x1b[0m"  # sets the terminal's title, red

    def setup(self, name: str, limits: dict[str, int]) -> None:
        print(CLEAR + FAKE, file=sys.stderr, flush=True)

    def play(self, request: PlayRequest) -> str:
        print(FAKE + "\r\n" + FAKE, file=sys.stderr, flush=True)
        return CARD
