"""The WSGI application (after :func:`arena.serve.boot.configure`)."""

from __future__ import annotations

from typing import Any


def application() -> Any:
    """Django's WSGI handler for the configured service."""
    from django.core.wsgi import get_wsgi_application

    return get_wsgi_application()
