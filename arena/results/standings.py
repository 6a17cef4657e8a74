"""Standings of a tournament as pandas tables, from its committed partidos.

Input: partido records (plain dicts, see :data:`RECORD_KEYS`) in schedule order.
Output: the tables of the results workbook — ``posiciones`` (standings),
``partidos``, ``enfrentamientos`` (head to head) and ``descalificaciones``.

Order of the standings: the strength of :mod:`arena.results.ranking` (a Plackett–Luce
model fitted to every partido's full ranking at once, forfeits included), with
each entrant's 95% place interval, the probability that it is stronger than the
next one, and group letters for places the partidos do not separate.
"""

from __future__ import annotations

import itertools
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from arena import games, inert
from arena.games.gamespec import GameSpec
from arena.i18n import _, n_
from arena.protocol import PROCESS_FAULTS
from arena.referee.stats import FIELDS, NOT_COUNTS, finishing_places
from arena.results import ranking
from arena.tournament.store import ACCUSE_FIELDS

RECORD_KEYS = ("partido", "seed", "players", "winners", "ranking", "manos", "faults", "replay", "stats")
"""A partido record: ``players`` are entrant names by seat; ``faults`` dicts with mano, seat,
reason, detail, incident; ``stats`` the per-seat dicts of :func:`arena.referee.stats.partido_stats`
(not needed when :func:`standings` is given a :class:`Tally`)."""

Z95 = 1.959963984540054


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n`` (0, 0 when n = 0)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def spread(values: np.ndarray | Sequence[float], per_ms: int = 1) -> tuple[float, float]:
    """The median and p95 of reply times, in ms (NaN, NaN without any): exactly ``statistics``'
    median and ``quantiles(n=20, method="inclusive")[-1]``. ``values`` in ms, or integers in
    1/``per_ms`` of a ms (the store's microseconds: 1000; interpolated exactly, then divided)."""
    v = np.sort(np.asarray(values))
    n = len(v)
    if n == 0:
        return math.nan, math.nan
    if n == 1:
        return v[0].item() / per_ms, v[0].item() / per_ms
    mid = n // 2
    median = v[mid].item() if n % 2 else (v[mid - 1].item() + v[mid].item()) / 2
    j, delta = divmod(19 * (n - 1), 20)
    p95 = (v[j].item() * (20 - delta) + v[j + 1].item() * delta) / 20
    return median / per_ms, p95 / per_ms


@dataclass
class Tally:
    """Each entrant's counted figures, by entrant index: what :func:`standings` shows beside the
    fit. Counted from the records' ``stats`` (:func:`tally`) or, for a big torneo, summed by its
    store (:func:`arena.results.report.tally`)."""

    seats: list[int]
    """Partidos played."""
    won: list[int]
    place: list[float]
    """The sum of its finishing places."""
    counts: dict[str, list[int]]
    """The sum of each count: the house's (:data:`arena.referee.stats.FIELDS`) and the game's."""
    ms: list[tuple[float, float]]
    """Median and p95 of its reply times (wall clock), in ms."""
    cpu_ms: list[tuple[float, float]]
    """Median and p95 of its own CPU time per reply, in ms."""


