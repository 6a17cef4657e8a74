"""Every supported player runtime runs under the players' syscall allowlist unchanged: a static C
binary, the JVM and a bash script (``tests/bots/runtime_*``; Python and Node are in test_seal.py)
play the same partido sealed as unsealed, with no fault, and call nothing outside the list."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.containment import sandbox, seal
from arena.referee.players import find_player
from arena.referee.table import play_folders
from tests import runtimes
from tests.paths import ROOT
from tests.torneos import comparable

pytestmark = [
    pytest.mark.usefixtures("run_token"),
    pytest.mark.skipif(not sandbox.bwrap_works(), reason="no bwrap"),
]

SAMPLES = ROOT / "sample_players"


@pytest.mark.parametrize("runtime", runtimes.RUNTIMES)
def test_a_runtime_plays_the_same_sealed_as_unsealed(runtime: str, tmp_path: Path) -> None:
    folder = runtimes.built(runtime, tmp_path / "build")
    if folder is None:
        pytest.skip(runtimes.missing(runtime) or runtime)
    players = [find_player(folder), find_player(SAMPLES / "a_mas"), find_player(SAMPLES / "random_legal")]
    since = seal.now_us() + seal.KERNEL_CLOCK_SLACK_US  # now: an earlier test's kill is not this one's
    seen = {}
    for mechanism in ("bwrap", "none"):
        replay = tmp_path / f"{mechanism}.jsonl"
        play_folders(players, 3, replay=replay, mechanism=mechanism)
        seen[mechanism] = comparable(replay)
    assert not [e for e in seen["bwrap"] if e["type"] in ("disqualified", "penalized")]
    assert seen["bwrap"] == seen["none"]
    assert seen["bwrap"][-1]["type"] == "partido_end"
    if os.access("/dev/kmsg", os.R_OK):  # nothing of it was killed by the filter (kills are logged)
        assert not [t for _w, t in seal.kernel_records(since) if seal.KILLED_RECORD.search(t)]
