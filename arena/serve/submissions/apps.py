"""The app's configuration."""

from __future__ import annotations

from django.apps import AppConfig


class SubmissionsConfig(AppConfig):
    """``arena.serve.submissions`` (docs/serve.md, *How the service is built*)."""

    name = "arena.serve.submissions"
    label = "submissions"
    default_auto_field = "django.db.models.BigAutoField"