def tally(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> Tally:
    """Each entrant's figures, counted from the records' ``stats`` in one pass."""
    index = {name: i for i, name in enumerate(entrants)}
    n = len(entrants)
    out = Tally([0] * n, [0] * n, [0.0] * n, {f: [0] * n for f in FIELDS}, [], [])
    counts = out.counts
    ms: list[list[float]] = [[] for _i in range(n)]
    cpu: list[list[float]] = [[] for _i in range(n)]
    for rec in records:
        places = finishing_places(rec["ranking"])
        for seat, who in enumerate(rec["players"]):
            i, stats = index[who], rec["stats"][seat]
            out.seats[i] += 1
            out.won[i] += bool(stats["won"])
            out.place[i] += places.get(seat, len(rec["players"]))
            for f, value in stats.items():
                if f not in NOT_COUNTS and type(value) is int:
                    counts.setdefault(f, [0] * n)[i] += value
            ms[i] += stats["reply_ms"]
            cpu[i] += stats.get("reply_cpu_ms", [])
    out.ms = [spread(t) for t in ms]
    out.cpu_ms = [spread(t) for t in cpu]
    return out


def outcomes(
    records: Sequence[dict[str, Any]], forfeits: Sequence[dict[str, Any]], entrants: Sequence[str]
) -> list[ranking.Outcome]:
    """Every partido's ranking by entrant index, and every forfeit (the withdrawn last, the rest tied)."""
    index = {name: i for i, name in enumerate(entrants)}
    out = []
    for rec in records:
        players = rec["players"]
        groups = tuple(tuple(index[players[s]] for s in g) for g in rec["ranking"])
        out.append(ranking.Outcome(groups, rec["partido"]))
    for f in forfeits:
        gone = [index[n] for n in f["withdrawn"]]
        rest = tuple(index[n] for n in f["players"] if index[n] not in gone)
        out.append(ranking.Outcome(tuple(g for g in (rest, tuple(gone)) if g), f["partido"]))
    return out


def fault_columns(game: GameSpec) -> list[str]:
    """The standings' fault columns of ``game``: a disqualification (``dq_<reason>``) for each of its
    rule faults and each of a program's, then a penalty (``pen_<reason>``) for each it may penalize."""
    return [f"dq_{r}" for r in (*game.rule_faults, *PROCESS_FAULTS)] + [f"pen_{r}" for r in game.penalizable]


def _fault_counts(
    records: Sequence[dict[str, Any]], entrants: Sequence[str], game: GameSpec
) -> list[dict[str, int]]:
    """By entrant: its disqualifications (``dq_<reason>``) and penalties (``pen_<reason>``)."""
    index = {name: i for i, name in enumerate(entrants)}
    keys = fault_columns(game)
    out = [dict.fromkeys(keys, 0) for _e in entrants]
    for rec in records:
        for f in rec["faults"]:
            key = f"{'pen' if f.get('penalized') else 'dq'}_{f['reason']}"
            counts = out[index[rec["players"][f["seat"]]]]
            if key in counts:
                counts[key] += 1
    return out


def standings(
    records: Sequence[dict[str, Any]],
    entrants: Sequence[str],
    forfeits: Sequence[dict[str, Any]] = (),
    resamples: int = ranking.RESAMPLES,
    counted: Tally | None = None,
    game: GameSpec | None = None,
) -> pd.DataFrame:
    """One row per entrant (every entrant, even with no partido yet), best first.

    ``forfeits``: partidos not played because entrants were withdrawn (``--max-faults``):
    dicts with ``partido``, ``players`` (names by seat) and ``withdrawn`` (names). Each counts
    as a last place of the withdrawn, in the order as in % ganados and the average place.
    ``counted``: the entrants' figures when already counted (:class:`Tally`); else they are
    counted from the records' ``stats``. ``game``: whose figures are shown after the house's
    (default: the default game).
    """
    game = game or games.default()
    fit = ranking.places(outcomes(records, forfeits, entrants), len(entrants), resamples)
    counted = counted if counted is not None else tally(records, entrants)
    faults = _fault_counts(records, entrants, game)
    forfeited: dict[str, list[dict[str, Any]]] = {name: [] for name in entrants}
    for f in forfeits:
        for who in f["withdrawn"]:
            forfeited[who].append(f)
    rows = []
    for i, name in enumerate(entrants):
        lost = forfeited[name]
        played, won, counts = counted.seats[i], counted.won[i], counted.counts
        total = played + len(lost)
        low, high = wilson(won, total)
        places = counted.place[i] + sum(float(len(f["players"])) for f in lost)
        manos = counts["manos"][i]
        for figure in game.figures:  # a count no partido made yet
            for key in (figure.count, figure.per):
                if key and key not in counts:
                    counts[key] = [0] * len(entrants)
        row: dict[str, Any] = {
            "entrant": name,
            "grupo": fit.group[i],
            "puestos_95": _span(fit.low[i], fit.high[i]),
            "partidos": played,
            "retiradas": len(lost),
            "ganados": won,
            "pct_ganados": won / total if total else math.nan,
            "ic_bajo": low if total else math.nan,
            "ic_alto": high if total else math.nan,
            "lugar_medio": places / total if total else math.nan,
            "manos": manos,
            "manos_perdidas": counts["manos_perdidas"][i],
            **{f.key: f.value(counts, i) for f in game.figures},
            **faults[i],
        }
        row["ms_mediana"], row["ms_p95"] = counted.ms[i]
        row["cpu_ms_mediana"], row["cpu_ms_p95"] = counted.cpu_ms[i]
        row["fuerza"] = fit.theta[i]
        row["p_delante"] = fit.ahead[i]
        row["faltan"] = fit.needed[i] if fit.needed[i] is not None else math.nan
        rows.append(row)
    df = pd.DataFrame(rows).reindex(fit.order).reset_index(drop=True)
    df.insert(0, "puesto", range(1, len(df) + 1))
    df.attrs["resamples"] = fit.resamples
    df.attrs["game"] = game.name
    df.attrs["pairs"] = _pairs_attr(fit)
    return df


def with_accusations(
    posiciones: pd.DataFrame, totals: dict[str, dict[str, int]], after: str
) -> pd.DataFrame:
    """The standings with each entrant's renuncios and accusations (the ``accuse`` policy) after
    column ``after``: ``totals`` by entrant name (missing: all zero)."""
    out = posiciones.copy()
    at = list(out.columns).index(after) + 1
    for i, field in enumerate(ACCUSE_FIELDS):
        out.insert(at + i, field, [totals.get(name, {}).get(field, 0) for name in out["entrant"]])
    return out


def _span(low: int, high: int) -> str:
    """A place interval as shown: ``2–4``, or ``3`` when it is one place ("" without partidos)."""
    if not low:
        return ""
    return str(low) if low == high else f"{low}–{high}"


DETAILED_UP_TO = 12
"""Fields up to this size get a line per entrant in the verdict; bigger ones, the summary only."""


PAIR_KEYS = ("stronger", "low", "high", "needed", "apart", "partidos")
"""The arrays of :class:`arena.results.ranking.Pairs`, as the standings frame keeps them (its attrs)."""


def pairs_of(posiciones: pd.DataFrame) -> ranking.Pairs | None:
    """The pairwise verdicts of the standings ``posiciones``, by row (None without resamples)."""
    found = posiciones.attrs.get("pairs")
    if not found:
        return None
    stronger, low, high, needed, apart = (np.array(found[k], dtype=float) for k in PAIR_KEYS[:5])
    # standings kept by an older version have no partidos of each pair: None
    each = np.array(found["partidos"], dtype=float) if "partidos" in found else None
    return ranking.Pairs(stronger, low, high, needed, apart, each)


def _pairs_attr(fit: ranking.Places) -> dict[str, list[list[float]]] | None:
    """``fit``'s pairwise verdicts reordered as the standings' rows, as plain lists (the frame's attrs)."""
    if fit.pairs is None:
        return None
    at = np.array(fit.order)
    return {
        key: getattr(fit.pairs, key)[np.ix_(at, at)].tolist()
        for key in PAIR_KEYS
        if getattr(fit.pairs, key) is not None
    }


def pairwise_table(posiciones: pd.DataFrame) -> pd.DataFrame:
    """Row A, column B: the share of the bootstrap's resamples in which A is stronger than B, for
    the entrants with partidos in standings order (empty without resamples)."""
    pairs = pairs_of(posiciones)
    names = list(posiciones.loc[posiciones["grupo"] != "", "entrant"])
    n = len(names)
    values = pairs.stronger[:n, :n] if pairs is not None else np.full((n, n), np.nan)
    return pd.DataFrame(values, index=pd.Index(names, name="entrant"), columns=names)


def _place(k: int) -> str:
    """Place ``k`` as the verdict names it (``3.º``)."""
    return _("#{place}").format(place=k)


def _ranges(places: Sequence[int]) -> str:
    """Places as runs: ``1.º–3.º``, ``2.º, 4.º and 6.º``."""
    runs: list[list[int]] = []
    for k in sorted(places):
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    parts = [_place(r[0]) if len(r) == 1 else f"{_place(r[0])}–{_place(r[-1])}" for r in runs]
    if len(parts) == 1:
        return parts[0]
    return _("{some} and {last}").format(some=", ".join(parts[:-1]), last=parts[-1])


def separation_lines(df: pd.DataFrame) -> list[str]:
    """What the partidos establish, in words (in the language in use): who is ahead of whom, which
    places are not separated from each other, and what more partidos would settle."""
    rows = df[df["grupo"] != ""]
    pairs = pairs_of(df)
    if rows.empty or pairs is None:
        return []
    per_player = round(statistics.median(rows["partidos"] + rows["retiradas"]))
    n = len(rows)
    names = [inert.printable(str(x)) for x in rows["entrant"]]
    apart = [[i != j and pairs.separated(i, j) for j in range(n)] for i in range(n)]
    total = n * (n - 1) // 2
    found = sum(apart[i][j] for i in range(n) for j in range(i + 1, n))
    lines = [
        n_(
            "The partidos separate {found} of {total} pairs of players with {per_player} partido each.",
            "The partidos separate {found} of {total} pairs of players with {per_player} partidos each.",
            per_player,
        ).format(found=found, total=total, per_player=per_player)
    ]
    if found == total:
        return lines
    lines += _too_few(rows)
    if n <= DETAILED_UP_TO:
        lines += _who_is_where(rows, names, apart)
    lines += _what_more_would_settle(pairs, apart, per_player, n)
    return lines


def _too_few(rows: pd.DataFrame) -> list[str]:
    """One line when some entrant has fewer partidos than any verdict needs
    (:data:`ranking.SEPARATE_FROM`): whom it concerns, their partidos and how many are needed."""
    played = [int(p + r) for p, r in zip(rows["partidos"], rows["retiradas"], strict=True)]
    few = [k for k, p in enumerate(played) if p < ranking.SEPARATE_FROM]
    if not few:
        return []
    counts = sorted({played[k] for k in few})
    shown = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    if len(few) == len(played):
        return [
            _("Too few partidos to separate: {played}; at least {least} per player are needed.").format(
                played=shown, least=ranking.SEPARATE_FROM
            )
        ]
    return [
        _("Too few partidos to separate {places}: {played}; at least {least} per player are needed.").format(
            places=_ranges([k + 1 for k in few]), played=shown, least=ranking.SEPARATE_FROM
        )
    ]


def _who_is_where(rows: pd.DataFrame, names: list[str], apart: list[list[bool]]) -> list[str]:
    """Per entrant, whom it is established ahead of or behind; per letter, who is not separated."""
    n = len(names)
    lines = []
    for i in range(n):
        behind = [j + 1 for j in range(i) if apart[i][j]]
        ahead = [j + 1 for j in range(i + 1, n) if apart[i][j]]
        who = {"place": _place(i + 1), "name": names[i]}
        if len(behind) + len(ahead) == n - 1:
            if not behind:
                lines.append(_("{place} {name} is ahead of everyone.").format(**who))
            elif not ahead:
                lines.append(_("{place} {name} is behind everyone.").format(**who))
            else:
                lines.append(_("{place} {name} is separated from everyone.").format(**who))
        elif behind:
            lines.append(_("{place} {name} is behind {places}.").format(**who, places=_ranges(behind)))
    for letter in sorted({c for g in rows["grupo"] for c in _letters_of(g)}, key=_letter_order):
        members = [k + 1 for k, g in enumerate(rows["grupo"]) if letter in _letters_of(g)]
        if len(members) > 1:
            lines.append(_("{places} are not separated from each other.").format(places=_ranges(members)))
    return lines


def _letters_of(shown: str) -> list[str]:
    """The letters of one entrant's ``grupo`` (``ab``, ``a[53]``)."""
    return re.findall(r"\[\d+\]|[^\[]", shown)


def _letter_order(letter: str) -> int:
    """A letter's rank in :data:`ranking.ALPHABET` order."""
    return ranking.ALPHABET.index(letter) if len(letter) == 1 else int(letter[1:-1]) - 1


def _what_more_would_settle(
    pairs: ranking.Pairs, apart: list[list[bool]], per_player: int, n: int
) -> list[str]:
    """For the neighbours not separated: about how many more partidos would separate the closest
    to it, and which look equal (never an endless estimate for them)."""
    # a pair with too few partidos is open without an estimate, and never looks equal (_too_few)
    open_ = [
        (pairs.needed[i, i + 1], i) for i in range(n - 1) if not apart[i][i + 1] and not pairs.few(i, i + 1)
    ]
    chase = sorted((more, i) for more, i in open_ if not math.isnan(more))
    equal = [i for more, i in open_ if math.isnan(more)]
    lines = []
    for more, i in chase[:3]:
        pair = {"upper": _place(i + 1), "lower": _place(i + 2), "more": int(more)}
        lines.append(
            n_(
                "About {more} more partido per player would separate {upper} and {lower}, "
                "if their difference is what it seems.",
                "About {more} more partidos per player would separate {upper} and {lower}, "
                "if their difference is what it seems.",
                int(more),
            ).format(**pair)
        )
    shown_equal = [i for i in equal if pairs.equal(i, i + 1)]
    for i in shown_equal:
        pair = {"upper": _place(i + 1), "lower": _place(i + 2)}
        band = ranking.EQUAL_BAND
        lines.append(
            _(
                "{upper} and {lower} are equal: their strengths differ by less than {band} (one finishes "
                "ahead of the other in at most {share} of the partidos they play together)."
            ).format(**pair, band=band, share=f"{1 / (1 + math.exp(-band)):.0%}")
        )
    runs: list[list[int]] = []
    # neighbours with no difference to show; not a pair one of which is stronger in 97.5% of the
    # resamples (a near-perfect record skews them: its difference shows, though not beyond Holm's)
    shows = [i for i in equal if not 1 - ranking.SEPARATED < pairs.stronger[i, i + 1] < ranking.SEPARATED]
    for i in (i for i in equal if i not in shown_equal and i not in shows):
        if runs and runs[-1][-1] == i:
            runs[-1].append(i + 1)
        else:
            runs.append([i, i + 1])
    for run in runs:
        lines.append(
            n_(
                "{places} look equal, each to the next (not yet shown equal): no difference between "
                "neighbours shows in {per_player} partido per player.",
                "{places} look equal, each to the next (not yet shown equal): no difference between "
                "neighbours shows in {per_player} partidos per player.",
                per_player,
            ).format(places=f"{_place(run[0] + 1)}–{_place(run[-1] + 1)}", per_player=per_player)
        )
    return lines


def partidos_table(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """One row per committed partido."""
    names = [rec["players"] for rec in records]
    shown = _Shown()
    columns: dict[str, list[Any]] = {
        "partido": [rec["partido"] for rec in records],
        "semilla": [rec["seed"] for rec in records],
        "jugadores": [", ".join(p) for p in names],
        "posiciones": [
            shown.ranking(rec["ranking"]).format(*p) for p, rec in zip(names, records, strict=True)
        ],
        "ganadores": [
            shown.winners(rec["winners"]).format(*p) for p, rec in zip(names, records, strict=True)
        ],
        "manos": [rec["manos"] for rec in records],
        "faltas": [
            "; ".join(f"{p[f['seat']]}: {f['reason']}" for f in rec["faults"]) if rec["faults"] else ""
            for p, rec in zip(names, records, strict=True)
        ],
        "replay": [rec["replay"] for rec in records],
    }
    return pd.DataFrame(columns, columns=[*PARTIDO_COLUMNS])


class _Shown:
    """How a ranking (``ana, beto | caro``) and the winners (``ana, beto``) are shown, as templates
    of the seats' names made once per distinct ranking (a few dozen in 10⁵ partidos)."""

    def __init__(self) -> None:
        self._rankings: dict[Any, str] = {}
        self._winners: dict[Any, str] = {}

    def ranking(self, groups: Sequence[Sequence[int]]) -> str:
        key = groups if isinstance(groups, tuple) else tuple(map(tuple, groups))
        template = self._rankings.get(key)
        if template is None:
            template = self._rankings[key] = " | ".join(", ".join(f"{{{s}}}" for s in g) for g in groups)
        return template

    def winners(self, seats: Sequence[int]) -> str:
        key = seats if isinstance(seats, tuple) else tuple(seats)
        template = self._winners.get(key)
        if template is None:
            template = self._winners[key] = ", ".join(f"{{{s}}}" for s in seats)
        return template


PARTIDO_COLUMNS = ("partido", "semilla", "jugadores", "posiciones", "ganadores", "manos", "faltas", "replay")


def head_to_head(records: Sequence[dict[str, Any]], entrants: Sequence[str]) -> pd.DataFrame:
    """Row A, column B: the share of the partidos A and B played together in which A finished ahead."""
    n = len(entrants)
    index = {name: i for i, name in enumerate(entrants)}
    tables: dict[int, tuple[list[list[int]], list[list[int]]]] = {}  # by size: entrants, group by seat
    for rec in records:
        group = [0] * len(rec["players"])
        for k, seats in enumerate(rec["ranking"]):
            for s in seats:
                group[s] = k
        who, place = tables.setdefault(len(group), ([], []))
        who.append([index[p] for p in rec["players"]])
        place.append(group)
    ahead = np.zeros(n * n)
    shared = np.zeros(n * n)
    for seated, groups in tables.values():
        e, g = np.array(seated, dtype=np.int64), np.array(groups)
        for s, t in itertools.permutations(range(e.shape[1]), 2):
            pair = e[:, s] * n + e[:, t]
            shared += np.bincount(pair, minlength=n * n)
            ahead += np.bincount(pair, weights=g[:, s] < g[:, t], minlength=n * n)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(shared > 0, ahead / shared, np.nan).reshape(n, n)
    return pd.DataFrame(share, index=pd.Index(list(entrants), name="entrant"), columns=list(entrants))


def faults_table(records: Sequence[dict[str, Any]]) -> pd.DataFrame:
    """Every fault: partido, mano, entrant, reason, whether it was a penalty (``--renuncio
    penalize``: the player went on) or a disqualification, detail, incident file."""
    rows = [
        {
            "partido": rec["partido"],
            "mano": f["mano"],
            "entrant": rec["players"][f["seat"]],
            "motivo": f["reason"],
            "penalizado": bool(f.get("penalized")),
            "detalle": f["detail"],
            "incidente": f.get("incident") or "",
        }
        for rec in records
        for f in rec["faults"]
    ]
    columns = ["partido", "mano", "entrant", "motivo", "penalizado", "detalle", "incidente"]
    return pd.DataFrame(rows, columns=columns)
