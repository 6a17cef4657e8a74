"""The forms of the account pages (arena/serve/accounts/views.py): each error beside its field."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from arena.serve.accounts.models import Student


class NewLinkForm(forms.Form):
    """The instructor issues a student a new one-time link (an invitation, or a password reset once
    the student has a password); the student's pending link, if any, stops working."""

    student = forms.ModelChoiceField(
        queryset=Student.objects.all(),
        label=_("Student"),
        error_messages={"invalid_choice": _("That student is not on the roster.")},
    )


class RosterForm(forms.Form):
    """The instructor's roster: the participants' CSV (Moodle's export), read as UTF-8 (a BOM
    allowed) or else Latin-1; its cleaned value is the text."""

    roster = forms.FileField(
        label=_("Roster"),
        allow_empty_file=True,
        error_messages={
            "required": _("Choose the roster's CSV file."),
            "invalid": _("Choose the roster's CSV file."),
            "missing": _("Choose the roster's CSV file."),
        },
    )

    def clean_roster(self) -> str:
        sent = self.cleaned_data["roster"]
        if sent.size > settings.UPLOAD_MAX_BYTES:
            raise forms.ValidationError(_("Choose the roster's CSV file."), code="size")
        raw = sent.read()
        try:
            text: str = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
        return text


class LoginForm(AuthenticationForm):
    """Django's login form, saying what the user name is (a student's email; the instructor's name)
    and, when they do not match, one message (ours, in place of Django's)."""

    error_messages: ClassVar[dict[str, Any]] = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("Your email and password did not match. Try again."),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = _("Email (or user name)")
