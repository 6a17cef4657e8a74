"""Recovering accounts: the roster's pending links (invitations and password resets), a new link
per student, their CSV, the login page's way to a reset, and Django's password reset by email when
an SMTP server is configured (``settings.PASSWORD_RESET_BY_EMAIL``).

A link is an :class:`~arena.serve.ladder.models.Invitation`: its token is kept in the database until
the link is used, so the roster (instructors only) can show it again; issuing a new one deletes the
student's pending ones (their links then answer 404). docs/serve.md, *Recovering accounts*.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena import inert
from arena.serve.ladder.forms import NewLinkForm
from arena.serve.ladder.models import Invitation, Student
from arena.serve.ladder.views import _instructor, audit
from arena.serve.security import client_ip as request_address


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


RESET_WINDOW_S = 3600
"""The window of the reset emails' limits (an hour)."""


def _spend(key: str, most: int) -> bool:
    """One more of at most ``most`` in the current window under ``key`` (the cache); False when spent."""
    cache.add(key, 0, RESET_WINDOW_S)
    try:
        return cache.incr(key) <= most
    except ValueError:  # expired between the two calls: a new window
        cache.set(key, 1, RESET_WINDOW_S)
        return True


class ThrottledReset(auth_views.PasswordResetView):
    """Django's reset by email, rate limited so the form cannot mail-bomb a student or spend the SMTP
    server's quota: from one address at most ``settings.RESET_REQUESTS_PER_HOUR`` requests an hour
    (then the form says so), and to one email address at most ``settings.RESET_EMAILS_PER_HOUR``
    emails an hour (then nothing more is sent, and the page says what it always says: whether an
    account has that address is never told)."""

    template_name = "registration/reset_request.html"
    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
        address = request_address(self.request)
        if not _spend(f"reset-from:{address}", settings.RESET_REQUESTS_PER_HOUR):  # not shown
            form.add_error(None, _("Too many reset requests from your address: try again in an hour."))
            return self.form_invalid(form)
        email = form.cleaned_data["email"].strip().lower()
        mailbox = hashlib.sha256(email.encode()).hexdigest()
        if not _spend(f"reset-to:{mailbox}", settings.RESET_EMAILS_PER_HOUR):  # not shown
            return HttpResponseRedirect(self.get_success_url())
        return super().form_valid(form)


reset_request = _by_email(ThrottledReset.as_view())
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
