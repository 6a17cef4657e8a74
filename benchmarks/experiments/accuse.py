"""Does cheating pay? ``tramposo`` against an honest twin under the ``accuse`` renuncio policy.

Under ``RuleSet(renuncio="accuse")`` (rule 25.4) the referee accepts a renuncio and leaves
catching it to the players: a proven accusation costs the offender two porotos, a wrong
one costs the accuser one. Two players of interest ("subjects"), each in two fields:

* subjects: ``tramposo`` (renuncia to stay out of the bazas while it has taken none,
  when the rules force it to take one, and only while its estimate of being caught
  is low) and ``vigilante``, its honest twin: the same card play and the
  same accusations, never a renuncio (in these fields nobody else renuncia, so its
  accusing never fires: it is the honest heuristic);
* fields (the three other seats): ``naive`` = a_mas, a_menos, a_mas (they never
  accuse: a renuncio always stands) and ``vigilant`` = three ``vigilante`` (they accuse
  every renuncio the public play proves, and every renuncio becomes provable by the end
  of a mano played out).

Duplicate deals: each deal (one partido seed, ``deal_seed(--seed, d)`` of
:mod:`arena.tournament.schedule`) is played under the 4 cyclic rotations of the table,
so the subject holds every seat's cards once; both subjects and both fields play the same
deals, seated alike (a paired comparison). Partidos run in process
(:func:`arena.referee.table.play_partido`), in ``--workers`` children.

For each subject and field: manos lost per 100 manos dealt in and partidos won (among
the winners), each with a 95% Wilson interval; porotos lost per 100 manos dealt in; the
renuncios it played, the manos it was caught in (proven accusations against it) and the
accusations it made. The intervals treat the manos and the partidos as independent
trials, which they are only roughly (manos of a partido share players; rotations share
deals).

How to read: compare ``tramposo`` with ``vigilante`` in the same field. Cheating pays in a
field if tramposo's ``lost/100`` and ``porotos/100`` are lower and its ``won %`` higher
than the honest twin's, by more than the intervals' overlap. In the naive field its
renuncios are never caught, so any difference is what the illegal cards gain at the
table. In the vigilant field each caught mano costs two porotos instead of one; tramposo
stops cheating after its first catch in a partido (its estimate of being caught rises),
so the damage is about one caught renuncio per partido: compare ``porotos/100`` above
all, as ``lost/100`` counts a caught mano as one mano lost like any other.

    PYTHONPATH=. python benchmarks/experiments/accuse.py --partidos 300 --seed 1
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import time
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from arena.results.standings import wilson  # the standings' 95% interval

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
SUBJECTS = ("tramposo", "vigilante")
FIELDS: dict[str, tuple[str, ...]] = {
    "naive": ("a_mas", "a_menos", "a_mas"),
    "vigilant": ("vigilante", "vigilante", "vigilante"),
}

_classes: dict[str, Any] = {}


@dataclass(frozen=True)
class Job:
    subject: str
    field: str
    deal: int
    seed: int
    rotation: int


@dataclass
class Tally:
    """The subject's figures at one (subject, field) table."""

    partidos: int = 0
    won: int = 0
    manos: int = 0
    lost: int = 0
    porotos: int = 0
    renuncios: int = 0
    caught: int = 0
    accusations: int = 0
    wrong: int = 0
    faults: int = 0

    def add(self, other: Tally) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def make_player(name: str) -> Any:
    from arena.player.loader import load_player_class

    if name not in _classes:
        _classes[name] = load_player_class(ROOT / "sample_players" / name)
    return _classes[name]()


