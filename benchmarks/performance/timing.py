"""The timing figures the tests no longer assert: they depend on the machine's load.

Each scenario plays what a test plays and prints the measured figure beside the
limit the test used to assert (and whether it was within it). The tests keep only
claims that hold on a loaded machine (who is faulted, for what, with which
evidence); how fast is measured here:

* ``spinner``: good players' median reply (wall ms) and the partido's seconds at a
  table with a bot that spins on its first move (``tests/bots/hostile_cpu``);
* ``cpu_rlimit``: seconds until a spinner killed by a 1 s CPU rlimit ends the
  partido, with a 5 s move limit;
* ``spin_share``: good players' median reply beside a bot with 8 background
  spinners capped at one core (``tests/bots/hostile_spin``);
* ``long_line``: how long the referee took to judge a reply line over the cap;
* ``load_error``: seconds to refuse a folder whose ``player.py`` does not load;
* ``fuerte_budget``: the strong player's slowest move (wall ms) with a 40 ms budget.

``--load N`` runs everything with N busy processes (:mod:`benchmarks.load`).

    python benchmarks/performance/timing.py  # as the machine is
    python benchmarks/performance/timing.py --load 4  # two cores kept busy twice over
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment import sandbox  # noqa: E402
from arena.player.loader import PlayerLoadError, load_player_class  # noqa: E402
from arena.referee.connection import Limits  # noqa: E402
from arena.referee.players import find_player  # noqa: E402
from arena.referee.table import PartidoResult, play_folders, play_partido  # noqa: E402
from benchmarks.load import busy  # noqa: E402

SAMPLES = ROOT / "sample_players"
BOTS = ROOT / "tests" / "bots"
GOOD = ("random_legal", "a_mas", "a_menos")
SEED = 7

Figure = tuple[str, float, float, str]
"""(name, value, the limit a test used to assert, unit)."""


def stage(root: Path, name: str, targets: str | None = None) -> Path:
    """A readable copy of a sample player or test bot in ``root``."""
    source = SAMPLES / name if (SAMPLES / name).is_dir() else BOTS / name
    dest = root / name
    shutil.copytree(source, dest, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    if targets is not None:
        (dest / "targets.txt").write_text(targets, encoding="utf-8")
    for path in [dest, *dest.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return dest


def play(
    root: Path,
    names: list[str],
    limits: Limits,
    rlimits: sandbox.Resources | None = None,
    targets: dict[str, str] | None = None,
) -> tuple[PartidoResult, float, list[tuple[float, dict[str, Any]]]]:
    """One contained partido; its result, its seconds, and each replay line with the time it came."""
    folder = Path(tempfile.mkdtemp(dir=root))
    folder.chmod(0o755)
    specs = [find_player(stage(folder, n, (targets or {}).get(n))) for n in names]
    stamps: list[tuple[float, dict[str, Any]]] = []
    start = time.monotonic()
    result, _ = play_folders(
        specs,
        SEED,
        ruleset=None,
        limits=limits,
        replay=folder / "out" / "p.jsonl",
        sinks=[lambda e: stamps.append((time.monotonic(), e))],
        rlimits=rlimits,
    )
    return result, time.monotonic() - start, stamps


def good_median(result: PartidoResult, names: list[str], bot: str) -> float:
    seat = names.index(bot)
    return statistics.median(ms for s, moves in enumerate(result.reply_ms) if s != seat for ms in moves)


def spinner(root: Path) -> list[Figure]:
    names = ["a_mas", "a_menos", "hostile_cpu", "random_legal"]
    result, seconds, _ = play(root, names, Limits(init_ms=5000, move_ms=400))
    return [
        ("spinner: good players' median reply", good_median(result, names, "hostile_cpu"), 5, "ms"),
        ("spinner: partido", seconds, 10, "s"),
    ]


def cpu_rlimit(root: Path) -> list[Figure]:
    names = ["hostile_cpu", *GOOD]
    _, seconds, _ = play(root, names, Limits(init_ms=5000, move_ms=5000), sandbox.Resources(cpu_s=1))
    return [("cpu_rlimit: partido with a spinner killed at 1 s of CPU", seconds, 4.5, "s")]


def spin_share(root: Path) -> list[Figure]:
    names = ["hostile_spin", *GOOD]
    result, _, _ = play(
        root, names, Limits(init_ms=5000, move_ms=3000), sandbox.Resources(cpus=1.0), {"hostile_spin": "8\n"}
    )
    return [("spin_share: good players' median reply", good_median(result, names, "hostile_spin"), 100, "ms")]


def long_line(root: Path) -> list[Figure]:
    move_ms = 2000
    _, _, stamps = play(root, ["a_mas", "long_line", "random_legal", "a_menos"], Limits(3000, move_ms))
    at = next(i for i, (_, e) in enumerate(stamps) if e["type"] == "disqualified")
    return [("long_line: judged after", stamps[at][0] - stamps[at - 1][0], move_ms / 1000 / 2, "s")]


def load_error(root: Path) -> list[Figure]:
    folder = Path(tempfile.mkdtemp(dir=root))
    folder.chmod(0o755)
    specs = [find_player(stage(folder, n)) for n in (*GOOD[:2], "import_error")]
    start = time.monotonic()
    with contextlib.suppress(PlayerLoadError):
        play_folders(
            specs, SEED, ruleset=None, limits=Limits(init_ms=3000, move_ms=1000), replay=folder / "p.jsonl"
        )
    return [("load_error: refused after", time.monotonic() - start, 2.5, "s")]


def fuerte_budget(root: Path) -> list[Figure]:
    budget = 40.0
    strong = load_player_class(SAMPLES / "fuerte")(budget_ms=budget)
    others = [load_player_class(SAMPLES / n)() for n in ("a_mas", "a_menos")]
    result = play_partido([strong, *others], seed=5)
    return [("fuerte_budget: slowest move, 40 ms budget", max(result.reply_ms[0]), budget + 40, "ms")]


SCENARIOS: dict[str, Callable[[Path], list[Figure]]] = {
    "spinner": spinner,
    "cpu_rlimit": cpu_rlimit,
    "spin_share": spin_share,
    "long_line": long_line,
    "load_error": load_error,
    "fuerte_budget": fuerte_budget,
}


@contextlib.contextmanager
def loaded(procs: int) -> Iterator[None]:
    if procs <= 0:
        yield
        return
    with busy(procs):
        yield


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--load", type=int, default=0, metavar="N", help="busy processes meanwhile")
    parser.add_argument("--only", choices=sorted(SCENARIOS), action="append", help="only these (repeatable)")
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="tute-timing-"))
    root.chmod(0o755)
    outside = 0
    try:
        with loaded(args.load):
            print(f"{'figure':58} {'value':>9} {'old test limit':>15}")
            for name in args.only or list(SCENARIOS):
                for label, value, limit, unit in SCENARIOS[name](root):
                    within = value < limit
                    outside += not within
                    mark = "" if within else "  (over)"
                    print(f"{label:58} {value:7.3f} {unit:<2}{'< ' + str(limit) + ' ' + unit:>15}{mark}")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"figures over the old test limits: {outside}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
