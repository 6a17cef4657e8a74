"""The same torneo on the local runner (W = 2) and on a loopback Dask cluster of two one-thread workers.

Entrants: two copies each of ``sample_players/random_legal``, ``a_mas`` and
``a_menos`` (6 entrants, tables of 4, ``--rounds`` partidos per table), under the
containment ``auto`` picks, as ``arena tournament`` runs them. The cluster is a
``dask scheduler`` and two ``dask worker --nthreads 1 --nworkers 1`` on
127.0.0.1, started here and stopped at the end. Runs alternate between the two
(the machine may be shared) and the best of ``--repeat`` counts for each;
partidos/s are over the partidos (backend already up, entrants checked), as in
``benchmarks/performance/tournament.py``. The results of every run are checked identical.

The last line is ``cluster/local ratio: <x>``: the cluster's time per partido
over the local runner's (1.0 = as fast; the target is at most 1.3).

    python benchmarks/performance/dask_cluster.py --rounds 4
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
sys.path.insert(0, str(ROOT))

from arena.containment.sandbox import resolve  # noqa: E402
from arena.tournament import coordinator as t  # noqa: E402
from arena.tournament.cluster.bundles import CACHE_VAR  # noqa: E402
from arena.tournament.entrants import collect_entrants  # noqa: E402
from arena.tournament.store import Store  # noqa: E402

SAMPLES = ("random_legal", "a_mas", "a_menos")


def entrants(folder: Path) -> list[Path]:
    """Two copies of each deterministic sample player."""
    out = []
    for name in SAMPLES:
        for i in (1, 2):
            dest = folder / f"{name}{i}"
            shutil.copytree(ROOT / "sample_players" / name, dest)
            out.append(dest)
    return out


def _dask(folder: Path, env: dict[str, str], log: str, *args: str) -> subprocess.Popen[bytes]:
    """``python -m dask ARGS`` in its own session, its output in ``folder/<log>.log``."""
    out = (folder / f"{log}.log").open("wb")
    return subprocess.Popen(
        [sys.executable, "-m", "dask", *args, "--no-dashboard"],
        cwd=folder,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


@contextlib.contextmanager
def loopback_cluster(folder: Path, workers: int = 2) -> Iterator[str]:
    """A scheduler and ``workers`` one-thread workers on 127.0.0.1; yields the scheduler's address."""
    from distributed import Client

    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), CACHE_VAR: str(folder / "bundles")}
    file = folder / "scheduler.json"
    here = ["--host", "127.0.0.1"]
    procs = [_dask(folder, env, "sched", "scheduler", *here, "--port", "0", "--scheduler-file", str(file))]
    try:
        deadline = time.monotonic() + 30
        address = None
        while address is None:
            if time.monotonic() > deadline or procs[0].poll() is not None:
                raise RuntimeError(f"the scheduler did not start; see {folder / 'sched.log'}")
            with contextlib.suppress(OSError, ValueError, KeyError):
                address = json.loads(file.read_text())["address"]
            time.sleep(0.05)
        one = ["--nthreads", "1", "--nworkers", "1", *here, "--local-directory", str(folder / "scratch")]
        procs += [_dask(folder, env, f"worker{i}", "worker", address, *one) for i in range(workers)]
        with Client(address, timeout=10, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            if p.returncode is None:  # a reaped pid (and group id) may be anyone's now
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(procs):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def tournament(out: Path, folders: list[Path], rounds: int, **where: Any) -> tuple[t.RunStats, float]:
    """One torneo (``workers=2`` here, or ``scheduler=ADDRESS``); its stats and its wall time."""
    specs = collect_entrants(folders)
    config = t.Config(  # an explicit seed: the cluster's results are compared with the local ones
        table_size=4, rounds=rounds, seed=2002, init_ms=10_000, move_ms=2_000, sandbox=resolve("auto")
    )
    start = time.monotonic()
    stats = t.execute(out, specs, config, 2, None, t.plan(config, len(specs)), **where)
    return stats, time.monotonic() - start


def decided(folder: Path) -> list[tuple[Any, ...]]:
    """What a torneo decided, partido by partido (no times)."""
    with Store.open(folder) as store:
        return [(r.id, r.seats, r.winners, r.ranking, r.manos, r.scores) for r in store.results()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=4, help="Partidos per table of 4 (15 tables).")
    parser.add_argument("--repeat", type=int, default=2, help="Runs of each (the best counts).")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-dask-") as tmp:
        tmp_path = Path(tmp)
        folders = entrants(tmp_path / "players")
        rates: dict[str, float] = {}
        results = []
        with loopback_cluster(tmp_path / "cluster") as address:
            print(f"cluster: scheduler {address}, 2 workers x 1 thread")
            for attempt in range(args.repeat):
                for name, where in (("local W=2", {}), ("cluster 2x1", {"scheduler": address})):
                    out = tmp_path / f"{name.split()[0]}-{attempt}"
                    stats, wall = tournament(out, folders, args.rounds, **where)
                    rate = stats.committed / stats.seconds
                    rates[name] = max(rates.get(name, 0.0), rate)
                    results.append(decided(out))
                    print(
                        f"{name}: {stats.committed} partidos in {stats.seconds:.2f} s: {rate:.2f}/s "
                        f"({wall:.2f} s with start-up and entrant checks)"
                    )
        same = all(r == results[0] for r in results)
        print(f"identical results in every run: {'yes' if same else 'NO'}")
        local, cluster = rates["local W=2"], rates["cluster 2x1"]
        print(f"partidos/s (best): local W=2 {local:.2f}, cluster 2x1 {cluster:.2f}")
        print(f"cluster/local ratio: {local / cluster:.2f}")


if __name__ == "__main__":
    main()
