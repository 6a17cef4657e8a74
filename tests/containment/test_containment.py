"""Containment of untrusted players (issue 7): hostile bots against each mechanism.

Every test plays a real partido between a hostile bot (``tests/bots/hostile_*``)
and good players, contained by ``bwrap`` (skipped where bubblewrap does not
work) and by the ``rlimits`` fallback where that is meaningful, and checks what
the mechanism promises (see :mod:`arena.containment.sandbox` and ``sandbox.warning``):

* a fault, when there is one, is the hostile bot's (its seat), never another
  player's nor the referee's; the partido ends with ``partido_end``;
* no player process is left behind: none carrying this test's token, none in a
  player's pid namespace (bwrap), none of the pids the bot reported (rlimits).

Players are copied into a temporary folder under ``/tmp``; the replay is written
to ``<stage>/out/p.jsonl``, known to the bots before the partido starts. The
``rlimits`` mode runs only under a root referee (each player gets a uid of its
own); elsewhere those cases are skipped, and its refusal is tested in
``test_security.py``.

Tests marked ``xfail(strict=True, reason="BUG: ...")`` pin containment bugs in
``arena/`` found by these bots: each passes once the bug is fixed (and then the
strict xfail fails, to be removed).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from arena.containment import sandbox, uids
from arena.referee.connection import Limits
from arena.referee.players import find_player
from arena.referee.replay import read_replay
from arena.referee.table import PartidoResult, play_folders
from tests.paths import BOTS, ROOT
from tests.procs import (
    PidCollector,
    alive,
    in_namespaces,
    kill_and_reap,
    leftover_players,
    read,
)
from tests.torneos import evidence as incidents

pytestmark = pytest.mark.usefixtures("run_token")  # no player process may outlive a test

SAMPLES = ROOT / "sample_players"
GOOD = ("random_legal", "a_mas", "a_menos")
SEED = 7
LIMITS = Limits(init_ms=5000, move_ms=2000)
"""No fault here waits for move_ms; the hostile bots' first moves get time to misbehave."""
FAST = Limits(init_ms=5000, move_ms=400)
"""For the tests that wait out a deadline."""
NOBODY = sandbox.NOBODY

Event = dict[str, Any]

BWRAP = pytest.mark.skipif(not sandbox.bwrap_works(), reason="bubblewrap does not work here")
RLIMITS = pytest.mark.skipif(sandbox.rlimits_problem() is not None, reason="--sandbox rlimits refuses here")
MECHANISMS = [pytest.param("bwrap", marks=BWRAP), pytest.param("rlimits", marks=RLIMITS)]


# ---------------------------------------------------------------- processes: tests/procs.py


# ---------------------------------------------------------------- staging and playing


def world_readable(path: Path) -> None:
    """0755 for ``path`` and its folders, 0644 for its files: readable by any uid."""
    path.chmod(0o755)
    for p in path.rglob("*"):
        p.chmod(0o755 if p.is_dir() else 0o644)


def put(stage: Path, name: str, targets: Sequence[object] = (), under: Path | None = None) -> Path:
    """A world-readable copy of the bot or sample player ``name`` in ``stage`` (or ``under``).

    ``targets`` become its ``targets.txt`` (one a line), which the hostile bots read.
    """
    source = SAMPLES / name if (SAMPLES / name).is_dir() else BOTS / name
    dest = (under or stage) / name
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if targets:
        (dest / "targets.txt").write_text("".join(f"{t}\n" for t in targets), encoding="utf-8")
    world_readable(dest)
    return dest


def replay_path(stage: Path) -> Path:
    """Where the partido's replay goes (the output folder is created by :func:`play`)."""
    return stage / "out" / "p.jsonl"


@dataclass
class Game:
    names: list[str]
    mechanism: str
    result: PartidoResult
    incidents: dict[int, Path]
    replay: Path
    events: list[Event]
    seconds: float
    pids: set[int] = field(default_factory=set)
    namespaces: set[str] = field(default_factory=set)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def fault_lines(self) -> list[Event]:
        return [e for e in self.events if e["type"] in ("disqualified", "penalized")]

    def log(self, name: str) -> str:
        path = Path(f"{self.replay}.logs/{name}.stderr.log")
        return path.read_text(encoding="utf-8", errors="replace")

    def report(self, name: str, word: str) -> dict[str, str]:
        """The bot's ``WORD <target> <rest>`` lines, by target (the first word after WORD)."""
        found = {}
        for line in self.log(name).splitlines():
            if line.startswith(word + " "):
                target, _, rest = line[len(word) + 1 :].partition(" ")
                found[target] = rest
        return found


