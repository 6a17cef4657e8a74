"""``--until-separated``: after the balanced schedule, more partidos where the order is not established.

After every batch (the schedule first), the standings' bootstrap gives every pair of
entrants a verdict (:mod:`arena.results.ranking`): separated (one is stronger in at
least 97.5% of the resamples), equal (the 95% interval of their difference lies within
±``ranking.EQUAL_BAND``), or open. The next batch is for the open pairs of neighbouring places that more
partidos would separate soonest (then any other open pair) (the fewest partidos needed, if their difference is
what it seems; pairs that look equal but are not yet shown equal come last): their
entrants, pair by pair until there is a table of them — topped up with the nearest
entrants in the standings — each given about a quarter of the partidos it has played
so far (at least two). Neighbouring places come before every other pair: the budget
``--until-separated`` chooses is sized for them. It ends when no pair is open or ``budget`` more partidos were
played: a pair that looks equal stops being chased once it is shown equal.

Everything a batch holds follows from the committed results and the torneo's key
(tables and seats from a stream derived from the key and the batch number, deals
numbered after the schedule's), and a batch is decided only when every earlier
partido is settled: the same torneo gives the same extra partidos with any number
of workers and across any kill and ``--resume``.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from arena.i18n import _
from arena.results import ranking, report, standings
from arena.seeds import Seed, derive, is_key
from arena.tournament.schedule import (
    ScheduledPartido,
    balanced_tables,
    deal_seed,
    duplicate_orders,
    seat_balanced,
)
from arena.tournament.store import Store

PREFIX = "s"
"""Ids of the extra partidos: ``s0001``, ``s0002``, … (the schedule's are ``p…``)."""

SHARE = 0.25
"""Each batch gives the entrants it is for about this share of the partidos they have played."""


@dataclass(frozen=True)
class Gap:
    """An open pair of places (1-based, ``upper`` the better) and how sure their order is."""

    upper: int
    lower: int
    probability: float

    def label(self) -> str:
        """As the progress line shows it, in the language in use: ``separating places 3 and 4: 82%``."""
        return _("separating places {upper} and {lower}: {probability}").format(
            upper=self.upper, lower=self.lower, probability=f"{self.probability:.0%}"
        )


def gaps(posiciones: pd.DataFrame) -> list[Gap]:
    """Every open pair of places (neither separated nor shown equal): neighbouring places first,
    each kind the one that more partidos would separate soonest first. A pair with too few
    partidos for any verdict (``ranking.SEPARATE_FROM``) is open, counted as needing the partidos
    that would reach it."""
    pairs = standings.pairs_of(posiciones)
    if pairs is None:
        return []
    n = int((posiciones["grupo"] != "").sum())
    found = []
    for i, j in itertools.combinations(range(n), 2):
        if pairs.separated(i, j) or pairs.equal(i, j):
            continue
        more = float(pairs.needed[i, j])
        width = float(pairs.high[i, j] - pairs.low[i, j])
        if pairs.few(i, j):  # no verdict yet: the partidos that would allow one come first
            assert pairs.partidos is not None
            more, width = float(ranking.SEPARATE_FROM - pairs.partidos[i, j]), 0.0
        p = float(pairs.stronger[i, j])
        # neighbours first (the standings' order is made of them; a far pair often only looks
        # open while a neighbour between them is), then the soonest separated
        key = (j - i > 1, math.isnan(more), more if not math.isnan(more) else -width, j - i, i)
        found.append((key, Gap(i + 1, j + 1, max(p, 1 - p))))
    return [gap for _key, gap in sorted(found, key=lambda f: f[0])]


def weakest(posiciones: pd.DataFrame) -> Gap | None:
    """The open pair the next batch chases first (None: every pair is separated or equal)."""
    found = gaps(posiciones)
    return found[0] if found else None


def members(posiciones: pd.DataFrame, entrants: Sequence[str], table_size: int) -> list[int]:
    """The entrant indices the next batch is for (at least a table of them), in standings order:
    the open pairs' entrants, soonest separated first, until there is a table of them."""
    index = {name: i for i, name in enumerate(entrants)}
    rows = posiciones[posiciones["grupo"] != ""].reset_index(drop=True)
    order = [index[name] for name in rows["entrant"]]
    want = min(table_size, len(order))
    chosen: set[int] = set()
    for gap in gaps(posiciones):
        if len(chosen) >= want:
            break
        chosen.update((order[gap.upper - 1], order[gap.lower - 1]))
    if not chosen:
        return []
    picked = [e for e in order if e in chosen]
    centre = sum(order.index(e) for e in picked) / len(picked)
    for e in sorted(order, key=lambda e: (abs(order.index(e) - centre), order.index(e))):
        if len(picked) >= want:
            break
        if e not in chosen:
            picked.append(e)
            chosen.add(e)
    return [e for e in order if e in chosen]


def batch(
    who: Sequence[int],
    played: int,
    *,
    table_size: int,
    seed: Seed,
    number: int,
    first_pos: int,
    first_deal: int,
    first_id: int,
    duplicate: bool,
    budget: int,
) -> list[ScheduledPartido]:
    """Batch ``number`` (1, 2, …) of extra partidos among ``who``, at most ``budget`` of them.

    ``played``: partidos per entrant so far (the batch gives each about SHARE of it).
    """
    k = table_size
    per_entrant = max(2, math.ceil(SHARE * played))
    group = (6 if k == 3 else k) if duplicate else 1
    tables_wanted = math.ceil(len(who) * per_entrant / k)
    tables_allowed = budget // group
    count = min(tables_wanted, tables_allowed)
    if count <= 0:
        return []
    label = f"tute-arena/torneo/separate/{number}"  # not shown
    rng = random.Random(derive(str(seed), label) if is_key(seed) else f"{label}/{seed}")
    local: list[tuple[int, ...]] = []
    while len(local) < count:  # passes over the subsets of ``who`` when a batch needs more than one
        local += balanced_tables(len(who), k, min(count - len(local), math.comb(len(who), k)), rng)
    tables = [tuple(who[i] for i in t) for t in local]
    if duplicate:
        orders = duplicate_orders([(0, t) for t in tables], k, rng)
    else:
        seats = seat_balanced(local, len(who), k)
        orders = [[tuple(who[i] for i in s)] for s in seats]
    out: list[ScheduledPartido] = []
    for d, group_orders in enumerate(orders):
        deal = first_deal + d
        s = deal_seed(seed, deal)
        for seats_ in group_orders:
            n = first_id + len(out)
            out.append(ScheduledPartido(first_pos + len(out), f"{PREFIX}{n:04d}", s, seats_, deal, -number))
    return out


def next_batch(store: Store) -> tuple[list[ScheduledPartido], str] | None:
    """The next batch of extra partidos for the torneo in ``store`` and its progress label, or None
    when every consecutive place is separated or the budget is spent (the coordinator's ``more``)."""
    import logging

    log = logging.getLogger("arena.torneo")
    config = store.config()
    names = [e.name for e in store.entrants()]
    seed = config["seed"] if config.get("seed") is not None else store.deal_key()
    assert seed is not None
    schedule = store.scheduled()
    extra = [p for p in schedule if p.round < 0]
    limit = config.get("budget")
    budget = (limit if limit is not None else len(schedule) - len(extra)) - len(extra)
    counted = report.tally(store)  # a big torneo's figures summed by the store, not record by record
    recs = report.records(store, figures=counted is None)
    posiciones = standings.standings(recs, names, report.forfeits(store), counted=counted)
    gap = weakest(posiciones)
    if gap is None:
        log.info("%s", _("every pair of places separated at 95% or shown equal"))
        return None
    if budget <= 0:
        log.info("%s", _("budget of partidos spent; {gap}").format(gap=gap.label()))
        return None
    who = members(posiciones, names, config["table_size"])
    rows = posiciones[posiciones["entrant"].isin([names[e] for e in who])]
    found = batch(
        who,
        int((rows["partidos"] + rows["retiradas"]).median()),
        table_size=config["table_size"],
        seed=seed,
        number=1 + max((-p.round for p in extra), default=0),
        first_pos=len(schedule),
        first_deal=1 + max(p.deal for p in schedule),
        first_id=1 + len(extra),
        duplicate=bool(config.get("duplicate")),
        budget=budget,
    )
    if not found:
        return None
    log.info(
        "%s", _("{gap}: among {players}").format(gap=gap.label(), players=", ".join(names[e] for e in who))
    )
    return found, gap.label()
