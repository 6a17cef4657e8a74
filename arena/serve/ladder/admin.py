"""The models in Django's admin, for the instructor."""

from __future__ import annotations

from django.contrib import admin

from arena.serve.ladder.models import Ladder, LadderPartido, Seat


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("game", "open", "deadline")


class SeatInline(admin.TabularInline):
    """A partido's seats, in order."""

    model = Seat
    extra = 0
    fields = ("position", "version")
    raw_id_fields = ("version",)


@admin.register(LadderPartido)
class LadderPartidoAdmin(admin.ModelAdmin):
    list_display = ("pk", "ladder", "status", "started_at", "finished_at")
    list_filter = ("ladder", "status")
    inlines = (SeatInline,)
    exclude = ("seed",)  # the deal key: on the standings page once the partido is done
