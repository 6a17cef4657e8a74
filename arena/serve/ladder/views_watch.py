"""Watching the ladder: the standings updated live, each partido's replay in the results site's
viewer, a version's own logs and incident files.

* ``/ladders/<id>/`` draws the standings and the latest partidos; ``live.js`` (same origin: the
  Content-Security-Policy runs no inline script) asks ``/ladders/<id>/live.json`` for them every
  few seconds and rewrites both tables in place. The Plackett–Luce fit behind the standings is
  cached (:func:`cached_standings`) until a partido ends or the active versions change.
* ``/partidos/<id>/`` shows a partido in the viewer of :mod:`arena.results.web`, whose assets are
  served at ``/viewer/assets/``; ``/partidos/<id>/replay`` gives the replay as text. Both name the
  seats as the standings do, and neither carries the players' folders (``players[].source``, a path
  on the server naming the student's upload): :func:`public_start`. The stored file is unchanged.
* A partido's deal key, replay and files appear only once its deal is over
  (:func:`deal_over`): it is done and no other partido of its ladder dealt from the same key is
  queued or playing (the matchmaking may reuse a deal for the seats' rotations).
* ``/versions/<id>/files`` lists the version's check files and, for each ladder partido it
  played, its own seat's standard error log and incident file; ``/versions/<id>/files/<name>``
  serves one as text. Only names of that list are served (no path of the request reaches the
  disk) and no symbolic link is followed; the author and the instructors see them, anyone
  else gets 404.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Count, Max
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.translation import gettext as _

from arena.results.web import CSP
from arena.serve.ladder import storage, views
from arena.serve.ladder.models import Ladder, LadderPartido
from arena.serve.submissions.models import Version

LIVE_SCRIPT = Path(__file__).with_name("assets") / "live.js"
"""The standings page's script: polls ``live.json`` and rewrites the tables."""
POLL_MS = 3000
"""How often the standings page asks for news."""
PENDING = (LadderPartido.QUEUED, LadderPartido.PLAYING)
STANDINGS_CSP = f"{CSP}; connect-src 'self'"  # not shown
"""The standings page's policy: the site's, and live.js may ask this server (and only it) for news."""

# ---------------------------------------------------------------- the standings, cached

_cache_lock = threading.Lock()
_cached: dict[int, tuple[tuple[Any, ...], float, list[dict[str, Any]]]] = {}
"""By ladder id: the key the rows were fitted for, when (monotonic), and the rows (never changed)."""
_fitting: dict[int, threading.Lock] = {}
"""By ladder id: held while its rows are fitted, so that two requests do not fit them twice."""


def standings_key(ladder: Ladder) -> tuple[Any, ...]:
    """What the standings of ``ladder`` depend on: its active versions, and its done partidos (how
    many, the last one)."""
    from arena.serve.ladder.worker import active_ids

    done = ladder.partidos.filter(status=LadderPartido.DONE).aggregate(n=Count("id"), last=Max("id"))
    return ladder.pk, tuple(active_ids(ladder)), done["n"], done["last"]


def _usable(hit: tuple[tuple[Any, ...], float, list[dict[str, Any]]] | None, key: tuple[Any, ...]) -> bool:
    """Whether cached rows may be shown for ``key``: fitted for it, or for the same active versions
    less than ``settings.STANDINGS_FRESH_S`` ago (a busy ladder ends a partido every second: the fit
    is then at most that old, not redone for every poll)."""
    if hit is None:
        return False
    fitted_for, at, _rows = hit
    if fitted_for == key:
        return True
    return fitted_for[:2] == key[:2] and time.monotonic() - at < settings.STANDINGS_FRESH_S


def cached_standings(ladder: Ladder) -> list[dict[str, Any]]:
    """:func:`views.standings_rows` of ``ladder``, fitted again when its active versions changed,
    or its done partidos and the fit is older than ``settings.STANDINGS_FRESH_S``; while one request
    fits them, the others get the rows of the same active versions fitted before (thread-safe; the
    list returned is shared: do not change it)."""
    return _standings_fit(ladder, standings_key(ladder))[2]


