"""The players' syscall allowlist, derived and checked by running every supported runtime.

For each runtime — Python through the SDK (warm and cold starts; the sample players, maestro's
search threads included), Node (``sample_players/node_basico``), the JVM, a static C binary and a
bash script (``tests/bots/runtime_*``, built by ``tests/runtimes.py``) — it plays real partidos
against the samples under the default sandbox, twice:

1. **audit**: with ``ARENA_SEAL_AUDIT=1`` the filter lets every call outside the list through and
   the kernel logs it (audit record 1326, ``sig=0``); the script reads the kernel log
   (``/dev/kmsg``) and lists, per executable, each call outside the list and how often. A call a
   runtime needs and the list lacks shows here, instead of killing an honest bot;
2. **sealed** (the filter as in a torneo) and **unsealed** (``--sandbox none``): the two replays of
   each partido must be the same, times aside, with no fault.

Its last line is ``allowlist: N calls; runtimes: R of T unchanged; calls outside it: C`` (C over
every runtime; 0 when the list is complete for them). Needs a root referee (the kernel log).

    python benchmarks/audits/allowlist.py             # every runtime, 2 seeds each: ~2 min
    python benchmarks/audits/allowlist.py --runtimes node,java --seeds 5
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment import seal  # noqa: E402
from tests import runtimes  # noqa: E402
from tests.torneos import comparable  # noqa: E402

SAMPLES = ROOT / "sample_players"
RUNTIMES = ("python-warm", "python-cold", "node", "java", "c", "shell")
LOGGED = re.compile(rb'type=1326 .*? uid=(\d+) .*? exe="([^"]*)" sig=0 .*? syscall=(\d+) ')


def tables(runtime: str, work: Path) -> tuple[list[list[Path]], list[str]] | None:
    """The player folders of each table for ``runtime`` and extra ``arena play`` options (None: missing).

    Python's first table is maestro and fuerte, whose search depends on the time it gets (their
    replays are not compared, only their calls and faults); every other table is deterministic.
    """
    others = [SAMPLES / "a_mas", SAMPLES / "random_legal"]
    if runtime.startswith("python"):
        flags = ["--cold-start"] if runtime == "python-cold" else []
        python = [SAMPLES / name for name in ("maestro", "fuerte", "a_menos", "vigilante")]
        return [python[:2] + others[:1], python[2:] + others[1:]], flags
    if runtime == "node":
        return [[SAMPLES / "node_basico", *others]], []
    folder = runtimes.built(runtime, work)
    if folder is None:
        return None
    return [[folder, *others]], []


def play(players: list[Path], seed: int, replay: Path, flags: list[str], env: dict[str, str]) -> bool:
    """One partido with ``arena play``; whether it ran to its end."""
    argv = ["arena", "play", *map(str, players), "--seed", str(seed), "--quiet", "--replay", str(replay)]
    done = subprocess.run([*argv, *flags], env=env, capture_output=True, text=True, timeout=600, check=False)
    return done.returncode == 0


def outside(since_us: int) -> collections.Counter[tuple[str, str]]:
    """Calls logged by the audit filter since ``since_us``: (executable, call) -> count."""
    seen: collections.Counter[tuple[str, str]] = collections.Counter()
    for _when, text in seal.kernel_records(since_us):
        match = LOGGED.search(text)
        if match:
            seen[(Path(match.group(2).decode()).name, seal.call_name(int(match.group(3))))] += 1
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runtimes", default=",".join(RUNTIMES))
    parser.add_argument("--seeds", type=int, default=2, help="partidos per table and mode")
    args = parser.parse_args()
    if os.geteuid() != 0 or not os.access("/dev/kmsg", os.R_OK):
        print("benchmarks/audits/allowlist.py needs a root referee that can read /dev/kmsg", file=sys.stderr)
        return 2
    chosen = [r for r in args.runtimes.split(",") if r]
    unknown = [r for r in chosen if r not in RUNTIMES]
    if unknown:
        print(f"--runtimes: unknown {', '.join(unknown)}; known: {', '.join(RUNTIMES)}", file=sys.stderr)
        return 2
    base = {k: v for k, v in os.environ.items() if k != seal.AUDIT_ENV}
    total: collections.Counter[tuple[str, str]] = collections.Counter()
    unchanged = 0
    print(f"{'runtime':<12} {'partidos':>8} {'faults':>6} {'same':>5}  calls outside the list (audit)")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for runtime in chosen:
            found = tables(runtime, work)
            if found is None:
                print(f"{runtime:<12} skipped: {runtimes.missing(runtime)}")
                continue
            folders, flags = found
            since = seal.now_us()
            played = faults = same = 0
            for t, players in enumerate(folders):
                for seed in range(1, args.seeds + 1):
                    name = f"{runtime}-{t}-{seed}"
                    replays = {mode: work / f"{name}-{mode}.jsonl" for mode in ("audit", "sealed", "none")}
                    ok = play(players, seed, replays["audit"], flags, {**base, seal.AUDIT_ENV: "1"})
                    ok &= play(players, seed, replays["sealed"], flags, base)
                    ok &= play(players, seed, replays["none"], [*flags, "--sandbox", "none"], base)
                    played += 1
                    got = {mode: comparable(path) for mode, path in replays.items() if path.exists()}
                    if not ok or len(got) < 3:
                        faults += 1
                        continue
                    faults += any(e["type"] in ("disqualified", "penalized") for e in got["sealed"])
                    searching = runtime.startswith("python") and t == 0
                    same += searching or got["sealed"] == got["none"] == got["audit"]
            seen = outside(since)
            total.update(seen)
            unchanged += same == played and not faults
            calls = ", ".join(f"{exe}:{call}×{n}" for (exe, call), n in sorted(seen.items())) or "none"
            print(f"{runtime:<12} {played:>8} {faults:>6} {same:>5}  {calls}", flush=True)
    print(
        f"allowlist: {seal.size()} calls; runtimes: {unchanged} of {len(chosen)} unchanged; "
        f"calls outside it: {sum(total.values())}"
    )
    return 0 if not total and unchanged == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())
