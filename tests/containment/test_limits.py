"""Memory and processes are limited per player by its cgroup where it has one (address space is
not memory: a runtime that reserves gigabytes it never touches still starts), and per process by
rlimits only in the fallback."""

from __future__ import annotations

import json
import resource
from pathlib import Path

import pytest

from arena.containment import cgroups, sandbox
from arena.referee.players import find_player
from arena.referee.table import play_folders
from tests.paths import BOTS, ROOT

SAMPLES = ROOT / "sample_players"


def _names(limits: list[tuple[int, int, int]]) -> set[int]:
    return {which for which, _soft, _hard in limits}


def test_a_cgroup_that_holds_memory_replaces_the_address_space_and_process_rlimits() -> None:
    limits = sandbox.Resources(memory_mb=512, processes=32)
    alone = _names(limits.rlimits(per_player=False))
    held = _names(limits.rlimits(per_player=True))
    assert {resource.RLIMIT_AS, resource.RLIMIT_NPROC} <= alone
    assert not held & {resource.RLIMIT_AS, resource.RLIMIT_NPROC}
    assert {resource.RLIMIT_CPU, resource.RLIMIT_FSIZE} <= held  # per process in both cases
    assert "--as=" not in " ".join(limits.prlimit(per_player=True))
    assert "--as=536870912:536870912" in limits.prlimit(per_player=False)


def test_swap_on_reads_the_machines_swap_table() -> None:
    swaps = Path("/proc/swaps").read_text().strip().splitlines()
    assert cgroups.swap_on() == (len(swaps) > 1)


HOLDS = cgroups.detect() is not None and sandbox.bwrap_works()


@pytest.mark.usefixtures("run_token")
@pytest.mark.skipif(not HOLDS, reason="needs bubblewrap and a cgroup of the referee's own")
def test_a_box_with_a_cgroup_sets_no_address_space_limit(tmp_path: Path) -> None:
    box = sandbox.contain(["true"], tmp_path, "bwrap", sandbox.Resources(memory_mb=256))
    try:
        assert box.cgroup is not None
        if not box.cgroup.holds_memory:
            pytest.skip("swap is on and its use cannot be limited here")
        assert not [a for a in box.argv if a.startswith(("--as=", "--nproc="))]
        assert "--cpu=300:301" in box.argv
    finally:
        box.release()


@pytest.mark.usefixtures("run_token")
@pytest.mark.skipif(not HOLDS, reason="needs bubblewrap and a cgroup of the referee's own")
def test_a_player_reserving_eight_gib_it_never_touches_plays_under_a_one_gib_limit(tmp_path: Path) -> None:
    players = [find_player(BOTS / "address_space"), find_player(SAMPLES / "a_mas")]
    players.append(find_player(SAMPLES / "random_legal"))
    replay = tmp_path / "partido.jsonl"
    for warm in (True, False):  # forked by the warm-start server, and started afresh
        play_folders(players, 3, replay=replay, mechanism="bwrap", warm=warm)  # a refused mmap: a crash
        events = [json.loads(line) for line in replay.read_text().splitlines()]
        assert not [e for e in events if e["type"] in ("disqualified", "penalized")], warm
        assert events[-1]["type"] == "partido_end"
