"""Collusion flags (issue 28): are colluding pairs flagged, and honest torneos left alone?

Torneos of honest sample players (``sample_players/``: random_legal, a_mas, a_menos) with a
master (``benchmarks/audits/collusion_bots/maestro``: honest, a point hunter like a_mas) and a second
bot, a servant of the master (``--servants``, cycled over the torneos):

* ``escudero`` (default): wherever the master is dealt in, it never sings and chooses its card
  by searching (as the sample fuerte does) for what works out best for the master: the master
  not losing the mano, third parties losing it; its own fate does not count;
* ``criado``: plays as a_mas, but never sings with the master at the table and throws its
  highest-points card on every baza the master is winning (without taking it from it).

Colluding torneos: the flag sought is the ordered pair (maestro, servant); any other pair
flagged is a false flag. Honest torneos: the same fields, the servant replaced by its honest
copy (the same bot with ``master = None``: it plays as a_mas, like the master: near twins).

Field shapes, cycled (entrant names are folder names; a duplicate sample is ``<name>_2``:
identical twins, the hard honest case):

* ``5x3``: random_legal, a_mas, a_menos, maestro, servant; tables of 3;
* ``6x4``: random_legal, a_mas, a_menos, a_menos_2, maestro, servant; tables of 4;
* ``6x3``: random_legal, a_mas, a_mas_2, a_menos, maestro, servant; tables of 3;
* ``5x4``: random_legal, random_legal_2, a_menos, maestro, servant; tables of 4.

Each torneo is the arena's own schedule (:func:`arena.tournament.schedule.make_schedule`,
``--partidos`` partidos, seats balanced) played in-process with
:func:`arena.referee.table.play_partido`, in ``--workers`` processes (a torneo each); its
strengths are the standings' (:func:`arena.results.ranking.places` on
:func:`arena.results.standings.outcomes`), its flags :func:`arena.results.collusion.suspicions`.
One line per torneo as it finishes, then the evidence of every colluding pair (flagged or
not) and of every flagged pair, the totals by servant, and last the line

    colluding pairs flagged: k of K; honest torneos with a false flag: f of F

(``k``: colluding torneos whose pair was flagged; ``f``: honest torneos with any pair flagged).
Measured (issue 50: the manos measure, the least gain a bar on the estimate), at 750 partidos::

    python benchmarks/audits/collusion.py --partidos 750 --servants escudero,criado --honest 20 --seed 11
    escudero: flagged in 4 of 4 colluding torneos   (seed 2002, --honest 12: 4 of 4; 6x4: p corrected 0.001)
    criado: flagged in 0 of 4 colluding torneos     (its master gains 0.02-0.06 in manos)
    colluding pairs flagged: 4 of 8; honest torneos with a false flag: 0 of 20   (seed 2002: 0 of 12)

and 0 of 8 honest torneos of 3,000 partidos (``--partidos 3000 --colluding 0 --honest 8``).
``--save DIR`` writes each torneo's records (``torneo_<n>.json``) to study other measures on them.

Defaults: 8 colluding and 20 honest torneos of 1,600 partidos, about 8 minutes on 2 cores::

    python benchmarks/audits/collusion.py
    python benchmarks/audits/collusion.py --servants escudero,criado --colluding 8 --honest 20 --seed 7
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
if str(ROOT) not in sys.path:  # run as a script from anywhere: the checkout's arena
    sys.path.insert(0, str(ROOT))

SAMPLES = ROOT / "sample_players"
BOTS = ROOT / "benchmarks" / "audits" / "collusion_bots"
MASTER = "maestro"
SERVANTS = ("escudero", "criado")
"""The servants there are (``benchmarks/audits/collusion_bots/``)."""
FIELDS: dict[str, tuple[tuple[str, ...], int]] = {
    "5x3": (("random_legal", "a_mas", "a_menos"), 3),
    "6x4": (("random_legal", "a_mas", "a_menos", "a_menos_2"), 4),
    "6x3": (("random_legal", "a_mas", "a_mas_2", "a_menos"), 3),
    "5x4": (("random_legal", "random_legal_2", "a_menos"), 4),
}
"""The honest samples of each field shape (plus master and servant), and its table size."""

_classes: dict[str, Any] = {}


@dataclass(frozen=True)
class Torneo:
    number: int
    shape: str
    servant: str
    colluding: bool
    partidos: int
    seed: int

    @property
    def entrants(self) -> tuple[str, ...]:
        return (*FIELDS[self.shape][0], MASTER, self.servant)

    @property
    def label(self) -> str:
        kind = "colluding" if self.colluding else "honest"
        return f"torneo {self.number:>2} {kind:<9} {self.shape} ({MASTER}+{self.servant})"


def player_class(name: str, honest: bool) -> Any:
    """The class of entrant ``name`` (a sample, a twin ``<sample>_2``, or a collusion bot)."""
    key = f"{name}:{honest}"
    if key not in _classes:
        from arena.player.loader import load_player_class

        base = name.removesuffix("_2")
        folder = BOTS / base if (BOTS / base).is_dir() else SAMPLES / base
        cls = load_player_class(folder)
        if honest and name in SERVANTS:
            cls = type(cls.__name__, (cls,), {"master": None})
        _classes[key] = cls
    return _classes[key]


def play(torneo: Torneo) -> tuple[Torneo, list[dict[str, Any]], float]:
    """Play one torneo; returns its records (as the standings read them) and its seconds."""
    from arena.referee.stats import partido_stats
    from arena.referee.table import play_partido
    from arena.tournament.schedule import make_schedule

    start = time.perf_counter()
    entrants = torneo.entrants
    size = FIELDS[torneo.shape][1]
    records = []
    for sp in make_schedule(len(entrants), size, 1, torneo.seed, partidos=torneo.partidos):
        names = [entrants[e] for e in sp.seats]
        players = [player_class(n, honest=not torneo.colluding)() for n in names]
        events: list[dict[str, Any]] = []
        result = play_partido(players, sp.seed, names=names, sinks=[events.append], partido_id=sp.id)
        times = ("reply_ms", "reply_cpu_ms")
        stats = [{k: v for k, v in s.items() if k not in times} for s in partido_stats(events)]
        records.append(
            {
                "partido": sp.id,
                "seed": sp.seed,
                "players": names,
                "winners": result.winners,
                "ranking": tuple(tuple(g) for g in result.ranking),
                "manos": result.manos,
                "faults": [f.reason for f in result.faults],
                "replay": "",
                "stats": stats,
            }
        )
    return torneo, records, time.perf_counter() - start


def analyse(torneo: Torneo, records: list[dict[str, Any]]) -> Any:
    """The suspicions table of one torneo (pandas DataFrame)."""
    from arena.results import collusion, ranking, standings

    entrants = list(torneo.entrants)
    fit = ranking.places(standings.outcomes(records, [], entrants), len(entrants), resamples=0)
    return collusion.suspicions(records, entrants, fit.theta)


LEFT_OUT = ("partidos_a_sin_b", "partidos_b_sin_a", "porotos_a", "porotos_b", "p_b", "p_lugares", "p")
"""Of :data:`arena.results.collusion.COLUMNS`, what :func:`evidence` leaves out (to fit a line):
the sizes of the groups apart, the one-sided p-values before correction."""


def evidence(df: Any) -> str:
    """The evidence columns of some rows (the torneo, then the suspicions' columns less
    :data:`LEFT_OUT`), as a text table."""
    from arena.results.collusion import COLUMNS

    cols = ["torneo", *(c for c in COLUMNS if c not in LEFT_OUT)]
    return str(df[cols].to_string(index=False, float_format=lambda x: f"{x:.3g}"))


def schedule(args: argparse.Namespace, servants: list[str]) -> list[Torneo]:
    """The torneos: the colluding ones first (shapes cycled, then servants), then the honest."""
    shapes = list(FIELDS)
    out = []
    for kind, count in ((True, args.colluding), (False, args.honest)):
        for i in range(count):
            t = len(out)
            shape, servant = shapes[i % len(shapes)], servants[(i // len(shapes)) % len(servants)]
            out.append(Torneo(t + 1, shape, servant, kind, args.partidos, args.seed + t))
    return out


CHECK_SEED = 2003
"""Issue 50's case: 6 entrants at tables of 4, 750 partidos, the searching servant (its master gains
about 0.12 in places and in manos; a shifted null left it unflagged)."""


def check(workers: int) -> int:
    """Issue 50's case, colluding and honest (the same schedule): one line each, 0 when both hold."""
    torneos = [Torneo(n, "6x4", "escudero", n == 1, 750, CHECK_SEED) for n in (1, 2)]
    failed = 0
    with multiprocessing.Pool(workers) as pool:
        for torneo, records, _seconds in pool.imap(play, torneos):
            df = analyse(torneo, records)
            flags = [(a, b) for a, b in df.loc[df["sospecha"], ["a", "b"]].itertuples(index=False)]
            want = [(MASTER, torneo.servant)] if torneo.colluding else []
            kind = "colluding" if torneo.colluding else "honest"
            ok = flags == want
            failed += not ok
            shown = ", ".join(f"{b} for {a}" for a, b in flags) or "none"
            verdict = "" if ok else " (failed)"
            print(f"check: {kind} 6x4 torneo of {len(records)} partidos: flagged {shown}{verdict}")
    return 1 if failed else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--partidos", type=int, default=1600, help="partidos per torneo")
    ap.add_argument("--honest", type=int, default=20, help="honest torneos (F)")
    ap.add_argument("--colluding", type=int, default=8, help="colluding torneos (K)")
    ap.add_argument("--servants", default="escudero", help=f"comma-separated, of {', '.join(SERVANTS)}")
    ap.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--seed", type=int, default=2002, help="the first torneo's schedule seed")
    ap.add_argument("--save", type=Path, help="write each torneo's records here (torneo_<n>.json)")
    ap.add_argument("--check", action="store_true", help="only issue 50's case (the tests)")
    args = ap.parse_args()
    servants = [s.strip() for s in args.servants.split(",") if s.strip()]
    if not servants or any(s not in SERVANTS for s in servants):
        ap.error(f"--servants: of {', '.join(SERVANTS)}")
    import pandas as pd

    if args.check:
        sys.exit(check(args.workers))
    torneos = schedule(args, servants)
    print(
        f"{args.colluding} colluding + {args.honest} honest torneos of {args.partidos} partidos;"
        f" servants {', '.join(servants)}; workers={args.workers}; seed={args.seed}",
        flush=True,
    )
    start = time.perf_counter()
    flagged_pairs, colluding_rows = [], []
    caught = dict.fromkeys(servants, 0)
    played = dict.fromkeys(servants, 0)
    false_honest = false_colluding = 0
    with multiprocessing.Pool(args.workers) as pool:
        for torneo, records, seconds in pool.imap_unordered(play, torneos, chunksize=1):
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                saved = {"torneo": asdict(torneo), "entrants": torneo.entrants, "records": records}
                (args.save / f"torneo_{torneo.number}.json").write_text(json.dumps(saved))
            df = analyse(torneo, records).assign(torneo=torneo.number)
            flags = df[df["sospecha"]]
            pair = {(MASTER, torneo.servant), (torneo.servant, MASTER)} if torneo.colluding else set()
            ours = [(a, b) in pair for a, b in zip(flags["a"], flags["b"], strict=True)]
            if torneo.colluding:
                played[torneo.servant] += 1
                caught[torneo.servant] += bool(
                    ((df["a"] == MASTER) & (df["b"] == torneo.servant) & df["sospecha"]).any()
                )
                false_colluding += len(flags) - sum(ours)
                colluding_rows.append(df[(df["a"] == MASTER) & (df["b"] == torneo.servant)])
            else:
                false_honest += bool(len(flags))
            shown = ", ".join(
                f"{a} <- {b} (p={p:.2g})" for a, b, p in flags[["a", "b", "p_corregida"]].values
            )
            print(f"{torneo.label}: {len(records)} partidos in {seconds:.0f} s; flagged: {shown or 'none'}")
            sys.stdout.flush()
            if len(flags):
                flagged_pairs.append(flags)
    print(f"\nplayed and judged in {time.perf_counter() - start:.0f} s")
    if colluding_rows:
        print("\nthe colluding pairs (master a, servant b), flagged or not:")
        print(evidence(pd.concat(colluding_rows).sort_values("torneo")))
    if flagged_pairs:
        print("\nevery flagged pair (a helped by b):")
        print(evidence(pd.concat(flagged_pairs).sort_values("torneo")))
    print()
    for servant in servants:
        print(f"{servant}: flagged in {caught[servant]} of {played[servant]} colluding torneos")
    print(f"other pairs flagged in the colluding torneos: {false_colluding}")
    print(
        f"colluding pairs flagged: {sum(caught.values())} of {args.colluding};"
        f" honest torneos with a false flag: {false_honest} of {args.honest}"
    )


if __name__ == "__main__":
    main()
