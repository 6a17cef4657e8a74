"""The peek audit of a torneo (``arena audit DIR``): does any entrant choose as if it saw hidden cards?

Each committed partido's replay goes through its game's peek test (:attr:`GameSpec.audit`), which
gives every audited decision an *excess*: how much better it was on the true deal than on the deals
its player could be facing. A player that sees only what it may has an expected excess of 0, whatever
its strength or luck; one that reads hidden cards, through any channel (a kernel counter, its reply
times, a partner process), has a positive one. Per entrant, the mean excess per decision is tested
against 0 with the partido as the unit (a partido's decisions share a deal: a cluster-robust standard
error), one-sided — over all its decisions, and over its *late* ones alone (the second half of each
mano: a channel that passes a hand a few cards at a time, as reply timing does, gives its reader the
hand only then, and the whole mano's mean dilutes it); the smaller p-value doubled (Bonferroni over
the two) is the entrant's. Holm's correction over the entrants keeps the chance of any false flag in
an honest field at most :data:`ALPHA`. An entrant is flagged when its corrected p-value is below
:data:`ALPHA` *and* the mean excess of the test that gave it is at least :data:`MIN_EXCESS` (the
game's draws of the hidden cards are not its players' exact beliefs: a small bias is not a peek).

Each partido's decisions are kept in ``DIR/audit/<partido>.json`` as they are found: the audit runs
in parallel and, interrupted, goes on where it stopped.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import games
from arena.referee.replay import read_replay
from arena.results.collusion import holm

AUDIT_DIR = "audit"
Partidos = Sequence[tuple[str, str, list[str]]]
"""Committed partidos as the audit reads them: id, replay (relative to the torneo's folder), entrants."""
ALPHA = 0.01
"""The chance of any false flag in an honest field (family-wise, over the entrants)."""
MIN_EXCESS = 0.01
"""The smallest mean excess per decision that is flagged (the draws' bias for honest players is
below it: measured by ``benchmarks/audits/peek.py``)."""
MIN_PARTIDOS = 5
"""Fewer partidos than this: no verdict for the entrant (too few to estimate the spread)."""
TESTS = 2
"""All decisions, and the late ones alone: each p-value is doubled (Bonferroni)."""


@dataclass(frozen=True)
class Verdict:
    """One entrant's peek figures."""

    entrant: str
    partidos: int
    decisions: int
    excess: float
    """Mean excess per decision (NaN without decisions)."""
    z: float
    p: float
    """The smaller of the two tests' one-sided p-values, doubled."""
    p_corrected: float
    flagged: bool
    late_excess: float = math.nan
    """Mean excess per decision in the second half of the manos (NaN without such decisions)."""
    late_z: float = math.nan


Found = dict[str, list[list[float]]]
"""By partido: its audited decisions (``[seat, excess, late]``; ``[seat, excess]`` as an audit before
the late test kept them), or its timed replies (``[seat, ms, hand, stratum]``)."""


def replies_by_entrant(partidos: Partidos, timed: Found) -> dict[str, list[tuple[float, int, int]]]:
    """Every entrant's timed replies (ms, hand, stratum), from each partido's, by seat."""
    out: dict[str, list[tuple[float, int, int]]] = {}
    for pid, _replay, players in partidos:
        for seat, ms, hand, stratum in timed.get(pid, []):
            out.setdefault(players[int(seat)], []).append((float(ms), int(hand), int(stratum)))
    return out


def audit_partido(replay: Path, draws: int, every: int) -> tuple[list[list[float]], list[list[float]]]:
    """A partido's audited decisions as ``[seat, excess]`` pairs, and its timed replies as ``[seat, ms,
    hand, stratum]`` (the reply-time tell: :mod:`arena.results.tell`); empty when its game has none."""
    events = read_replay(replay)
    spec = games.spec(events[0].get("game") or games.default().name)
    found = (
        []
        if spec.audit is None
        else [[s, round(x, 6), int(late)] for s, x, late in spec.audit(events, draws, every)]
    )
    timed = [] if spec.tell is None else [[s, round(ms, 3), h, k] for s, ms, h, k in spec.tell(events)]
    return found, timed


def _one(job: tuple[str, str, int, int]) -> tuple[str, list[list[float]], list[list[float]], float]:
    partido, replay, draws, every = job
    start = time.process_time()
    found, timed = audit_partido(Path(replay), draws, every)
    return partido, found, timed, time.process_time() - start


def run(
    folder: Path,
    partidos: Sequence[tuple[str, str, list[str]]],
    draws: int,
    every: int,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Found, Found, float]:
    """Audit ``partidos`` (id, replay relative to ``folder``, entrants by seat), those not yet kept in
    ``folder/audit/``; returns every partido's decisions, its timed replies and the CPU seconds this
    run spent."""
    out_dir = folder / AUDIT_DIR
    out_dir.mkdir(mode=0o700, exist_ok=True)
    found: Found = {}
    timed: Found = {}
    todo = []
    for pid, replay, _players in partidos:
        kept = out_dir / f"{pid}.json"
        if kept.is_file():
            record = json.loads(kept.read_text(encoding="utf-8"))
            found[pid], timed[pid] = record["decisions"], record.get("replies", [])
        else:
            todo.append((pid, str(folder / replay), draws, every))
    cpu = 0.0
    done = len(found)
    if progress:
        progress(done, len(partidos))

    def keep(pid: str, decisions: list[list[float]], replies: list[list[float]], spent: float) -> None:
        nonlocal cpu, done
        record = {"draws": draws, "every": every, "decisions": decisions, "replies": replies}
        temp = out_dir / f".{pid}.json"
        temp.write_text(json.dumps(record), encoding="utf-8")
        os.replace(temp, out_dir / f"{pid}.json")  # whole or absent: a resumed audit trusts it
        found[pid], timed[pid] = decisions, replies
        cpu += spent
        done += 1
        if progress:
            progress(done, len(partidos))

    if workers <= 1:
        for job in todo:
            keep(*_one(job))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(_one, todo, chunksize=4):
                keep(*result)
    return found, timed, cpu


def verdicts(partidos: Partidos, found: Found, entrants: Sequence[str]) -> list[Verdict]:
    """Each entrant's test (see the module's docstring), in the order of ``entrants``."""
    every: dict[str, list[tuple[float, int]]] = {name: [] for name in entrants}
    late: dict[str, list[tuple[float, int]]] = {name: [] for name in entrants}
    for pid, _replay, players in partidos:
        by_seat: dict[int, list[float]] = {}
        late_by_seat: dict[int, list[float]] = {}
        for seat, excess, *when in found.get(pid, []):
            by_seat.setdefault(int(seat), []).append(excess)
            if when and when[0]:
                late_by_seat.setdefault(int(seat), []).append(excess)
        for seat, values in by_seat.items():
            every[players[seat]].append((sum(values), len(values)))
            late[players[seat]].append((sum(late_by_seat.get(seat, [])), len(late_by_seat.get(seat, []))))
    rows = []
    for name in entrants:
        n, mean, z, p = _cluster_test(every[name])
        _late_n, late_mean, late_z, late_p = _cluster_test([c for c in late[name] if c[1]])
        by_late = late_p < p  # the test that gives the entrant's p (NaN compares False: all decisions)
        best = late_p if by_late else p
        rows.append(
            (
                name,
                len(every[name]),
                n,
                mean,
                z,
                math.nan if math.isnan(best) else min(1.0, TESTS * best),
                late_mean if by_late else mean,
                late_mean,
                late_z,
            )
        )
    corrected = holm([r[5] for r in rows])  # a NaN (no verdict) is no test
    out = []
    for (name, p_count, n, mean, z, p, tested, late_mean, late_z), pc in zip(
        rows, corrected.tolist(), strict=True
    ):
        flagged = not math.isnan(pc) and pc < ALPHA and tested >= MIN_EXCESS
        out.append(Verdict(name, p_count, n, mean, z, p, pc, flagged, late_mean, late_z))
    return out


def _cluster_test(clusters: Sequence[tuple[float, int]]) -> tuple[int, float, float, float]:
    """Decisions, mean excess, z and one-sided p-value over ``clusters`` (each a partido's sum of
    excess and its count): the cluster-robust standard error; NaN without decisions, and z and p
    NaN with fewer than :data:`MIN_PARTIDOS` partidos."""
    n = sum(k for _s, k in clusters)
    if n == 0:
        return 0, math.nan, math.nan, math.nan
    mean = sum(s for s, _k in clusters) / n
    spread = sum((s - mean * k) ** 2 for s, k in clusters)
    p_count = len(clusters)
    se = math.sqrt(spread * p_count / max(p_count - 1, 1)) / n if p_count >= MIN_PARTIDOS else math.nan
    z = mean / se if se and se > 0 else math.nan
    p = 0.5 * math.erfc(z / math.sqrt(2)) if not math.isnan(z) else math.nan
    return n, mean, z, p


def partidos_of(store: Any) -> list[tuple[str, str, list[str]]]:
    """The committed partidos of a torneo's store: id, replay and entrants by seat."""
    return [(r.id, r.replay, list(r.players)) for r in store.results(figures=False)]


def players_cpu_seconds(store: Any) -> float:
    """The CPU time the torneo's players spent replying, in seconds (the store's reply times)."""
    import numpy as np

    from arena.tournament.store import TIMES_DTYPE, TIMES_PER_MS

    total = 0.0
    for _entrant, (_wall, cpu) in (store.reply_times() or {}).items():
        total += float(np.frombuffer(b"".join(cpu), dtype=TIMES_DTYPE).sum()) / TIMES_PER_MS / 1000
    return total


def kept(folder: Path, partidos: Partidos) -> tuple[Found, Found] | None:
    """The audit results kept in ``folder/audit/`` for ``partidos`` (decisions, timed replies); None
    when no audit was run there. Read only: a partido not audited yet is left out."""
    out_dir = folder / AUDIT_DIR
    if not out_dir.is_dir():
        return None
    found: Found = {}
    timed: Found = {}
    for pid, _replay, _players in partidos:
        path = out_dir / f"{pid}.json"
        if path.is_file():
            record = json.loads(path.read_text(encoding="utf-8"))
            found[pid], timed[pid] = record["decisions"], record.get("replies", [])
    return found, timed


def frame(verdicts_: Sequence[Verdict], tells_: Sequence[Any]) -> Any:
    """The workbook's Auditoría sheet (keys of :data:`arena.results.export.HEADERS`), by entrant."""
    import pandas as pd

    return pd.DataFrame(
        [
            {
                "entrant": v.entrant,
                "partidos": v.partidos,
                "decisiones": v.decisions,
                "exceso": v.excess,
                "z": v.z,
                "exceso_tardio": v.late_excess,
                "z_tardio": v.late_z,
                "p_corregida": v.p_corrected,
                "espia": bool(v.flagged),
                "bits_tiempo": t.bits,
                "p_tiempo": t.p_corrected,
                "delata": bool(t.flagged),
            }
            for v, t in zip(verdicts_, tells_, strict=True)
        ]
    )
