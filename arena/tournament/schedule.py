"""The schedule of a torneo: which entrants meet, in which seats, with which deal.

Pure and deterministic (no I/O, no clocks): the same entrants count, options and
``seed`` always give the same list. The ``seed`` is the torneo's secret key (hex
text, :mod:`arena.seeds`) or an explicit int (``--seed N``, predictable deals).
Entrants are indexes ``0..n-1``; a scheduled partido's ``seats`` lists the entrant
in each seat.

Guarantees (see ``docs/tournament.md``):

* round robin: every K-subset of the entrants plays ``rounds`` partidos (times
  the group size under ``duplicate``);
* seats: each entrant's number of partidos in each seat differs by at most one
  from one seat to another (exactly equal under ``duplicate``);
* ``duplicate``: one deal (one partido seed) per group, played under all 6 orders (K = 3) or the
  K cyclic rotations of one order (K >= 4), so every entrant holds every seat's
  cards once (twice for K = 3) per deal;
* ``partidos``: every entrant's number of partidos differs by at most one from
  any other's; pairs are spread greedily (as evenly as the greedy manages), or,
  in big draws, by cyclic developments, faster and more evenly
  (:func:`balanced_tables`).
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from arena.i18n import _
from arena.seeds import Seed, check_seed, derive, is_key

TABLE_SIZES = (3, 4, 5, 6)
"""The entrants a partido seats when the caller names no game's sizes (Tute Cabrero's: the tests')."""
MAX_PARTIDOS = 1_000_000
"""A larger schedule is refused: draw a subset with ``partidos`` instead."""
CYCLIC_WORK = 250_000
"""A balanced draw of more tables × entrants than this is built from cyclic developments."""


@dataclass(frozen=True)
class ScheduledPartido:
    """One partido of the schedule."""

    pos: int
    """0-based position: the order partidos are dispatched, and counted for max-faults."""
    id: str
    seed: Seed
    """The partido's seed: a key derived from the torneo's key, or an int under ``--seed N``."""
    seats: tuple[int, ...]
    """The entrant index in each seat."""
    deal: int
    """Index of the deal: the duplicate rotations of one deal share it (and the seed)."""
    round: int
    """The pass over all K-subsets this partido belongs to (the ``partidos`` remainder is the last)."""


def deal_seed(seed: Seed, deal: int) -> Seed:
    """The engine seed of deal number ``deal`` of a torneo seeded ``seed``.

    Under a key: HMAC-SHA256 of the deal number (a key of 64 hex digits), so that
    one partido's seed, shown in its replay, reveals neither the torneo's key nor
    any other deal. Under an explicit int: an int of 53 bits (JSON-safe), as
    predictable as the int itself.
    """
    if is_key(seed):
        return derive(str(seed), _deal_label(deal))
    digest = hashlib.sha256(f"tute-arena/torneo/{seed}/{deal}".encode()).digest()  # not shown
    return int.from_bytes(digest[:8], "big") >> 11


def _deal_label(deal: int) -> str:
    """What the torneo's key signs for the seed of deal number ``deal``."""
    return f"tute-arena/torneo/deal/{deal}"  # not shown


def _deal_seeds(seed: Seed, count: int) -> list[Seed]:
    """``deal_seed(seed, d)`` for each deal ``d < count``; under a key, one HMAC call each (as ``derive``)."""
    if not is_key(seed):
        return [deal_seed(seed, d) for d in range(count)]
    key = bytes.fromhex(str(seed))
    return [hmac.digest(key, _deal_label(d).encode(), "sha256").hex() for d in range(count)]


def schedule_rng(seed: Seed) -> random.Random:
    """The stream that draws tables and seats (not deals); under a key, from a key derived from it."""
    if is_key(seed):
        return random.Random(derive(str(seed), "tute-arena/torneo/schedule"))
    return random.Random(f"tute-arena/schedule/{seed}")  # not shown


def group_size(table_size: int, duplicate: bool) -> int:
    """Partidos per deal: 1, or every order (K = 3) / every rotation (K >= 4) under duplicate."""
    if not duplicate:
        return 1
    return math.factorial(3) if table_size == 3 else table_size


