"""The models in Django's admin, for the instructor."""

from __future__ import annotations

from django.contrib import admin

from arena.serve.submissions.models import Version


@admin.register(Version)
class VersionAdmin(admin.ModelAdmin):
    list_display = ("student", "number", "status", "chosen", "uploaded_at")
    list_filter = ("status",)
