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


def _(message: str) -> str:
    """``message`` in the language in use."""
    return translations(_current).gettext(message)


def n_(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message counting ``n`` things, in the language in use."""
    return translations(_current).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (translate it where it is shown)."""
    return message
