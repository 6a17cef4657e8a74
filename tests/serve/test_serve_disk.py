"""``arena serve``'s disk (issue 52): the ladder's replays and logs kept gzip-compressed and served as
they were written (the text replay, the viewer, a version's own logs), and the retention that prunes
the files of the partidos no version keeps, never a final's.

Each test's rows go at its end (tests/serve/conftest.py)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.paths import ROOT
from tests.serve.support import clean_version, logged_in

PREFIX = "disk-test-"
GAME = "tute-dos"

pytestmark = pytest.mark.django_db  # each test's rows rolled back at its end


@pytest.fixture(scope="module")
def service(serve_dir: Path) -> Path:
    return serve_dir


def _ladder() -> Any:
    from arena.serve.ladder.models import Ladder

    ladder, _new = Ladder.objects.get_or_create(game=GAME)
    ladder.open, ladder.paused = True, False
    ladder.save()
    return ladder


def _version(service: Path, ladder: Any, name: str, sample: str = "random_legal") -> Any:
    return clean_version(service, PREFIX + name, f"Autora {name}", ladder, ROOT / "sample_dos" / sample)


def _line(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def _stored_partido(service: Path, versions: list[Any], log_text: str = "") -> Any:
    """A done partido of ``versions`` whose replay and logs are written as the referee writes them
    and then kept as the worker keeps them (:func:`storage.compress_partido`)."""
    from arena.serve.ladder import storage
    from arena.serve.ladder.models import LadderPartido
    from arena.serve.ladder.worker import replay_path

    ladder = versions[0].ladder
    partido = LadderPartido.objects.create_seated(
        ladder=ladder,
        versions=[v.pk for v in versions],
        status=LadderPartido.DONE,
        winners=[0],
        ranking=[[0], [1]],
    )
    names = [Path(v.folder).name for v in versions]
    names = [n if names.index(n) == s else f"{n}#2" for s, n in enumerate(names)]
    start = {
        "type": "partido_start",
        "partido": f"ladder-{ladder.pk}-{partido.pk}",
        "seed": partido.seed,
        "game": GAME,
        "players": [
            {"seat": s, "name": n, "source": v.folder}
            for s, (n, v) in enumerate(zip(names, versions, strict=True))
        ],
    }
    end = {"type": "partido_end", "winners": [0], "ranking": [[0], [1]], "manos": 0}
    replay = replay_path(partido)
    replay.parent.mkdir(parents=True, exist_ok=True)
    replay.write_text(_line(start) + "\n" + _line(end) + "\n", encoding="utf-8")
    logs = Path(f"{replay}.logs")
    logs.mkdir(exist_ok=True)
    for name in names:
        (logs / f"{name}.stderr.log").write_text(log_text + name if log_text else "", encoding="utf-8")
    stored = storage.compress_partido(replay)
    partido.replay = str(stored)
    partido.save(update_fields=["replay"])
    return partido


# --- compressed, read as written


def test_a_stored_replay_and_its_logs_are_compressed_and_served_as_written(service: Path) -> None:
    ladder = _ladder()
    ana, bruno = _version(service, ladder, "ana"), _version(service, ladder, "bruno")
    partido = _stored_partido(service, [ana, bruno], log_text="la traza de ")
    replay = Path(partido.replay)
    assert replay.name == f"{partido.pk}.jsonl.gz" and replay.is_file()
    assert not replay.with_name(f"{partido.pk}.jsonl").exists()  # the plain one is gone
    text = gzip.decompress(replay.read_bytes()).decode()
    assert text.startswith('{"type":"partido_start"')
    logs = Path(f"{replay.with_name(f'{partido.pk}.jsonl')}.logs")
    assert sorted(p.name for p in logs.iterdir()) == [
        "random_legal#2.stderr.log.gz",
        "random_legal.stderr.log.gz",
    ]

    client = logged_in(PREFIX + "ana")
    served = client.get(f"/partidos/{partido.pk}/replay")
    assert served.status_code == 200
    first, second = served.content.decode().splitlines()
    assert json.loads(first)["players"] == [
        {"seat": 0, "name": "Autora ana #1"},
        {"seat": 1, "name": "Autora bruno #1"},
    ]
    assert json.loads(second)["type"] == "partido_end"
    page = client.get(f"/partidos/{partido.pk}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert (
        'id="replay-data"' in body
        and "cannot read replay" not in body
        and "no se puede leer" not in body
        and "Autora bruno #1" in body
    )

    files = client.get(f"/versions/{ana.pk}/files")
    name = f"partidos/{partido.pk}/seat-0.stderr.log"
    assert files.status_code == 200 and name in files.content.decode()
    log = client.get(f"/versions/{ana.pk}/files/{name}")
    assert log.status_code == 200 and log["Content-Type"].startswith("text/plain")
    assert b"".join(log.streaming_content) == b"la traza de random_legal"
    assert client.get(f"/versions/{ana.pk}/files/partidos/{partido.pk}/seat-1.stderr.log").status_code == 404


def test_empty_logs_stay_as_they_are(service: Path) -> None:
    from arena.serve.ladder import storage

    ladder = _ladder()
    ana, bruno = _version(service, ladder, "carla"), _version(service, ladder, "dario")
    partido = _stored_partido(service, [ana, bruno])
    logs = Path(f"{storage.plain(Path(partido.replay))}.logs")
    assert sorted(p.name for p in logs.iterdir()) == ["random_legal#2.stderr.log", "random_legal.stderr.log"]


def test_a_replay_left_uncompressed_is_read_as_it_is(service: Path, tmp_path: Path) -> None:
    from arena.referee.replay import ReplayError, read_replay
    from arena.serve.ladder import storage

    plain = tmp_path / "1.jsonl"
    plain.write_text('{"type":"partido_start"}\n', encoding="utf-8")
    assert storage.read_bytes(plain) == b'{"type":"partido_start"}\n'
    assert read_replay(plain) == [{"type": "partido_start"}]
    packed = storage.compress(plain)
    assert packed == tmp_path / "1.jsonl.gz" and not plain.exists()
    assert read_replay(packed) == [{"type": "partido_start"}]
    assert storage.first_line(packed) == b'{"type":"partido_start"}\n'
    assert storage.stored(plain) == packed and storage.stored(tmp_path / "2.jsonl") is None
    cut = tmp_path / ".4.jsonl.gz.part"  # a compression cut short, then the partido played again
    cut.write_bytes(b"\x1f\x8b")
    (tmp_path / "4.jsonl.logs").mkdir()
    storage.remove_partido(tmp_path / "4.jsonl")
    assert not cut.exists() and not (tmp_path / "4.jsonl.logs").exists()
    broken = tmp_path / "3.jsonl.gz"
    broken.write_bytes(b"not gzip")
    with pytest.raises(ReplayError, match=r"3\.jsonl\.gz: "):
        read_replay(broken)


@pytest.mark.sandbox
def test_a_partido_the_worker_plays_is_stored_compressed_and_watchable(service: Path) -> None:
    from arena.serve.ladder.models import LadderPartido
    from arena.serve.ladder.worker import play_next

    ladder = _ladder()
    LadderPartido.objects.filter(ladder=ladder).delete()
    _version(service, ladder, "elena", "basico")
    _version(service, ladder, "fabio", "random_legal")
    partido = play_next(ladder)
    assert partido is not None and partido.status == LadderPartido.DONE, partido and partido.error
    replay = Path(partido.replay)
    assert replay.name.endswith(".jsonl.gz") and replay.is_file()
    assert not list(replay.parent.glob(f"{partido.pk}.jsonl")) and not list(replay.parent.glob(".*"))
    client = logged_in(PREFIX + "elena")
    text = client.get(f"/partidos/{partido.pk}/replay").content.decode()
    events = [json.loads(line) for line in text.splitlines()]
    assert events[0]["type"] == "partido_start" and events[-1]["type"] == "partido_end"
    assert events[-1]["winners"] == partido.winners
    page = client.get(f"/partidos/{partido.pk}/").content.decode()
    assert 'id="replay-data"' in page and "cannot read replay" not in page and "no se puede leer" not in page
    live = json.loads(client.get(f"/ladders/{ladder.pk}/live.json").content)
    shown = next(p for p in live["partidos"] if p["id"] == partido.pk)
    assert shown["viewer"] == f"/partidos/{partido.pk}/"


# --- retention


def test_each_version_keeps_its_latest_partidos() -> None:
    from arena.serve.ladder.storage import to_prune

    partidos = [(1, [10, 11]), (2, [10, 12]), (3, [11, 12]), (4, [10, 11]), (5, [12, 13])]
    assert to_prune(partidos, 0) == set()  # 0: keep everything
    assert to_prune(partidos, 5) == set()
    # keep 1: 10's latest is 4, 11's is 4, 12's is 5, 13's is 5
    assert to_prune(partidos, 1) == {1, 2, 3}
    # keep 2: 10 keeps 4 and 2, 11 keeps 4 and 3, 12 keeps 5 and 3, 13 keeps 5
    assert to_prune(partidos, 2) == {1}


def test_the_prune_deletes_the_right_files_and_never_a_final_s(
    service: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.serve.finals.models import FinalTorneo
    from arena.serve.ladder import storage
    from arena.serve.ladder.models import LadderPartido
    from arena.serve.ladder.worker import replay_path

    ladder = _ladder()
    LadderPartido.objects.filter(ladder=ladder).delete()
    a, b, c = (_version(service, ladder, name) for name in ("gema", "hugo", "ines"))
    final = FinalTorneo.objects.create_frozen([a.pk, b.pk, c.pk], ladder=ladder, status=FinalTorneo.DONE)
    from arena.serve.finals.final import torneo_dir

    torneo = torneo_dir(final)
    (torneo / "replays").mkdir(parents=True, exist_ok=True)
    finals_replay = torneo / "replays" / "p1.jsonl"
    finals_replay.write_text('{"type":"partido_start"}\n', encoding="utf-8")
    # the oldest row names a file outside DIR/ladder (a final's): it is pruned of nothing
    outside = LadderPartido.objects.create_seated(
        ladder=ladder, versions=[a.pk, b.pk], status=LadderPartido.DONE, replay=str(finals_replay)
    )
    made = [_stored_partido(service, pair, log_text="x") for pair in ([a, b], [a, c], [b, c], [a, b], [b, c])]
    incident = storage.plain(Path(made[0].replay)).with_name(f"{made[0].pk}.incident-0-random_legal.txt")
    incident.write_text("la incidencia", encoding="utf-8")

    monkeypatch.setenv("ARENA_SERVE_KEEP_PARTIDOS", "1")
    assert storage.keep_partidos() == 1
    # keep 1: gema's latest is made[3], hugo's and ines' made[4]: the others are pruned
    pruned = storage.prune()
    gone, kept = made[:3], made[3:]
    assert pruned == len(gone)
    for p in gone:
        p.refresh_from_db()
        assert p.replay == "" and p.status == LadderPartido.DONE and p.winners == [0]  # the result stays
        base = replay_path(p)
        assert not base.exists() and not base.with_name(base.name + ".gz").exists()
        assert not Path(f"{base}.logs").exists()
    assert not incident.exists()
    for p in kept:
        p.refresh_from_db()
        assert Path(p.replay).is_file() and Path(f"{replay_path(p)}.logs").is_dir()
    assert finals_replay.read_text(encoding="utf-8") == '{"type":"partido_start"}\n'  # the final's: untouched
    assert LadderPartido.objects.get(pk=outside.pk).replay == str(finals_replay)
    assert storage.prune() == 0  # nothing more to prune
    monkeypatch.setenv("ARENA_SERVE_KEEP_PARTIDOS", "0")
    assert storage.prune() == 0  # 0: keep everything


def test_the_retention_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.serve.ladder import storage

    monkeypatch.delenv("ARENA_SERVE_KEEP_PARTIDOS", raising=False)
    assert storage.keep_partidos() == storage.KEEP_PARTIDOS == 1000
    monkeypatch.setenv("ARENA_SERVE_KEEP_PARTIDOS", "many")
    assert storage.keep_partidos() == storage.KEEP_PARTIDOS

