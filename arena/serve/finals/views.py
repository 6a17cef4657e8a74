"""The instructor's final torneo of a ladder: start it, follow it, see its grades and its results
site, download its workbook, site and grades.

Every page is for instructors only (:func:`arena.serve.accounts.views._instructor`): anyone else gets
404, as for a page that does not exist. Each action is recorded in the audit log.
"""

from __future__ import annotations

import csv
import io
import mimetypes
from pathlib import Path

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from arena import inert
from arena.serve.accounts.views import _instructor, audit
from arena.serve.finals import final as finals
from arena.serve.finals.forms import FinalForm
from arena.serve.finals.models import FinalTorneo
from arena.serve.ladder.models import Ladder


def _act(request: HttpRequest, ladder: Ladder, latest: FinalTorneo | None, form: FinalForm) -> str | None:
    """Apply the instructor's action on ``ladder``'s final (``form``: valid); the error, if any."""
    action, options = form.cleaned_data["action"], form.cleaned_data
    game = ladder.game
    if action == "start":
        try:
            started = finals.start_final(ladder, options)
        except finals.FinalError as exc:
            return str(exc)
        said = _("final torneo started: {game}, {n} versions")
        audit(request, said.format(game=game, n=started.versions.count()))
    elif action == "grades" and latest is not None:
        grades = options["grades"]
        latest.options = {**latest.options, "grades": grades}
        latest.save(update_fields=["options"])
        audit(request, _("final torneo grades of {game}: {grades}").format(game=game, grades=grades))
    elif latest is not None:  # retry
        if not finals.retry(latest):
            return _("Only a failed final torneo can be played on.")
        audit(request, _("final torneo played on: {game}").format(game=game))
    return None


def final_page(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """A ladder's latest final torneo (its frozen versions, state, progress and downloads) and the
    form that starts a new one."""
    _instructor(request)
    ladder = get_object_or_404(Ladder, pk=ladder_id)
    latest = ladder.finals.first()
    form = FinalForm(request.POST if request.method == "POST" else None, latest=latest)
    if form.is_valid():
        refused = _act(request, ladder, latest, form)
        if refused is None:
            return redirect("final", ladder_id=ladder.pk)
        form.add_error(None, refused)  # the state refuses it (too few versions, one playing…)
    playing = latest is not None and latest.status in (FinalTorneo.QUEUED, FinalTorneo.RUNNING)
    done = latest is not None and latest.status == FinalTorneo.DONE
    context = {
        "ladder": ladder,
        "final": latest,
        "earlier": list(ladder.finals.exclude(pk=latest.pk)) if latest is not None else [],
        "entries": finals.entries(latest) if latest else [],
        "playing": playing,
        "done": done,
        "graded": finals.graded(latest) if done and latest is not None else [],
        "form": form,
        "default_grades": finals.DEFAULT_GRADES,
    }
    return render(request, "finals/final.html", context, status=400 if form.errors else 200)


def _done(request: HttpRequest, final_id: int) -> FinalTorneo:
    """A finished final, for an instructor; 404 for anyone else or one not done."""
    _instructor(request)
    return get_object_or_404(FinalTorneo, pk=final_id, status=FinalTorneo.DONE)


def _attachment(path: Path | None, filename: str, content_type: str) -> FileResponse:
    if path is None or not path.is_file():
        raise Http404
    return FileResponse(path.open("rb"), as_attachment=True, filename=filename, content_type=content_type)


def workbook(request: HttpRequest, final_id: int) -> FileResponse:
    """The final torneo's workbook (.xlsx), as a download."""
    found = _done(request, final_id)
    xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"  # not shown
    name = f"final-{found.pk}-{found.ladder.game}.xlsx"  # not shown
    return _attachment(finals.workbook(found), name, xlsx)


def site_zip(request: HttpRequest, final_id: int) -> FileResponse:
    """The final torneo's site (``web/``), zipped, as a download."""
    found = _done(request, final_id)
    return _attachment(finals.site_zip(found), f"final-{found.pk}-site.zip", "application/zip")  # not shown


SITE_TYPES = {
    ".html": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".json": "application/json",
}
"""The site's own kinds of file (``mimetypes`` may not know them all on every system)."""


def site(request: HttpRequest, final_id: int, name: str = "index.html") -> FileResponse:
    """A file of the final torneo's results site (``torneo/web/``), as the browser shows it: read
    only, only files under that folder (:func:`arena.serve.finals.final.site_file`), under the site's
    own Content-Security-Policy (:class:`arena.serve.security.ContentSecurityPolicy`)."""
    found = _done(request, final_id)
    path = finals.site_file(found, name)
    if path is None:
        raise Http404
    kind = SITE_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
    kind = kind or "application/octet-stream"  # not shown
    if kind.startswith("text/") or kind == "application/json":
        kind += "; charset=utf-8"  # not shown
    response = FileResponse(path.open("rb"), content_type=kind)
    response["Cache-Control"] = "private, no-cache"  # not shown
    return response


def inert_csv(text: str) -> str:
    """A CSV with every field as the workbook's CSVs have it (:func:`arena.inert.cell`: printable,
    and a text a spreadsheet could take for a formula, such as ``=…``, ``@…``, behind a ``'``)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in csv.reader(io.StringIO(text, newline="")):
        writer.writerow([inert.cell(field) for field in row])
    return out.getvalue()


def grades_csv(request: HttpRequest, final_id: int) -> HttpResponse:
    """The grades CSV for Moodle's gradebook import, as a download; its fields inert
    (:func:`inert_csv`: an ID number or address the students typed is never a formula)."""
    found = _done(request, final_id)
    body = inert_csv(finals.grades_csv(found))
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")  # not shown
    response["Content-Disposition"] = f'attachment; filename="final-{found.pk}-grades.csv"'  # not shown
    return response
