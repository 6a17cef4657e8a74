"""Making untrusted text harmless where a person reads it: terminals, text files, spreadsheets.

Players choose their folder's name, their display name and what they write to
standard error, and fault details quote their replies. :func:`printable` shows
every character that could move the cursor, recolour, clear the screen, reorder
text or start a new line as an escape (``\\x1b``, ``\\u202e``); :func:`cell` also
keeps a spreadsheet from reading a value as a formula (the OWASP defence against
CSV injection: a leading ``'``). Neither is meant to be reversed.
"""

from __future__ import annotations

import re
from typing import TypeVar

EXCERPT = 200
"""How many characters of a player's text a fault detail or message quotes."""


T = TypeVar("T")

_UNSAFE = (
    "\x00-\x08\x0b-\x1f"  # C0 without \t and \n (those two depend on the mode), ESC included
    "\x7f-\x9f"  # DEL and C1 (NEL and the 8-bit CSI among them)
    "\u061c\u200e\u200f"  # bidi marks (ALM, LRM, RLM)
    "\u202a-\u202e\u2066-\u2069"  # bidi embeddings, overrides and isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates (undecodable bytes): not even writable as UTF-8
)
_ONE_LINE = re.compile(f"[\t\n{_UNSAFE}]")
_BLOCK = re.compile(f"[{_UNSAFE}]")

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection")."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str, multiline: bool = False) -> str:
    """``text`` with control and bidi characters written as escapes (``ESC`` becomes ``\\x1b``).

    ``multiline`` keeps newlines and tabs (a block such as an incident report);
    otherwise they are escaped too, so the text stays on one line.
    """
    return (_BLOCK if multiline else _ONE_LINE).sub(_escape, str(text))


def formula_like(text: str) -> bool:
    """Whether a spreadsheet could take ``text`` for a formula (a plain number cannot do harm)."""
    return text.lstrip(" ").startswith(FORMULA_START) and _NUMBER.fullmatch(text.strip()) is None


def cell(value: T) -> T | str:
    """A value for a spreadsheet cell or CSV field: numbers and other non-text unchanged;
    text on one line, printable, and behind a ``'`` when it could be read as a formula."""
    if not isinstance(value, str):
        return value
    text = printable(value)
    return "'" + text if formula_like(value) or formula_like(text) else text
