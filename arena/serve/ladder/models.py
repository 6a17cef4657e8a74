"""What the service keeps: students, invitations, ladders, versions of a student's player, the audit log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def game_choices() -> list[tuple[str, str]]:
    """The games of arena's registry."""
    from arena import games

    return [(name, name) for name in games.names()]


def new_token() -> str:
    """An invitation's token: unguessable, in a URL as it is."""
    return secrets.token_urlsafe(32)


class Student(models.Model):
    """A person on the course's roster (an account of django.contrib.auth)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="student")
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
    student = models.ForeignKey(Student, on_delete=models.CASCADE, null=True, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    created_at = models.DateTimeField(auto_now_add=True)
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return str(self.user)


class Ladder(models.Model):
    """One game's ladder, opened by the instructor."""

    game = models.CharField(_("game"), max_length=40, choices=game_choices, unique=True)
    open = models.BooleanField(_("open"), default=False)
    deadline = models.DateTimeField(
        _("deadline"), null=True, blank=True, help_text=_("Uploads are refused after it.")
    )
    paused = models.BooleanField(
        _("paused"), default=False, help_text=_("The workers play none of its partidos.")
    )

    class Meta:
        verbose_name = _("ladder")
        verbose_name_plural = _("ladders")

    def __str__(self) -> str:
        return self.game


class Version(models.Model):
    """One upload of a student's player, checked in the sandbox."""

    CHECKING = "checking"
    CLEAN = "clean"
    BROKEN = "broken"
    STATUSES = ((CHECKING, _("checking")), (CLEAN, _("clean")), (BROKEN, _("broken")))

    student = models.ForeignKey(Student, on_delete=models.CASCADE, related_name="versions")
    ladder = models.ForeignKey(Ladder, on_delete=models.PROTECT, null=True, blank=True)
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


def new_seed() -> str:
    """A partido's deal: a fresh secret key."""
    from arena.seeds import new_key

    return new_key()


class LadderPartido(models.Model):
    """One partido of a ladder: its table (versions in seat order), its deal, its result.

    ``versions`` are the versions in seat order, and ``winners`` and ``ranking`` (groups, best
    first) index into them. In a game of teams (Tute por parejas) they are its *sides* instead,
    side 0's version first: each version plays every seat of its team with processes of its own
    folder, and the ranking ranks sides, as ``arena tournament`` counts them; the replay keeps the
    seats. So the standings read both alike.

    A result is saved only together with the status *done*, in one transaction; a partido left
    *playing* by a stopped server goes back to *queued* and is played again from the start.
    """

    QUEUED = "queued"
    PLAYING = "playing"
    DONE = "done"
    STATUSES = ((QUEUED, _("queued")), (PLAYING, _("playing")), (DONE, _("done")))

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="partidos")
    versions = models.JSONField(_("versions"), default=list, help_text=_("Version ids in seat order."))
    seed = models.CharField(_("deal key"), max_length=128, default=new_seed)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=QUEUED, db_index=True)
    winners = models.JSONField(_("winners"), default=list, blank=True)
    ranking = models.JSONField(_("ranking"), default=list, blank=True)
    error = models.TextField(_("error"), blank=True)
    replay = models.CharField(_("replay"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("ladder partido")
        verbose_name_plural = _("ladder partidos")
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.ladder} #{self.pk}"


class AuditLog(models.Model):
    """Who did what, when: uploads and instructors' actions."""

    who = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    what = models.CharField(_("what"), max_length=500)
    when = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("audit log entry")
        verbose_name_plural = _("audit log")
        ordering = ("-when",)

    def __str__(self) -> str:
        return f"{self.when:%Y-%m-%d %H:%M} {self.who}: {self.what}"


class FinalTorneo(models.Model):
    """The official round robin of a ladder's frozen versions, played by ``arena tournament``."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    STATUSES = ((QUEUED, _("queued")), (RUNNING, _("running")), (DONE, _("done")), (FAILED, _("failed")))

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="finals")
    versions = models.JSONField(_("versions"), default=list, help_text=_("The frozen version ids."))
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=STATUSES, default=QUEUED)
    folder = models.CharField(_("folder"), max_length=500, blank=True)
    progress = models.TextField(_("progress"), blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("final torneo")
        verbose_name_plural = _("final torneos")
        ordering = ("-id",)

    def __str__(self) -> str:
        return f"{self.ladder} final #{self.pk}"
