"""Keep the machine's cores busy while something else runs: the load of a shared machine.

``busy(n)`` is a context manager that starts ``n`` processes spinning on the CPU
(default: twice the core count), each in a session of its own, and kills them on
exit. As a command it runs another command under that load and exits with its
status::

    python benchmarks/load.py -- pytest -q              # 2 x cores spinners
    python benchmarks/load.py --procs 6 -- arena tournament sample_players --out /tmp/t

Used by ``benchmarks/audits/fairness.py`` and to check that the test suite holds on a
loaded machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

SPIN = """
import os
parent = os.getppid()
while os.getppid() == parent:
    for _ in range(100_000):
        pass
"""
"""Busy until its parent is gone: spinners never outlive the harness, however it ends."""


def default_procs() -> int:
    """Twice the cores this process may run on."""
    return 2 * len(os.sched_getaffinity(0))


@contextlib.contextmanager
def busy(procs: int | None = None) -> Iterator[list[int]]:
    """``procs`` busy-looping processes (default :func:`default_procs`) while the block runs.

    Yields their pids; they are killed when the block ends, however it ends.
    """
    count = default_procs() if procs is None else procs
    spinners = [
        subprocess.Popen(
            [sys.executable, "-c", SPIN],
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(count)
    ]
    try:
        yield [p.pid for p in spinners]
    finally:
        for p in spinners:
            with contextlib.suppress(ProcessLookupError):
                os.kill(p.pid, signal.SIGKILL)
        for p in spinners:
            p.wait()


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--procs", type=int, default=None, help="busy processes (default: 2 x cores)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run under load")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give a command to run under load (after --)")
    signal.signal(signal.SIGTERM, _stop)  # unwind (and stop the spinners) on SIGTERM too
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C reaches the command, even from `&`
    with busy(args.procs) as pids:
        print(f"load: {len(pids)} busy processes on {len(os.sched_getaffinity(0))} cores", file=sys.stderr)
        start = time.monotonic()
        status = subprocess.call(command)
        took = time.monotonic() - start
        print(f"load: {' '.join(command)} exited {status} after {took:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
