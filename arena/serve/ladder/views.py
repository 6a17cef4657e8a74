"""The ladder's pages: a student's versions and uploads, a version's report, a ladder's standings,
the instructor's ladders (the roster and invitations: arena/serve/accounts/views.py).

Every view authorizes by role and owner: a version is seen by its author and the instructors
only, the roster by the instructors only; anyone else gets 404, as for a page that does not exist.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from arena.serve.accounts.models import Student
from arena.serve.accounts.views import _instructor, _student, audit
from arena.serve.ladder.forms import ControlForm, OpenLadderForm, UploadForm, entries
from arena.serve.ladder.models import Ladder, LadderPartido, Seat, seat_tables
from arena.serve.submissions import tasks as checks
from arena.serve.submissions.models import Version


def _me_context(student: Student | None, **extra: Any) -> dict[str, Any]:
    """What a student's page shows: their versions (with the ones that play), the open ladders."""
    from arena.serve.ladder.worker import active_ids

    ladders = list(Ladder.objects.filter(open=True).order_by("game"))
    playing = {v for ladder in ladders for v in active_ids(ladder)}
    versions = list(student.versions.select_related("ladder")) if student else []
    from arena.serve.ladder.views_student import summaries

    done = summaries(versions)
    for v in versions:
        v.summary = done[v.pk]
    now = timezone.now()
    context = {
        "student": student,
        "versions": versions,
        "playing": playing,
        "max_mib": settings.UPLOAD_MAX_BYTES // (1 << 20),
        "ladders": ladders,
        "uploadable": [ladder for ladder in ladders if ladder.deadline is None or ladder.deadline > now],
    }
    context.update(extra)
    return context


@login_required
def me(request: HttpRequest) -> HttpResponse:
    """A student's versions and the upload form; an instructor without a student's account goes to
    the ladders."""
    student = _student(request)
    if student is None and request.user.is_staff:
        return redirect("ladders")
    return render(request, "ladder/me.html", _me_context(student))


@login_required
def version(request: HttpRequest, version_id: int) -> HttpResponse:
    """A version's report: for its author and the instructors only."""
    found = get_object_or_404(Version.objects.select_related("student"), pk=version_id)
    if not (request.user.is_staff or found.student.user_id == request.user.pk):
        raise Http404
    from arena.serve.ladder.views_student import charts, partido_rows

    page, rows = partido_rows(found, request.GET.get("page"))
    context = {"version": found, "page": page, "partidos": rows, "charts": charts(found)}
    return render(request, "ladder/version.html", context)


@require_POST
@login_required
def choose(request: HttpRequest, version_id: int) -> HttpResponse:
    """A student chooses which of their clean versions plays in its ladder."""
    student = _student(request)
    found = get_object_or_404(Version, pk=version_id)
    if student is None or found.student_id != student.pk:
        raise Http404
    if found.status != Version.CLEAN or found.withdrawn:
        error = _("Only a clean version that is not withdrawn can play.")
        return render(request, "ladder/me.html", _me_context(student, error=error), status=400)
    with transaction.atomic():
        student.versions.filter(ladder_id=found.ladder_id).update(chosen=False)
        Version.objects.filter(pk=found.pk).update(chosen=True)
    audit(
        request,
        _("chosen to play: {student}, version {number}").format(
            student=student.display_name, number=found.number
        ),
    )
    return redirect("me")


def _zipped(files: list[Any]) -> bytes:
    """The uploaded files as the zip of one folder (``jugador/<name>``; browsers send base names
    only, and :func:`arena.intake.submissions.unpack_player` checks them as any zip's)."""
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for sent in files:
            name = Path(sent.name.replace("\\", "/")).name or "_"
            zf.writestr(f"jugador/{name}", b"".join(sent.chunks()))
    return buffer.getvalue()


