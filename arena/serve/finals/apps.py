"""The app's configuration."""

from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinalsConfig(AppConfig):
    """``arena.serve.finals`` (docs/serve.md, *How the service is built*)."""

    name = "arena.serve.finals"
    label = "finals"
    default_auto_field = "django.db.models.BigAutoField"
    verbose_name = _("Finals")
