"""Warm starts (``arena.containment.warm``): as contained as fresh starts, nothing kept between partidos,
the same results; ``--cold-start`` turns them off."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.containment import sandbox, warm
from arena.referee.connection import Limits, SubprocessConnection
from arena.referee.players import PlayerSpec, find_player
from arena.referee.table import play_folders
from tests.paths import BOTS, ROOT
from tests.torneos import CONFIG, assert_same, coordinator, execute, resume, wait_for

pytestmark = [
    pytest.mark.usefixtures("run_token"),
    pytest.mark.skipif(not sandbox.warm_ready(), reason="warm starts need root, bubblewrap and cgroups"),
]

SAMPLES = ROOT / "sample_players"


def _connect(kinds: list[str], warm_start: bool) -> Any:
    """A ``connect`` for play_folders that starts warm or cold and records which it got."""

    def connect(
        seat: int,
        spec: PlayerSpec,
        limits: Limits,
        log_dir: Path | None,
        mechanism: str | None,
        rlimits: Any,
        game: str = "tute-cabrero",
    ) -> SubprocessConnection:
        conn = SubprocessConnection(
            spec, limits, log_dir, mechanism, rlimits, warm_start=warm_start, game=game
        )
        kinds.append(type(conn.process).__name__)
        return conn

    return connect


def carryover(log: Path) -> list[dict[str, Any]]:
    """What the carry-over bot found at each hello it logged."""
    return [
        json.loads(line[len("CARRYOVER ") :])
        for line in log.read_text().splitlines()
        if line.startswith("CARRYOVER ")
    ]


def play_carryover(
    tmp_path: Path, warm_start: bool, partidos: int = 3
) -> tuple[list[dict[str, Any]], list[str]]:
    """The carry-over bot in two seats of ``partidos`` partidos in a row; what each seat found."""
    bot = find_player(BOTS / "hostile_carryover")
    others = [find_player(SAMPLES / "random_legal"), find_player(SAMPLES / "a_mas")]
    found: list[dict[str, Any]] = []
    kinds: list[str] = []
    for i in range(partidos):
        replay = tmp_path / f"{'warm' if warm_start else 'cold'}-{i}.jsonl"
        play_folders([bot, bot, *others], i, replay=replay, connect=_connect(kinds, warm_start))
        for log in sorted(Path(f"{replay}.logs").glob("hostile_carryover*.stderr.log")):
            found += carryover(log)
    return found, kinds


def test_nothing_passes_from_one_partido_to_the_next(tmp_path: Path) -> None:
    found, kinds = play_carryover(tmp_path, warm_start=True)
    assert set(kinds) == {"ForkedPlayer"}, kinds
    server = warm.server()
    assert server is not None and not server.exits and not server.forks  # nothing kept of them
    assert len(found) == 6, found  # two seats, three partidos
    for seen in found:
        assert seen["count"] == 1, seen  # the module is new: no memory of an earlier hello
        assert seen["threads"] == 2, seen  # main + its own import thread: none from before
        assert not [n for n in seen["tmp"] if n.startswith("trace-")], seen  # a fresh /tmp
        assert seen["tmp"] == found[0]["tmp"], seen  # (an interpreter under /tmp is seen there)
        assert seen["shm"] is False, seen  # a fresh IPC namespace
        assert seen["socket"] is False, seen  # the listener left behind was killed with its partido
        assert seen["pid"] == 2, seen  # a fresh pid namespace: no counter moved by earlier forks
    assert len({tuple(s["fds"]) for s in found}) == 1, found  # the same descriptors every time
    for replay in tmp_path.glob("warm-*.jsonl"):  # each reply's CPU time measured, per player
        played = [e for e in map(json.loads, replay.read_text().splitlines()) if e["type"] == "played"]
        assert played and all(isinstance(e["cpu_ms"], float | int) for e in played), replay


def test_a_warm_player_finds_what_a_fresh_one_finds(tmp_path: Path) -> None:
    warm_found, _ = play_carryover(tmp_path, warm_start=True, partidos=1)
    cold_found, kinds = play_carryover(tmp_path, warm_start=False, partidos=1)
    assert set(kinds) == {"PlayerProcess"}
    assert warm_found == cold_found


def test_a_warm_player_is_as_contained_as_a_fresh_one(tmp_path: Path) -> None:
    """uid, capabilities, no_new_privs, namespaces, mounts, limits and what /proc shows of it."""
    probe = BOTS / "probe_sandbox"
    seen = {}
    for warm_start in (True, False):
        conn = SubprocessConnection(
            find_player(probe), log_dir=tmp_path / f"logs-{warm_start}", warm_start=warm_start
        )
        try:
            assert conn.failed is None
            conn.process.stderr.catch_up(2.0)
            line = next(x for x in conn.process.stderr.tail().splitlines() if x.startswith("SEEN "))
            seen[warm_start] = json.loads(line[5:])
        finally:
            conn.close()
    warm_seen, cold_seen = seen[True], seen[False]
    assert warm_seen["leased_uid"] and not warm_seen["root"] and warm_seen["groups"] == []
    assert all(int(value, 16) == 0 for value in warm_seen["caps"]), warm_seen["caps"]
    assert warm_seen["nnp"] == ["1"]
    assert warm_seen["proc"] == cold_seen["proc"] == ["1", "2"]
    for key in ("caps", "limits", "cwd", "root_dir", "environ", "cmdline", "argv", "path", "env"):
        assert warm_seen[key] == cold_seen[key], key


def test_limits_and_cpu_time_stay_per_player_and_per_partido(tmp_path: Path) -> None:
    """A memory hog, a CPU spinner and a fork bomb meet their limits warm as they do cold."""
    limits = Limits(init_ms=10_000, move_ms=300)
    spinner = tmp_path / "spinner"
    spinner.mkdir()
    (spinner / "player.py").write_text(
        "from arena.sdk import Player\n"
        "class Spinner(Player):\n"
        "    def play(self, request):\n"
        "        while True:\n"
        "            pass\n"
    )
    for bot, reason, words in (
        (BOTS / "hostile_memory", "crash", ("memoria",)),
        (spinner, "timeout", ("CPU",)),
    ):
        for warm_start in (True, False):
            kinds: list[str] = []
            specs = [find_player(bot), find_player(SAMPLES / "random_legal"), find_player(SAMPLES / "a_mas")]
            result, _ = play_folders(
                specs,
                3,
                limits=limits,
                replay=tmp_path / f"{bot.name}-{warm_start}.jsonl",
                rlimits=sandbox.Resources(memory_mb=256),
                connect=_connect(kinds, warm_start),
            )
            assert kinds[0] == ("ForkedPlayer" if warm_start else "PlayerProcess")
            faults = [f for f in result.faults if f.seat == 0]
            assert faults and faults[0].reason == reason, (bot, warm_start, result.faults)
            assert any(w in faults[0].detail for w in words), faults[0].detail


def test_a_server_killed_between_partidos_is_started_again(tmp_path: Path) -> None:
    specs = [find_player(SAMPLES / n) for n in ("random_legal", "a_mas", "a_menos")]
    kinds: list[str] = []
    play_folders(specs, 1, connect=_connect(kinds, True))
    server = warm.server()
    assert server is not None
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(5)
    result, _ = play_folders(specs, 2, connect=_connect(kinds, True))
    assert not result.faults
    assert set(kinds) == {"ForkedPlayer"}
    assert warm.server() is not server


def test_warm_and_cold_torneos_decide_the_same(players: Path, reference: Path, tmp_path: Path) -> None:
    """The reference is warm with 2 workers: warm with 1, and cold with 1 and 2, decide the same."""
    for workers, warm_start in ((1, True), (1, False), (2, False)):
        out = tmp_path / f"w{workers}-{'warm' if warm_start else 'cold'}"
        execute(out, players, CONFIG, workers, warm=warm_start)
        assert_same(out, reference)


def test_cold_run_killed_then_resumed_warm_decides_the_same(
    players: Path, reference: Path, tmp_path: Path
) -> None:
    out = tmp_path / "torneo"
    proc = coordinator(players, out, "--cold-start")
    try:
        wait_for(out, 3, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    resume(out)
    assert_same(out, reference)


def test_cold_start_option(tmp_path: Path) -> None:
    from arena.cli import main

    players = [str(SAMPLES / n) for n in ("random_legal", "a_mas", "a_menos")]
    for extra in ([], ["--cold-start"]):
        replay = tmp_path / f"p{len(extra)}.jsonl"
        done = CliRunner().invoke(
            main, ["play", *players, "--seed", "4", "--quiet", "--replay", str(replay), *extra]
        )
        assert done.exit_code == 0, done.output
    assert (tmp_path / "p0.jsonl").read_text().count("\n") == (tmp_path / "p1.jsonl").read_text().count("\n")
    helps = CliRunner().invoke(main, ["tournament", "--help", "--lang", "en"]).output
    assert "--cold-start" in helps


def test_the_server_never_holds_a_players_code(tmp_path: Path) -> None:
    """The warm-start server imports the runtime only: no module from a player's folder."""
    specs = [
        find_player(BOTS / "hostile_carryover"),
        *(find_player(SAMPLES / n) for n in ("a_mas", "a_menos")),
    ]
    play_folders(specs, 1, connect=_connect([], True))
    server = warm.server()
    assert server is not None
    maps = Path(f"/proc/{server.pid}/maps").read_text()
    assert "/player" not in maps and "hostile_carryover" not in maps
    fds = [os.readlink(f"/proc/{server.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{server.pid}/fd")]
    assert not [f for f in fds if "/player" in f or "stage" in f], fds