def _standings_fit(
    ladder: Ladder, key: tuple[Any, ...]
) -> tuple[tuple[Any, ...], float, list[dict[str, Any]]]:
    """The fit :func:`cached_standings` gives for ``key`` (:func:`standings_key`): the key it was
    fitted for, when, its rows."""
    with _cache_lock:
        hit = _cached.get(ladder.pk)
        if _usable(hit, key):
            assert hit is not None
            return hit
        fitting = _fitting.setdefault(ladder.pk, threading.Lock())
    if hit is not None and hit[0][:2] == key[:2]:
        if not fitting.acquire(blocking=False):
            return hit  # being fitted by another request: these a moment longer
    else:
        fitting.acquire()
    try:
        with _cache_lock:  # another request may have fitted them meanwhile
            hit = _cached.get(ladder.pk)
            if hit is not None and hit[0] == key:
                return hit
        rows = views.standings_rows(ladder)  # read after the key: never older than it
        fit = (key, time.monotonic(), rows)
        with _cache_lock:
            _cached[ladder.pk] = fit
    finally:
        fitting.release()
    return fit


def _fit_in_use(ladder: Ladder, key: tuple[Any, ...]) -> tuple[tuple[Any, ...], float] | None:
    """Which fit :func:`cached_standings` would give for ``key`` now without fitting (the key it
    was fitted for, when); None if it would fit them again."""
    with _cache_lock:
        hit = _cached.get(ladder.pk)
    return (hit[0], hit[1]) if hit is not None and _usable(hit, key) else None


def seat_versions(partido: LadderPartido, game: str) -> list[int]:
    """The version in each seat of ``partido``: its ``versions`` are its seats, or in a game of
    teams its sides (each side's version plays every seat of its team)."""
    return table_seats(partido.version_ids, game)


def table_seats(table: list[int], game: str) -> list[int]:
    """The version in each seat of a partido of ``game`` whose versions (in order) are ``table``
    (:func:`seat_versions`)."""
    from arena import games
    from arena.games.gamespec import seat_sides

    sides = games.spec(game).teams
    if not sides:
        return list(table)
    return [table[side] for side in seat_sides(sides) if side < len(table)]


# ---------------------------------------------------------------- deals


def pending_deals(ladder_ids: Iterable[int]) -> set[tuple[int, str]]:
    """The (ladder id, deal key) of every partido of those ladders still queued or playing."""
    rows = LadderPartido.objects.filter(ladder_id__in=set(ladder_ids), status__in=PENDING)
    return set(rows.values_list("ladder_id", "seed"))


def deal_over(partido: LadderPartido, pending: set[tuple[int, str]] | None = None) -> bool:
    """Whether ``partido`` may be shown (its deal key, replay, files): it is done and no other
    partido of its ladder that deals from its key is still to be played (``pending``: see
    :func:`pending_deals`; read when not given)."""
    if partido.status != LadderPartido.DONE:
        return False
    if pending is None:
        pending = pending_deals([partido.ladder_id])
    return (partido.ladder_id, partido.seed) not in pending


# ---------------------------------------------------------------- the standings page and live.json


def _names(version_ids: Iterable[int]) -> dict[int, str]:
    """``Name #n`` of each version."""
    found = Version.objects.select_related("student").filter(pk__in=set(version_ids))
    return {v.pk: f"{v.student.display_name} #{v.number}" for v in found}


def _places(partido: LadderPartido, seats: list[str]) -> list[dict[str, Any]]:
    """The ranking of a done ``partido`` by place (1 = first; tied entrants share a place, the next
    place skips them), each with its entrants' names (``seats``, as its ``versions``)."""
    out: list[dict[str, Any]] = []
    start = 1
    for group in partido.ranking:
        out.append({"place": start, "names": [seats[s] for s in group if 0 <= s < len(seats)]})
        start += len(group)
    return out


def recent_partidos(ladder: Ladder) -> list[dict[str, Any]]:
    """The latest partidos of ``ladder``, newest first: seats, state, the deal key and the replay's
    addresses once the deal is over (else None)."""
    recent = list(ladder.partidos.order_by("-id").prefetch_related("seats")[: views.RECENT_PARTIDOS])
    names = _names(v for p in recent for v in p.version_ids)
    pending = pending_deals([ladder.pk])
    out = []
    for p in recent:
        shown = deal_over(p, pending)
        watchable = shown and bool(p.replay) and Path(p.replay).is_file()
        seats = [names.get(v, "?") for v in p.version_ids]
        out.append(
            {
                "id": p.pk,
                "seats": seats,
                "winners": [seats[s] for s in p.winners if 0 <= s < len(seats)],
                "places": _places(p, seats),
                "status": p.status,
                "state": str(p.get_status_display()),
                "error": p.error,
                "seed": p.seed if shown else None,
                "viewer": reverse("partido", args=[p.pk]) if watchable else None,
                "text": reverse("replay", args=[p.pk]) if watchable else None,
            }
        )
    return out


