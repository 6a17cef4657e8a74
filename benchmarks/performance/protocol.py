"""Protocol cost: the referee's round trip per decision against a raw JSON-lines ping-pong.

Measured in one run, on the same machine:

* **referee**: partidos of the trivial player (``benchmarks/performance/trivial_player``) in a
  subprocess, run through the SDK's runner, against three in-process copies (so two
  processes are busy, as in the raw case); for each of the subprocess player's
  decisions, the time from sending the ``play`` request to holding the reply
  (the replay's ``ms``), with every event it receives on the way;
* **raw**: two Python processes exchanging the same request lines and a reply over
  pipes, with nothing else (json.loads / json.dumps on each side).

Also shown (not in the ratio): the same with all four players in subprocesses,
where five processes share the machine's cores; and, to tell the player's share
from the referee's, **SDK player over a bare pipe**: the trivial player's runner
(``python -m arena.player.runner``, no sandbox) fed over a plain pipe the very bytes the
referee sends it (events and requests, in the same writes), each reply line read
in one ``read`` as the referee reads it (the raw case reads its reply a byte at a
time: an unbuffered ``readline``); ``ratio of the referee to the SDK player over a
pipe`` is what the referee and the sandbox add to the player's own work.
``--sandbox`` picks the referee's containment (default: the best that works here).

Everything runs pinned to one core by default (``--all-cores`` to lift it): on
two cores a ping-pong's latency depends on whether the pair lands on one core or
two, which swings the raw median by 2x from run to run.

Prints the medians and, as its last line, ``overhead ratio: <referee/raw>``.

    python benchmarks/performance/protocol.py --partidos 20
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RAW_EVENTS_CHILD = r"""
import json, sys
out = sys.stdout.buffer
for line in sys.stdin.buffer:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "play":
        out.write((json.dumps({"type": "play", "id": msg["id"], "card": msg["hand"][0]}) + "\n").encode())
        out.flush()
    elif kind == "hello":
        out.write((json.dumps({"type": "ready", "id": msg["id"], "name": "raw"}) + "\n").encode())
        out.flush()
"""
"""A player with no SDK: it decodes every line (events too) and answers requests, nothing else."""
RAW_CHILD = r"""
import json, sys
out = sys.stdout
for line in sys.stdin:
    msg = json.loads(line)
    out.write(json.dumps({"type": "play", "id": msg["id"], "card": msg["hand"][0]}) + "\n")
    out.flush()
"""


def referee_round_trips(
    partidos: int, subprocesses: int, mechanism: str | None = None
) -> tuple[list[float], list[dict]]:
    """Reply times (ms) of the subprocess players' decisions, and sample play requests."""
    from arena.player.loader import load_player_class
    from arena.referee.connection import Connection, InProcessConnection, Limits, SubprocessConnection
    from arena.referee.players import find_player
    from arena.referee.table import Referee

    spec = find_player(HERE / "trivial_player")
    cls = load_player_class(spec.folder)
    limits = Limits(10_000, 5_000)
    times: list[float] = []
    requests: list[dict] = []
    for seed in range(partidos):
        conns: list[Connection] = [
            SubprocessConnection(spec, limits, mechanism=mechanism) for _ in range(subprocesses)
        ]
        conns += [InProcessConnection(cls(), f"t{i}") for i in range(4 - subprocesses)]
        result = Referee(conns, [f"t{i}" for i in range(4)], seed, limits=limits).run()
        for seat_times in result.reply_ms[:subprocesses]:
            times.extend(seat_times)
    # Representative request lines for the raw exchange (same sizes as the referee's).
    from arena.games.cabrero.engine import Partido

    p = Partido(4, 0)
    while not p.over and len(requests) < 200:
        req = p.request()
        req["id"] = len(requests) + 1
        requests.append(dict(req))
        assert p.mano is not None
        p.play(p.mano.legal().bit_length() - 1)
    return times, requests


