"""Issue 13: a player's time is its own CPU time, with a wall-clock backstop; the machine's failures
are never a player's fault (protocol.md "Faults", v1.1).
"""

from __future__ import annotations

import shutil
import site
from pathlib import Path
from typing import Any

import pytest

from arena.containment import sandbox
from arena.containment.sandbox import SandboxFailure
from arena.referee import table as referee
from arena.referee.connection import InProcessConnection, Limits, wall_backstop
from arena.referee.players import find_player
from arena.referee.table import play_folders
from arena.sdk import Player, PlayRequest
from arena.tournament import worker
from tests.containment.test_containment import GOOD, check_contained, play, put, stage_good
from tests.procs import leftover_players

pytestmark = pytest.mark.usefixtures("run_token")

BWRAP = pytest.mark.skipif(not sandbox.bwrap_works(), reason="bubblewrap does not work here")
CONTAINED = [pytest.param("bwrap", marks=BWRAP), pytest.param("none", id="none (CPU from /proc)")]


def test_the_wall_backstop_defaults_to_the_spec() -> None:
    assert wall_backstop(1000) == 3000 and wall_backstop(300) == 2300 and wall_backstop(10_000) == 30_000
    limits = Limits(init_ms=500, move_ms=100, move_wall_ms=5000)
    assert limits.to_dict() == {
        "init_ms": 500,
        "move_ms": 100,
        "init_wall_ms": 2500,
        "move_wall_ms": 5000,
        "init_idle_ms": 10_000,
        "idle_ms": 1000,
    }


@pytest.mark.parametrize("mechanism", CONTAINED)
def test_a_spinner_is_a_timeout_by_cpu_time(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "hostile_cpu")
    limits = Limits(init_ms=5000, move_ms=300)

    game = play(stage, ["hostile_cpu", *GOOD], mechanism, limits)

    check_contained(game, "hostile_cpu", "timeout", "tiempo de CPU")
    line = game.fault_lines()[0]
    assert line["cpu_ms"] > limits.move_ms, line
    assert line["elapsed_ms"] < limits.move_wall, "judged by its CPU time, before the backstop"


@pytest.mark.parametrize("mechanism", CONTAINED)
def test_a_sleeper_is_a_timeout_by_the_wall_clock_backstop(stage: Path, mechanism: str) -> None:
    stage_good(stage)
    put(stage, "slow")
    limits = Limits(init_ms=5000, move_ms=300, move_wall_ms=1200, idle_ms=60_000)  # the backstop first

    game = play(stage, ["slow", *GOOD], mechanism, limits)

    check_contained(game, "slow", "timeout", "tiempo de reloj")
    line = game.fault_lines()[0]
    assert line["elapsed_ms"] >= 1200
    assert line["cpu_ms"] is not None and line["cpu_ms"] < limits.move_ms, line


@BWRAP
@pytest.mark.usefixtures("busy_machine")
def test_a_legal_thinker_on_a_loaded_machine_is_never_faulted(stage: Path) -> None:
    """150 ms of CPU per move under a 200 ms limit: on a busy machine that is far more wall time."""
    stage_good(stage)
    put(stage, "thinker", [150])
    limits = Limits(init_ms=5000, move_ms=200)

    game = play(stage, ["thinker", *GOOD], "bwrap", limits)

    check_contained(game, "thinker")
    plays = [e for e in game.events if e["type"] == "played" and e["seat"] == game.seat("thinker")]
    hard = sorted(plays, key=lambda e: e["cpu_ms"])[-3:]
    assert all(150 <= e["cpu_ms"] < 200 for e in hard), hard
    assert all(e["ms"] >= e["cpu_ms"] for e in hard)


def test_every_played_line_carries_cpu_ms_and_the_header_the_wall_limits(stage: Path) -> None:
    stage_good(stage)
    limits = Limits(init_ms=5000, move_ms=1000, move_wall_ms=4000)

    game = play(stage, list(GOOD), "bwrap" if sandbox.bwrap_works() else "none", limits)

    assert game.events[0]["limits"] == limits.to_dict()
    played = [e for e in game.events if e["type"] == "played"]
    assert played and all(isinstance(e["cpu_ms"], float) and e["cpu_ms"] >= 0 for e in played)


class _Recorder(Player):
    def __init__(self) -> None:
        super().__init__()
        self.limits: dict[str, Any] = {}

    def setup(self, name: str, limits: dict[str, int]) -> None:
        self.limits = limits

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]


def test_hello_tells_the_player_its_cpu_and_wall_limits() -> None:
    player = _Recorder()
    InProcessConnection(player, "ana", Limits(init_ms=800, move_ms=100))
    assert player.limits == {
        "init_ms": 800,
        "move_ms": 100,
        "init_wall_ms": 2800,
        "move_wall_ms": 2100,
        "init_idle_ms": 10_000,
        "idle_ms": 1000,
    }


# ---------------------------------------------------------------- the machine's failures are not the player's


