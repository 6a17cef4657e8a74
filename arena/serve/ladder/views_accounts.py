"""Recovering accounts: the roster's pending links (invitations and password resets), a new link
per student, their CSV, the login page's way to a reset, and Django's password reset by email when
an SMTP server is configured (``settings.PASSWORD_RESET_BY_EMAIL``).

A link is an :class:`~arena.serve.ladder.models.Invitation`: its token is kept in the database until
the link is used, so the roster (instructors only) can show it again; issuing a new one deletes the
student's pending ones (their links then answer 404). docs/serve.md, *Recovering accounts*.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena import inert
from arena.serve.ladder.forms import NewLinkForm
from arena.serve.ladder.models import Invitation, Student
from arena.serve.ladder.views import _instructor, audit


def pending(request: HttpRequest) -> list[dict[str, Any]]:
    """The students' links not used yet, by student: who, the link, invitation or reset, when issued."""
    rows = []
    found = (
        Invitation.objects.filter(used_at__isnull=True, student__isnull=False)
        .select_related("student", "user")
        .order_by("student__display_name", "-created_at")
    )
    for invitation in found:
        reset = invitation.user.has_usable_password()
        rows.append(
            {
                "invitation": invitation,
                "student": invitation.student,
                "link": request.build_absolute_uri(reverse("invite", args=[invitation.token])),
                "kind": _("password reset") if reset else _("invitation"),
                "issued": invitation.created_at,
            }
        )
    return rows


def issue(student: Student) -> Invitation:
    """A new one-time link for ``student``; the pending ones stop working."""
    with transaction.atomic():
        Invitation.objects.filter(user_id=student.user_id, used_at__isnull=True).delete()
        return Invitation.objects.create(user_id=student.user_id, student=student)


@require_POST
def new_link(request: HttpRequest) -> HttpResponse:
    """The instructor issues a student a new link (an invitation, or a reset once they have a
    password); back to the roster, where it is listed."""
    _instructor(request)
    form = NewLinkForm(request.POST)
    if not form.is_valid():  # the roster again, the form's error beside the pending links
        students = Student.objects.select_related("user").order_by("display_name")
        context = {"links": [], "problems": [], "students": students, "link_form": form}
        return render(request, "ladder/roster.html", context, status=400)
    student = form.cleaned_data["student"]
    invitation = issue(student)
    audit(request, _("new link issued: {student}").format(student=student.display_name))
    return redirect(reverse("roster") + f"#link-{invitation.pk}")


def links_csv(request: HttpRequest) -> HttpResponse:
    """The pending links as a CSV (instructors only; every field inert for spreadsheets)."""
    _instructor(request)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["Name", "Email address", "ID number", "Kind", "Link", "Issued (UTC)"])  # not shown
    for row in pending(request):
        student = row["student"]
        fields = [student.display_name, student.email, student.roster_id, row["kind"], row["link"]]
        writer.writerow([inert.cell(f) for f in fields] + [f"{row['issued']:%Y-%m-%d %H:%M}"])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")  # not shown
    response["Content-Disposition"] = 'attachment; filename="links.csv"'  # not shown
    response["Cache-Control"] = "no-store"
    return response


class Login(auth_views.LoginView):
    """Django's login, saying how to recover a forgotten password (by email, or from the instructor)."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["reset_by_email"] = settings.PASSWORD_RESET_BY_EMAIL
        return context


def _by_email(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A page of the reset by email: 404 unless an SMTP server is configured."""

    def gated(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not settings.PASSWORD_RESET_BY_EMAIL:
            raise Http404
        return view(request, *args, **kwargs)

    return gated


reset_request = _by_email(
    auth_views.PasswordResetView.as_view(
        template_name="registration/reset_request.html",
        success_url=reverse_lazy("password_reset_done"),
    )
)
reset_sent = _by_email(auth_views.PasswordResetDoneView.as_view(template_name="registration/reset_sent.html"))
reset_confirm = _by_email(
    auth_views.PasswordResetConfirmView.as_view(
        template_name="registration/reset_confirm.html",
        success_url=reverse_lazy("password_reset_complete"),
    )
)
reset_complete = _by_email(
    auth_views.PasswordResetCompleteView.as_view(template_name="registration/reset_complete.html")
)