def run_job(job: Job) -> tuple[str, str, Tally]:
    """Play one partido; returns the subject, the field and the subject's tally."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_partido
    from arena.rules import RuleSet

    table = (job.subject, *FIELDS[job.field])
    k = job.rotation
    seating = table[k:] + table[:k]
    me = (len(table) - k) % len(table)  # the subject's seat
    events: list[dict[str, Any]] = []
    result = play_partido(
        [make_player(name) for name in seating],
        job.seed,
        ruleset=RuleSet(renuncio="accuse"),
        names=[f"{name}#{s}" for s, name in enumerate(seating)],
        sinks=[events.append],
        partido_id=f"accuse-{job.subject}-{job.field}-{job.deal}-{k}",
    )
    s = partido_stats(events)[me]
    tally = Tally(
        partidos=1,
        won=int(s["won"]),
        manos=s["manos"],
        lost=s["manos_perdidas"],
        porotos=s["porotos_perdidos"],
        renuncios=s["renuncios"],
        caught=s["renuncios_cazados"],
        accusations=s["acusaciones_bien"] + s["acusaciones_mal"],
        wrong=s["acusaciones_mal"],
        faults=sum(f.seat == me for f in result.faults),
    )
    return job.subject, job.field, tally


def jobs_for(partidos: int, seed: int) -> list[Job]:
    """Every (subject, field) table on deals ``0 .. partidos - 1``, each under every rotation."""
    from arena.tournament.schedule import deal_seed

    seeds = [int(deal_seed(seed, d)) for d in range(partidos)]
    return [
        Job(subject, field, d, s, rotation)
        for field in FIELDS
        for subject in SUBJECTS
        for d, s in enumerate(seeds)
        for rotation in range(1 + len(FIELDS[field]))
    ]


def run(partidos: int, seed: int, workers: int = 1) -> dict[tuple[str, str], Tally]:
    """Play the benchmark; the tallies by (subject, field)."""
    jobs = jobs_for(partidos, seed)
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = list(pool.imap_unordered(run_job, jobs, chunksize=8))
    else:
        results = [run_job(j) for j in jobs]
    tallies = {(subject, field): Tally() for field in FIELDS for subject in SUBJECTS}
    for subject, field, tally in results:
        tallies[subject, field].add(tally)
    return tallies


def report(tallies: dict[tuple[str, str], Tally]) -> list[str]:
    """The table, one line per (field, subject)."""
    head = (
        f"{'field':<10}{'subject':<11}{'partidos':>9}{'manos':>7}{'lost/100':>10}{'95% CI':>15}"
        f"{'porotos/100':>13}{'won %':>8}{'95% CI':>15}{'renuncios':>11}{'caught':>8}"
        f"{'accused':>9}{'wrong':>7}{'faults':>8}"
    )
    lines = [head]
    for (subject, field), t in tallies.items():
        l_lo, l_hi = wilson(t.lost, t.manos)
        w_lo, w_hi = wilson(t.won, t.partidos)
        per = 100 / t.manos if t.manos else math.nan
        won = 100 * t.won / t.partidos if t.partidos else math.nan
        lines.append(
            f"{field:<10}{subject:<11}{t.partidos:>9}{t.manos:>7}{t.lost * per:>10.1f}"
            f"{f'[{100 * l_lo:.1f}, {100 * l_hi:.1f}]':>15}{t.porotos * per:>13.1f}{won:>8.1f}"
            f"{f'[{100 * w_lo:.1f}, {100 * w_hi:.1f}]':>15}{t.renuncios:>11}{t.caught:>8}"
            f"{t.accusations:>9}{t.wrong:>7}{t.faults:>8}"
        )
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partidos", type=int, default=300, help="deals per table (each played 4 times)")
    ap.add_argument("--seed", type=int, default=1, help="the deals' seed")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    args = ap.parse_args()
    start = time.perf_counter()
    tallies = run(args.partidos, args.seed, args.workers)
    elapsed = time.perf_counter() - start
    total = sum(t.partidos for t in tallies.values())
    print(
        f"accuse policy: {args.partidos} deals x 4 rotations per table, seed {args.seed};"
        f" {total} partidos in {elapsed:.0f} s ({args.workers} workers)"
    )
    print("\n".join(report(tallies)))
    print(
        "lost/100, porotos/100: manos lost and porotos given up per 100 manos dealt in;"
        " caught: manos ended by a proven accusation against it; accused/wrong: its own accusations"
    )


if __name__ == "__main__":
    main()
