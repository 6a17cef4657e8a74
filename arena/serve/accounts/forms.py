"""The forms of the account pages (arena/serve/accounts/views.py): each error beside its field."""

from __future__ import annotations

from django import forms
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
