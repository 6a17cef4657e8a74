"""The form of a ladder's final torneo page (arena/serve/finals/views.py): each error beside its field.

One form for the page's three actions: ``start`` a final with its options, set the ``grades`` of
the latest one, ``retry`` a failed one. Its cleaned data are the options
:func:`arena.serve.finals.final.start_final` takes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from arena.serve.finals import final as finals
from arena.tournament.schedule import MAX_PARTIDOS


class FinalForm(forms.Form):
    """The instructor's action on a ladder's final torneo and, to start one, its options: every
    deal under every seat rotation (``duplicate``), more partidos until consecutive places are
    separated (``until_separated``), a balanced subset of ``partidos``, the grades scale, and the
    ``workers`` and ``table_size`` the page does not show."""

    action = forms.ChoiceField(
        choices=[("start", "start"), ("grades", "grades"), ("retry", "retry")],
        error_messages={"required": _("Unknown action."), "invalid_choice": _("Unknown action.")},
    )
    duplicate = forms.BooleanField(required=False)
    until_separated = forms.BooleanField(required=False)
    partidos = forms.IntegerField(required=False, min_value=1, max_value=MAX_PARTIDOS)
    grades = forms.CharField(required=False)
    workers = forms.IntegerField(required=False, min_value=1, max_value=64)
    table_size = forms.IntegerField(required=False, min_value=1)  # the game's own sizes: freeze says them

    def __init__(self, *args: Any, latest: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.latest = latest
        said = _("The number of partidos must be a whole number, 1 or more (or empty: all).")
        most = _("At most {n} partidos: a final of more would never end.").format(n=f"{MAX_PARTIDOS:,}")
        self.fields["partidos"].error_messages.update({"invalid": said, "min_value": said, "max_value": most})
        for name in ("workers", "table_size"):
            whole = _("{option} must be a whole number, 1 or more.").format(option=name)
            self.fields[name].error_messages.update({"invalid": whole, "min_value": whole})
        self.fields["workers"].error_messages["max_value"] = _("workers: at most 64.")

    def clean_grades(self) -> str:
        """The grades scale (empty: the default), refused when it is not one."""
        text: str = self.cleaned_data.get("grades") or finals.DEFAULT_GRADES
        try:
            finals.grade_scale(text)
        except finals.FinalError as exc:
            raise ValidationError(str(exc), code="scale") from None
        return text

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if cleaned.get("action") in ("grades", "retry") and self.latest is None:
            self.add_error("action", ValidationError(_("Unknown action."), code="no_final"))
        return cleaned
