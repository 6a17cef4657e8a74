"""``arena serve``: watching the ladder — the live standings, the replays in the site's viewer, the
deal keys kept until their deal is over, a version's own logs and incident files.

The versions' folders are copies of the Tute de a dos samples (two seats: quick partidos), made
clean without an upload; their partidos are played with ``worker.play_next``. The ladder is made once
for the module and emptied at its end; what each test adds is rolled back (tests/serve/conftest.py).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in

PREFIX = "watch-test-"
GAME = "tute-dos"

pytestmark = [pytest.mark.sandbox, pytest.mark.django_db]  # each test's rows rolled back at its end


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    """The shared service's folder (tests/serve/conftest.py)."""
    return serve_dir


def _client(username: str = "", staff: bool = False) -> Any:
    """A test client logged in as ``username`` (made when new); not logged in when empty."""
    return logged_in(PREFIX + username if username else None, staff)


def _version(service: Path, ladder: Any, name: str, sample: str) -> Any:
    """A clean version of student ``name``'s, a copy of a Tute de a dos sample."""
    return clean_version(service, PREFIX + name, f"Autora {name}", ladder, ROOT / "sample_dos" / sample)


@pytest.fixture(scope="module")
def ladder(service: Path, django_db_setup: None, django_db_blocker: Any) -> Iterator[Any]:
    """A Tute de a dos ladder with Ana's and Bruno's versions and one partido played.

    Made once for the module, committed (``django_db_blocker``): its partido is played by sandboxed
    players, and the module's twenty tests read it (what they add is rolled back). Every table is
    emptied at the module's end, as after a ``transaction=True`` test, and the rows' files go with
    them (a flush starts the ids again: the next version 1 must not find this one's folder)."""
    from django.core.management import call_command

    from arena.serve.ladder.models import Ladder, LadderPartido
    from arena.serve.ladder.worker import play_next

    with django_db_blocker.unblock():
        made = Ladder.objects.create(game=GAME, open=True)
        made.ana = _version(service, made, "ana", "basico")
        made.bruno = _version(service, made, "bruno", "random_legal")
        partido = play_next(made)
        assert partido is not None and partido.status == LadderPartido.DONE, partido and partido.error
        made.first = partido
    yield made
    with django_db_blocker.unblock():
        call_command("flush", interactive=False, verbosity=0)
    import shutil

    for rows_files in ("uploads", "ladder"):  # its versions' and partido's: the ids start again
        shutil.rmtree(service / rows_files, ignore_errors=True)
        (service / rows_files).mkdir()


@pytest.fixture(autouse=True)
def _fresh_standings() -> None:
    """The standings fitted for this test: a rolled-back partido's id is given again (SQLite), so a
    fit kept from an earlier test could be taken for this one's."""
    from arena.serve.ladder import views_watch

    with views_watch._cache_lock:
        views_watch._cached.clear()


