"""Player start-ups on a loaded machine: no legal player may fail its ``hello``.

Starts ``--starts`` contained sample players one after another (``hello``, then
``bye``) while busy processes load the machine (:mod:`benchmarks.load`), and
counts the hellos that fail, printing each fault with the player's stderr.

It reproduces the false ``crash`` of issue 13: under bubblewrap the referee checks,
every ``WRITER_CHECK_S`` while it waits for a reply, whether the player closed its
standard output (:meth:`arena.containment.process.PlayerProcess._player_writers`). It counted
the launcher shell that joins the player's cgroup (``sh -c 'echo $$ >
.../cgroup.procs && ... exec prlimit ... bwrap ...'``) as the player; caught
while ``echo $$ > file`` had its stdout moved to the file (the pipe saved on fd 10
and restored), that shell seemed to hold no stdout: "closed its output before
replying", ``exit: null``, empty stderr, at hello — a disqualification in mano 1.
By default the referee is made to look every millisecond (``--check-ms 1``), which
turns that rare race (about 1 start in 400 at the referee's 50 ms, 6 busy
processes on 2 cores) into a frequent one (1 in 40–60). About a minute.

    python benchmarks/audits/hello_starts.py           # 200 starts, a look every 1 ms
    python benchmarks/audits/hello_starts.py --check-ms 50  # at the referee's own pace

Last line: ``hello faults of a legal player: N`` (N must be 0).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment import process, sandbox  # noqa: E402
from arena.referee.connection import Limits, SubprocessConnection  # noqa: E402
from arena.referee.players import find_player  # noqa: E402
from benchmarks.load import busy, default_procs  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=200, help="players started (default 200)")
    parser.add_argument("--player", default="random_legal", help="a sample player (default random_legal)")
    look = "look for a closed stdout every MS (default 1; the referee: 50)"
    parser.add_argument("--check-ms", type=float, default=1.0, metavar="MS", help=look)
    parser.add_argument("--load", type=int, default=None, help="busy processes (default 2 x cores)")
    parser.add_argument("--sandbox", default="auto", choices=sandbox.MODES)
    args = parser.parse_args(argv)
    process.WRITER_CHECK_S = args.check_ms / 1000
    mechanism = sandbox.resolve(args.sandbox)
    spec = find_player(ROOT / "sample_players" / args.player)
    limits = Limits(init_ms=30_000, move_ms=30_000)  # generous: only crashes count here
    seen: collections.Counter[str] = collections.Counter()
    load = default_procs() if args.load is None else args.load
    print(f"{args.starts} starts of {args.player} under {mechanism}, {load} busy processes")
    began = time.monotonic()
    with busy(load):
        for i in range(args.starts):
            conn = SubprocessConnection(spec, limits=limits, mechanism=mechanism)
            try:
                fault = conn.failed
                if fault is not None:
                    seen[f"{fault.reason}: {fault.detail}"] += 1
                    tail = conn.process.stderr.tail().strip()
                    print(f"start {i}: {fault.reason}: {fault.detail} {fault.evidence}; stderr: {tail!r}")
            finally:
                conn.close()
    failed = sum(seen.values())
    print(f"{args.starts} starts in {time.monotonic() - began:.0f} s; by fault: {dict(seen)}")
    print(f"hello faults of a legal player: {failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