def make_schedule(
    entrants: int,
    table_size: int = 4,
    rounds: int = 1,
    seed: Seed = 2002,
    duplicate: bool = False,
    partidos: int | None = None,
    sizes: Sequence[int] = TABLE_SIZES,
) -> list[ScheduledPartido]:
    """The ordered schedule; ValueError (one clear line) for impossible options.

    ``seed``: the torneo's key, or an explicit int (the default suits tests only).
    ``sizes``: the entrants a partido of the game seats (its spec's ``entrants_per_partido``:
    in a game of teams each "seat" is an entrant's side, :mod:`arena.tournament.sides`).
    """
    check_seed(seed)
    n, k = entrants, table_size
    if k not in sizes:
        raise ValueError(
            _("a table seats {min} to {max} players, not {k}").format(min=min(sizes), max=max(sizes), k=k)
        )
    if n < k:
        raise ValueError(_("tables of {k} need at least {k} players, got {n}").format(k=k, n=n))
    if rounds < 1:
        raise ValueError(_("rounds must be at least 1, got {rounds}").format(rounds=rounds))
    if partidos is not None and partidos < 1:
        raise ValueError(_("partidos must be at least 1, got {partidos}").format(partidos=partidos))
    if partidos is not None and rounds != 1:
        raise ValueError(_("give either rounds or partidos, not both"))
    g = group_size(k, duplicate)
    subsets = math.comb(n, k)
    rng = schedule_rng(seed)
    if partidos is None:
        passes, extra = rounds, 0
    else:
        passes, extra = divmod(-(-partidos // g), subsets)
    total = (passes * subsets + extra) * g
    if total > MAX_PARTIDOS:
        raise ValueError(_("{total} partidos is too many; draw fewer with partidos").format(total=total))
    tables: list[tuple[int, tuple[int, ...]]] = []  # (round, members)
    for r in range(passes):
        every = list(itertools.combinations(range(n), k))
        rng.shuffle(every)
        tables += [(r, s) for s in every]
    drawn, seated = _draw(n, k, extra, rng)
    fixed = range(len(tables), len(tables) + seated)
    tables += [(passes, s) for s in drawn]
    orders = duplicate_orders(tables, k, rng) if duplicate else _seat(tables, n, k, passes, rng, fixed)
    width = max(4, len(str(total)))
    out: list[ScheduledPartido] = []
    seeds = _deal_seeds(seed, len(tables))
    for deal, ((r, _members), group, s) in enumerate(zip(tables, orders, seeds, strict=True)):
        for seats in group:
            pos = len(out)
            out.append(ScheduledPartido(pos, f"p{pos + 1:0{width}d}", s, seats, deal, r))
    return out


def balanced_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``count`` K-subsets (sorted) with every entrant in ``count*k//n`` or one more; pairs spread.

    Up to :data:`CYCLIC_WORK` (``count × n``) by :func:`_greedy_tables`; above it by
    :class:`_Cyclic` developments, whose pairs meet within one of each other
    (rarely two), then a greedy rest of fewer than ``n`` tables. Over half of all
    subsets, the complement of a balanced draw is taken instead.
    """
    return [tuple(sorted(t)) for t in _draw(n, k, count, rng)[0]]


def _draw(n: int, k: int, count: int, rng: random.Random) -> tuple[list[tuple[int, ...]], int]:
    """The tables of :func:`balanced_tables`, and how many of them (the first) are in a balanced seat order.

    Those first tables seat every entrant exactly as often in each seat; the rest
    are sorted subsets, to seat.
    """
    every = math.comb(n, k)
    if count > every // 2:  # the complement of a balanced draw is balanced too
        left_out = set(balanced_tables(n, k, every - count, rng))
        kept = [t for t in itertools.combinations(range(n), k) if t not in left_out]
        rng.shuffle(kept)
        return kept, 0
    if count * n > CYCLIC_WORK:
        return _Cyclic(n, k).draw(count, rng)
    return _greedy_tables(n, k, count, rng), 0


def _greedy_tables(n: int, k: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``count`` K-subsets, greedily: each table takes the entrants with the fewest partidos so far.

    That keeps the counts within one of each other; the table is completed with
    those who met its members least often and, where possible, avoiding a subset
    already drawn; then :func:`_spread_pairs` evens out the pairs.
    """
    counts = [0] * n
    met = [[0] * n for _i in range(n)]
    used: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for _i in range(count):
        tie = [rng.random() for _i in range(n)]
        order = sorted(range(n), key=lambda e: (counts[e], tie[e]))
        low = counts[order[0]]
        lowest = [e for e in order if counts[e] == low]
        if len(lowest) >= k:
            chosen, pool = [], lowest
        else:
            chosen, pool = lowest, [e for e in order if counts[e] == low + 1]
        while len(chosen) < k:
            last = len(chosen) == k - 1
            costs = [
                (last and tuple(sorted([*chosen, e])) in used, sum(met[e][c] for c in chosen), tie[e], e)
                for e in pool
                if e not in chosen
            ]
            chosen.append(min(costs)[3])
        _take(tuple(sorted(chosen)), used, met, counts, out)
    return _spread_pairs(out, n, rng)


def _take(
    table: tuple[int, ...],
    used: set[tuple[int, ...]],
    met: list[list[int]],
    counts: list[int],
    out: list[tuple[int, ...]],
) -> None:
    """Add ``table`` to a draw: its subset used, its pairs met once more, its entrants' counts up."""
    used.add(table)
    for a, b in itertools.combinations(table, 2):
        met[a][b] += 1
        met[b][a] += 1
    for e in table:
        counts[e] += 1
    out.append(table)


def _spread_pairs(
    tables: list[tuple[int, ...]],
    n: int,
    rng: random.Random,
    before: list[list[int]] | None = None,
    taken: Callable[[tuple[int, ...]], bool] | None = None,
) -> list[tuple[int, ...]]:
    """Even out pair meetings by swapping entrants between tables (which keeps every count).

    A seeded simulated annealing on the sum of squared pair meetings that never
    adds a repeated subset (and removes the greedy's repeats where it can);
    deterministic for a given ``rng`` state. ``before``: the meetings (n × n) of
    tables drawn earlier, counted in (and changed in place); ``taken``: whether a
    subset is one of those.
    """
    m = len(tables)
    if m < 2:
        return tables
    k = len(tables[0])
    rows = [list(t) for t in tables]
    met = before if before is not None else [[0] * n for _i in range(n)]
    for t in rows:
        for a, b in itertools.combinations(t, 2):
            met[a][b] += 1
            met[b][a] += 1
    used = Counter(tuple(sorted(t)) for t in rows)
    steps = min(300 * m, 300_000)
    hot, cold = 1.5, 0.05
    for step in range(steps):
        i, j = rng.randrange(m), rng.randrange(m)
        xi, yi = rng.randrange(k), rng.randrange(k)
        a_row, b_row = rows[i], rows[j]
        x, y = a_row[xi], b_row[yi]
        if i == j or x in b_row or y in a_row:
            continue
        delta = 4 * (k - 1)  # the change of the sum of squares when x and y trade places
        for c in a_row:
            if c != x:
                delta += 2 * (met[y][c] - met[x][c])
        for c in b_row:
            if c != y:
                delta += 2 * (met[x][c] - met[y][c])
        old_a, old_b = tuple(sorted(a_row)), tuple(sorted(b_row))
        new_a = tuple(sorted(y if c == x else c for c in a_row))
        new_b = tuple(sorted(x if c == y else c for c in b_row))
        repeats = (used[new_a] > 0) + (used[new_b] > 0) - (used[old_a] > 1) - (used[old_b] > 1)
        if repeats > 0:
            continue
        temperature = hot * (cold / hot) ** (step / steps)
        if repeats == 0 and delta > 0 and rng.random() >= math.exp(-delta / temperature):
            continue
        if taken is not None and (taken(new_a) or taken(new_b)):
            continue
        used[old_a] -= 1
        used[old_b] -= 1
        used[new_a] += 1
        used[new_b] += 1
        for c in a_row:
            if c != x:
                met[x][c] -= 1
                met[c][x] -= 1
                met[y][c] += 1
                met[c][y] += 1
        for c in b_row:
            if c != y:
                met[y][c] -= 1
                met[c][y] -= 1
                met[x][c] += 1
                met[c][x] += 1
        a_row[xi], b_row[yi] = y, x
    return [tuple(sorted(t)) for t in rows]


_NEVER = 1 << 62
"""The cost of a member already in the block (difference 0)."""
EVEN_TRIES = 10
"""Moves per block, at most, to bring the meetings of every difference within one."""
EVEN_DRAWS = 12
"""Draws of the blocks, at most, till one evens out (the best is kept): at K = 6 about one in
seven stops two apart, in a local minimum of the moves, and is drawn again."""


class _Cyclic:
    """A balanced draw from cyclic developments over the integers mod n (a difference family).

    A base block B of K residues, developed, is the n tables ``x + B`` (x = 0..n-1):
    each residue sits in K of them, once at each position of B, and a pair at
    difference ±d meets as often as ±d is a difference of two members of B (twice
    for d = n/2). Over all blocks, every pair of class d meets ``met[d]`` times: the
    blocks are chosen greedily by those counts, then single members are moved
    until they are within one of each other. Blocks of distinct orbits, none fixed
    by a shift, never repeat a table.
    """

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k = n, k
        self.cls = [min(x, n - x) for x in range(n)]
        """The class d of a difference x (any -n < x < n)."""
        self.step = [2 if 2 * d == n else 1 for d in range(n // 2 + 1)]
        """Meetings of each pair of class d per difference d in a block."""
        self.met: list[int] = []
        self.cost: list[int] = []
        """2 met + step: the rise of the sum of squared meetings, per n pairs, of one more d."""
        self.orbits: set[tuple[int, ...]] = set()
        self._clear()

    def _clear(self) -> None:
        """No block yet: nothing met."""
        self.met = [0] * len(self.step)
        self.cost = [_NEVER, *self.step[1:]]
        self.orbits = set()

    def _blocks(self, count: int, rng: random.Random) -> list[list[int]]:
        """``count`` base blocks, evened out: drawn again (up to :data:`EVEN_DRAWS` times) while the
        evening out stops with classes two or more apart; the draw with the least spread is kept."""
        best: tuple[int, list[list[int]], list[int], list[int], set[tuple[int, ...]]] | None = None
        for _draw in range(EVEN_DRAWS):
            self._clear()
            blocks = [self._block(rng) for _i in range(count)]
            self._even_out(blocks, rng)
            spread = max(self.met[1:]) - min(self.met[1:])
            if best is None or spread < best[0]:
                best = (spread, blocks, self.met, self.cost, self.orbits)
            if spread <= 1:
                break
        assert best is not None
        _spread, blocks, self.met, self.cost, self.orbits = best
        return blocks

    def draw(self, count: int, rng: random.Random) -> tuple[list[tuple[int, ...]], int]:
        """``count`` tables, ``count // n`` developments (seated) then a greedy rest; and how many seated."""
        n = self.n
        blocks = self._blocks(count // n, rng)
        label = list(range(n))
        rng.shuffle(label)
        out: list[tuple[int, ...]] = []
        for block in blocks:
            rng.shuffle(block)  # position in the block = seat
            tables = list(zip(*(label[b:] + label[:b] for b in block), strict=True))
            rng.shuffle(tables)
            out += tables
        seated = len(out)
        out += [tuple(label[e] for e in t) for t in self._rest(count - seated, rng)]
        return out, seated

    def _meet(self, others: Sequence[int], x: int, sign: int) -> None:
        """Count (``sign`` 1) or take back (-1) the differences of ``x`` with each of ``others``."""
        for b in others:
            d = self.cls[x - b]
            self.met[d] += sign * self.step[d]
            self.cost[d] = 2 * self.met[d] + self.step[d]

    def _costs(self, members: Sequence[int]) -> list[int]:
        """For each residue x, the rise of the sum of squared meetings if x joins ``members``."""
        row = [self.cost[d] for d in self.cls]
        total = [0] * self.n
        for b in members:
            total = [t + r for t, r in zip(total, row[-b:] + row[:-b], strict=True)]
        return total

    def _forms(self, block: Sequence[int]) -> set[tuple[int, ...]]:
        """The block shifted to start at each member: fewer than K when a shift fixes it; min = its orbit."""
        n = self.n
        return {tuple(sorted((x - b) % n for x in block)) for b in block}

    def _free(self, block: Sequence[int]) -> bool:
        """Whether ``block`` is fixed by no shift and of an orbit no block has."""
        forms = self._forms(block)
        return len(forms) == len(block) and min(forms) not in self.orbits

    def _block(self, rng: random.Random) -> list[int]:
        """A new base block: each member the cheapest residue (ties at random); the last one keeps it free."""
        block = [0]
        while len(block) < self.k - 1:
            x = next(_by_cost(self._costs(block), rng))
            self._meet(block, x, 1)
            block.append(x)
        last = next((x for x in _by_cost(self._costs(block), rng) if self._free([*block, x])), None)
        if last is None:
            for i in range(len(block) - 1, 0, -1):
                self._meet(block[:i], block[i], -1)
            block = self._any_block(rng)
        else:
            self._meet(block, last, 1)
            block.append(last)
        self.orbits.add(min(self._forms(block)))
        return block

    def _any_block(self, rng: random.Random) -> list[int]:
        """A free block at random, counted (when no residue completes the greedy one)."""
        while True:
            block = [0, *rng.sample(range(1, self.n), self.k - 1)]
            if self._free(block):
                break
        for i in range(1, self.k):
            self._meet(block[:i], block[i], 1)
        return block

    def _even_out(self, blocks: list[list[int]], rng: random.Random) -> None:
        """Move members of blocks, one at a time, till every class meets within one of every other."""
        for _try in range(EVEN_TRIES * len(blocks)):
            counts = self.met[1:]
            high, low = max(counts), min(counts)
            if high - low <= 1:
                return
            if rng.random() < 0.5:
                block, i = self._holding(blocks, high, rng)
            else:
                block, i = rng.choice(blocks), rng.randrange(self.k)
            self._move(block, i, rng)

    def _holding(self, blocks: list[list[int]], met: int, rng: random.Random) -> tuple[list[int], int]:
        """A block with a difference of a class met ``met`` times, and one of the two members at it."""
        d = rng.choice([d for d in range(1, len(self.met)) if self.met[d] == met])
        start = rng.randrange(len(blocks))
        for block in blocks[start:] + blocks[:start]:
            for i, j in itertools.permutations(range(self.k), 2):
                if self.cls[block[i] - block[j]] == d:
                    return block, rng.choice((i, j))
        return blocks[start], 0  # not reached: a class met at all is in some block

    def _move(self, block: list[int], i: int, rng: random.Random) -> None:
        """Replace ``block[i]`` by a cheapest residue that keeps the block free (maybe itself)."""
        others = block[:i] + block[i + 1 :]
        self.orbits.discard(min(self._forms(block)))
        self._meet(others, block[i], -1)
        block[i] = next(x for x in _by_cost(self._costs(others), rng) if self._free([*others, x]))
        self._meet(others, block[i], 1)
        self.orbits.add(min(self._forms(block)))

    def _rest(self, count: int, rng: random.Random) -> list[tuple[int, ...]]:
        """``count`` (< n) more tables drawn as :func:`_greedy_tables` does, given the blocks' meetings.

        Each table takes the residues with the fewest tables in the rest, then
        :func:`_spread_pairs` evens out the pairs, avoiding the blocks' tables.
        """
        n, k = self.n, self.k
        if not count:
            return []
        base = [self.met[d] for d in self.cls]  # a pair's meetings by its difference
        extra = [[0] * n for _i in range(n)]
        played = [0] * n
        used: set[tuple[int, ...]] = set()
        out: list[tuple[int, ...]] = []
        for _i in range(count):
            low = min(played)
            lowest = [e for e in range(n) if played[e] == low]
            if len(lowest) >= k:
                chosen, pool = [], lowest
            else:
                chosen, pool = lowest, [e for e in range(n) if played[e] == low + 1]
            rng.shuffle(pool)
            met = [0] * n
            for c in chosen:
                met = [m + b + x for m, b, x in zip(met, base[-c:] + base[:-c], extra[c], strict=True)]
            while len(chosen) < k:
                cands = [e for e in pool if e not in chosen]
                c = min(cands, key=met.__getitem__)
                if len(chosen) == k - 1 and self._repeat([*chosen, c], used):
                    cands.sort(key=met.__getitem__)
                    c = next((e for e in cands if not self._repeat([*chosen, e], used)), c)
                chosen.append(c)
                met = [m + b + x for m, b, x in zip(met, base[-c:] + base[:-c], extra[c], strict=True)]
            _take(tuple(sorted(chosen)), used, extra, played, out)
        before = [base[-a:] + base[:-a] for a in range(n)]
        return _spread_pairs(out, n, rng, before, self._taken)

    def _repeat(self, table: Sequence[int], used: set[tuple[int, ...]]) -> bool:
        """Whether ``table`` is in ``used`` or a shift of a block."""
        return tuple(sorted(table)) in used or self._taken(table)

    def _taken(self, table: Sequence[int]) -> bool:
        """Whether ``table`` is a shift of a block."""
        return min(self._forms(table)) in self.orbits


def _by_cost(costs: list[int], rng: random.Random) -> Iterator[int]:
    """The indexes of ``costs`` below :data:`_NEVER`, cheapest first, ties in random order."""
    for level in sorted(set(costs)):
        if level >= _NEVER:
            return
        ties = [x for x, c in enumerate(costs) if c == level]
        rng.shuffle(ties)
        yield from ties


def duplicate_orders(
    tables: Sequence[tuple[int, tuple[int, ...]]], k: int, rng: random.Random
) -> list[list[tuple[int, ...]]]:
    """Per table: every order of a shuffled base (K = 3), or the K cyclic rotations of the circular
    order whose neighbours have played in that direction least so far (K >= 4: over the deals, A
    right after B about as often as B after A, and neighbours spread over the pairs)."""
    out = []
    after: Counter[tuple[int, int]] = Counter()
    for _round, members in tables:
        if k == 3:
            base = list(members)
            rng.shuffle(base)
        else:
            base = _circle(members, after, False, rng)
            for a, b in zip(base, base[1:] + base[:1], strict=True):
                after[(a, b)] += k
        if k == 3:
            rotations = [tuple(base[i:] + base[:i]) for i in range(3)]
            rev = base[::-1]
            group = rotations + [tuple(rev[i:] + rev[:i]) for i in range(3)]
        else:
            group = [tuple(base[i:] + base[:i]) for i in range(k)]
        out.append(group)
    return out


def _seat(
    tables: Sequence[tuple[int, tuple[int, ...]]],
    n: int,
    k: int,
    passes: int,
    rng: random.Random,
    fixed: range = range(0),
) -> list[list[tuple[int, ...]]]:
    """Seat orders balanced per entrant (seats) and per pair (who plays right after whom).

    Passes go in blocks: each block of 2K passes seats each subset under the K cyclic
    rotations of one circular order and then the K rotations of its reverse, so every
    entrant sits in every seat equally and, within the block, A plays right after B as
    often as B after A; a last block of K passes (when K more are left) the K rotations
    alone. Each block's circular order of a subset is the one whose neighbours have sat
    together least so far (:func:`_circle`), so the neighbours spread over the pairs.
    The tables at ``fixed`` keep their order (exactly balanced by construction); the
    remaining tables are seated by :func:`seat_balanced`, whose counts differ by at most one.
    """
    doubles, left = divmod(passes, 2 * k)
    cycled = 2 * k * doubles + (k if left >= k else 0)
    after: Counter[tuple[int, int]] = Counter()
    base: dict[tuple[tuple[int, ...], int], list[int]] = {}
    out: list[list[tuple[int, ...]]] = []
    rest: list[tuple[int, ...]] = []
    rest_at: list[int] = []
    for i, (r, members) in enumerate(tables):
        if i in fixed:
            out.append([members])
        elif r < cycled:
            block, offset = divmod(r, 2 * k)
            both = block < doubles  # a block of 2K passes: the order and its reverse
            if (members, block) not in base:
                base[(members, block)] = circle = _circle(members, after, both, rng)
                for a, b in zip(circle, circle[1:] + circle[:1], strict=True):
                    after[(a, b)] += k
                    if both:
                        after[(b, a)] += k
            order = base[(members, block)]
            if offset >= k:
                order, offset = order[::-1], offset - k
            out.append([tuple(order[offset:] + order[:offset])])
        else:
            out.append([])
            rest.append(members)
            rest_at.append(i)
    for i, seats in zip(rest_at, seat_balanced(rest, n, k, after), strict=True):
        out[i] = [seats]
    return out


def _circle(
    members: tuple[int, ...], after: Counter[tuple[int, int]], both: bool, rng: random.Random
) -> list[int]:
    """The circular order of ``members`` whose neighbours played next to each other least so far.

    ``after[(a, b)]``: partidos in which ``b`` played right after ``a``. ``both``: the order will
    be played both ways round (cost: the pair's count either way), else as it is (cost: that way).
    Ties are drawn with ``rng`` (deterministic from the torneo's key).
    """
    shuffled = rng.sample(members, len(members))
    best: list[int] = shuffled
    best_cost: int | None = None
    for rest in itertools.permutations(shuffled[1:]):
        circle = [shuffled[0], *rest]
        pairs = zip(circle, circle[1:] + circle[:1], strict=True)
        cost = sum(after[(a, b)] + (after[(b, a)] if both else 0) for a, b in pairs)
        if best_cost is None or cost < best_cost:
            best, best_cost = circle, cost
    return best


def seat_balanced(
    tables: Sequence[Sequence[int]], n: int, k: int, after: Counter[tuple[int, int]] | None = None
) -> list[tuple[int, ...]]:
    """Seat each table so every entrant's counts per seat differ by at most one.

    A proper K-edge-colouring (colour = seat) of the bipartite graph between
    tables and entrant "chunks": each entrant's appearances, in table order, are
    cut into chunks of K, so a chunk sits in each seat at most once and a full
    chunk exactly once. König's theorem says such a colouring exists; it is built
    one edge at a time, flipping an alternating path when the free colours differ.
    Then :func:`_spread_neighbours` swaps seats within tables, keeping the counts within one,
    so that who plays right after whom spreads over the pairs (``after``: the counts so far,
    updated).
    """
    t_count = len(tables)
    appearances = [0] * n
    for members in tables:
        for e in members:
            appearances[e] += 1
    first_chunk = [0] * n
    chunks = 0
    for e in range(n):
        first_chunk[e] = t_count + chunks
        chunks += -(-appearances[e] // k)
    seen = [0] * n
    owner = [0] * (t_count + chunks)
    at = [[-1] * k for _i in range(t_count + chunks)]  # vertex -> colour -> neighbour
    for t, members in enumerate(tables):
        for e in members:
            u = first_chunk[e] + seen[e] // k
            seen[e] += 1
            owner[u] = e
            a = at[u].index(-1)
            b = at[t].index(-1)
            if at[t][a] == -1:
                c = a
            elif at[u][b] == -1:
                c = b
            else:
                _flip(at, t, a, b)
                c = a
            at[u][c] = t
            at[t][c] = u
    seated = [[owner[at[t][c]] for c in range(k)] for t in range(t_count)]
    _spread_neighbours(seated, k, Counter() if after is None else after)
    return [tuple(seats) for seats in seated]


SPREAD_WORK = 200_000
"""The most seat swaps :func:`_spread_neighbours` weighs (a bound for the biggest draws)."""


def _spread_neighbours(seated: list[list[int]], k: int, after: Counter[tuple[int, int]]) -> None:
    """Swap entrants' seats within tables where that spreads "B plays right after A" better.

    The measure is the sum of squares of ``after[(a, b)]`` over ordered pairs (its total is
    fixed, so it is smallest when A→B and B→A, and the pairs, are as even as they can be).
    A move swaps two entrants' seats in one table where both their seat counts stay within one,
    or in two tables at once (A and B trade seats i and j in one, j and i in the other) where
    the counts do not change at all. Passes over the tables until no move improves, or
    :data:`SPREAD_WORK` moves weighed. Deterministic.
    """
    counts: dict[int, list[int]] = {}
    together: dict[tuple[int, int], list[int]] = {}
    for t, seats in enumerate(seated):
        for s, e in enumerate(seats):
            counts.setdefault(e, [0] * k)[s] += 1
        for s in range(k):
            after[(seats[s], seats[(s + 1) % k])] += 1
        for x, y in itertools.permutations(seats, 2):
            together.setdefault((x, y), []).append(t)

    def swap(seats: list[int], i: int, j: int) -> int:
        """Swap seats i and j of a table; what that adds to the measure."""
        delta = 0
        for s in range(k):
            pair = (seats[s], seats[(s + 1) % k])
            after[pair] -= 1
            delta -= 2 * after[pair] + 1
        seats[i], seats[j] = seats[j], seats[i]
        for s in range(k):
            pair = (seats[s], seats[(s + 1) % k])
            delta += 2 * after[pair] + 1
            after[pair] += 1
        return delta

    def movable(e: int, frm: int, to: int) -> bool:
        """Whether ``e``'s seat counts stay within one after a move from seat ``frm`` to ``to``."""
        row = list(counts[e])
        row[frm] -= 1
        row[to] += 1
        return max(row) - min(row) <= 1

    work = 0
    improved = True
    while improved and work < SPREAD_WORK:
        improved = False
        for t, seats in enumerate(seated):
            for i, j in itertools.combinations(range(k), 2):
                work += 1
                a, b = seats[i], seats[j]
                if movable(a, i, j) and movable(b, j, i):
                    if swap(seats, i, j) < 0:
                        counts[a][i] -= 1
                        counts[a][j] += 1
                        counts[b][j] -= 1
                        counts[b][i] += 1
                        improved = True
                        continue
                    swap(seats, i, j)
                for u in together[(a, b)]:
                    other = seated[u]
                    if u == t or other[j] != a or other[i] != b:
                        continue
                    work += 1
                    delta = swap(seats, i, j)
                    delta += swap(other, i, j)
                    if delta < 0:
                        improved = True
                        break
                    swap(other, i, j)
                    swap(seats, i, j)


def _flip(at: list[list[int]], start: int, a: int, b: int) -> None:
    """Swap colours ``a`` and ``b`` along the alternating path leaving ``start`` by ``a``."""
    path = [start]
    colour = a
    while at[path[-1]][colour] != -1:
        path.append(at[path[-1]][colour])
        colour = b if colour == a else a
    edges = [(path[i], path[i + 1], a if i % 2 == 0 else b) for i in range(len(path) - 1)]
    for x, y, c in edges:
        at[x][c] = at[y][c] = -1
    for x, y, c in edges:
        other = b if c == a else a
        at[x][other] = y
        at[y][other] = x


@dataclass(frozen=True)
class SeatingBalance:
    """How evenly a torneo's tables are seated (see ``benchmarks/experiments/seating.py``)."""

    position: int
    """For each entrant, its most-used seat minus its least-used one: the largest over entrants."""
    neighbours: int
    """For each pair that met, |A right before B − B right before A| in play order: the largest."""
    fewest: int
    most: int
    """The fewest and most partidos any ordered pair that met sat A right before B."""


def seating_balance(entrants: int, table_size: int, seats: Iterable[Sequence[int]]) -> SeatingBalance:
    """The balance of ``seats`` (each partido's entrants by seat) among ``entrants`` at tables of
    ``table_size`` (play goes from seat s to s + 1, mod the table)."""
    positions = [[0] * table_size for _e in range(entrants)]
    after: Counter[tuple[int, int]] = Counter()
    met: set[tuple[int, int]] = set()
    for table in seats:
        for s, e in enumerate(table):
            positions[e][s] += 1
            after[(e, table[(s + 1) % len(table)])] += 1
        met.update(itertools.permutations(table, 2))
    counts = [after[pair] for pair in met] or [0]
    return SeatingBalance(
        position=max((max(row) - min(row) for row in positions if any(row)), default=0),
        neighbours=max((abs(after[(a, b)] - after[(b, a)]) for a, b in met), default=0),
        fewest=min(counts),
        most=max(counts),
    )
