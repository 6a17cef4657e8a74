"""The pages' messages, as the catalog ``locale/es/LC_MESSAGES/django.po`` must hold them.

From the Python code (``_``, ``gettext``, ``gettext_lazy``) with Babel, and from the templates'
``{% translate "…" %}`` and ``{% blocktranslate %}…{% endblocktranslate %}`` (variables as
Django names them, ``%(name)s``; a template's literal ``%`` doubled, as Django looks it up).
tests/serve/test_serve.py checks the catalog against them.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir

PACKAGE = Path(__file__).parent
KEYWORDS = {"_": None, "gettext": None, "gettext_lazy": None}
_TRANSLATE = re.compile(r"""\{%\s*translate\s+(?:"([^"]*)"|'([^']*)')\s*%\}""")
_BLOCK = re.compile(r"\{%\s*blocktranslate\b[^%]*%\}(.*?)\{%\s*endblocktranslate\s*%\}", re.DOTALL)
_VARIABLE = re.compile(r"\{\{\s*(\w+)\s*\}\}")


def messages() -> dict[str, str]:
    """Every message of the pages, with where it is (``file:line``)."""
    found: dict[str, str] = {}
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.setdefault(message if isinstance(message, str) else message[0], f"{filename}:{lineno}")
    for template in sorted(PACKAGE.glob("**/templates/**/*.html")):  # the shared ones and each app's
        text = template.read_text(encoding="utf-8")
        where = template.relative_to(PACKAGE).as_posix()
        for match in _TRANSLATE.finditer(text):
            found.setdefault((match.group(1) or match.group(2) or "").replace("%", "%%"), where)
        for match in _BLOCK.finditer(text):
            found.setdefault(_VARIABLE.sub(r"%(\1)s", match.group(1).replace("%", "%%")), where)
    return found