@require_POST
@login_required
def upload(request: HttpRequest) -> HttpResponse:
    """A new version from a zip of a player folder, or the player's files: unpacked safely, then
    checked in the background."""
    from arena.intake.submissions import Rejected, unpack_player

    student = _student(request)
    if student is None:
        raise Http404
    form = UploadForm(request.POST, request.FILES, student=student)
    if not form.is_valid():
        return render(request, "ladder/me.html", _me_context(student, form=form), status=form.status())
    sent, ladder = form.cleaned_data["player"], form.cleaned_data["ladder"]
    size = sum(f.size or 0 for f in sent)
    with transaction.atomic():
        number = (student.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        new = Version.objects.create(student=student, number=number, ladder=ladder)
    home = Path(settings.DIR) / "uploads" / str(student.pk) / str(number)
    home.mkdir(parents=True, exist_ok=True)
    archive = home / "upload.zip"
    with archive.open("wb") as out:
        if len(sent) == 1 and sent[0].name.lower().endswith(".zip"):
            for chunk in sent[0].chunks():
                out.write(chunk)
        else:  # the player's files: zipped as one folder, then unpacked as any upload
            out.write(_zipped(sent))
    what = _("upload: {student}, version {number} ({size} bytes)")
    audit(request, what.format(student=student.display_name, number=number, size=size))
    try:
        folder = unpack_player(archive, home / "player")
    except Rejected as exc:
        shutil.rmtree(home / "player", ignore_errors=True)
        new.status, new.report = Version.BROKEN, _("The zip was refused: {reason}").format(reason=exc.text())
        new.save(update_fields=["status", "report"])
        return redirect("version", version_id=new.pk)
    new.folder = str(folder)
    new.save(update_fields=["folder"])
    transaction.on_commit(lambda: checks.check_version.enqueue(new.pk))  # a worker of queue checks
    return redirect("version", version_id=new.pk)


STANDINGS_RESAMPLES = 200
"""The bootstrap resamples behind the standings' intervals (fitted again when a partido ends)."""
RECENT_PARTIDOS = 20
"""The partidos a standings page lists."""


def standings_rows(ladder: Ladder) -> list[dict[str, Any]]:
    """One row per active version of ``ladder``, best first: partidos, wins, average place, and
    the Plackett–Luce strength with the 95% interval of its place (from the partidos played)."""
    from arena.referee.stats import finishing_places
    from arena.results import ranking
    from arena.serve.ladder.worker import active_ids

    active = active_ids(ladder)
    ranked = ladder.partidos.filter(status=LadderPartido.DONE).exclude(ranking=[])
    # the partidos first, then their seats: a partido that ends between the two reads is in the
    # second (its seats are made with it and never change), never in the first alone
    found = list(ranked.values_list("pk", "ranking", "winners"))
    tables = seat_tables(Seat.objects.filter(partido__in=ranked))
    done = [(pk, tables[pk], groups, winners) for pk, groups, winners in found]
    entrants = list(active)
    index = {v: i for i, v in enumerate(entrants)}
    # versions no longer active still count, for the strength of those they played
    for table in (row[1] for row in done):
        for v in table:
            if v not in index:
                index[v] = len(entrants)
                entrants.append(v)
    n = len(entrants)
    played, won, place_sum = [0] * n, [0] * n, [0.0] * n
    outcomes = []
    for pk, table, groups, winners in done:
        outcomes.append(ranking.Outcome(tuple(tuple(index[table[s]] for s in g) for g in groups), str(pk)))
        for seat, place in finishing_places(groups).items():
            i = index[table[seat]]
            played[i] += 1
            won[i] += seat in winners
            place_sum[i] += place
    # the retired versions inform the fit but take no place: the intervals stay within the rows shown
    shown = range(len(active))
    fit = ranking.places(outcomes, n, STANDINGS_RESAMPLES, among=shown) if outcomes else None
    versions = Version.objects.select_related("student").in_bulk(active)
    rows = []
    order = fit.order if fit else list(range(n))
    for i in order:
        if i >= len(active):
            continue
        theta = fit.theta[i] if fit else float("nan")
        rows.append(
            {
                "version": versions[entrants[i]],
                "partidos": played[i],
                "won": won[i],
                "average_place": place_sum[i] / played[i] if played[i] else None,
                "strength": None if theta != theta else theta,  # NaN: no partido yet
                "low": fit.low[i] if fit and fit.low[i] else None,
                "high": fit.high[i] if fit and fit.high[i] else None,
                "group": fit.group[i] if fit else "",
            }
        )
    return rows


# The standings page, its live updates and the replays: arena/serve/ladder/views_watch.py.


def ladders(request: HttpRequest) -> HttpResponse:
    """The instructor's ladders: open one for a game of the registry (a game of teams too: its
    entrants play as sides)."""
    from arena import games

    _instructor(request)
    form = OpenLadderForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        game = form.cleaned_data["game"]
        ladder = Ladder.objects.create(game=game, open=True)
        audit(request, _("ladder opened: {game}").format(game=game))
        return redirect("standings", ladder_id=ladder.pk)
    taken = set(Ladder.objects.values_list("game", flat=True))
    context = {
        "ladders": Ladder.objects.order_by("game"),
        "games": [g for g in games.names() if g not in taken],
        "form": form,
    }
    return render(request, "ladder/ladders.html", context, status=400 if form.errors else 200)


def _entries(ladder: Ladder) -> list[Version]:
    """Every version uploaded for ``ladder`` (withdrawn ones too), newest first."""
    return list(entries(ladder))


def _control(request: HttpRequest, ladder: Ladder, form: ControlForm) -> None:
    """Apply one of the instructor's actions on ``ladder`` (``form``: valid). Each is audited."""
    action = form.cleaned_data["action"]
    game = ladder.game
    if action in ("open", "close"):
        ladder.open = action == "open"
        ladder.save(update_fields=["open"])
        audit(
            request,
            (_("ladder opened: {game}") if ladder.open else _("ladder closed: {game}")).format(game=game),
        )
    elif action in ("pause", "resume"):
        ladder.paused = action == "pause"
        ladder.save(update_fields=["paused"])
        said = _("ladder paused: {game}") if ladder.paused else _("ladder resumed: {game}")
        audit(request, said.format(game=game))
    elif action == "deadline":
        ladder.deadline = form.cleaned_data["deadline"]
        ladder.save(update_fields=["deadline"])
        shown = f"{ladder.deadline:%Y-%m-%d %H:%M} UTC" if ladder.deadline else "-"
        audit(request, _("deadline of {game}: {deadline}").format(game=game, deadline=shown))
    else:  # withdraw, reinstate
        entry, reason = form.cleaned_data["version"], form.cleaned_data["reason"]
        entry.withdrawn, entry.withdrawn_reason = action == "withdraw", reason if action == "withdraw" else ""
        entry.save(update_fields=["withdrawn", "withdrawn_reason"])
        said = _("version withdrawn: {student}, version {number}: {reason}")
        if action == "reinstate":
            said = _("version reinstated: {student}, version {number}")
        audit(request, said.format(student=entry.student.display_name, number=entry.number, reason=reason))


def ladder_admin(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """An instructor's controls of one ladder: open or close it, pause its workers, its deadline,
    withdraw a version with a reason (or reinstate it)."""
    from arena.serve.ladder.worker import active_ids

    _instructor(request)
    ladder = get_object_or_404(Ladder, pk=ladder_id)
    form = ControlForm(request.POST if request.method == "POST" else None, ladder=ladder)
    if form.is_valid():
        _control(request, ladder, form)
        return redirect("ladder_admin", ladder_id=ladder.pk)
    shown = f"{ladder.deadline:%Y-%m-%dT%H:%M}" if ladder.deadline else ""
    context = {
        "ladder": ladder,
        "entries": _entries(ladder),
        "playing": set(active_ids(ladder)),
        "form": form,
        "deadline": form["deadline"].value() if form.has_error("deadline") else shown,
    }
    return render(request, "ladder/ladder_admin.html", context, status=400 if form.errors else 200)
