"""The peek audit against hidden peekers and honest fields (issue 50; ``arena audit``, ``docs/audit.md``).

Torneos of Tute Cabrero at tables of four among five entrants, played in this process (no sandbox:
the peekers here are given the truth by the referee's event sink, standing for any channel — a
kernel counter, reply timing, a partner process). Each torneo is then audited exactly as
``arena audit`` does (:mod:`arena.results.peek`) and each entrant's verdict read.

* honest fields: ``a_mas``, ``a_menos``, ``random_legal``, ``fuerte`` and ``maestro`` (the two search
  players: strong, and their time and choices depend on what they may see only);
* perfect peeker: ``fuerte`` searching the true deal (every hand, every move) instead of the honest
  ``fuerte``;
* partial peeker: ``fuerte`` that learns the true deal from its sixth move of each mano on (what the
  reply-time channel of issue 50 passed: a hand by the sixth or seventh move).

Prints ``peekers flagged: k of K at N partidos; honest torneos with a false flag: f of F; audit CPU:
X% of the torneo`` for each N (X: the audit's CPU time over the torneo's own, both in this process).

    python benchmarks/audits/peek.py                       # 3 torneos of each kind at 100 and 200 partidos
    python benchmarks/audits/peek.py --torneos 20 --partidos 200 400 800 --workers 2   # the issue's run
    python benchmarks/audits/peek.py --check               # one small torneo of each kind (for the tests)

Measured (issue 50, with the late test)::

    python benchmarks/peek.py --torneos 2 --partidos 200 --every 1 --workers 2 --verbose
    peekers flagged: 4 of 4 at 200 partidos (perfect 2/2, partial 2/2); honest torneos with a false
    flag: 0 of 6 (2 all honest); audit CPU: 413% of the torneo

(the partial peeker +0.007/+0.008 over all its decisions, +0.014/+0.015 late, z 6.7; honest players
within −0.005 and +0.006 in either test). Time: a partido takes about 0.7 s to play and 1 s to audit
(``--draws 8 --every 1``) on one core; 20 minutes for that run on 2 busy cores.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from arena.games.cabrero.audit import decisions  # noqa: E402
from arena.referee.table import play_partido  # noqa: E402
from arena.results import peek  # noqa: E402
from benchmarks.experiments.omniscient import Truth  # noqa: E402
from benchmarks.experiments.strength import search_player  # noqa: E402

HONEST = ("a_mas", "a_menos", "random_legal", "fuerte:8", "maestro:8")
KINDS = ("honest", "perfect", "partial")
PEEKER = "fuerte:8"
PARTIAL_FROM = 6
"""The partial peeker sees the true deal from this move of each mano on (its 6th card)."""


def _partial(base_spec: str, seed: int, truth: Truth) -> Any:
    """``fuerte`` honest for its first moves of a mano, then searching the true deal."""
    honest = search_player(base_spec, seed)
    seeing = search_player(base_spec, seed, truth)
    base = type(honest)
    omni = type(seeing)

    class Partial(omni):  # type: ignore[misc,valid-type]
        start_hand: tuple[int, int] = (0, 0)

        def search(self, request: Any, candidates: Any, start: float) -> Any:
            if self.start_hand[0] != request.mano:
                self.start_hand = (request.mano, len(request.hand))
            made = self.start_hand[1] - len(request.hand)
            if made + 1 < PARTIAL_FROM:
                return base.search(self, request, candidates, start)
            return super().search(request, candidates, start)

    player = Partial(seed=seed, simulations=int(base_spec.partition(":")[2]))
    return player


def _players(kind: str, seed: int, truth: Truth) -> tuple[list[Any], list[str]]:
    names = list(HONEST)
    players = [search_player(spec, seed + i) for i, spec in enumerate(HONEST)]
    if kind != "honest":
        at = names.index(PEEKER)
        names[at] = f"peeker-{kind}"
        make = search_player if kind == "perfect" else _partial
        players[at] = make(PEEKER, seed + at, truth)
    return players, names


Result = tuple[str, int, list[str], float, float, list[str]]


def torneo(job: tuple[str, int, int, int, int]) -> Result:
    """Play and audit one torneo: (kind, partidos, flagged names, play CPU s, audit CPU s, verdicts)."""
    kind, partidos, seed, draws, every = job
    rng = random.Random(f"peek-bench/{kind}/{partidos}/{seed}")
    truth = Truth()
    players, names = _players(kind, seed, truth)
    records: list[tuple[str, str, list[str]]] = []
    found: dict[str, list[list[float]]] = {}
    play_cpu = audit_cpu = 0.0
    for i in range(partidos):
        seats = rng.sample(range(len(names)), 4)
        events: list[dict[str, Any]] = []
        t0 = time.process_time()
        play_partido(
            [players[s] for s in seats],
            rng.getrandbits(32),
            names=[names[s] for s in seats],
            sinks=[truth, events.append],
            partido_id=f"p{i}",
        )
        t1 = time.process_time()
        found[f"p{i}"] = [[d.seat, d.excess, int(d.late)] for d in decisions(events, draws, every)]
        audit_cpu += time.process_time() - t1
        play_cpu += t1 - t0
        records.append((f"p{i}", "", [names[s] for s in seats]))
    verdicts = peek.verdicts(records, found, names)
    told = [
        f"{v.entrant} {v.decisions} {v.excess:+.3f} z={v.z:.1f} late {v.late_excess:+.3f} z={v.late_z:.1f}"
        for v in verdicts
    ]
    return kind, partidos, [v.entrant for v in verdicts if v.flagged], play_cpu, audit_cpu, told


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--torneos", type=int, default=3)
    parser.add_argument("--partidos", type=int, nargs="+", default=[100, 200])
    parser.add_argument("--draws", type=int, default=8)
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="one small torneo of each kind")
    parser.add_argument("--verbose", action="store_true", help="every torneo's verdicts")
    args = parser.parse_args()
    if args.check:
        args.torneos, args.partidos = 1, [20]
    jobs = [
        (kind, n, seed, args.draws, args.every)
        for n in args.partidos
        for kind in KINDS
        for seed in range(args.torneos)
    ]
    results: list[Result] = []
    if args.workers > 1:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(torneo, jobs))
    else:
        results = [torneo(job) for job in jobs]
    if args.verbose:
        for r in results:
            print(f"{r[0]} {r[1]}: " + "; ".join(r[5]))
    for n in args.partidos:
        at = [r for r in results if r[1] == n]
        peekers = [r for r in at if r[0] != "honest"]
        caught = sum(1 for r in peekers if any(f.startswith("peeker") for f in r[2]))
        honest = [r for r in at if r[0] == "honest"]
        false = sum(1 for r in at if any(not f.startswith("peeker") for f in r[2]))
        share = sum(r[4] for r in at) / max(sum(r[3] for r in at), 1e-9)
        by_kind = ", ".join(
            f"{kind} {sum(1 for r in peekers if r[0] == kind and any(f.startswith('peeker') for f in r[2]))}"
            f"/{sum(1 for r in peekers if r[0] == kind)}"
            for kind in KINDS[1:]
        )
        print(
            f"peekers flagged: {caught} of {len(peekers)} at {n} partidos ({by_kind}); "
            f"honest torneos with a false flag: {false} of {len(at)} ({len(honest)} all honest); "
            f"audit CPU: {share:.0%} of the torneo"
        )


if __name__ == "__main__":
    main()
