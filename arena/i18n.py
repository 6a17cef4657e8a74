"""Messages in the reader's language: gettext catalogs, Spanish by default.

Every line a person reads is written in English in the code, wrapped in
:func:`_` (or :func:`n_` when it counts something, :func:`N_` to mark a
constant translated later), and read from the catalog of the language in use:
``arena/locale/es/LC_MESSAGES/arena.po`` for Spanish (the default), the
message itself for English. The language is chosen by ``--lang`` or the
``ARENA_LANG`` environment variable; :func:`use` sets both, so the processes
a run starts (workers, players) speak it too.

The catalog is read with Babel and served by the standard library's
:class:`gettext.GNUTranslations`; it is loaded at the first message, not at
import (a player's process that never fails never reads it).
"""

from __future__ import annotations

import gettext
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

LANGUAGES = ("es", "en")
DEFAULT = "es"
ENV = "ARENA_LANG"
DOMAIN = "arena"
LOCALE_DIR = Path(__file__).with_name("locale")


def catalog_path(lang: str) -> Path:
    """The ``.po`` file of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _from_env() -> str:
    lang = os.environ.get(ENV, DEFAULT)
    return lang if lang in LANGUAGES else DEFAULT


_current = _from_env()


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The messages of ``lang`` (English: the messages themselves)."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    path = catalog_path(lang)
    if not path.is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def language() -> str:
    """The language in use: ``es`` or ``en``."""
    return _current


def follow_env() -> None:
    """Speak the language the environment names (a process forked with another environment)."""
    global _current
    _current = _from_env()


def use(lang: str) -> None:
    """Speak ``lang`` from now on, in this process and in the processes it starts."""
    global _current
    translations(lang)  # an unknown language is refused here
    _current = lang
    os.environ[ENV] = lang


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the block, then the language spoken before."""
    before = _current
    use(lang)
    try:
        yield
    finally:
        use(before)


class Said(str):
    """A message in the language in use that remembers what it says: its msgid (and plural and
    count) and, once formatted, its arguments, so that a store can keep the code and show it later
    in another language (:func:`stored`, :func:`shown`). Otherwise an ordinary ``str``."""

    msgid: str
    plural: str | None
    n: int | None
    args: dict[str, object]

    def format(self, *args: object, **kwargs: object) -> Said:
        out = Said(str.format(self, *args, **kwargs))
        out.msgid, out.plural, out.n = self.msgid, self.plural, self.n
        out.args = {**self.args, **kwargs} if not args else {}
        if args:  # positional arguments are not kept: the text stays as said
            out.msgid = ""
        return out


def _said(text: str, msgid: str, plural: str | None = None, n: int | None = None) -> Said:
    out = Said(text)
    out.msgid, out.plural, out.n, out.args = msgid, plural, n, {}
    return out


def _(message: str) -> str:
    """``message`` in the language in use (a :class:`Said`)."""
    return _said(translations(_current).gettext(message), message)


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message counting ``n`` things, in the language in use (a :class:`Said`)."""
    return _said(translations(_current).ngettext(singular, plural, n), singular, plural, n)


CODE_MARK = "said:"
"""How a stored text that is a code begins (``said:`` and JSON); any other stored text is prose."""


def _code(text: object) -> object:
    if isinstance(text, Said) and text.msgid:
        code: dict[str, object] = {"msgid": text.msgid, "args": {k: _code(v) for k, v in text.args.items()}}
        if text.plural is not None:
            code["plural"], code["n"] = text.plural, text.n
        return code
    return text if isinstance(text, int | float | bool) or text is None else str(text)


def stored(text: str) -> str:
    """``text`` as a store keeps it: a code (msgid and arguments, :data:`CODE_MARK` + JSON) when it
    is a :class:`Said`, else the text itself; :func:`shown` gives it back in the language in use."""
    code = _code(text)
    if not isinstance(code, dict):
        return str(text)
    import json

    return CODE_MARK + json.dumps(code, ensure_ascii=False, separators=(",", ":"))


def _say(code: object) -> object:
    if not isinstance(code, dict) or "msgid" not in code:
        return code
    args = {k: _say(v) for k, v in dict(code.get("args") or {}).items()}
    if code.get("plural") is not None:
        text = n_(str(code["msgid"]), str(code["plural"]), int(code.get("n") or 0))
    else:
        text = _(str(code["msgid"]))
    try:
        return text.format(**args)
    except (KeyError, IndexError, ValueError):  # a catalog that lost the message: its words as kept
        return str(code["msgid"]).format_map({k: args.get(k, "") for k in args}) if args else text


def shown(text: str | None) -> str:
    """A stored text in the language in use: a code said now, prose (an older store's) as it is."""
    if not text or not text.startswith(CODE_MARK):
        return text or ""
    import json

    try:
        code = json.loads(text[len(CODE_MARK) :])
    except ValueError:
        return text
    return str(_say(code))


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (translate it where it is shown)."""
    return message
