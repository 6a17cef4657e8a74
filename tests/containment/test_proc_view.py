"""/proc is default-deny for players: of its top level they see their own processes and
``sandbox.PROC_VISIBLE``; every other file is empty, every other folder empty and read-only
(``/proc/fs/ext4/<disk>/es_shrinker_info`` counted the whole disk's extent cache: a channel)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.containment import sandbox
from arena.referee.players import find_player
from arena.referee.table import play_folders
from tests.paths import ROOT

pytestmark = [
    pytest.mark.usefixtures("run_token"),
    pytest.mark.skipif(not sandbox.bwrap_works(), reason="no bwrap"),
]

LOOK = r"""
import json, os
seen = {}
for name in sorted(os.listdir("/proc")):
    path = "/proc/" + name
    if name.isdigit() or os.path.islink(path):
        continue
    try:
        if os.path.isdir(path):
            seen[name] = ["dir", len(os.listdir(path))]
        else:
            with open(path, "rb") as f:
                seen[name] = ["file", len(f.read(4096))]
    except OSError as exc:
        seen[name] = ["error", exc.errno]
try:
    os.mkdir("/proc/fs/x")
    seen["writable"] = True
except OSError:
    seen["writable"] = False
print(json.dumps(seen))
"""


def _look(mechanism: str, tmp_path: Path) -> dict[str, Any]:
    os.chmod(tmp_path, 0o755)
    box = sandbox.contain([sys.executable, "-c", LOOK], tmp_path, mechanism)
    done = box.run(timeout=60)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout.splitlines()[-1]))


def test_a_fresh_player_sees_only_the_allowed_top_level_of_proc(tmp_path: Path) -> None:
    seen = _look("bwrap", tmp_path)
    assert not seen.pop("writable")
    shown = {name for name, (kind, size) in seen.items() if kind != "error" and size}
    assert shown <= sandbox.PROC_VISIBLE, shown - sandbox.PROC_VISIBLE
    assert {"cpuinfo", "sys"} <= shown
    if Path("/proc/fs").is_dir():
        assert seen["fs"] == ["dir", 0]  # ext4's counters and every other file system's: gone


def test_a_warm_player_sees_the_same(tmp_path: Path) -> None:
    """The warm-start server's players: a bot lists /proc's top level on its first move."""
    if not sandbox.warm_ready():
        pytest.skip("no warm starts")
    bot = tmp_path / "proc_look"
    bot.mkdir()
    (bot / "player.py").write_text(
        "import json, os, sys\n"
        "from arena.sdk import Player, PlayRequest\n"
        "class Look(Player):\n"
        "    def play(self, request: PlayRequest) -> str:\n"
        "        seen = {}\n"
        "        for name in os.listdir('/proc'):\n"
        "            path = '/proc/' + name\n"
        "            if name.isdigit() or os.path.islink(path):\n"
        "                continue\n"
        "            try:\n"
        "                d = os.path.isdir(path)\n"
        "                size = len(os.listdir(path)) if d else len(open(path, 'rb').read(99))\n"
        "            except OSError:\n"
        "                size = 0\n"
        "            seen[name] = size\n"
        "        print('PROC ' + json.dumps(seen), file=sys.stderr, flush=True)\n"
        "        return request.legal()[0]\n"
    )
    samples = ROOT / "sample_players"
    replay = tmp_path / "partido.jsonl"
    players = [find_player(bot), find_player(samples / "a_mas"), find_player(samples / "random_legal")]
    play_folders(players, 1, replay=replay, mechanism="bwrap", warm=True)
    log = next(Path(f"{replay}.logs").glob("proc_look*.stderr.log")).read_text()
    seen = json.loads(next(x for x in log.splitlines() if x.startswith("PROC "))[5:])
    shown = {name for name, size in seen.items() if size}
    assert shown <= sandbox.PROC_VISIBLE, shown - sandbox.PROC_VISIBLE
    assert "cpuinfo" in shown
