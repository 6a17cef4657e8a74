"""What a player flooding its standard error costs the referee: CPU per second of flood.

A player may write standard error as fast as it can for a whole partido
(``tests/bots/hostile_stderr_flood``: 1 MiB writes from a thread, from hello on).
The referee keeps the first MiB in the player's log and a tail for incident
reports; what it spends on the rest is what this measures, two ways:

* ``bare``: one flooding player started and greeted as the referee does
  (:class:`SubprocessConnection`: sandbox, warm start, :class:`StderrLog`), then
  left to flood for ``--seconds`` while the referee's main thread sleeps: the
  referee process's CPU time (``getrusage``) over that time is the drain's cost;
* ``first``: the referee's CPU time to take the first MiB the flooder writes
  (what the log keeps, escaped) and a MiB past it, through a :class:`StderrLog`
  on a pipe: a cost once per player process, not per second;
* ``partido``: ``--partidos`` contained partidos with the flooder at a table of
  sample players, beside the same partidos with a sample player in its place:
  the referee's CPU time and wall time in each (starting sandboxed players is
  most of what a short partido costs the referee).

    python benchmarks/performance/stderr_flood.py      # all: 5 s of bare flood, 10 partidos each way
    python benchmarks/performance/stderr_flood.py --only bare --seconds 10
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import runpy
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment import sandbox  # noqa: E402
from arena.containment.process import StderrLog  # noqa: E402
from arena.referee.connection import Limits, SubprocessConnection  # noqa: E402
from arena.referee.players import find_player  # noqa: E402
from arena.referee.table import play_folders  # noqa: E402
from benchmarks.performance.timing import stage  # noqa: E402

BOT = "hostile_stderr_flood"
GOOD = ("random_legal", "a_mas", "a_menos")
LIMITS = Limits(init_ms=5000, move_ms=1000)
SEED = 7
CAP = 1 << 20
"""What the log keeps (:class:`StderrLog`'s default cap): the rest is counted in its last line."""


def cpu_s() -> float:
    """This process's CPU time (user and system, every thread) so far."""
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def bare(root: Path, seconds: float) -> tuple[float, int]:
    """The referee's CPU (fraction of a core) while one greeted player floods, and the bytes drained."""
    spec = find_player(stage(Path(tempfile.mkdtemp(dir=root)), BOT))
    conn = SubprocessConnection(spec, LIMITS, root / "logs")
    try:
        assert conn.failed is None, conn.failed
        log = conn.process.stderr
        time.sleep(0.5)  # past the log's cap: the flood proper
        before, drained, start = cpu_s(), log.written + log.dropped, time.monotonic()
        time.sleep(seconds)
        used, wall = cpu_s() - before, time.monotonic() - start
        drained = log.written + log.dropped - drained
    finally:
        conn.close()
    return used / wall, drained


def first(root: Path) -> float:
    """The referee's CPU seconds to take 2 MiB of the flooder's output through a log capped at 1 MiB."""
    chunk = runpy.run_path(str(ROOT / "tests" / "bots" / BOT / "player.py"))["CHUNK"]
    r, w = os.pipe()

    def write() -> None:
        for _ in range(2):
            os.write(w, chunk)
        os.close(w)

    before = cpu_s()
    log = StderrLog(r, root / "first.stderr.log")
    writer = threading.Thread(target=write)
    writer.start()
    writer.join()
    log.join(10)
    return cpu_s() - before


def partidos(root: Path, names: list[str], count: int) -> tuple[float, float, int]:
    """``count`` contained partidos: the referee's CPU seconds, their wall seconds, the flooder's bytes."""
    used = wall = 0.0
    drained = 0
    for seed in range(SEED, SEED + count):
        folder = Path(tempfile.mkdtemp(dir=root))
        folder.chmod(0o755)
        specs = [find_player(stage(folder, n)) for n in names]
        replay = folder / "out" / "p.jsonl"
        before, start = cpu_s(), time.monotonic()
        result, _ = play_folders(specs, seed, ruleset=None, limits=LIMITS, replay=replay)
        used, wall = used + cpu_s() - before, wall + time.monotonic() - start
        assert not result.faults, result.faults
        log = Path(f"{replay}.logs/{BOT}.stderr.log")
        if log.exists():  # the dropped-bytes line ends it, in any language
            end = re.search(rb"\[arena: \D*(\d+)\D*\]\n$", log.read_bytes())
            drained += int(end.group(1)) + CAP if end else 0
    return used, wall, drained


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds of bare flood (default 5)")
    parser.add_argument("--partidos", type=int, default=10, help="partidos each way (default 10)")
    parser.add_argument("--only", choices=("bare", "first", "partido"), action="append")
    args = parser.parse_args(argv)
    only = args.only or ["bare", "first", "partido"]
    root = Path(tempfile.mkdtemp(prefix="tute-flood-"))
    root.chmod(0o755)
    print(f"containment: {sandbox.resolve('auto')}")
    try:
        if "bare" in only:
            share, drained = bare(root, args.seconds)
            rate = drained / args.seconds / 1e6
            print(
                f"referee CPU while a player floods stderr: {share * 100:.1f}% of a core "
                f"({drained / 1e9:.2f} GB drained in {args.seconds:g} s, {rate:.0f} MB/s)"
            )
        if "first" in only:
            spent = first(root)
            print(f"referee CPU for a flooder's first 2 MiB (1 MiB kept in its log): {spent * 1000:.0f} ms")
        if "partido" in only:
            quiet, quiet_s, _ = partidos(root, ["vigilante", *GOOD], args.partidos)
            loud, loud_s, drained = partidos(root, [BOT, *GOOD], args.partidos)
            print(
                f"referee CPU in {args.partidos} partidos of sample players: {quiet:.2f} s in {quiet_s:.1f} s"
                f" ({quiet / quiet_s * 100:.1f}% of a core)"
            )
            print(
                f"referee CPU in the same partidos with a flooder: {loud:.2f} s in {loud_s:.1f} s"
                f" ({loud / loud_s * 100:.1f}% of a core, {drained / 1e9:.2f} GB drained)"
            )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
