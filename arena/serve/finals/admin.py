"""The models in Django's admin, for the instructor."""

from __future__ import annotations

from django.contrib import admin

from arena.serve.finals.models import FinalTorneo


@admin.register(FinalTorneo)
class FinalTorneoAdmin(admin.ModelAdmin):
    list_display = ("pk", "ladder", "status", "created_at", "finished_at")
    list_filter = ("status",)
    raw_id_fields = ("versions",)
