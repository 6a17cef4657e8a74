"""The models in Django's admin, for the instructor."""

from __future__ import annotations

from django.contrib import admin

from arena.serve.accounts.models import AuditLog, Invitation, Student


@admin.register(Student)
class StudentAdmin(admin.ModelAdmin):
    list_display = ("display_name", "email", "roster_id")
    search_fields = ("display_name", "email", "roster_id")


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "used_at")
    exclude = ("token",)


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ("when", "who", "what")
    readonly_fields = ("when", "who", "what")
