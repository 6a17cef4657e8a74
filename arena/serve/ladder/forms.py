"""The forms of the ladder's pages (arena/serve/ladder/views.py): each error beside its field.

Each holds today's rules in its ``clean_*`` methods; a view binds it to the POST, asks
``is_valid()`` and on an error renders its page again with the form bound (the user's input kept)
and nothing written.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from arena.serve.accounts.models import Student
from arena.serve.ladder.models import Ladder
from arena.serve.submissions.models import Version


class MultipleFileInput(forms.ClearableFileInput):
    """A file input that takes several files (``<input type="file" multiple>``), as Django 5
    documents it."""

    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """A file field whose cleaned value is the list of the files sent (empty when none), as Django 5
    documents it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> Any:
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data]
        return [single(data, initial)] if data else []


class UploadForm(forms.Form):
    """A student's upload: the zip of their player's folder or its files, for one open ladder.

    The refusals keep their statuses: too many uploads this hour (a non-field error of code
    ``rate``: 429), the ladder closed or past its deadline (an error of ``ladder``: 403), the files
    (an error of ``player``: 400)."""

    player = MultipleFileField(required=False, allow_empty_file=True)
    ladder = forms.ModelChoiceField(
        queryset=Ladder.objects.filter(open=True),
        required=False,
        error_messages={"invalid_choice": _("That ladder is closed: it takes no uploads.")},
    )

    def __init__(self, *args: Any, student: Student, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.student = student

    def clean_player(self) -> list[Any]:
        sent: list[Any] = self.cleaned_data.get("player") or []
        if not sent:
            raise ValidationError(_("Choose the zip of your player's folder."), code="required")
        if sum(f.size or 0 for f in sent) > settings.UPLOAD_MAX_BYTES:
            said = _("The file is larger than {mib} MiB.").format(mib=settings.UPLOAD_MAX_BYTES // (1 << 20))
            raise ValidationError(said, code="size")
        if len(sent) > settings.UPLOAD_MAX_FILES:
            said = _("At most {n} files: zip the player's folder instead.").format(
                n=settings.UPLOAD_MAX_FILES
            )
            raise ValidationError(said, code="count")
        if len(sent) > 1 and any(f.name.lower().endswith(".zip") for f in sent):
            raise ValidationError(_("Upload one .zip, or the player's files without a zip."), code="zip")
        return sent

    def clean_ladder(self) -> Ladder | None:
        """The ladder chosen, else the only open one, else none; refused when past its deadline."""
        ladder: Ladder | None = self.cleaned_data.get("ladder")
        if ladder is None:
            ladders = Ladder.objects.filter(open=True)
            ladder = ladders.get() if ladders.count() == 1 else None
        if ladder is not None and ladder.deadline is not None and timezone.now() >= ladder.deadline:
            closed = _("The deadline of the {game} ladder was {deadline}: it takes no more uploads.")
            shown = f"{ladder.deadline:%Y-%m-%d %H:%M} UTC"
            raise ValidationError(closed.format(game=ladder.game, deadline=shown), code="closed")
        return ladder

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        hour_ago = timezone.now() - timedelta(hours=1)
        if self.student.versions.filter(uploaded_at__gte=hour_ago).count() >= settings.UPLOADS_PER_HOUR:
            said = _("Too many uploads: at most {n} an hour; try again later.").format(
                n=settings.UPLOADS_PER_HOUR
            )
            raise ValidationError(said, code="rate")
        return cleaned

    def status(self) -> int:
        """The status of a refused upload: 429 too many this hour, 400 bad files, 403 the ladder."""
        if self.has_error(NON_FIELD_ERRORS, "rate"):
            return 429
        if self.has_error("player"):
            return 400
        return 403 if self.has_error("ladder") else 400


class OpenLadderForm(forms.Form):
    """The instructor opens a ladder for a game of the registry that has none yet."""

    game = forms.ChoiceField(
        choices=(),
        error_messages={
            "required": _("Choose one of the games."),
            "invalid_choice": _("Choose one of the games."),
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from arena import games

        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [(g, g) for g in games.names()]

    def clean_game(self) -> str:
        game: str = self.cleaned_data["game"]
        if Ladder.objects.filter(game=game).exists():
            raise ValidationError(_("That game has a ladder already."), code="taken")
        return game


def entries(ladder: Ladder) -> QuerySet[Version]:
    """Every version uploaded for ``ladder`` (withdrawn ones too), newest first; the versions of
    no ladder count as the default game's."""
    from arena import games

    mine = Q(ladder=ladder)
    if ladder.game == games.default().name:
        mine |= Q(ladder__isnull=True)
    return Version.objects.filter(mine).select_related("student").order_by("student__display_name", "-number")


class ControlForm(forms.Form):
    """One of the instructor's actions on a ladder: open or close it, pause or resume its workers,
    set its deadline (a ``datetime-local``, UTC; empty: none), withdraw a version with a reason
    (the student reads it) or reinstate it."""

    ACTIONS = ("open", "close", "pause", "resume", "deadline", "withdraw", "reinstate")

    action = forms.ChoiceField(
        choices=[(a, a) for a in ACTIONS],
        error_messages={
            "required": _("Unknown action."),
            "invalid_choice": _("Unknown action."),
        },
    )
    deadline = forms.DateTimeField(
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        error_messages={"invalid": _("The deadline must be a date and time, as 2026-12-18 23:59.")},
    )
    version = forms.ModelChoiceField(
        queryset=Version.objects.none(),
        required=False,
        error_messages={"invalid_choice": _("Choose a version of this ladder.")},
    )
    reason = forms.CharField(required=False)

    def __init__(self, *args: Any, ladder: Ladder, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ladder = ladder
        self.fields["version"].queryset = entries(ladder)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        action = cleaned.get("action")
        if action in ("withdraw", "reinstate") and not self.has_error("version"):
            if cleaned.get("version") is None:
                self.add_error(
                    "version", ValidationError(_("Choose a version of this ladder."), code="required")
                )
            elif action == "withdraw" and not cleaned.get("reason"):
                said = _("Say why the version is withdrawn: the student reads it.")
                self.add_error("reason", ValidationError(said, code="required"))
        return cleaned
