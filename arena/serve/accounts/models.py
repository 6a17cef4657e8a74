"""Who uses the service: students (accounts of django.contrib.auth), their invitations, the audit log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    """An invitation's token: unguessable, in a URL as it is."""
    return secrets.token_urlsafe(32)


class Student(models.Model):
    """A person on the course's roster (an account of django.contrib.auth)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="student", verbose_name=_("user")
    )
    display_name = models.CharField(_("name"), max_length=200)
    email = models.EmailField(_("email"), blank=True)
    roster_id = models.CharField(_("roster id"), max_length=100, blank=True)

    class Meta:
        verbose_name = _("student")
        verbose_name_plural = _("students")

    def __str__(self) -> str:
        return self.display_name


class Invitation(models.Model):
    """A one-time link that sets an account's password."""

    token = models.CharField(max_length=64, unique=True, default=new_token)
    student = models.ForeignKey(
        Student, on_delete=models.CASCADE, null=True, blank=True, verbose_name=_("student")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("user")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return str(self.user)


class AuditLog(models.Model):
    """Who did what, when: uploads and instructors' actions (every app writes it: it lives in the lowest)."""

    who = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, verbose_name=_("who")
    )
    what = models.CharField(_("what"), max_length=500)
    when = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ("-when",)

    def __str__(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M} {self.who}: {self.what}"