def test_a_cgroup_used_again_forgets_the_limits_hit_before(tmp_path: Path) -> None:
    """Warm starts keep emptied cgroups for the next players: a memory limit a player hit is not
    blamed on whoever gets its cgroup next."""
    limits = Limits(init_ms=10_000, move_ms=5_000)
    resources = sandbox.Resources(memory_mb=256)
    hog = tmp_path / "tree_hog"
    hog.mkdir()
    (hog / "player.py").write_text(  # five processes of 100 MiB each: the cgroup's OOM killer acts
        "import os, sys\n"
        "from arena.sdk import Player\n"
        "class TreeHog(Player):\n"
        "    def play(self, request):\n"
        "        for _ in range(5):\n"
        "            if os.fork() == 0:\n"
        "                block = bytearray(100 << 20)\n"
        "                block[::4096] = b'x' * len(range(0, 100 << 20, 4096))\n"
        "                os._exit(0)\n"
        "        while True:\n"
        "            try:\n"
        "                os.wait()\n"
        "            except ChildProcessError:\n"
        "                sys.exit(3)\n"
    )
    first = [find_player(hog), *(find_player(SAMPLES / n) for n in ("a_mas", "a_menos"))]
    result, _ = play_folders(first, 1, limits=limits, rlimits=resources, connect=_connect([], True))
    assert any(f.seat == 0 and "memoria" in f.detail for f in result.faults), result.faults
    crash = find_player(BOTS / "hello_exit")  # all three crash at hello: each cgroup is tried
    result, _ = play_folders(
        [crash, crash, crash], 2, limits=limits, rlimits=resources, connect=_connect([], True)
    )
    crashes = [f for f in result.faults if f.reason == "crash"]
    assert len(crashes) == 3 and not any("memoria" in f.detail for f in crashes), result.faults