def _broken_sandbox_for(monkeypatch: pytest.MonkeyPatch, victim: str) -> None:
    """The sandbox of ``victim`` cannot be set up: bwrap binds a path that does not exist (a fresh
    start); the warm-start server mounts a staged folder that does not exist (a warm start)."""
    real = sandbox._bwrap_mounts

    def mounts(folder: Path | None, *args: Any, **kw: Any) -> list[str]:
        box = real(folder, *args, **kw)
        if folder is not None and folder.name == victim:
            box[1:1] = ["--ro-bind", "/nonexistent-tute-arena", "/x"]
        return box

    real_warm = sandbox.warm_box

    def warm_box(folder: Path, *args: Any) -> sandbox.Box:
        box = real_warm(folder, *args)
        if folder.name == victim:
            box.cwd = "p-nonexistent/" + victim
        return box

    monkeypatch.setattr(sandbox, "_bwrap_mounts", mounts)
    monkeypatch.setattr(sandbox, "warm_box", warm_box)


@BWRAP
@pytest.mark.parametrize("warm", [True, False], ids=["warm", "cold"])
def test_a_sandbox_that_cannot_start_a_player_is_no_verdict(
    stage: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, warm: bool
) -> None:
    stage_good(stage)
    _broken_sandbox_for(monkeypatch, "a_mas")
    specs = [find_player(stage / name) for name in GOOD]
    replay = tmp_path / "p.jsonl"

    with pytest.raises(SandboxFailure, match="el sandbox no pudo arrancar al jugador") as err:
        play_folders(specs, 7, ruleset=None, limits=Limits(), replay=replay, mechanism="bwrap", warm=warm)

    assert "a_mas" in str(err.value) and "\n" not in str(err.value)
    assert not replay.exists() or "disqualified" not in replay.read_text()
    assert not leftover_players()


@BWRAP
def test_a_player_that_fakes_a_sandbox_error_is_still_a_crash(stage: Path) -> None:
    stage_good(stage)
    put(stage, "fake_sandbox_error")

    game = play(stage, ["fake_sandbox_error", *GOOD], "bwrap")

    check_contained(game, "fake_sandbox_error", "crash")


def _task(stage: Path, tmp_path: Path) -> worker.PartidoTask:
    specs = tuple(find_player(stage / name) for name in GOOD)
    (tmp_path / "replays").mkdir()
    return worker.PartidoTask("p0001", 7, specs, {}, Limits(), str(tmp_path / "replays"), "bwrap")


@BWRAP
def test_the_worker_plays_a_partido_again_when_the_sandbox_failed(
    stage: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stage_good(stage)
    real, calls = referee.play_folders, []

    def flaky(*args: Any, **kw: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise SandboxFailure("a_mas: the sandbox could not start the player: out of memory")
        return real(*args, **kw)

    monkeypatch.setattr(referee, "play_folders", flaky)
    monkeypatch.setattr(worker.time, "sleep", lambda s: None)

    out = worker.play(_task(stage, tmp_path))

    assert len(calls) == 2 and out["error"] is None and out["result"]["faults"] == []


@BWRAP
def test_a_sandbox_that_keeps_failing_fails_the_partido_for_resume(
    stage: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stage_good(stage)
    _broken_sandbox_for(monkeypatch, "a_menos")
    monkeypatch.setattr(worker.time, "sleep", lambda s: None)

    out = worker.play(_task(stage, tmp_path))

    assert out["failed"] and out["result"] is None
    assert "el sandbox no pudo arrancar al jugador" in out["error"] and "a_menos" in out["error"]


# ---------------------------------------------------------------- setup problems: named before any partido


@pytest.fixture
def private_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The referee's package in a folder the players' user cannot read (0700 folders, 0600 files)."""
    package = tmp_path / "private" / "arena"
    shutil.copytree(sandbox.ARENA_PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    for path in [package, *package.rglob("*")]:
        path.chmod(0o700 if path.is_dir() else 0o600)
    monkeypatch.setattr(sandbox, "ARENA_PACKAGE", package)
    monkeypatch.setattr(sandbox, "_ready", set())
    return package


INSTALLED_COPY = any((Path(p) / "arena" / "__init__.py").is_file() for p in site.getsitepackages())
"""A non-editable install puts a copy of the SDK in site-packages, which the players can import too."""


@pytest.mark.skipif(not sandbox.is_root(), reason="as root, the players' user is another user")
@BWRAP
@pytest.mark.skipif(INSTALLED_COPY, reason="the players import the installed copy of the SDK instead")
def test_a_package_the_players_cannot_read_is_one_line_before_any_partido(
    private_checkout: Path, stage: Path
) -> None:
    mechanism = "bwrap"
    with pytest.raises(sandbox.SandboxError) as err:
        sandbox.preflight(mechanism)
    message = str(err.value)
    assert str(private_checkout) in message and "chmod -R o+rX" in message and "\n" not in message
    stage_good(stage)
    with pytest.raises(sandbox.SandboxError):  # play_folders asks first: no partido, no verdict
        play_folders(
            [find_player(stage / n) for n in GOOD],
            7,
            ruleset=None,
            limits=Limits(),
            replay=stage / "p.jsonl",
            mechanism=mechanism,
        )
    assert not (stage / "p.jsonl").exists()
