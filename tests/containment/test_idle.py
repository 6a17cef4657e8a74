"""Idle time (protocol revision 1.2): a reply may not spend more than ``idle_ms`` neither computing
nor waiting for a CPU, whatever the machine's load; a reply read after the wall backstop is late."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.containment import idle, sandbox
from arena.referee.connection import Limits, SubprocessConnection
from arena.referee.players import find_player
from tests.containment.test_containment import GOOD, check_contained, play, put, stage_good
from tests.paths import BOTS

pytestmark = [
    pytest.mark.usefixtures("run_token"),
    pytest.mark.skipif(not idle.measurable(), reason="this kernel keeps no schedstat"),
]

STARTS = [
    pytest.param("bwrap", id="bwrap", marks=pytest.mark.skipif(not sandbox.bwrap_works(), reason="no bwrap")),
    pytest.param("none", id="none (threads from /proc)"),
]


def _child_clock(code: str) -> tuple[subprocess.Popen[bytes], idle.IdleClock]:
    """A child running ``code`` once it has said it is started (a loaded machine starts it late)."""
    child = subprocess.Popen([sys.executable, "-c", f"print(flush=True)\n{code}"], stdout=subprocess.PIPE)
    assert child.stdout is not None
    child.stdout.readline()
    clock = idle.IdleClock(lambda: idle.threads_of([child.pid]), lambda: _cpu_ns(child.pid))
    return child, clock


def _cpu_ns(pid: int) -> int | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 10_000_000  # utime + stime, in clock ticks of 10 ms


def test_the_clock_counts_sleeping_and_not_computing() -> None:
    sleeper, asleep = _child_clock("import time; time.sleep(30)")
    spinner, busy = _child_clock("while True: pass")
    try:
        time.sleep(0.05)
        asleep.start()
        busy.start()
        time.sleep(0.6)
        slept, spun = asleep.idle_ms(), busy.idle_ms()
    finally:
        for child in (sleeper, spinner):
            child.kill()
            child.wait()
    assert slept is not None and spun is not None
    assert 500 <= slept <= 700, slept
    assert spun < 150, spun  # the clock ticks of /proc's CPU time: 10 ms each


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_the_clock_keeps_its_schedstat_files_open_until_closed() -> None:
    """Each look after the first reads the files it opened (no open, no close); close() shuts them."""
    sleeper, clock = _child_clock("import time; time.sleep(30)")
    try:
        before = _open_fds()
        clock.start()
        opened = _open_fds()
        assert opened == before + 2  # the child's thread and the referee's
        time.sleep(0.2)
        first = clock.idle_ms()
        assert _open_fds() == opened
        clock.close()
        assert _open_fds() == before
        second = clock.idle_ms()  # still measures: the files open again
        clock.close()
    finally:
        sleeper.kill()
        sleeper.wait()
    assert first is not None and second is not None
    assert 150 <= first <= second, (first, second)


def test_a_thread_that_ended_keeps_what_was_last_seen_of_it() -> None:
    """A thread's file that reads nothing (the thread ended) is closed; what it had counted stays."""
    worker = threading.Thread(target=time.sleep, args=(0.3,))
    worker.start()
    tid = worker.native_id
    assert tid is not None
    with idle.IdleClock(lambda: [tid], lambda: 0) as clock:
        clock.start()
        worker.join()
        # join() returns when Python's thread is done; the kernel's task goes a moment later
        deadline = time.monotonic() + 5
        while os.path.exists(f"/proc/self/task/{tid}") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert clock.idle_ms() is not None
        assert tid not in clock._files  # the file that read nothing is closed


@pytest.mark.parametrize("mechanism", STARTS)
def test_a_sleeper_under_the_backstop_is_faulted_idle_at_its_first_play(stage: Path, mechanism: str) -> None:
    """Sleeps 2.8 s before every reply under a 3 s backstop: once, for more than idle_ms."""
    stage_good(stage)
    put(stage, "idle_sleeper")
    limits = Limits(init_ms=5000, move_ms=1000)  # backstop 3000 ms, idle 1000 ms

    game = play(stage, ["idle_sleeper", *GOOD], mechanism, limits)

    check_contained(game, "idle_sleeper", "timeout", "(idle)")  # named so in both languages
    line = game.fault_lines()[0]
    assert limits.idle_ms < line["idle_ms"] <= line["elapsed_ms"] < limits.move_wall, line
    assert line["cpu_ms"] < 100, line
    seat = game.seat("idle_sleeper")
    assert not [e for e in game.events if e["type"] == "played" and e["seat"] == seat]  # its first play
    assert game.seconds < 20


@pytest.mark.skipif(not sandbox.bwrap_works(), reason="no bwrap")
@pytest.mark.usefixtures("busy_machine")
def test_cpu_bound_and_slow_reading_bots_on_a_loaded_machine_are_never_idle(stage: Path) -> None:
    """Six processes spinning on two cores (3× load): computing and waiting for a CPU is not idle."""
    stage_good(stage)
    put(stage, "thinker", [400])
    put(stage, "slow_reader")
    limits = Limits(init_ms=10_000, move_ms=1000, idle_ms=300)  # a tight allowance, on purpose

    game = play(stage, ["thinker", "slow_reader", "random_legal", "a_mas"], "bwrap", limits)

    check_contained(game, "thinker")
    plays = [e for e in game.events if e["type"] == "played" and e["seat"] == game.seat("thinker")]
    assert max(e["ms"] for e in plays) > 400  # it did think, on a loaded machine


def test_a_reply_read_after_the_wall_backstop_is_late(monkeypatch: pytest.MonkeyPatch) -> None:
    """However it got there (a reply written in time, read late): ``ms`` above the backstop is a timeout."""
    limits = Limits(init_ms=5000, move_ms=100, move_wall_ms=300)
    conn = SubprocessConnection(find_player(BOTS.parent.parent / "sample_players" / "a_mas"), limits)
    try:
        assert conn.failed is None
        real = conn.process.read_line

        def late(timeout: float) -> bytes:
            line = real(timeout)
            time.sleep(0.301)  # the reply is read past the backstop
            return line

        monkeypatch.setattr(conn.process, "read_line", late)
        with pytest.raises(Exception) as caught:
            conn.ask({"type": "ping"}, limits.move_ms, limits.move_wall)
        fault = caught.value
        assert getattr(fault, "reason", None) == "timeout", fault
        # At the backstop or past it: read late (> 300), or, on a loaded machine, not even written
        # within the 300 ms, when the backstop itself ends the wait (>= 300, rounded).
        assert fault.evidence["elapsed_ms"] >= limits.move_wall  # type: ignore[attr-defined]
    finally:
        conn.close()
