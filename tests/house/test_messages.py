"""One language at a time: every line a person reads comes from the message catalogs.

The scan below fails on any sentence in the package's code that is not wrapped in
``_()``, ``n_()`` or ``N_()`` (so not in the catalogs), on a translation missing
from the Spanish catalog, and on language switches written by hand.
"""

from __future__ import annotations

import ast
import functools
import re
import string
from pathlib import Path

import click
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from arena import i18n

PACKAGE = Path(i18n.__file__).parent
KEYWORDS = {"_": None, "N_": None, "n_": (1, 2)}
WRAPPERS = {"_", "N_", "n_"}
NOT_SHOWN = "# not shown"  # on the line of a sentence nobody reads (a pattern, a command, an invariant)
# Sentences that are not for people: SQL, log record formats, patterns.
NOT_FOR_PEOPLE = re.compile(
    r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|WITH|BEGIN|ALTER|DROP|REPLACE)\b|%\(\w+\)s|^\^|\\[dswb]"
)


def _sentence(text: str) -> bool:
    """A text a person reads: two words or more, with letters."""
    words = re.findall(r"[^\W\d_]{2,}", text)
    return len(words) >= 2 and " " in text.strip() and not NOT_FOR_PEOPLE.search(text)


def _docstrings(tree: ast.AST) -> set[int]:
    """Strings standing alone as statements: docstrings, of modules, classes, functions and attributes."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def _wrapped(tree: ast.AST) -> set[int]:
    """Every node inside a call of a gettext wrapper."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in WRAPPERS:
            for arg in node.args:
                ids.update(id(n) for n in ast.walk(arg))
    return ids


@functools.cache
def _parsed(path: Path) -> tuple[list[str], ast.Module]:
    """The lines of ``path`` and its syntax tree, read once for the module's tests (none changes it)."""
    source = path.read_text(encoding="utf-8")
    return source.splitlines(), ast.parse(source)


def unwrapped_sentences(path: Path) -> list[str]:
    """``file:line: text`` of each sentence in ``path`` outside the catalogs."""
    lines, tree = _parsed(path)
    skip = _docstrings(tree) | _wrapped(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            skip.update(id(n) for n in ast.walk(node))
            text = "".join(v.value if isinstance(v, ast.Constant) else " {} " for v in node.values)
        else:
            continue
        marked = any(NOT_SHOWN in lines[n - 1] for n in {node.lineno, node.end_lineno or node.lineno})
        if _sentence(text) and not marked:
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {text[:70]!r}")
    return found


def _modules() -> list[Path]:
    """The package's code, less generated migrations (copies of their models' texts)."""
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "i18n.py" and "migrations" not in p.parts)


def test_every_sentence_is_in_the_catalogs() -> None:
    found = [line for path in _modules() for line in unwrapped_sentences(path)]
    assert not found, "sentences outside the catalogs (wrap them in _()):\n" + "\n".join(found)


def test_no_language_switch_by_hand() -> None:
    """Languages are chosen by the catalogs: no ``lang == "es"`` and no ``{"es": …, "en": …}`` tables."""
    found = []
    for path in _modules():
        for node in ast.walk(_parsed(path)[1]):
            if isinstance(node, ast.Compare):
                values = [node.left, *node.comparators]
                if any(isinstance(v, ast.Constant) and v.value in i18n.LANGUAGES for v in values):
                    found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if set(i18n.LANGUAGES) <= keys:
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, "language switched by hand at " + ", ".join(found)


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _catalog(lang: str):  # type: ignore[no-untyped-def]
    with i18n.catalog_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


@functools.cache
def _extracted() -> dict[str, tuple[str, int]]:
    messages: dict[str, tuple[str, int]] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        # arena serve's pages are Django's, with a catalog of their own (tests/serve/test_serve.py checks it)
        str(PACKAGE), method_map=[("serve/**.py", "ignore"), ("**.py", "python")], keywords=KEYWORDS
    ):
        key = message if isinstance(message, str) else message[0]
        messages.setdefault(key, (filename, lineno))
    return messages


def test_every_message_is_translated() -> None:
    catalog = _catalog("es")
    missing = []
    for msgid, (filename, lineno) in _extracted().items():
        entry = catalog.get(msgid)
        if entry is None or not entry.string or (isinstance(entry.string, tuple) and not all(entry.string)):
            missing.append(f"{filename}:{lineno}: {msgid!r}")
        elif entry.fuzzy:
            missing.append(f"{filename}:{lineno}: fuzzy {msgid!r}")
    assert not missing, "not in the Spanish catalog (see docs/translating.md):\n" + "\n".join(missing)


def test_translations_keep_every_placeholder() -> None:
    """A translation has the placeholders of its message; a plural's singular form may use those of
    either form (``{n}`` in "1 jugador" is allowed), its plural form exactly the plural's."""
    wrong = []
    for entry in _catalog("es"):
        if not entry.id:
            continue
        if isinstance(entry.id, str):
            if _placeholders(entry.string) != _placeholders(entry.id):
                wrong.append(f"{entry.id!r} → {entry.string!r}")
            continue
        singular, plural = (_placeholders(text) for text in entry.id)
        *singulars, last = entry.string
        if _placeholders(last) != plural or any(not _placeholders(s) <= singular | plural for s in singulars):
            wrong.append(f"{entry.id!r} → {entry.string!r}")
    assert not wrong, "placeholders changed in translation:\n" + "\n".join(wrong)


def test_catalog_has_no_stale_messages() -> None:
    used = set(_extracted()) | set(_click_messages())
    ids = [e.id if isinstance(e.id, str) else e.id[0] for e in _catalog("es") if e.id]
    stale = [msgid for msgid in ids if msgid not in used]
    assert not stale, "in the catalog but no longer in the code: " + repr(stale)


def _click_messages() -> dict[str, tuple[str, int]]:
    messages: dict[str, tuple[str, int]] = {}
    keywords = {"_": None, "ngettext": (1, 2)}
    folder = str(Path(click.__file__).parent)
    found = extract_from_dir(folder, method_map=[("**.py", "python")], keywords=keywords)
    for filename, lineno, message, _c, _x in found:
        messages.setdefault(message if isinstance(message, str) else message[0], (filename, lineno))
    return messages


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_language_is_spoken_and_passed_on(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.ENV, "es")
    with i18n.speaking(lang):
        import os

        assert os.environ[i18n.ENV] == lang
        assert i18n.language() == lang
    assert i18n.language() == "es"


def test_spanish_and_english_differ() -> None:
    """The catalog is read: a message has its Spanish text in Spanish, itself in English."""
    entry = next(e for e in _catalog("es") if e.id and isinstance(e.id, str) and e.string)
    with i18n.speaking("es"):
        assert i18n._(entry.id) == entry.string
    with i18n.speaking("en"):
        assert i18n._(entry.id) == entry.id


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.use("fr")
