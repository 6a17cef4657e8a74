"""The final: the official round robin of a ladder's frozen versions."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext_lazy as _


class FinalManager(models.Manager["FinalTorneo"]):
    """``FinalTorneo.objects``: also a final made with its frozen versions."""

    def create_frozen(self, versions: Iterable[Any], **fields: Any) -> FinalTorneo:
        """A new final of ``versions`` (versions or their ids), saved together."""
        with transaction.atomic():
            final = self.create(**fields)
            final.versions.set(versions)
        return final


class FinalTorneo(models.Model):
    """The official round robin of a ladder's frozen versions, played by ``arena tournament``."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STATUSES = ((QUEUED, _("queued")), (RUNNING, _("running")), (DONE, _("done")), (FAILED, _("failed")))

    ladder = models.ForeignKey(
        "ladder.Ladder", on_delete=models.CASCADE, related_name="finals", verbose_name=_("ladder")
    )
    versions = models.ManyToManyField(
        "submissions.Version",
        verbose_name=_("versions"),
        related_name="finals",
        help_text=_("The frozen version ids."),
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=QUEUED)
    folder = models.CharField(_("folder"), max_length=500, blank=True)
    progress = models.TextField(_("progress"), blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    objects = FinalManager()

    class Meta:
        verbose_name = _("final torneo")
        verbose_name_plural = _("final torneos")
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.ladder} final #{self.pk}"
