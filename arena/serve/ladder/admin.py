"""The models in Django's admin, for the instructor."""

from __future__ import annotations

from django.contrib import admin

from arena.serve.ladder.models import AuditLog, Invitation, Ladder, LadderPartido, Student, Version


@admin.register(Student)
class StudentAdmin(admin.ModelAdmin):
    list_display = ("display_name", "email", "roster_id")
    search_fields = ("display_name", "email", "roster_id")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "used_at")
    exclude = ("token",)


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ("game", "open", "deadline")


@admin.register(Version)
class VersionAdmin(admin.ModelAdmin):
    list_display = ("student", "number", "status", "chosen", "uploaded_at")
    list_filter = ("status",)


@admin.register(LadderPartido)
class LadderPartidoAdmin(admin.ModelAdmin):
    list_display = ("pk", "ladder", "status", "versions", "started_at", "finished_at")
    list_filter = ("ladder", "status")
    exclude = ("seed",)  # the deal key: on the standings page once the partido is done


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ("when", "who", "what")
    readonly_fields = ("when", "who", "what")
