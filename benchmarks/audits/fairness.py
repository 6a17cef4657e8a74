"""Fairness under load: a torneo of legal players, killed and resumed, must fault nobody.

A torneo of ``--partidos`` partidos (default 200) at tables of 4 between copies of
the legal sample players — ``random_legal``, ``a_mas``, ``a_menos``, a second
``random_legal`` (``azar``), ``node_basico`` where Node.js is installed, a CPU-bound
thinker (``pensador``: 500 ms of CPU on each of its first three plays, of 1000) and a
slow but legal reader (``lector_lento``: rests 5 ms on every event it reads, thinks
50 ms a play; see tests/bots/) — run as
``arena tournament ... --workers 2`` with the default limits, while 2 × cores
busy processes keep the machine loaded (:mod:`benchmarks.load`). ``fuerte`` is
left out unless ``--with-fuerte``: it thinks ~0.3 s a move, ~15 s a partido.

The torneo is killed with SIGKILL ``--kills`` times (default 5), each at a random
moment: 0–``--spread`` s after a random number of partidos (drawn over the whole
torneo) is in the store; alternately the coordinator alone (its workers stop by
themselves) and its whole process group (coordinator and workers at once). After each kill it is resumed with
``arena tournament --resume DIR``; the last resume runs to the end.

Then every fault in the store is listed (partido, player, reason, detail, incident
file) with the referee's failures; the last line is ``faults among legal players: N``
(N must be 0; the exit status is 1 otherwise, or when the torneo did not finish).
About 4–6 minutes on 2 loaded cores with the defaults.

    python benchmarks/audits/fairness.py                # 200 partidos, 5 kills
    python benchmarks/audits/fairness.py --partidos 60 --kills 3 --keep /tmp/fair
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.tournament.store import Store  # noqa: E402
from benchmarks.load import busy, default_procs  # noqa: E402

SAMPLES = ROOT / "sample_players"
BOTS = ROOT / "tests" / "bots"
SLOW_BUT_LEGAL = {"pensador": ("thinker", "500\n"), "lector_lento": ("slow_reader", None)}
"""Entrant folder name -> (the test bot it is a copy of, its targets.txt)."""
ENTRANTS = {"random_legal": "random_legal", "a_mas": "a_mas", "a_menos": "a_menos", "azar": "random_legal"}
"""Entrant folder name -> the sample player it is a copy of."""


def field(root: Path, with_fuerte: bool) -> Path:
    """Copies of the legal sample players in ``root/field``."""
    entrants = dict(ENTRANTS)
    if shutil.which("node"):
        entrants["node_basico"] = "node_basico"
    if with_fuerte:
        entrants["fuerte"] = "fuerte"
    folder = root / "field"
    for name, sample in entrants.items():
        shutil.copytree(SAMPLES / sample, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name, (bot, targets) in SLOW_BUT_LEGAL.items():
        shutil.copytree(BOTS / bot, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        if targets:
            (folder / name / "targets.txt").write_text(targets, encoding="utf-8")
    return folder


def committed(out: Path) -> int:
    """Partidos in the store now (0 while it does not exist or is busy)."""
    try:
        db = sqlite3.connect(f"file:{out / 'torneo.sqlite'}?mode=ro", uri=True, timeout=1)
        try:
            return int(db.execute("SELECT COUNT(*) FROM partidos").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def start(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    """``python -m arena tournament argv`` in a session of its own, output appended to ``log``."""
    with log.open("ab") as sink:
        return subprocess.Popen(
            [sys.executable, "-m", "arena", "tournament", *argv],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill_at_random(
    proc: subprocess.Popen[bytes], out: Path, target: int, delay: float, group: bool
) -> str | None:
    """SIGKILL ``proc`` (or its process group) ``delay`` s after ``target`` partidos are in the store.

    None if the run ended first.
    """
    while committed(out) < target:
        if proc.poll() is not None:
            return None
        time.sleep(0.05)
    deadline = time.monotonic() + delay
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            return None
        time.sleep(0.01)
    if proc.poll() is not None:
        return None
    if group:
        os.killpg(proc.pid, signal.SIGKILL)
    else:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    whom = "the process group" if group else "the coordinator"
    return f"{delay:.2f} s after partido {target} was in, {whom}"


def report(out: Path) -> tuple[int, bool]:
    """Print every fault and failure in the store; (faults, whether the torneo is complete)."""
    with Store.open(out, readonly=True) as store:
        names = {e.index: e.name for e in store.entrants()}
        results = store.results()
        total = len(store.scheduled())
        failures = store.failures()
        withdrawn = store.withdrawn()
    faults = 0
    for r in results:
        for f in r.faults:
            faults += 1
            print(
                f"FAULT {r.id} mano {f.mano} seat {f.seat} {names[f.entrant]}: {f.reason}: {f.detail}"
                + (f" ({out / f.incident})" if f.incident else "")
            )
    for partido, when, why in failures:
        print(f"referee failure {partido} at {when}: {why}")
    for w in withdrawn:
        print(f"withdrawn {w.partido}: {[names[e] for e in w.entrants]} ({w.reason})")
    print(f"partidos committed: {len(results)} of {total}; referee failures: {len(failures)}")
    return faults, len(results) == total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partidos", type=int, default=200, help="partidos in the torneo (default 200)")
    parser.add_argument("--kills", type=int, default=5, help="SIGKILLs, each then --resume (default 5)")
    parser.add_argument("--spread", type=float, default=3.0, help="most random delay before a kill (s)")
    parser.add_argument("--load", type=int, default=None, help="busy processes (default 2 x cores)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--with-fuerte", action="store_true", help="add the strong player (slow)")
    parser.add_argument("--seed", type=int, default=None, help="the kill moments' random seed")
    parser.add_argument("--keep", type=Path, default=None, help="work in this new folder and keep it")
    args = parser.parse_args(argv)
    if not 0 <= args.kills <= args.partidos * 9 // 10:
        parser.error("--kills: at most 90% of --partidos")

    root = args.keep or Path(tempfile.mkdtemp(prefix="tute-fairness-"))
    root.mkdir(parents=True, exist_ok=True)
    out, log = root / "torneo", root / "runs.log"
    rng = random.Random(args.seed)
    # The moments: after a random count of partidos, spread over the torneo, plus a random delay.
    targets = sorted(rng.sample(range(args.partidos * 9 // 10), args.kills))  # not too late to happen
    players = field(root, args.with_fuerte)
    entrants = sorted(p.name for p in players.iterdir())
    load = default_procs() if args.load is None else args.load
    print(f"{args.partidos} partidos of {', '.join(entrants)}; {load} busy processes; {args.kills} kills")
    began = time.monotonic()
    kills = 0
    with busy(load):
        proc = start(
            [
                str(players),
                "--out",
                str(out),
                "--workers",
                str(args.workers),
                "--table-size",
                "4",
                "--partidos",
                str(args.partidos),
            ],
            log,
        )
        while kills < args.kills:
            how = kill_at_random(proc, out, targets[kills], rng.uniform(0, args.spread), kills % 2 == 1)
            if how is None:
                print(f"the torneo finished before kill {kills + 1}")
                break
            kills += 1
            print(f"kill {kills} at {time.monotonic() - began:.1f} s ({committed(out)} committed), {how}")
            # Resumed at once: the killed run's workers and players may still be going.
            proc = start(["--resume", str(out), "--workers", str(args.workers)], log)
        status = proc.wait()
    print(f"{kills} kills and resumes, {time.monotonic() - began:.0f} s; last run exited {status}")
    if not (out / "torneo.sqlite").exists():
        print(f"no torneo was created; see {log}")
        print("faults among legal players: unknown")
        return 1
    faults, complete = report(out)
    if not complete:
        print(f"the torneo did not finish; see {log}")
    if args.keep is None and faults == 0 and complete:
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"kept: {root}")
    print(f"faults among legal players: {faults}")
    return 0 if faults == 0 and complete and kills >= args.kills else 1


if __name__ == "__main__":
    sys.exit(main())