def play(
    stage: Path,
    names: Sequence[str],
    mechanism: str,
    limits: Limits = LIMITS,
    rlimits: sandbox.Resources | None = None,
    folders: dict[str, Path] | None = None,
) -> Game:
    """Play one partido between the players staged in ``stage``; check nothing is left behind."""
    folders = folders or {}
    specs = [find_player(folders.get(n, stage / n)) for n in names]
    replay = replay_path(stage)
    replay.parent.mkdir(exist_ok=True)
    seen = PidCollector()
    try:
        start = time.monotonic()
        result, incidents = play_folders(
            specs,
            SEED,
            ruleset=None,
            limits=limits,
            replay=replay,
            sinks=[seen],
            mechanism=mechanism,
            rlimits=rlimits,
        )
        seconds = time.monotonic() - start
        assert seen.pids, "no player process was seen during the partido"
        assert not leftover_players(), "player processes left behind after the partido"
        assert not [p for p in seen.pids if alive(p)], "a player process is still alive"
        if mechanism == "bwrap":
            assert seen.namespaces, "bwrap players run in pid namespaces of their own"
        assert not in_namespaces(seen.namespaces), "processes left in a player's pid namespace"
    finally:
        seen.close()
    events = read_replay(replay)
    return Game(
        list(names), mechanism, result, incidents, replay, events, seconds, seen.pids, seen.namespaces
    )


def check_contained(game: Game, bot: str, reason: str | None = None, detail: str | None = None) -> None:
    """The partido ended; its only fault (if ``reason``) is the bot's, with ``detail`` in it.

    Without ``reason``: nobody faulted at all.
    """
    seat = game.seat(bot)
    end = game.events[-1]
    assert end["type"] == "partido_end", "the partido did not finish"
    lines = game.fault_lines()
    evidence = incidents(game.replay.parent)
    assert {e["seat"] for e in lines} <= {seat}, f"another player was faulted: {lines}\n{evidence}"
    assert {f.seat for f in game.result.faults} <= {seat}, f"{game.result.faults}\n{evidence}"
    if reason is None:
        assert not lines and not game.result.faults and not game.incidents, f"{lines}\n{evidence}"
        return
    assert len(lines) == 1, lines
    line = lines[0]
    assert (line["type"], line["reason"]) == ("disqualified", reason), line
    if detail is not None:
        assert detail in line["detail"], line
    assert game.result.ranking[-1] == [seat] and end["ranking"][-1] == [seat]
    assert seat not in game.result.winners
    assert set(game.incidents) == {seat}
    assert len(game.result.winners) == 2, "the three others played on to a normal finish"


def stage_good(stage: Path) -> None:
    for name in GOOD:
        put(stage, name)


# ---------------------------------------------------------------- 1. reading what is not its own


