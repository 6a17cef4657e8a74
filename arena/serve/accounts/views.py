"""The accounts' pages: the home page's redirect, invitations, the instructor's roster (its CSV import),
who is a student or an instructor, the audit log's lines.

Recovering accounts: the roster's pending links (invitations and password resets), a new link
per student, their CSV, the login page's way to a reset, and Django's password reset by email when
an SMTP server is configured (``settings.PASSWORD_RESET_BY_EMAIL``).

A link is an :class:`~arena.serve.accounts.models.Invitation`: its token is kept in the database until
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
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.core.cache import cache
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena import inert
from arena.serve.accounts.forms import LoginForm, NewLinkForm, RosterForm
from arena.serve.accounts.models import AuditLog, Invitation, Student
from arena.serve.security import client_ip as request_address

# The roster's columns, as Moodle's participants export names them in English or Spanish.
FIRST = ("first name", "nombre")  # not shown
LAST = ("last name", "surname", "apellido(s)", "apellidos")  # not shown
EMAIL = ("email address", "email", "dirección de correo", "correo electrónico", "correo")  # not shown
ID_NUMBER = ("id number", "número de id", "número de identificación")  # not shown


def _student(request: HttpRequest) -> Student | None:
    return Student.objects.filter(user_id=request.user.pk).first()


def _instructor(request: HttpRequest) -> None:
    """A page for instructors: anyone else is told it does not exist."""
    if not (request.user.is_authenticated and request.user.is_staff):
        raise Http404


def audit(request: HttpRequest | None, what: str, who: Any = None) -> None:
    """One line of the audit log."""
    user = who if who is not None else (request.user if request and request.user.is_authenticated else None)
    AuditLog.objects.create(who=user, what=what[:500])


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """Instructors to the roster, students to their page."""
    return redirect("roster" if request.user.is_staff else "me")


def invite(request: HttpRequest, token: str) -> HttpResponse:
    """Set the password of the invitation's account; the link works once."""
    invitation = get_object_or_404(Invitation, token=token)
    if invitation.used_at is not None:
        return render(request, "accounts/invite_used.html", status=410)
    form = SetPasswordForm(invitation.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            taken = Invitation.objects.filter(pk=invitation.pk, used_at__isnull=True).update(
                used_at=timezone.now()
            )
            if not taken:
                return render(request, "accounts/invite_used.html", status=410)
            form.save()
            used = _("invitation used: {user}").format(user=invitation.user.username)
            audit(None, used, who=invitation.user)
        return render(request, "accounts/invite_done.html", {"username": invitation.user.username})
    return render(request, "accounts/invite.html", {"form": form, "username": invitation.user.username})


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
        return render(request, "accounts/roster.html", context, status=400)
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

    form_class = LoginForm

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


def _column(header: list[str], names: tuple[str, ...]) -> int | None:
    lowered = [h.strip().lower() for h in header]
    return next((lowered.index(n) for n in names if n in lowered), None)


def import_roster(text: str) -> tuple[list[tuple[Student, Invitation]], list[str]]:
    """Students and their invitations from a roster CSV (Moodle's participants export); the
    problems with rows that were left out."""
    sample = text[:4096]
    try:
        dialect: Any = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    if not rows:
        return [], [_("The file is empty.")]
    header = rows[0]
    first, last, email = _column(header, FIRST), _column(header, LAST), _column(header, EMAIL)
    number = _column(header, ID_NUMBER)
    if first is None or last is None or email is None:
        return [], [_("The first row must name the columns: first name, last name, email address.")]
    created: list[tuple[Student, Invitation]] = []
    problems: list[str] = []
    users = get_user_model()
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) <= max(first, last, email):
            problems.append(_("Row {line}: too few columns.").format(line=line))
            continue
        address = row[email].strip().lower()
        name = f"{row[first].strip()} {row[last].strip()}".strip()
        if "@" not in address:
            problems.append(_("Row {line}: no email address.").format(line=line))
            continue
        if users.objects.filter(username=address).exists():
            known = _("Row {line}: {email} is already on the roster.")
            problems.append(known.format(line=line, email=address))
            continue
        with transaction.atomic():
            user = users.objects.create_user(
                username=address, email=address, first_name=row[first].strip(), last_name=row[last].strip()
            )
            user.set_unusable_password()
            user.save()
            roster_id = row[number].strip() if number is not None and len(row) > number else ""
            student = Student.objects.create(user=user, display_name=name, email=address, roster_id=roster_id)
            created.append((student, Invitation.objects.create(user=user, student=student)))
    return created, problems


def roster(request: HttpRequest) -> HttpResponse:
    """The instructor's roster: upload the CSV, get one invitation link per new student."""
    _instructor(request)
    links: list[tuple[Student, str]] = []
    problems: list[str] = []
    form = RosterForm(request.POST, request.FILES) if request.method == "POST" else RosterForm()
    if form.is_valid():
        created, problems = import_roster(form.cleaned_data["roster"])
        links = [(s, request.build_absolute_uri(reverse("invite", args=[i.token]))) for s, i in created]
        audit(request, _("roster import: {n} students").format(n=len(created)))
    students = Student.objects.select_related("user").order_by("display_name")
    context = {"links": links, "problems": problems, "students": students, "form": form}
    return render(request, "accounts/roster.html", context, status=400 if form.errors else 200)
