"""Several threads of one referee process start players at once (a Dask worker with ``--nthreads N``).

Every ``close`` of a player reaps the orphans this process adopted (:func:`process.reap_orphans`).
A player another thread is starting is a child of ours in a session of its own before it is tracked:
taken for an orphan there, it was killed and reaped, and its owner read exit 0 (a sandbox failure, or
a crash charged to a legal player). Here a thread reaps in a loop, as the other tables' closes do,
while two threads start players: every one must answer hello and end cleanly.

The threads share one warm-start server: started once however many ask at once, never reaped,
never ended with the thread that happened to start it, and no thread waits out a reply another read.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from arena.containment import process, sandbox, warm
from arena.referee.connection import Limits, SubprocessConnection
from arena.referee.players import find_player
from tests.paths import ROOT

pytestmark = pytest.mark.usefixtures("run_token")

SAMPLE = ROOT / "sample_players" / "random_legal"
THREADS = 2


@pytest.fixture
def reaping() -> Iterator[None]:
    """A thread calling :func:`process.reap_orphans` over and over while the test runs."""
    process.become_subreaper()
    stop = threading.Event()

    def reap() -> None:
        while not stop.is_set():
            process.reap_orphans()
            time.sleep(0.001)

    reaper = threading.Thread(target=reap, name="reaper", daemon=True)
    reaper.start()
    yield
    stop.set()
    reaper.join(10)


def in_threads(start: Callable[[int], list[str]], rounds: int) -> tuple[int, list[str]]:
    """``start(thread)`` ``rounds`` times in each of :data:`THREADS` threads at once: how many
    players were started, and what went wrong (one line each)."""
    deaths: list[str] = []
    count = [0]
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def run(thread: int) -> None:
        barrier.wait()
        for _ in range(rounds):
            wrong = start(thread)
            with lock:
                count[0] += 1
                deaths.extend(wrong)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not any(t.is_alive() for t in threads)
    return count[0], deaths


def greet_and_close(
    warm_start: bool, kinds: list[str] | None = None, took: list[float] | None = None
) -> list[str]:
    """Start a player, greet it, close it: what went wrong."""
    start = time.monotonic()
    try:
        conn = SubprocessConnection(find_player(SAMPLE), Limits(), warm_start=warm_start)
    except Exception as exc:  # a sandbox failure: the player was killed before it ran
        return [f"{type(exc).__name__}: {exc}"]
    if took is not None:
        took.append(time.monotonic() - start)
    if kinds is not None:
        kinds.append(type(conn.process).__name__)
    wrong = (
        [] if conn.failed is None else [f"{conn.failed.reason}: {conn.failed.detail} {conn.failed.evidence}"]
    )
    conn.close()
    if conn.process.exit_status() not in (0, -9, 137):
        wrong.append(f"exit {conn.process.exit_status()}")
    return wrong


@pytest.mark.usefixtures("reaping")
def test_no_player_started_in_one_thread_is_reaped_by_another() -> None:
    started, deaths = in_threads(lambda _thread: greet_and_close(warm_start=False), rounds=12)
    assert started == THREADS * 12
    assert not deaths, f"{len(deaths)} of {started} players died: {deaths[:3]}"


@pytest.mark.skipif(not sandbox.warm_ready(), reason="warm starts need root, bubblewrap and cgroups")
def test_the_warm_start_server_outlives_the_thread_that_started_it() -> None:
    """bwrap's ``--die-with-parent`` is the parent *thread*'s death: a Dask worker's thread, or a test's,
    that happens to start the server must not take it along when it ends."""
    warm._stop(os.getpid())
    started: list[Any] = []
    starter = threading.Thread(target=lambda: started.append(warm.server()))
    starter.start()
    starter.join(60)
    assert started and started[0] is not None
    time.sleep(0.5)  # the kernel's SIGKILL to a server tied to the thread would be in by now
    assert started[0].proc.poll() is None, f"the server ended with its thread: exit {started[0].proc.poll()}"
    kinds: list[str] = []
    assert greet_and_close(warm_start=True, kinds=kinds) == [] and kinds == ["ForkedPlayer"]
    assert warm.server() is started[0]


@pytest.fixture
def fresh_servers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """No warm-start server to begin with; the servers made, in order. Warm starts are on after."""
    made: list[Any] = []
    real = warm.Server

    def counted(*args: Any, **kwargs: Any) -> Any:
        server = real(*args, **kwargs)
        made.append(server)
        return server

    monkeypatch.setattr(warm, "Server", counted)
    warm._stop(os.getpid())
    yield made
    warm._broken.discard(os.getpid())


@pytest.mark.skipif(not sandbox.warm_ready(), reason="warm starts need root, bubblewrap and cgroups")
@pytest.mark.usefixtures("reaping")
def test_the_warm_start_server_is_started_once_and_never_reaped(fresh_servers: list[Any]) -> None:
    kinds: list[str] = []
    took: list[float] = []
    rounds = 6
    broken: list[str] = []
    barrier = threading.Barrier(THREADS)

    def start(thread: int) -> list[str]:
        if thread == 0:  # a new server for each round: both threads then ask for it at once
            warm._stop(os.getpid())
            if os.getpid() in warm._broken:
                broken.append("warm starts turned off")
                warm._broken.discard(os.getpid())
        barrier.wait(60)
        wrong = greet_and_close(warm_start=True, kinds=kinds, took=took)
        barrier.wait(60)
        return wrong + greet_and_close(warm_start=False)

    started, deaths = in_threads(start, rounds)
    assert started == THREADS * rounds
    if os.getpid() in warm._broken:
        broken.append("warm starts turned off")
    cold = sum(kind != "ForkedPlayer" for kind in kinds)
    # a thread waiting for the server's reply while another reads it must not wait out FORK_S
    stalled = sum(s > warm.FORK_S / 2 for s in took)
    assert (len(deaths), len(broken), cold, len(fresh_servers), stalled) == (0, 0, 0, rounds, 0), (
        f"{len(deaths)} of {2 * started} players died ({deaths[:3]}); warm starts turned off in "
        f"{len(broken)} of {rounds} rounds, {cold} of {started} warm players started cold; "
        f"{len(fresh_servers)} servers started for {rounds} rounds; {stalled} of {len(took)} "
        f"warm starts took over {warm.FORK_S / 2:.0f} s"
    )