def interpreter_skeleton() -> set[str]:
    """The names bwrap must create in /root to mount the interpreter (when it lives there)."""
    roots = {sys.prefix, sys.base_prefix, str(Path(os.path.realpath(sys.executable)).parent.parent)}
    return {Path(r).relative_to("/root").parts[0] for r in roots if r.startswith("/root/")}


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_snoop_cannot_read_the_replay_nor_the_referees_files(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    private = stage / "referee"  # the referee's own files: 0700, as a root-owned home would be
    private.mkdir(mode=0o700)
    (private / "secret.txt").write_text("the referee's secret")
    replay = replay_path(stage)
    other = stage / "random_legal" / "player.py"  # another player of this very partido
    elsewhere = SAMPLES / "a_mas" / "player.py"  # another player's source outside /tmp
    targets = [
        other,
        elsewhere,
        replay,
        replay.parent,
        Path(f"{replay}.logs"),
        private / "secret.txt",
        "/root",
    ]
    put(stage, "hostile_snoop", targets)

    game = play(stage, ["random_legal", "hostile_snoop", "a_mas", "a_menos"], mechanism)

    check_contained(game, "hostile_snoop")
    assert "SNOOP DONE" in game.log("hostile_snoop")
    seen = {**game.report("hostile_snoop", "READ"), **game.report("hostile_snoop", "BLOCKED")}
    assert set(seen) == {str(t) for t in targets}
    read = game.report("hostile_snoop", "READ")
    if mechanism == "bwrap":
        # Nothing of the machine but the system, the interpreter and its own folder exists in the box.
        # /root may appear, holding only the mount point of an interpreter installed under it.
        listing = read.pop("/root", "[]")
        assert set(json.loads(listing)) <= interpreter_skeleton(), f"/root shows {listing}"
        assert not read, f"read under bwrap: {read}"
        return
    # rlimits: no filesystem isolation (the warning says so); what it does promise is a uid of
    # the player's own, which cannot open the 0600 replay and logs nor enter 0700 folders.
    warning = sandbox.warning("rlimits")
    assert warning is not None and "aislamiento de archivos" in warning  # filesystem isolation
    assert int(next(iter(game.report("hostile_snoop", "UID")))) >= uids.FIRST_UID
    for hidden in (replay, Path(f"{replay}.logs"), private / "secret.txt", Path("/root")):
        assert str(hidden) not in read, f"{hidden} was read under rlimits"
    for shown in read:  # other players' folders and the output folder are open to any uid here
        assert str(shown) in {str(other), str(elsewhere), str(replay.parent)}


ROOT_ONLY = Path("/etc/shadow")


@pytest.mark.skipif(os.geteuid() != 0 or not ROOT_ONLY.is_file(), reason="needs root and /etc/shadow")
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_snoop_cannot_read_root_only_system_files(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_snoop", [ROOT_ONLY])

    game = play(stage, ["hostile_snoop", *GOOD], mechanism)

    check_contained(game, "hostile_snoop")
    assert str(ROOT_ONLY) in game.report("hostile_snoop", "BLOCKED"), game.log("hostile_snoop")


# ---------------------------------------------------------------- 2. the network


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_net_bot_reaches_no_one(stage: Path, mechanism: str, run_token: str) -> None:
    stage_good(stage)
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen()
    tcp.setblocking(False)
    abstract = f"tute-arena-containment-{run_token}"
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind("\0" + abstract)
    unix.listen()
    unix.setblocking(False)
    targets = [
        f"tcp 127.0.0.1 {tcp.getsockname()[1]}",
        f"unix {abstract}",
        "tcp 1.1.1.1 53",
        "dns example.com",
    ]
    put(stage, "hostile_net", targets)
    try:
        game = play(stage, ["a_mas", "random_legal", "hostile_net", "a_menos"], mechanism)
        accepted = []
        for listener in (tcp, unix):
            with contextlib.suppress(BlockingIOError):
                conn, _ = listener.accept()
                conn.close()
                accepted.append(listener.family.name)
    finally:
        tcp.close()
        unix.close()

    check_contained(game, "hostile_net")
    log = game.log("hostile_net")
    assert "NET DONE" in log
    blocked = [line for line in log.splitlines() if line.startswith("BLOCKED ")]
    reached = [line for line in log.splitlines() if line.startswith(("CONNECTED ", "RESOLVED "))]
    assert len(blocked) + len(reached) == len(targets), log
    if mechanism == "bwrap":
        assert not reached, reached
        assert not accepted, f"the test's listeners accepted a connection: {accepted}"
    else:  # rlimits has no network namespace of its own, and says so in its warning
        assert "aislamiento de red" in (sandbox.warning("rlimits") or "")  # network isolation
        assert f"CONNECTED {targets[1]}" in log  # what the warning means: the host's abstract sockets
        assert [line for line in blocked if line.startswith("BLOCKED tcp ")], log  # TCP: the filter


# ---------------------------------------------------------------- 3. processes that outlive the player


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_fork_bot_leaves_no_process_behind(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_fork")
    pids: list[int] = []
    try:
        game = play(stage, ["a_menos", "hostile_fork", "a_mas", "random_legal"], mechanism)
        log = game.log("hostile_fork")
        found = re.findall(r"^(child|grandchild) pid (\d+)$", log, re.MULTILINE)
        assert [kind for kind, _ in found] == ["child", "grandchild"], log
        pids = [int(pid) for _, pid in found]
        check_contained(game, "hostile_fork")
        if mechanism == "bwrap":  # those pids are the namespace's own: play() found its namespace empty
            assert len(game.namespaces) == 4
            pids = []
        else:
            assert not [p for p in pids if alive(p)], "a process started by the bot outlived the partido"
    finally:
        for pid in pids:  # never kill a stranger: only our sleeps
            if alive(pid) and (read(f"/proc/{pid}/cmdline") or b"").startswith(b"sleep\x00"):
                kill_and_reap(pid)


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_process_limit_stops_a_fork_flood(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_nproc", [96])

    game = play(stage, ["hostile_nproc", *GOOD], mechanism, rlimits=sandbox.Resources(processes=48))

    check_contained(game, "hostile_nproc")
    log = game.log("hostile_nproc")
    started = int(re.search(r"^STARTED (\d+)$", log, re.MULTILINE).group(1))  # type: ignore[union-attr]
    assert "LIMITED " in log and started < 48, log


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kill_bot_cannot_touch_the_other_players(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_kill")

    game = play(stage, ["a_mas", "hostile_kill", "random_legal", "a_menos"], mechanism)

    log = game.log("hostile_kill")
    assert "KILL DONE" in log
    assert "KILLED" not in log, log
    check_contained(game, "hostile_kill")


@pytest.mark.parametrize(
    "mechanism",
    [
        pytest.param("bwrap", marks=BWRAP),  # bwrap holds the pipe: the fault is found at the next request
        pytest.param("rlimits", marks=RLIMITS),  # was a bug: a fault while flushing events ended the replay
    ],
)
def test_deaf_player_in_a_three_player_partido_still_gets_a_complete_replay(
    stage: Path, mechanism: str
) -> None:
    """Found by the kill bot (its victims die between requests); a deaf player shows it alone."""
    for name in ("a_mas", "random_legal", "hostile_deaf"):
        put(stage, name)

    game = play(stage, ["a_mas", "hostile_deaf", "random_legal"], mechanism)

    assert game.result.winners == [0, 2]
    check_contained(game, "hostile_deaf", "crash")


# ---------------------------------------------------------------- 4. memory


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_memory_hog_is_a_crash_of_its_own(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_memory")

    # A move's CPU budget well beyond what reaching the memory limit takes: touching a gigabyte's
    # pages cost it over 2 s of CPU once on a loaded CI machine (disqualified for time, not memory)
    roomy = Limits(init_ms=5000, move_ms=15000)
    game = play(stage, ["random_legal", "a_mas", "hostile_memory", "a_menos"], mechanism, limits=roomy)

    check_contained(game, "hostile_memory", "crash", "límite de memoria")  # memory limit
    assert "allocating 4096 MiB" in game.log("hostile_memory")
    assert "got it all" not in game.log("hostile_memory")


# ---------------------------------------------------------------- 5. disk


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_disk_filler_is_a_crash_of_its_own(stage: Path, mechanism: str, run_token: str) -> None:
    stage_good(stage)
    put(stage, "hostile_disk")
    on_host = Path(f"/tmp/hostile_disk-{run_token}.bin")
    file_mb = 16
    try:
        game = play(stage, [*GOOD, "hostile_disk"], mechanism, rlimits=sandbox.Resources(file_mb=file_mb))
        check_contained(game, "hostile_disk", "crash", "límite de tamaño de archivo")  # file size limit
        log = game.log("hostile_disk")
        assert "CWD BLOCKED" in log, "its own folder must not be writable"
        assert not (stage / "hostile_disk" / "hostile_disk-cwd.bin").exists()
        assert f"filling /tmp/hostile_disk-{run_token}.bin" in log
        if mechanism == "bwrap":  # its /tmp was private: nothing reached the host's /tmp
            assert not on_host.exists(), "the bot's /tmp file is on the host"
        else:  # rlimits shares the host's /tmp, but what the player's uid left there is removed
            assert not on_host.exists(), "the bot's /tmp file outlived its partido"
    finally:
        on_host.unlink(missing_ok=True)


@BWRAP
def test_private_tmp_holds_no_more_than_file_mb(stage: Path) -> None:
    """Many files, each under the size limit, still fill the private /tmp (a tmpfs of file_mb) at most."""
    stage_good(stage)
    file_mb = 8
    put(stage, "hostile_fill", [4 * file_mb, "/tmp"])

    game = play(stage, [*GOOD, "hostile_fill"], "bwrap", rlimits=sandbox.Resources(file_mb=file_mb))

    check_contained(game, "hostile_fill")
    filled = game.report("hostile_fill", "FILLED")
    assert 0 < int(filled["/tmp"]) <= file_mb, game.log("hostile_fill")
    assert "/tmp" in game.report("hostile_fill", "BLOCKED")


@BWRAP
def test_no_writable_place_but_the_private_tmp(stage: Path) -> None:
    stage_good(stage)
    memory_mb, file_mb = 128, 8
    # more than the memory limit in each place, in files each under the file size limit
    put(stage, "hostile_fill", [memory_mb + 32, "/", "/dev/shm"])

    game = play(
        stage,
        [*GOOD, "hostile_fill"],
        "bwrap",
        rlimits=sandbox.Resources(memory_mb=memory_mb, file_mb=file_mb),
    )

    check_contained(game, "hostile_fill")
    assert not game.report("hostile_fill", "FILLED"), game.log("hostile_fill")


# ---------------------------------------------------------------- 6. CPU


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_cpu_spinner_times_out_without_slowing_the_referee(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_cpu")

    # A wall backstop far away: however loaded the machine, the CPU-time limit is what ends the move.
    limits = replace(FAST, move_wall_ms=30_000)
    game = play(stage, ["a_mas", "a_menos", "hostile_cpu", "random_legal"], mechanism, limits)

    check_contained(game, "hostile_cpu", "timeout")
    line = game.fault_lines()[0]
    assert line["cpu_ms"] > FAST.move_ms and "tiempo de CPU" in line["detail"], line  # CPU time, not the wall
    # How little the others were slowed is a timing figure: benchmarks/performance/timing.py, spinner.


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_cpu_limit_kills_the_spinner_before_move_ms(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_cpu")
    slow = Limits(init_ms=5000, move_ms=5000)

    game = play(stage, ["hostile_cpu", *GOOD], mechanism, slow, rlimits=sandbox.Resources(cpu_s=1))

    check_contained(game, "hostile_cpu", "crash")
    line = game.fault_lines()[0]
    assert line["exit"] in ("SIGXCPU", "SIGKILL"), line  # killed by the kernel, not by the referee
    # A crash, not a timeout: the referee saw the death instead of waiting out a limit.
    # How soon is a timing figure: benchmarks/performance/timing.py, cpu_rlimit.


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_cpu_limit_is_named_in_the_crash(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_cpu")
    slow = Limits(init_ms=5000, move_ms=5000)

    game = play(stage, ["hostile_cpu", *GOOD], mechanism, slow, rlimits=sandbox.Resources(cpu_s=1))

    check_contained(game, "hostile_cpu", "crash", "límite de tiempo de CPU")  # CPU time limit
    assert game.fault_lines()[0]["exit"] == "SIGXCPU"


# ---------------------------------------------------------------- arena doctor


@BWRAP
def test_doctor_finds_every_protection_under_bwrap() -> None:
    from arena.containment import cgroups, doctor

    results = doctor.probe("bwrap")
    assert set(results) == set(doctor.CHECKS)
    per_player = {"memory_limit_per_player", "cpu_share_per_player"}
    expected = {k: k not in per_player or cgroups.detect() is not None for k in results}
    if not sandbox.is_root():  # players share the referee's uid, kept apart by namespaces
        expected["own_uid"] = False
        expected["process_limit"] = cgroups.detect() is not None
    assert results == expected


@RLIMITS
def test_doctor_under_rlimits_says_what_it_lacks() -> None:
    from arena.containment import cgroups, doctor

    results = doctor.probe("rlimits")
    lacking = {"other_folders_hidden", "private_tmp", "own_pid_namespace"}  # (TCP: refused by the filter)
    per_player = {"memory_limit_per_player", "cpu_share_per_player"}
    cgroup = cgroups.detect() is not None
    expected = {k: k not in lacking and (k not in per_player or cgroup) for k in results}
    assert results == expected


def test_arena_doctor_prints_a_line_for_every_protection() -> None:
    from click.testing import CliRunner

    from arena.cli import main
    from arena.containment import doctor
    from arena.i18n import _

    done = CliRunner().invoke(main, ["doctor"])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    mechanism = sandbox.resolve("auto")
    assert f"Contención para --sandbox auto: {mechanism}" in lines  # Containment for
    for label, _how in doctor.CHECKS.values():
        assert f"✓ {_(label)}" in lines or any(line.startswith(f"✗ {_(label)} — necesita ") for line in lines)
    if mechanism == "bwrap":
        assert "✓ bubblewrap: funciona (prueba real)" in lines  # works (trial run)
        held = doctor.probe("bwrap")
        assert all((f"✓ {_(label)}" in lines) == held[k] for k, (label, _how) in doctor.CHECKS.items()), (
            done.output
        )
    else:
        assert sandbox.warning(mechanism) in lines