def _live(client: Any, ladder: Any) -> dict[str, Any]:
    response = client.get(f"/ladders/{ladder.pk}/live.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data: dict[str, Any] = json.loads(response.content)
    return data


# --- the standings, live


def test_live_json_gives_the_standings_and_the_latest_partidos(ladder: Any) -> None:
    data = _live(_client("eva"), ladder)  # any logged-in user sees the standings
    assert data["ladder"] == ladder.pk and data["open"] is True
    names = {r["version"] for r in data["rows"]}
    assert names == {"Autora ana #1", "Autora bruno #1"}
    assert all(r["partidos"] >= 1 and r["strength"] is not None for r in data["rows"])
    assert sum(r["won"] for r in data["rows"]) >= 1
    first = next(p for p in data["partidos"] if p["id"] == ladder.first.pk)
    assert first["status"] == "done" and first["state"] == "terminado"
    assert set(first["seats"]) == names
    assert first["seed"] == ladder.first.seed  # done, and no partido reuses its deal
    assert first["viewer"] == f"/partidos/{ladder.first.pk}/"
    assert first["text"] == f"/partidos/{ladder.first.pk}/replay"


def test_live_json_and_the_standings_need_a_login(ladder: Any) -> None:
    for url in (f"/ladders/{ladder.pk}/live.json", f"/ladders/{ladder.pk}/"):
        response = _client().get(url)
        assert response.status_code == 302 and response.url.startswith("/login/")
        assert ladder.first.seed.encode() not in response.content
    assert _client("eva").get("/ladders/999999/live.json").status_code == 404


def test_the_standings_page_polls_with_a_script_of_its_own(ladder: Any) -> None:
    page = _client("eva").get(f"/ladders/{ladder.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'http-equiv="refresh"' not in text  # no reloads: live.js rewrites the tables
    # the site's policy, and live.js may fetch from this server only
    assert page["Content-Security-Policy"].endswith("; connect-src 'self'")
    assert page["Content-Security-Policy"].startswith("default-src 'none';")
    assert '<script src="/ladders/live.js" defer></script>' in text
    assert f'data-live="/ladders/{ladder.pk}/live.json"' in text
    assert f'href="/partidos/{ladder.first.pk}/"' in text and ladder.first.seed in text
    assert "Autora ana #1" in text and "Autora bruno #1" in text
    script = _client("eva").get("/ladders/live.js")
    assert script.status_code == 200 and script["Content-Type"].startswith("text/javascript")
    body = script.content.decode()
    assert "textContent" in body and "innerHTML" not in body


def test_the_standings_are_cached_until_a_partido_ends(ladder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.conf import settings

    from arena.serve.ladder import views, views_watch
    from arena.serve.ladder.worker import play_next

    monkeypatch.setattr(settings, "STANDINGS_FRESH_S", 0)  # every partido that ends: stale at once

    rows = views_watch.cached_standings(ladder)
    assert views_watch.cached_standings(ladder) is rows  # not fitted again
    fresh = views.standings_rows(ladder)
    assert [(r["version"].pk, r["partidos"], r["won"], r["group"]) for r in rows] == [
        (r["version"].pk, r["partidos"], r["won"], r["group"]) for r in fresh
    ]
    before = {r["version"].pk: r["partidos"] for r in rows}
    played = play_next(ladder)
    assert played is not None and played.status == "done"
    again = views_watch.cached_standings(ladder)
    assert again is not rows
    assert {r["version"].pk: r["partidos"] for r in again} == {v: n + 1 for v, n in before.items()}
    assert views_watch.cached_standings(ladder) is again


def test_a_busy_ladder_s_standings_are_fitted_at_most_every_few_seconds(
    ladder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.conf import settings

    from arena.serve.ladder import views_watch
    from arena.serve.ladder.worker import play_next

    monkeypatch.setattr(settings, "STANDINGS_FRESH_S", 3600)
    rows = views_watch.cached_standings(ladder)
    assert play_next(ladder) is not None
    assert views_watch.cached_standings(ladder) is rows  # a partido ended, the fit is fresh enough
    monkeypatch.setattr(settings, "STANDINGS_FRESH_S", 0)
    assert views_watch.cached_standings(ladder) is not rows


# --- the replays


def test_a_done_partido_opens_in_the_site_s_viewer(ladder: Any) -> None:
    client = _client("eva")
    page = client.get(f"/partidos/{ladder.first.pk}/")
    assert page.status_code == 200 and page["Content-Type"].startswith("text/html")
    text = page.content.decode()
    assert f"Partido {ladder.first.pk}" in text and 'id="viewer"' in text
    assert 'id="replay-data"' in text and "Autora ana #1" in text
    for name in ("site.css", "site.js", "viewer.js"):
        assert f'/viewer/assets/{name}"' in text
        assert client.get(f"/viewer/assets/{name}").status_code == 200
    assert "/uploads/" not in text  # the players' folders on the server are not shown
    assert client.get("/viewer/assets/web.py").status_code == 404
    assert f'href="/ladders/{ladder.pk}/"' in text
    assert _client().get(f"/partidos/{ladder.first.pk}/").status_code == 302


def test_the_replay_as_text_names_the_seats_as_the_standings(ladder: Any, service: Path) -> None:
    from arena.serve.ladder.storage import read_bytes

    stored = read_bytes(Path(ladder.first.replay)).decode("utf-8")
    assert '"source"' in stored and "/uploads/" in stored  # the referee's, kept on the server
    for client in (_client("eva"), _client("profe", staff=True)):
        text = client.get(f"/partidos/{ladder.first.pk}/replay").content.decode()
        assert '"source"' not in text and "/uploads/" not in text and str(service) not in text
        players = json.loads(text.splitlines()[0])["players"]
        assert {p["name"] for p in players} == {"Autora ana #1", "Autora bruno #1"}
        assert text.splitlines()[1:] == stored.splitlines()[1:]


def test_the_viewer_speaks_the_reader_s_language(ladder: Any) -> None:
    from arena import i18n

    before = i18n.language()
    spanish = _client("eva").get(f"/partidos/{ladder.first.pk}/").content.decode()
    reader = _client("eva")
    reader.cookies["django_language"] = "en"
    english = reader.get(f"/partidos/{ladder.first.pk}/").content.decode()
    assert "Antes de la primera línea de la repetición." in spanish
    assert "Before the first line of the replay." in english
    assert "Antes de la primera línea" not in english
    assert i18n.language() == before  # the process's language is left as it was


def test_a_queued_partido_has_no_replay_yet(ladder: Any) -> None:
    from arena.serve.ladder.models import LadderPartido

    queued = LadderPartido.objects.create_seated(ladder=ladder, versions=[ladder.ana.pk, ladder.bruno.pk])
    try:
        client = _client("eva")
        assert client.get(f"/partidos/{queued.pk}/").status_code == 404
        assert client.get(f"/partidos/{queued.pk}/replay").status_code == 404
        assert queued.seed not in client.get(f"/ladders/{ladder.pk}/").content.decode()
        shown = next(p for p in _live(client, ladder)["partidos"] if p["id"] == queued.pk)
        assert shown["seed"] is None and shown["viewer"] is None
    finally:
        queued.delete()


def test_a_deal_key_waits_until_every_partido_of_its_deal_is_over(ladder: Any) -> None:
    from arena.serve.ladder.models import LadderPartido

    first = ladder.first
    rotation = LadderPartido.objects.create_seated(
        ladder=ladder, versions=list(reversed(first.version_ids)), seed=first.seed
    )
    try:
        client = _client("eva")
        assert first.seed not in client.get(f"/ladders/{ladder.pk}/").content.decode()
        shown = next(p for p in _live(client, ladder)["partidos"] if p["id"] == first.pk)
        assert shown["status"] == "done" and shown["seed"] is None and shown["viewer"] is None
        # its replay holds the deal: it waits too
        assert client.get(f"/partidos/{first.pk}/").status_code == 404
        assert client.get(f"/partidos/{first.pk}/replay").status_code == 404
        LadderPartido.objects.filter(pk=rotation.pk).update(status=LadderPartido.PLAYING)
        assert first.seed not in json.dumps(_live(client, ladder))
    finally:
        rotation.delete()
    assert first.seed in client.get(f"/ladders/{ladder.pk}/").content.decode()
    assert client.get(f"/partidos/{first.pk}/").status_code == 200


# --- a version's files


@pytest.fixture(scope="module")
def check_files(ladder: Any, service: Path) -> Path:
    """Ana's check folder as ``arena check`` leaves it, plus links out of it that must not be followed."""
    from arena.serve.ladder.views_watch import check_folder

    check = check_folder(ladder.ana)
    (check / "partido-1.jsonl.logs").mkdir(parents=True, exist_ok=True)
    (check / "startup.logs").mkdir(exist_ok=True)
    (check / "partido-1.jsonl").write_text('{"type": "partido_start"}\n')
    (check / "partido-1.jsonl.logs" / "basico.stderr.log").write_text("la traza de Ana\n")
    (check / "startup.logs" / "basico.stderr.log").write_text("")
    secret = service / "secret-outside.txt"
    secret.write_text("fuera del alcance\n")
    os.symlink(secret, check / "link.txt")
    os.symlink(check_folder(ladder.bruno).parent, check / "bruno")
    return check


def _files(client: Any, ladder: Any, version: Any) -> Any:
    return client.get(f"/versions/{version.pk}/files")


def _own_seat(ladder: Any, version: Any) -> int:
    seat: int = ladder.first.version_ids.index(version.pk)
    return seat


def test_the_author_and_an_instructor_see_the_version_s_files(ladder: Any, check_files: Path) -> None:
    from arena.serve.ladder.views_watch import version_files

    listed = version_files(ladder.ana)
    seat = _own_seat(ladder, ladder.ana)
    mine = f"partidos/{ladder.first.pk}/seat-{seat}.stderr.log"
    assert {
        "check/partido-1.jsonl",
        "check/partido-1.jsonl.logs/basico.stderr.log",
        "check/startup.logs/basico.stderr.log",
        mine,
    } <= set(listed)
    assert not [name for name in listed if "link" in name or name.startswith("check/bruno")]
    other = f"partidos/{ladder.first.pk}/seat-{1 - seat}.stderr.log"
    assert other not in listed  # Bruno's seat: not Ana's to read
    for client in (_client("ana"), _client("profe", staff=True)):
        page = _files(client, ladder, ladder.ana)
        assert page.status_code == 200
        text = page.content.decode()
        assert f"/versions/{ladder.ana.pk}/files/check/partido-1.jsonl.logs/basico.stderr.log" in text
        assert f"/versions/{ladder.ana.pk}/files/{mine}" in text
        log = client.get(f"/versions/{ladder.ana.pk}/files/check/partido-1.jsonl.logs/basico.stderr.log")
        assert log.status_code == 200 and log["Content-Type"].startswith("text/plain")
        assert b"".join(log.streaming_content) == b"la traza de Ana\n"
        assert client.get(f"/versions/{ladder.ana.pk}/files/{mine}").status_code == 200
    version_page = _client("ana").get(f"/versions/{ladder.ana.pk}").content.decode()
    assert f'href="/versions/{ladder.ana.pk}/files"' in version_page


def test_another_student_gets_404_for_the_list_and_every_file(ladder: Any, check_files: Path) -> None:
    from arena.serve.ladder.views_watch import version_files

    bruno = _client("bruno")
    assert _files(bruno, ladder, ladder.ana).status_code == 404
    names = list(version_files(ladder.ana))
    assert names
    for name in names:
        response = bruno.get(f"/versions/{ladder.ana.pk}/files/{name}")
        assert response.status_code == 404, name
    assert _files(_client(), ladder, ladder.ana).status_code == 302  # not logged in: the login page


def test_paths_out_of_the_list_are_not_found(ladder: Any, check_files: Path, service: Path) -> None:
    ana = _client("ana")
    base = f"/versions/{ladder.ana.pk}/files/"
    seat = _own_seat(ladder, ladder.ana)
    from arena.serve.ladder.storage import plain

    bruno_log = Path(f"{plain(Path(ladder.first.replay))}.logs")
    assert len(list(bruno_log.glob("*.stderr.log*"))) == 2  # both seats' logs on the disk (.gz: not empty)
    attempts = [
        "check/../../../../secret_key",
        "../secret_key",
        "check/%2e%2e/%2e%2e/upload.zip",
        "/etc/passwd",
        "%2Fetc%2Fpasswd",
        str(service / "secret_key"),
        "check/link.txt",
        "check/bruno/1/check/partido-1.jsonl",
        "check/",
        "check",
        f"partidos/{ladder.first.pk}/seat-{1 - seat}.stderr.log",  # the other seat's log
        f"partidos/{ladder.first.pk}/../../../secret_key",
    ]
    for attempt in attempts:
        response = ana.get(base + attempt)
        assert response.status_code == 404, attempt
        assert b"fuera del alcance" not in response.content
    assert ana.get(f"/versions/{ladder.bruno.pk}/files").status_code == 404


def test_in_a_game_of_teams_each_side_s_version_sits_in_its_team_s_seats(service: Path) -> None:
    from arena.serve.ladder.views_watch import table_seats

    assert table_seats([7, 9], "tute-parejas") == [7, 9, 7, 9]
    assert table_seats([7, 9, 4], "tute-cabrero") == [7, 9, 4]


# --- live.json kept until what it shows changes


def test_live_json_is_kept_until_what_it_shows_changes(ladder: Any) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from arena.serve.ladder.models import LadderPartido

    cache.clear()
    client = _client("eva")
    client.get("/me")  # the session and the user loaded once, as a tab that polls has them
    url = f"/ladders/{ladder.pk}/live.json"
    with CaptureQueriesContext(connection) as made:
        first = client.get(url)
    with CaptureQueriesContext(connection) as kept:
        again = client.get(url)
    assert first.status_code == again.status_code == 200
    assert len(kept) < len(made), (len(kept), len(made))
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert again["Cache-Control"] == "no-store"
    # a partido queued: a new answer, the partido in it, another ETag
    queued = LadderPartido.objects.create_seated(ladder=ladder, versions=[ladder.ana.pk, ladder.bruno.pk])
    try:
        changed = client.get(url)
        assert changed["ETag"] != first["ETag"]
        assert queued.pk in [p["id"] for p in json.loads(changed.content)["partidos"]]
        # ... and started: another one again (the same counts of partidos, one more playing)
        LadderPartido.objects.filter(pk=queued.pk).update(status=LadderPartido.PLAYING)
        playing = json.loads(client.get(url).content)
        assert next(p for p in playing["partidos"] if p["id"] == queued.pk)["status"] == "playing"
    finally:
        queued.delete()
    # the ladder closed: shown at once
    type(ladder).objects.filter(pk=ladder.pk).update(open=False)
    try:
        assert json.loads(client.get(url).content)["open"] is False
    finally:
        type(ladder).objects.filter(pk=ladder.pk).update(open=True)
    assert json.loads(client.get(url).content)["partidos"] == json.loads(first.content)["partidos"]


def test_live_json_is_not_looked_at_again_within_live_fresh_s(ladder: Any) -> None:
    """Within ``LIVE_FRESH_S`` of the last look the answer is given as it is (no query for its key:
    a class's tabs poll without each costing a look); after it, a change shows."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, override_settings

    from arena.serve.ladder.models import LadderPartido

    cache.clear()
    client = _client("eva")
    client.get("/me")
    url = f"/ladders/{ladder.pk}/live.json"
    with override_settings(LIVE_FRESH_S=3600):
        first = client.get(url)
        queued = LadderPartido.objects.create_seated(ladder=ladder, versions=[ladder.ana.pk, ladder.bruno.pk])
        try:
            with CaptureQueriesContext(connection) as looked:
                again = client.get(url)
            assert again.content == first.content
            assert not [q for q in looked if "ladderpartido" in q["sql"]], looked.captured_queries
            with override_settings(LIVE_FRESH_S=0):
                changed = client.get(url)
            assert queued.pk in [p["id"] for p in json.loads(changed.content)["partidos"]]
        finally:
            queued.delete()


def test_the_standings_page_draws_the_live_answer_kept(ladder: Any) -> None:
    """The page shows what live.json shows, from the same answer kept in memory: within
    ``LIVE_FRESH_S`` it reads no partido (a class opening the page costs no fit, no query of them)."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext, override_settings

    cache.clear()
    client = _client("eva")
    client.get("/me")
    with override_settings(LIVE_FRESH_S=3600):
        data = _live(client, ladder)
        with CaptureQueriesContext(connection) as read:
            page = client.get(f"/ladders/{ladder.pk}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert not [q for q in read if "ladderpartido" in q["sql"] or "seat" in q["sql"]], read.captured_queries
    for row in data["rows"]:
        assert f"<td>{row['version']}</td>" in text and row["shown"]["strength"] in text
    assert all(f"<td>{p['id']}</td>" in text for p in data["partidos"])


def test_live_json_answers_304_to_the_etag_drawn(ladder: Any) -> None:
    client = _client("eva")
    url = f"/ladders/{ladder.pk}/live.json"
    tag = client.get(url)["ETag"]
    assert tag.startswith('"') and tag.endswith('"')
    same = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert same.status_code == 304 and same.content == b"" and same["ETag"] == tag
    other = client.get(url, HTTP_IF_NONE_MATCH='"something-else"')
    assert other.status_code == 200 and json.loads(other.content)["ladder"] == ladder.pk
    # the access as before: no login, no answer (not even a 304); no ladder, 404
    anonymous = _client().get(url, HTTP_IF_NONE_MATCH=tag)
    assert anonymous.status_code == 302 and anonymous.url.startswith("/login/")
    assert _client("eva").get("/ladders/999999/live.json", HTTP_IF_NONE_MATCH=tag).status_code == 404


def test_live_json_is_kept_for_each_language(ladder: Any) -> None:
    from django.conf import settings

    client = _client("eva")
    url = f"/ladders/{ladder.pk}/live.json"
    spanish = client.get(url)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.get(url, HTTP_IF_NONE_MATCH=spanish["ETag"])
    assert english.status_code == 200 and english["ETag"] != spanish["ETag"]
    first = next(p for p in json.loads(english.content)["partidos"] if p["id"] == ladder.first.pk)
    assert first["state"] == "done"
    assert (
        next(p for p in json.loads(spanish.content)["partidos"] if p["id"] == ladder.first.pk)["state"]
        == "terminado"
    )