def _row(row: dict[str, Any]) -> dict[str, Any]:
    """A standings row as live.json gives it: the figures, and each as the page shows it."""
    version = row["version"]
    average, strength = row["average_place"], row["strength"]
    return {
        "version_id": version.pk,
        "version": f"{version.student.display_name} #{version.number}",
        "partidos": row["partidos"],
        "won": row["won"],
        "average_place": average,
        "strength": strength,
        "low": row["low"],
        "high": row["high"],
        "group": row["group"],
        "shown": {
            "average_place": floatformat(average, 2) if average is not None else "",
            "strength": floatformat(strength, 2) if strength is not None else "",
            "places": f"{row['low']}–{row['high']}" if row["low"] else "",
        },
    }


@login_required
def standings(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """A ladder's standings and its latest partidos, kept up to date by live.js: the page draws what
    ``live.json`` shows, from the same answer kept in memory (:func:`_live`)."""
    ladder = get_object_or_404(Ladder, pk=ladder_id)
    _tag, _body, shown = _live(ladder)  # what live.json shows, drawn by the page as live.js does
    context = {
        "ladder": ladder,
        "rows": shown["rows"],
        "partidos": shown["partidos"],
        "poll_ms": POLL_MS,
        "updated": _("updated {n} s ago").format(n=0),
    }
    response = render(request, "ladder/standings.html", context)
    response["Content-Security-Policy"] = STANDINGS_CSP
    return response


LIVE_KEEP_S = 60
"""How long a ladder's ``live.json`` answer is kept at most while its key (:func:`live_key`) does not
change: what the key does not see (a student's name edited, a replay removed from the disk) shows
within this time."""


def live_key(ladder: Ladder) -> tuple[Any, ...]:
    """What ``live.json`` of ``ladder`` shows depends on, read in two cheap queries (its active
    versions; its partidos' counts by status, the last one, the last start and end): its answer is
    made again only when this changes (a partido queued, started, ended or requeued, a version added
    or retired, the ladder opened or closed), the standings are fitted again
    (:func:`_fit_in_use`), the reader's language differs, or after ``LIVE_KEEP_S``."""
    from django.db.models import Q
    from django.utils.translation import get_language

    from arena.serve.ladder.worker import active_ids

    by_status = {s: Count("id", filter=Q(status=s)) for s, _word in LadderPartido.STATUSES}
    found = ladder.partidos.aggregate(
        last=Max("id"),
        last_done=Max("id", filter=Q(status=LadderPartido.DONE)),
        started=Max("started_at"),
        finished=Max("finished_at"),
        **by_status,
    )
    standings = (ladder.pk, tuple(active_ids(ladder)), found[LadderPartido.DONE], found["last_done"])
    fit = _fit_in_use(ladder, standings)
    partidos = tuple(found[s] for s, _word in LadderPartido.STATUSES)
    return (
        standings,
        fit,
        partidos,
        found["last"],
        found["started"],
        found["finished"],
        ladder.open,
        get_language(),
    )


def _live_answer(
    ladder: Ladder, key: tuple[Any, ...]
) -> tuple[tuple[Any, ...], str, bytes, dict[str, Any]]:
    """``live.json`` of ``ladder`` made now for ``key`` (:func:`live_key`): the key with the fit
    it shows, its ETag (of what it shows, not of when it was made), its body and what it shows."""
    import hashlib

    fitted_for, at, rows = _standings_fit(ladder, key[0])
    data = {
        "ladder": ladder.pk,
        "open": ladder.open,
        "rows": [_row(r) for r in rows],
        "partidos": recent_partidos(ladder),
    }
    shown = json.dumps(data, ensure_ascii=False, separators=(",", ":"), cls=DjangoJSONEncoder)
    tag = '"' + hashlib.blake2b(shown.encode("utf-8"), digest_size=16).hexdigest() + '"'
    body = json.dumps({**data, "at": time.time()}, ensure_ascii=False, cls=DjangoJSONEncoder)
    return (key[0], (fitted_for, at), *key[2:]), tag, body.encode("utf-8"), data


def _matches(request: HttpRequest, tag: str) -> bool:
    """Whether the request's ``If-None-Match`` names ``tag`` (or is ``*``)."""
    asked = request.headers.get("If-None-Match", "")
    named = {t.strip().removeprefix("W/") for t in asked.split(",")}
    return tag in named or "*" in named


def _live(ladder: Ladder) -> tuple[str, bytes, dict[str, Any]]:
    """``live.json`` of ``ladder`` in the reader's language: its ETag, its body and what it shows
    (the standings' rows and the latest partidos, which the standings page draws too), kept in the
    process's memory (:func:`live`)."""
    from django.utils.translation import get_language

    where = f"live:{ladder.pk}:{get_language()}"
    kept = cache.get(where)
    if kept is not None and time.monotonic() - kept[3] < settings.LIVE_FRESH_S:
        return kept[1], kept[2], kept[4]  # made a moment ago: not even its key is read again
    key = live_key(ladder)
    if kept is None or kept[0] != key:
        kept = _live_answer(ladder, key)
    cache.set(where, (kept[0], kept[1], kept[2], time.monotonic(), kept[-1]), LIVE_KEEP_S)
    return kept[1], kept[2], kept[-1]


@login_required
def live(request: HttpRequest, ladder_id: int) -> HttpResponse:
    """The standings and the latest partidos of a ladder, as JSON (what live.js draws); the same for
    every reader who may see the ladder (any logged-in user). The answer is kept in the process's
    memory (Django's local-memory cache) under the ladder and the reader's language until its
    :func:`live_key` changes, and that key is not even read again within ``settings.LIVE_FRESH_S``
    (2 s) of the last look: a class's tabs polling every 3 s cost one look a ladder a moment, not one
    each; ``at`` is when it was made. Its ETag names what it shows: a request
    whose ``If-None-Match`` names it gets 304 and no body (live.js sends the last one it drew)."""
    ladder = get_object_or_404(Ladder, pk=ladder_id)  # after the login: the access as before
    tag, body, _data = _live(ladder)
    if _matches(request, tag):
        response = HttpResponse(status=304)  # not modified: no body
        del response["Content-Type"]
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = tag
    response["Cache-Control"] = "no-store"
    return response


def live_script(request: HttpRequest) -> HttpResponse:
    """The standings page's script (a file of its own: the Content-Security-Policy runs no inline script)."""
    script = "text/javascript; charset=utf-8"  # not shown
    response = HttpResponse(LIVE_SCRIPT.read_bytes(), content_type=script)
    response["Cache-Control"] = "max-age=3600"
    return response


# ---------------------------------------------------------------- replays


def _shown_partido(partido_id: int) -> LadderPartido:
    """A partido whose deal is over and whose replay exists; else 404."""
    partido = get_object_or_404(
        LadderPartido.objects.select_related("ladder"), pk=partido_id, status=LadderPartido.DONE
    )
    if not deal_over(partido) or not partido.replay or not Path(partido.replay).is_file():
        raise Http404
    return partido


def public_start(start: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A replay's ``partido_start`` as the pages serve it: each seat's entry only its seat and its
    name as the standings give it (``names``, by seat), never its folder's name or path on the server
    (``source``) nor any other field of the referee's."""
    return {**start, "players": [{"seat": s, "name": name} for s, name in enumerate(names)]}


def _seat_public_names(partido: LadderPartido) -> list[str]:
    """Each seat's name as the standings give it (``Name #n``); in a game of teams, its side's."""
    known = _names(partido.version_ids)
    return [known.get(v, "?") for v in seat_versions(partido, partido.ladder.game)]


def public_replay(partido: LadderPartido) -> bytes:
    """``partido``'s replay file with its first line, ``partido_start``, made public
    (:func:`public_start`); the other lines as they are. A first line that is not a
    ``partido_start`` goes as it is (a replay the referee did not finish writing)."""
    data = storage.read_bytes(Path(partido.replay))  # compressed or not: the text as written
    first, newline, rest = data.partition(b"\n")
    try:
        start = json.loads(first)
    except ValueError:
        return data
    if not isinstance(start, dict) or start.get("type") != "partido_start":
        return data
    shown = public_start(start, _seat_public_names(partido))
    line = json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return line + newline + rest


@login_required
def replay(request: HttpRequest, partido_id: int) -> HttpResponse:
    """A partido's replay as text, once its deal is over (before that, it does not exist); its seats
    named as in the standings, with no folder or path of the server (:func:`public_replay`), for
    students and instructors alike."""
    found = _shown_partido(partido_id)
    return HttpResponse(public_replay(found), content_type="text/plain; charset=utf-8")  # not shown


def viewer_asset(request: HttpRequest, name: str) -> HttpResponse:
    """One of the results site's assets (its style sheet and scripts), for the viewer pages."""
    from arena.results import web

    found = web.assets().get(name)
    if found is None:
        raise Http404
    kind = "text/css" if name.endswith(".css") else "text/javascript"
    kind += "; charset=utf-8"  # not shown
    response = HttpResponse(found.read_bytes(), content_type=kind)
    response["Cache-Control"] = "max-age=3600"
    return response


def _for_viewer(events: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    """The replay's events with the seats named as the standings name them (not by their player
    folders) and without the folders' paths on the server (:func:`public_start`)."""
    if not events or events[0].get("type") != "partido_start":
        return events
    return [public_start(events[0], names), *events[1:]]


@login_required
def partido(request: HttpRequest, partido_id: int) -> HttpResponse:
    """A partido in the results site's viewer, once its deal is over (before that: 404)."""

    found = _shown_partido(partido_id)
    with _viewer_language(request):
        page = _viewer(found)
    return HttpResponse(page, content_type="text/html; charset=utf-8")  # not shown


_speaking = threading.Lock()
"""One viewer page at a time switches arena's (process-wide) language to the reader's."""


@contextlib.contextmanager
def _viewer_language(request: HttpRequest) -> Iterator[None]:
    """The viewer's own words (arena's catalog) in the reader's language, as the page's."""
    from django.utils.translation import get_language

    from arena import i18n

    wanted = "en" if (get_language() or "").startswith("en") else "es"
    with _speaking, i18n.speaking(wanted):
        yield


def _viewer(found: LadderPartido) -> str:
    """The viewer page of the done partido ``found``."""
    from arena.results import web

    known = _names(found.version_ids)
    names = [known.get(v, "?") for v in found.version_ids]  # its entrants: seats, or sides
    seats = _seat_public_names(found)
    events, problem = web.read_events(Path(found.replay))  # a .gz replay is read decompressed
    problem = problem.replace(str(Path(found.replay)), f"{found.pk}.jsonl")  # its name, not its path
    manos = sum(1 for e in events if e.get("type") == "mano_start")
    nav = web.el(
        "nav",
        web.link(reverse("standings", args=[found.ladder_id]), _("Back to the standings"))
        + " · "
        + web.link(reverse("replay", args=[found.pk]), _("The replay as text"))
        + " · "
        + web.esc(_("Deal key"))
        + ": "
        + web.el("code", web.esc(found.seed)),
    )
    root = reverse("viewer_asset", args=["site.css"]).removesuffix("assets/site.css")
    return web.replay_page(
        str(found.pk),
        _for_viewer(events, seats),
        problem,
        names,
        found.winners,
        manos,
        nav,
        root,
        '<link rel="icon" href="data:,">',  # not shown: markup (no favicon asked for)
    )


# ---------------------------------------------------------------- a version's files


def check_folder(version: Version) -> Path:
    """Where the check of ``version`` wrote its partidos, logs and incidents (see checking.py)."""
    return Path(settings.DIR) / "uploads" / str(version.student_id) / str(version.number) / "check"


def _plain_file(path: Path, root: Path) -> bool:
    """Whether ``path`` is a regular file inside ``root`` reached through no symbolic link."""
    try:
        relative = path.relative_to(root)
    except ValueError:
        return False
    if relative.is_absolute() or ".." in relative.parts:
        return False
    step = root
    for part in relative.parts:
        step = step / part
        if step.is_symlink():
            return False
    return path.is_file() and path.resolve().is_relative_to(root.resolve())


def _seat_names(partido: LadderPartido, seats: list[int]) -> list[str]:
    """The names the referee gave the seats of ``partido`` (``seats``: their versions), which
    name its logs and incidents: its replay's, else its players' folders' (``name``, ``name#2``
    where one repeats)."""
    try:
        start = json.loads(storage.first_line(Path(partido.replay)))
        names = [str(p["name"]) for p in start["players"]]
        if len(names) == len(seats):
            return names
    except (OSError, ValueError, KeyError, TypeError):
        pass
    folders = dict(Version.objects.filter(pk__in=seats).values_list("id", "folder"))
    seen: dict[str, int] = {}
    names = []
    for v in seats:
        name = Path(folders.get(v, "")).name
        seen[name] = seen.get(name, 0) + 1
        names.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return names


def version_files(version: Version) -> dict[str, Path]:
    """The files of ``version`` its author may read, by the name they are served under: its
    check's (``check/…``) and, for each ladder partido it played whose deal is over, its own
    seat's log and incident (``partidos/<id>/seat-<s>.stderr.log``, ``…/seat-<s>.incident.txt``)."""
    files: dict[str, Path] = {}
    check = check_folder(version)
    if check.is_dir() and not check.is_symlink():
        for folder, subfolders, names in os.walk(check):  # symbolic links to folders: not entered
            subfolders.sort()
            for name in sorted(names):
                path = Path(folder) / name
                if _plain_file(path, check):
                    files["check/" + path.relative_to(check).as_posix()] = path
    ladder_root = Path(settings.DIR) / "ladder"
    done = LadderPartido.objects.filter(status=LadderPartido.DONE).exclude(replay="").select_related("ladder")
    played = list(done.filter(seats__version=version).distinct().order_by("-id").prefetch_related("seats"))
    pending = pending_deals({p.ladder_id for p in played})
    for p in played:
        if not deal_over(p, pending):
            continue
        seats = seat_versions(p, p.ladder.game)
        names = _seat_names(p, seats)
        replay = storage.plain(Path(p.replay))  # the logs' and incidents' names come from the plain one
        for seat in (s for s, v in enumerate(seats) if v == version.pk):
            name = names[seat]
            if not name or "/" in name or name.startswith("."):
                continue
            log = Path(f"{replay}.logs") / f"{name}.stderr.log"  # not shown
            # as the referee names it
            incident = Path(f"{replay.with_suffix('')}.incident-{seat}-{name}.txt")  # not shown
            for named, kind in ((log, "stderr.log"), (incident, "incident.txt")):
                path = storage.stored(named) or named  # a log is kept compressed: <name>.gz
                if _plain_file(path, ladder_root):
                    files[f"partidos/{p.pk}/seat-{seat}.{kind}"] = path  # not shown
    return files


def _own_version(request: HttpRequest, version_id: int) -> Version:
    """The version, for its author and the instructors; 404 for anyone else."""
    found = get_object_or_404(Version.objects.select_related("student"), pk=version_id)
    if not (request.user.is_staff or found.student.user_id == request.user.pk):
        raise Http404
    return found


@login_required
def files(request: HttpRequest, version_id: int) -> HttpResponse:
    """A version's check files and its own logs and incidents of the ladder's partidos."""
    found = _own_version(request, version_id)
    listed = version_files(found)
    check = [(name, name.removeprefix("check/")) for name in listed if name.startswith("check/")]
    by_partido: dict[int, list[tuple[str, str]]] = {}
    for name in listed:
        if name.startswith("partidos/"):
            _prefix, number, leaf = name.split("/", 2)
            by_partido.setdefault(int(number), []).append((name, leaf))
    replays = dict(LadderPartido.objects.filter(pk__in=by_partido).values_list("id", "replay"))
    partidos = [
        (number, Path(replays.get(number, "")).is_file(), entries)
        for number, entries in sorted(by_partido.items(), reverse=True)
    ]
    context = {"version": found, "check": check, "partidos": partidos}
    return render(request, "ladder/version_files.html", context)


@login_required
def file(request: HttpRequest, version_id: int, name: str) -> FileResponse:
    """One file of the list of :func:`files`, as text; any other name does not exist."""
    found = _own_version(request, version_id)
    path = version_files(found).get(name)
    if path is None:
        raise Http404
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        raise Http404 from None
    stream: Any = os.fdopen(fd, "rb")
    if path.name.endswith(storage.GZ):  # a log kept compressed: served as the text it was
        with gzip.open(stream) as f:
            stream = io.BytesIO(f.read())
    response = FileResponse(stream, content_type="text/plain; charset=utf-8")  # not shown
    response["Content-Disposition"] = "inline"
    return response
