"""Start Django for ``arena serve`` without a manage.py: :func:`configure` then :func:`migrate`."""

from __future__ import annotations

import os
from pathlib import Path

CATALOG = Path(__file__).with_name("locale") / "es" / "LC_MESSAGES" / "django.po"


def compile_catalog(folder: Path) -> Path:
    """Compile the pages' Spanish catalog into ``folder/locale`` (with Babel, as arena.i18n does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = folder / "locale" / "es" / "LC_MESSAGES" / "django.mo"
    out.parent.mkdir(parents=True, exist_ok=True)
    with CATALOG.open("rb") as f:
        catalog = read_po(f, locale="es", domain="django")
    tmp = out.with_suffix(f".mo.{os.getpid()}.tmp")  # not shown (the workers compile it too, at once)
    with tmp.open("wb") as f:
        write_mo(f, catalog)
    os.replace(tmp, out)
    return out


def configure(folder: str | Path) -> Path:
    """Set up Django for the service in ``folder`` (created if missing) and return it."""
    import django

    folder = Path(folder).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "uploads").mkdir(exist_ok=True)
    (folder / "static").mkdir(exist_ok=True)  # STATIC_ROOT, empty but for `manage DIR collectstatic`
    compile_catalog(folder)
    os.environ["ARENA_SERVE_DIR"] = str(folder)
    os.environ["DJANGO_SETTINGS_MODULE"] = "arena.serve.settings"
    django.setup()
    return folder


def migrate() -> None:
    """Bring the database to the models' schema (run after :func:`configure`)."""
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
