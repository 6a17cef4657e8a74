"""A student's player: each upload is a version, checked in the sandbox."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Version(models.Model):
    """One upload of a student's player, checked in the sandbox."""

    CHECKING = "checking"
    CLEAN = "clean"
    BROKEN = "broken"
    STATUSES = ((CHECKING, _("checking")), (CLEAN, _("clean")), (BROKEN, _("broken")))

    student = models.ForeignKey(
        "accounts.Student", on_delete=models.CASCADE, related_name="versions", verbose_name=_("student")
    )
    ladder = models.ForeignKey(
        "ladder.Ladder", on_delete=models.PROTECT, null=True, blank=True, verbose_name=_("ladder")
    )
    number = models.PositiveIntegerField(_("number"))
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    folder = models.CharField(_("folder"), max_length=500, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=CHECKING)
    report = models.TextField(_("report"), blank=True)
    chosen = models.BooleanField(
        _("chosen to play"),
        default=False,
        help_text=_("Plays in the ladder instead of the last clean version."),
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    withdrawn_reason = models.TextField(_("reason"), blank=True)

    class Meta:
        verbose_name = _("version")
        verbose_name_plural = _("versions")
        unique_together = (("student", "number"),)
        ordering = ("-number",)

    def __str__(self) -> str:
        return f"{self.student} #{self.number}"