def sdk_writes(partidos: int) -> list[tuple[bytes, bool]]:
    """What the referee writes to seat 0's player over ``partidos`` partidos: each write's bytes, and
    whether it ends with a request (events are queued and go out with the next request or a push)."""
    from arena import protocol
    from arena.player.loader import load_player_class
    from arena.referee.connection import InProcessConnection, Limits
    from arena.referee.players import find_player
    from arena.referee.table import Referee

    cls = load_player_class(find_player(HERE / "trivial_player").folder)
    limits = Limits(10_000, 5_000)
    hello = protocol.hello(0, "t0", limits.to_dict(), protocol.DEFAULT_GAME)
    writes: list[tuple[bytes, bool]] = [(protocol.encode(hello), True)]  # one process, several partidos

    class Recorded(InProcessConnection):
        """Seat 0 in this process, its lines recorded as a subprocess's connection would write them."""

        def __init__(self) -> None:
            self.queued = b""
            super().__init__(cls(), "t0", limits)

        def send(self, event: dict) -> None:
            self.queued += protocol.encode(event)
            super().send(event)

        def flush(self) -> None:
            if self.queued:
                writes.append((self.queued, False))
                self.queued = b""

        def ask(self, request: dict, cpu_ms: int, wall_ms: int | None = None) -> dict:
            reply = super().ask(request, cpu_ms, wall_ms)  # sets the request's id
            writes.append((self.queued + protocol.encode(request), True))
            self.queued = b""
            return reply

    for seed in range(partidos):
        conns = [Recorded(), *(InProcessConnection(cls(), f"t{i}") for i in range(1, 4))]
        Referee(conns, [f"t{i}" for i in range(4)], seed, limits=limits).run()
    return writes


def fed_round_trips(argv: list[str], writes: list[tuple[bytes, bool]]) -> list[float]:
    """Reply times (ms) of the player ``argv`` fed ``writes`` (events and requests) over a plain pipe,
    its replies read a line at a time (one read, as the referee reads)."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=env)
    assert child.stdin and child.stdout
    reader = io.BufferedReader(child.stdout)  # type: ignore[type-var]
    times = []
    for data, request in writes:
        start = time.perf_counter()
        child.stdin.write(data)
        if request:
            reply = json.loads(reader.readline())
            if reply["type"] != "ready":
                times.append((time.perf_counter() - start) * 1000)
    child.stdin.close()
    child.wait()
    return times


SDK_PLAYER = [sys.executable, "-m", "arena.player.runner", str(HERE / "trivial_player")]
"""The trivial player's runner, unsandboxed."""
RAW_PLAYER = [sys.executable, "-c", RAW_EVENTS_CHILD]
"""A player with no SDK: it decodes every line and answers requests."""


def raw_round_trips(requests: list[dict], rounds: int) -> list[float]:
    child = subprocess.Popen(
        [sys.executable, "-c", RAW_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
    )
    assert child.stdin and child.stdout
    reader = child.stdout
    times = []
    for i in range(rounds):
        line = (json.dumps(requests[i % len(requests)]) + "\n").encode()
        start = time.perf_counter()
        child.stdin.write(line)
        reply = json.loads(reader.readline())
        times.append((time.perf_counter() - start) * 1000)
        assert reply["type"] == "play"
    child.stdin.close()
    child.wait()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partidos", type=int, default=20)
    ap.add_argument("--all-cores", action="store_true", help="do not pin to one core")
    ap.add_argument("--sandbox", choices=("bwrap", "rlimits", "none"), help="the referee's containment")
    args = ap.parse_args()
    if not args.all_cores and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # children inherit it
    four, requests = referee_round_trips(args.partidos, 4, args.sandbox)
    ref, _ = referee_round_trips(args.partidos * 2, 1, args.sandbox)
    raw = raw_round_trips(requests, len(ref))
    writes = sdk_writes(args.partidos * 2)
    sdk = fed_round_trips(SDK_PLAYER, writes)
    same = fed_round_trips(RAW_PLAYER, writes)
    ref_med, raw_med = statistics.median(ref), statistics.median(raw)

    def show(label: str, times: list[float]) -> None:
        p95 = statistics.quantiles(times, n=20)[-1]
        print(
            f"{label:<38} decisions: {len(times):6d}  median: {statistics.median(times) * 1000:6.1f} µs"
            f"  p95: {p95 * 1000:6.1f} µs"
        )

    show("raw JSON-lines ping-pong", raw)
    show("referee, 1 subprocess player", ref)
    show("referee, 4 subprocess players", four)
    show("SDK player over a bare pipe", sdk)
    show("raw, the same lines, a line per read", same)
    print(f"ratio with 4 subprocess players: {statistics.median(four) / raw_med:.2f}")
    print(f"ratio of the referee to the SDK player over a pipe: {ref_med / statistics.median(sdk):.2f}")
    print(f"ratio of the referee to a raw player of the same lines: {ref_med / statistics.median(same):.2f}")
    print(f"overhead ratio: {ref_med / raw_med:.2f}")


if __name__ == "__main__":
    main()
