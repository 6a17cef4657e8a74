"""A player's standard error as the referee keeps it: a capped log, escaped like incident files, a
tail complete when an incident is written, and a flood past the cap that costs the referee little."""

from __future__ import annotations

import errno
import os
import re
import resource
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import pytest

from arena.containment.stderr_log import StderrLog
from arena.inert import printable
from arena.referee.connection import SubprocessConnection
from arena.referee.players import find_player
from tests.containment.test_containment import put
from tests.referee import test_referee
from tests.referee.test_referee import BOTS, GOOD, LIMITS, audit, check_disqualified, play, seat_played

FLOOD = "hostile_stderr_flood"
DROPPED = re.compile(rb"\n\[arena: se descartaron (\d+) bytes m\xc3\xa1s de stderr\]\n$")


def test_catch_up_waits_for_what_was_written_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drain thread lags (a loaded machine): catch_up waits until the last words are kept."""
    go = threading.Event()
    real_read = os.read

    def slow_read(fd: int, n: int) -> bytes:
        go.wait(5)  # the drain cannot read before the test lets it
        return real_read(fd, n)

    monkeypatch.setattr("arena.containment.stderr_log.os.read", slow_read)
    r, w = os.pipe()
    log = StderrLog(r, None)
    os.write(w, b"bot: last words\n")
    threading.Timer(0.05, go.set).start()
    log.catch_up(2.0)
    assert "bot: last words" in log.tail()
    os.close(w)
    log.join(2.0)


def test_catch_up_returns_at_once_when_nothing_is_pending() -> None:
    r, w = os.pipe()
    log = StderrLog(r, None)
    log.catch_up(2.0)
    assert log.tail() == ""
    os.close(w)
    log.join(2.0)
    log.catch_up(2.0)  # after the end of the pipe too


# ---------------------------------------------------------------- the log: capped, escaped


def numbered(count: int) -> Iterator[bytes]:
    """Distinct lines, so that any tail of them tells where it starts."""
    for i in range(0, count, 1000):
        yield b"".join(b"line %08d of the flood\n" % j for j in range(i, min(i + 1000, count)))


def drain(pieces: Iterable[bytes], path: Path | None, cap: int = 1 << 20, settle: bool = False) -> StderrLog:
    """``pieces`` written to a pipe a :class:`StderrLog` drains, then the pipe closed; ``settle`` waits
    until each piece is taken before writing the next (each is then read apart: a cut between them)."""
    r, w = os.pipe()
    log = StderrLog(r, path, cap=cap)

    def write() -> None:
        sent = 0
        for piece in pieces:
            os.write(w, piece)
            sent += len(piece)
            while settle and log.received < sent:
                time.sleep(0.001)
        os.close(w)

    writer = threading.Thread(target=write)
    writer.start()
    writer.join(60)
    log.join(10)
    assert not writer.is_alive() and log._done
    return log


def test_the_log_keeps_its_cap_and_says_what_it_dropped(tmp_path: Path) -> None:
    stream = b"".join(numbered(150_000))  # 4 MiB
    path = tmp_path / "bot.stderr.log"
    log = drain(numbered(150_000), path)
    kept = path.read_bytes()
    end = DROPPED.search(kept)
    assert end, kept[-200:]
    assert kept[: end.start()] == stream[: 1 << 20]  # plain text: kept as it came, up to the cap
    assert log.written == 1 << 20 and int(end.group(1)) == log.dropped == len(stream) - (1 << 20)
    assert log.received == len(stream)


def test_the_tail_after_a_flood_is_the_newest_bytes(tmp_path: Path) -> None:
    """Megabytes past the cap are discarded in the kernel; the last 4 KiB are still the tail."""
    stream = b"".join(numbered(800_000)) + b"bot: last words\n"  # 20 MiB
    for path in (tmp_path / "bot.stderr.log", None):
        log = drain([*numbered(800_000), b"bot: last words\n"], path)
        assert log.tail() == stream[-4096:].decode()
        assert log.received == len(stream)


def test_a_player_still_flooding_is_caught_up_with() -> None:
    """catch_up under a flood returns once what was written before it is kept, not at its timeout."""
    r, w = os.pipe()
    log = StderrLog(r, None)
    marked = threading.Event()
    stop = threading.Event()
    sent = [0]

    def flood() -> None:
        noise = b"x" * (1 << 16)
        while not stop.is_set():
            sent[0] += os.write(w, b"bot: marker\n" if sent[0] > 4 << 20 and not marked.is_set() else noise)
            if sent[0] > 4 << 20:
                marked.set()
        os.close(w)

    writer = threading.Thread(target=flood)
    writer.start()
    try:
        assert marked.wait(30)
        before = sent[0]
        start = time.monotonic()
        log.catch_up(10.0)
        waited = time.monotonic() - start
        assert log.received >= before  # everything written before the call, the marker among it
        assert waited < 5.0, f"catch_up waited {waited:.1f} s for a flood to pause"
    finally:
        stop.set()
        writer.join(10)
        log.join(5)


def test_the_log_is_escaped_like_incident_files(tmp_path: Path) -> None:
    """Terminal escapes, C0 and C1 controls, bidi overrides and bad bytes become inert text, even
    when a read cuts a character or an escape sequence in two."""
    pieces = [
        b"plain line\n\x1b[2J\x1b[3",  # clear screen; a colour cut after ESC [ 3
        b"1mred\x1b[0m \xe2\x80\xaeevil\r\n\xc2",  # a bidi override; CRLF; a C1 CSI (U+009B) cut in two
        b"\x9b31m \xc3",  # the rest of it; an n with tilde cut in two
        b"\xb1and\xfa bad \xff byte\ttab\n",
    ]
    path = tmp_path / "bot.stderr.log"
    drain(pieces, path, settle=True)
    kept = path.read_text(encoding="utf-8")
    incident_like = printable(b"".join(pieces).decode("utf-8", errors="replace"), multiline=True)
    assert kept == incident_like
    assert "\\x1b[2J\\x1b[31mred" in kept and "\\u202eevil\\r\n" in kept and "\\x9b31m ñand\ufffd" in kept
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]", kept)


def test_the_cap_cuts_the_log_between_characters(tmp_path: Path) -> None:
    """The log ends before the first character whose escape would not fit, and counts the rest."""
    text = "ok \x1b[31mñ\u202e" * 20
    path = tmp_path / "bot.stderr.log"
    log = drain([text.encode()], path, cap=50)
    kept = path.read_bytes()
    end = DROPPED.search(kept)
    assert end
    shown = [printable(c, multiline=True).encode() for c in text]
    fits = next(i for i in range(len(text) + 1) if len(b"".join(shown[: i + 1])) > 50)
    assert kept[: end.start()] == b"".join(shown[:fits])
    assert log.dropped == len(text[fits:].encode())


def _no_splice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "splice", raising=False)


def _failing_splice(monkeypatch: pytest.MonkeyPatch) -> None:
    def splice(*args: object, **kwargs: object) -> int:
        raise OSError(errno.EINVAL, "splice refused")

    monkeypatch.setattr(os, "splice", splice)


@pytest.mark.parametrize("without", [_no_splice, _failing_splice], ids=["no_splice", "failing_splice"])
def test_without_splice_the_flood_is_read_and_thrown_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, without: Callable[[pytest.MonkeyPatch], None]
) -> None:
    without(monkeypatch)
    stream = b"".join(numbered(300_000)) + b"bot: last words\n"
    path = tmp_path / "bot.stderr.log"
    log = drain([*numbered(300_000), b"bot: last words\n"], path)
    assert log.tail() == stream[-4096:].decode()
    assert log.received == len(stream) and log.dropped == len(stream) - (1 << 20)
    assert path.read_bytes().startswith(stream[: 1 << 20])


# ---------------------------------------------------------------- a flooding player


def cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


@pytest.mark.usefixtures("run_token")
def test_a_flooding_player_costs_the_referee_little(tmp_path: Path) -> None:
    """Past the cap the referee wakes once a tick: it spent some 40% of a core draining 1 GB/s;
    a few percent now (benchmarks/performance/stderr_flood.py), while the player's writes still get
    through."""
    conn = SubprocessConnection(find_player(BOTS / FLOOD), LIMITS, tmp_path / "logs")
    try:
        assert conn.failed is None, conn.failed
        log = conn.process.stderr
        deadline = time.monotonic() + 20
        while log.received < 2 << 20 and time.monotonic() < deadline:  # past the cap
            time.sleep(0.05)
        before, received, start = cpu_s(), log.received, time.monotonic()
        time.sleep(1.5)
        share = (cpu_s() - before) / (time.monotonic() - start)
        flowed = log.received - received
    finally:
        conn.close()
    assert flowed > 1 << 20, "the flooder's writes no longer get through"
    assert share < 0.15, f"the referee spent {share:.0%} of a core on a flood of {flowed / 1.5e6:.0f} MB/s"


@pytest.mark.usefixtures("run_token")
def test_a_flooding_player_is_judged_as_any_other(tmp_path: Path) -> None:
    game = play(tmp_path, [*GOOD[:2], FLOOD, GOOD[2]])
    assert audit(game.events) == []
    assert not game.result.faults and not game.incidents
    assert seat_played(game, game.seat(FLOOD)), "the flooder played"
    path = Path(f"{game.replay}.logs/{FLOOD}.stderr.log")
    kept = path.read_bytes()
    end = DROPPED.search(kept)
    assert end and int(end.group(1)) > 0
    assert len(kept) <= (1 << 20) + 100
    text = kept.decode("utf-8")  # escapes only: valid UTF-8 whatever the reads cut
    assert "flood \\x1b[2J\\x1b[31mrojo\\x1b[0m \\u202eevil ñandú €\n" in text
    assert "\x1b" not in text and "\u202e" not in text


@pytest.mark.usefixtures("run_token")
def test_a_flooding_player_that_crashes_leaves_its_last_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its third play ends the flood, then the process: a crash like any other, whose incident
    shows what it wrote last, after megabytes of noise."""
    stage = Path(tempfile.mkdtemp(prefix="tute-flood-"))
    stage.chmod(0o755)
    try:
        bot = put(stage, FLOOD, [3])
        original = test_referee.folder
        monkeypatch.setattr(test_referee, "folder", lambda name: bot if name == FLOOD else original(name))
        game = play(tmp_path, [FLOOD, *GOOD])
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    line = check_disqualified(game, FLOOD, "crash", "exit")
    assert line["exit"] == 3
    assert len(seat_played(game, 0, before=line)) == 2
    tail = game.incidents[0].read_text(encoding="utf-8").split("Final de la salida de error:")[1]
    assert "hostile_stderr_flood bot: last words" in tail and "\\x1b[2J" in tail
    assert len(game.result.winners) == 2 and game.result.manos > 1
