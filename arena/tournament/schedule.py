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
* neighbours: the seat orders are searched so that, for every ordered pair (A, B),
  the partidos in which B plays right after A come within ±1 of the pair's share,
  the partidos they play together / (K − 1) (:class:`_Pairs`). Reached in a round
  robin of more entrants than a table seats whose blocks of circular orders allow it
  (they count a pair K partidos at a time, so their share must be within 1 of a
  multiple of K): tested up to 8 entrants (tests/tournament/test_seating_neighbours.py);
  mostly reached elsewhere (``--partidos``, the until-separated batches), searched
  within a bounded work; :func:`seating_balance` measures it;
* ``duplicate``: one deal (one partido seed) per group, played under all 6 orders (K = 3) or the
  K cyclic rotations of one order (K >= 4), so every entrant holds every seat's
  cards once (twice for K = 3) per deal;
* ``partidos``: every entrant's number of partidos differs by at most one from
  any other's; pairs are spread greedily (as evenly as the greedy manages), or,
  in big draws, by cyclic developments, faster and more evenly
  (:func:`balanced_tables`).
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import math
import operator
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import cast

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
        self._order(blocks, rng)
        for block in blocks:
            tables = list(zip(*(label[b:] + label[:b] for b in block), strict=True))
            rng.shuffle(tables)
            out += tables
        seated = len(out)
        out += [tuple(label[e] for e in t) for t in self._rest(count - seated, rng)]
        return out, seated

    def _order(self, blocks: list[list[int]], rng: random.Random) -> None:
        """Choose each base block's circular order (its seats) so that "B plays right after A" comes
        close to each ordered pair's share (:class:`_Pairs`) over the developments.

        Seated in a block's order, the development plays B right after A once for each step of
        the order from one member to the next that is B − A (mod n): the count of an ordered pair
        depends only on its difference, so the search weighs n − 1 counts, against the share of
        the pairs of each difference (``met`` of its class / (K − 1)), with :class:`_Pairs`'s
        measure. Coordinate descent as :func:`_even_circles` (each block's order chosen again
        among the (K − 1)! given the others, until none changes or :data:`CIRCLE_WORK` orders
        weighed), then, while a difference is beyond ±1 of its share, a focused walk as
        :func:`_walk_circles` over the blocks that hold it (at most :data:`WALK_STALL` steps
        without fewer differences beyond, the best state kept).
        """
        n, k = self.n, self.k
        k1 = k - 1
        after = [0] * n
        share = [self.met[self.cls[d]] for d in range(n)]  # K − 1 times a pair's share, by difference
        orders, getters = _circles(k)

        def steps(order: Sequence[int]) -> list[int]:
            return [(order[s] - order[s - 1]) % n for s in range(k)]

        def cost(d: int, more: int) -> int:
            """What ``more`` steps of difference ``d`` add to the measure."""
            was = k1 * after[d] - share[d]
            now = was + k1 * more
            return (
                now * now
                - was * was
                + NEIGHBOUR_EXCESS * (max(0, abs(now) - k1) ** 2 - max(0, abs(was) - k1) ** 2)
            )

        def play(block: Sequence[int], sign: int) -> None:
            for d in steps(block):
                after[d] += sign

        def totals(block: Sequence[int]) -> list[int]:
            """What each circular order of ``block`` (taken out) adds to the measure."""
            diff = [(b - a) % n for a in block for b in block]
            rise = [cost(d, 1) if d else 0 for d in diff]
            if len(set(diff)) == k * k - k + 1:  # no difference twice: the steps' rises add up
                return [sum(get(rise)) for get in getters]
            out = []  # where an order steps by one difference twice, counted as it adds up
            for get in getters:
                taken = get(diff)
                out.append(
                    sum(get(rise))
                    if len(set(taken)) == k
                    else sum(cost(d, c) for d, c in Counter(taken).items())
                )
            return out

        def beyond() -> list[int]:
            return [d for d in range(1, n) if abs(k1 * after[d] - share[d]) > k1]

        for block in blocks:
            play(block, 1)
        work = CIRCLE_WORK
        changed = True
        while changed and work > 0:
            changed = False
            for block in blocks:
                play(block, -1)
                found = totals(block)
                best = found.index(min(found))  # 0, the order as it is, unless another is better
                if best:
                    block[:] = [block[p] for p in orders[best]]
                    changed = True
                play(block, 1)
                work -= len(orders)
                if work <= 0:
                    break
        off = beyond()
        if not off or len(orders) < 2:  # none beyond, or one circular order (two seats): no choice
            return
        holding: dict[int, list[int]] = {}
        for b, block in enumerate(blocks):
            for d in {(y - x) % n for x in block for y in block if x != y}:
                holding.setdefault(d, []).append(b)
        tenure = min(max(2, len(blocks) // 10), len(blocks) - 1)
        changed_at = [-tenure - 1] * len(blocks)
        best_state = (len(off), [list(block) for block in blocks])
        step = fewest_at = 0
        while off and step - fewest_at <= WALK_STALL and work > 0:
            step += 1
            seating = holding.get(off[rng.randrange(len(off))], [])
            free = [b for b in seating if step - changed_at[b] > tenure] or seating
            if not free:
                break
            if len(free) > WALK_TABLES:
                free = rng.sample(free, WALK_TABLES)
            work -= len(free) * len(orders)
            low: int | None = None
            ties: list[tuple[int, int]] = []
            for b in free:
                play(blocks[b], -1)
                found = totals(blocks[b])
                play(blocks[b], 1)
                for x in range(1, len(orders)):
                    if low is None or found[x] - found[0] < low:
                        low, ties = found[x] - found[0], [(b, x)]
                    elif found[x] - found[0] == low:
                        ties.append((b, x))
            b, x = ties[rng.randrange(len(ties))]
            if rng.random() < 0.02:
                b, x = free[rng.randrange(len(free))], rng.randrange(1, len(orders))
            play(blocks[b], -1)
            blocks[b][:] = [blocks[b][p] for p in orders[x]]
            play(blocks[b], 1)
            changed_at[b] = step
            off = beyond()
            if len(off) < best_state[0]:
                best_state = (len(off), [list(block) for block in blocks])
                fewest_at = step
        for block, kept in zip(blocks, best_state[1], strict=True):
            block[:] = kept

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


NEIGHBOUR_EXCESS = 16
"""How much more the seat search weighs a pair's distance from its share beyond ±1 than within it
(:class:`_Pairs`): enough that it trades many small deviations for one past the bound."""
CIRCLE_WORK = 4_000_000
"""The most circular orders :func:`_even_circles` weighs (a bound for the biggest draws: about two
passes over the 77,520 circular orders of 20 entrants at tables of 5 over 50 rounds)."""
SPREAD_WORK = 400_000
"""The most seat orders (and tables scanned for a partner) :func:`_spread_neighbours` weighs."""
WALK_WORK = 4_000_000
"""The most circular orders one :func:`_walk_circles` weighs (a bound: about a second; most walks
end far sooner, every pair within ±1)."""
WALK_PER_PIECE = 100_000
"""… and at most this many per circular order searched, so that a design whose pairs cannot all
come within ±1 is not searched long."""
TABLE_WORK = 3_000_000
"""The most re-seatings one :func:`_walk_tables` weighs (each costs more than a circular order)."""
TABLE_PER_PIECE = 150_000
"""… and at most this many per table searched."""
WALK_STALL = 8000
"""A walk stops after this many steps without fewer pairs beyond ±1 than it has met (in the designs
the tests search, a walk that reached ±1 went at most some 1,900 steps between two such)."""
WALK_TABLES = 12
"""The most circular orders (or tables) one step of a walk weighs: a few, drawn, of those that seat
the pair it mends (more makes each step surer and slower; 12 mends 8 entrants at tables of 4 over
4 rounds, and 7 at tables of 4 or 5 over one, where 6 did not)."""
SEAT_WEIGHT = 16
"""What :func:`_walk_tables` weighs a unit of :attr:`_Seated.uneven` (a seat count one past
"within one"), in (K − 1)² (about a pair one partido off its share near it)."""


class _Pairs:
    """Who played right after whom, and who met whom, over the ordered pairs of ``n`` entrants.

    The seat search's measure. In a partido at a table of K every entrant has exactly one entrant
    right after it, one of the K − 1 others; so over the partidos ``a`` and ``b`` play together,
    ``met(a, b)``, ``b`` should come right after ``a`` in ``met(a, b) / (K − 1)``: the *share* of
    the ordered pair (a, b), its mean. (Summed over b it is a's partidos, as the counts are. In a
    round robin every pair meets as often, so it is also the mean over all ordered pairs: 8 for 6
    entrants at tables of 4 over 4 rounds, each pair together in 24 partidos. A after B and B
    after A together: about ``2 met / (K − 1)``; exactly ``met`` at K = 3, where any two are
    neighbours, so there the share is A after B as often as B after A.)

    Per ordered pair the measure weighs ``d = (K − 1) after(a, b) − met(a, b)`` (K − 1 times the
    distance from the share, an integer): ``d² + NEIGHBOUR_EXCESS · max(0, |d| − (K − 1))²`` —
    the sum of squares, which evens the pairs out, and more for each partido past ±1 of the share.
    Counts are flat lists, pair (a, b) at ``a · n + b``; :attr:`beyond` keeps the pairs past ±1.
    """

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k = n, k
        self.after = [0] * (n * n)
        """``after[a·n + b]``: partidos in which ``b`` played right after ``a``."""
        self.met = [0] * (n * n)
        """``met[a·n + b]``: partidos ``a`` and ``b`` played together."""
        self.beyond: set[int] = set()
        """The ordered pairs farther than 1 from their share."""

    def _mark(self, pair: int) -> None:
        """Put ``pair`` in :attr:`beyond` or take it out, as it now is."""
        k1 = self.k - 1
        if abs(k1 * self.after[pair] - self.met[pair]) > k1:
            self.beyond.add(pair)
        else:
            self.beyond.discard(pair)

    def meet(self, members: Sequence[int], times: int = 1) -> None:
        """Count ``times`` partidos of ``members`` together (:attr:`beyond` is not updated: call
        :meth:`mark` after the meetings of a search are all counted)."""
        n, met = self.n, self.met
        for a in members:
            row = a * n
            for b in members:
                met[row + b] += times
            met[row + a] -= times  # not a pair

    def mark(self) -> None:
        """Count :attr:`beyond` again from scratch."""
        k1 = self.k - 1
        self.beyond = {
            i for i, (a, m) in enumerate(zip(self.after, self.met, strict=True)) if abs(k1 * a - m) > k1
        }

    def play(self, order: Sequence[int], times: int, both: bool = False, mark: bool = True) -> None:
        """Count ``times`` partidos seated in ``order`` (and as many in its reverse when ``both``);
        a negative ``times`` takes them back. ``mark``: update :attr:`beyond` (else see :meth:`mark`)."""
        n, after = self.n, self.after
        prev = order[-1]
        for e in order:
            after[prev * n + e] += times
            if both:
                after[e * n + prev] += times
            if mark:
                self._mark(prev * n + e)
                if both:
                    self._mark(e * n + prev)
            prev = e

    def rise(self, pair: int, times: int) -> int:
        """What ``times`` more partidos of ``pair`` (``a·n + b``) right after add to the measure."""
        k1 = self.k - 1
        d = k1 * self.after[pair] - self.met[pair]
        e = d + k1 * times
        out = e * e - d * d
        over, before = abs(e) - k1, abs(d) - k1
        if over > 0 or before > 0:
            out += NEIGHBOUR_EXCESS * (
                (over * over if over > 0 else 0) - (before * before if before > 0 else 0)
            )
        return out

    def costs(self, members: Sequence[int], times: int, both: bool) -> list[int]:
        """For each ``i·K + j`` (i ≠ j): the rise if ``members[j]`` played right after ``members[i]``
        ``times`` more partidos (and ``members[i]`` after ``members[j]`` as many, when ``both``)."""
        n, k = self.n, self.k
        out = [0] * (k * k)
        for i, a in enumerate(members):
            for j in range(i + 1, k):
                b = members[j]
                ab, ba = self.rise(a * n + b, times), self.rise(b * n + a, times)
                if both:
                    out[i * k + j] = out[j * k + i] = ab + ba
                else:
                    out[i * k + j], out[j * k + i] = ab, ba
        return out

    def arcs(self, order: Sequence[int], both: bool) -> set[int]:
        """The pairs (``a·n + b``) of ``order`` played in (and of its reverse, when ``both``)."""
        n = self.n
        prev = order[-1]
        out = set()
        for e in order:
            out.add(prev * n + e)
            if both:
                out.add(e * n + prev)
            prev = e
        return out

    def change(self, old: Sequence[int], new: Sequence[int], times: int, both: bool) -> int:
        """What replacing the ``times`` partidos seated in ``old`` (counted) by as many in ``new``
        (both ways round when ``both``) adds to the measure; nothing is changed. (A pair of
        ``new`` only is not one of ``old``'s, so its rise does not depend on taking ``old`` out.)"""
        was, now = self.arcs(old, both), self.arcs(new, both)
        return sum(self.rise(x, times) for x in now - was) + sum(self.rise(x, -times) for x in was - now)

    def replace(self, old: Sequence[int], new: Sequence[int], times: int, both: bool) -> int:
        """Replace the ``times`` partidos seated in ``old`` (counted) by as many in ``new`` (both ways
        round when ``both``), touching only the pairs that differ; what that adds to the measure."""
        was, now = self.arcs(old, both), self.arcs(new, both)
        rise = 0
        for x, t in itertools.chain(((x, -times) for x in was - now), ((x, times) for x in now - was)):
            rise += self.rise(x, t)
            self.after[x] += t
            self._mark(x)
        return rise


_Getter = Callable[[list[int]], tuple[int, ...]]
"""An ``operator.itemgetter`` of several items of a list of costs."""


@functools.cache
def _circles(k: int) -> tuple[list[tuple[int, ...]], list[_Getter]]:
    """The (K − 1)! circular orders of positions 0..K−1 (0 first; the first is 0, 1, …, K−1 itself),
    and for each a getter of its K pairs' costs from a :meth:`_Pairs.costs` list."""
    orders = [(0, *rest) for rest in itertools.permutations(range(1, k))]
    return orders, [_getter([o[s - 1] * k + o[s] for s in range(k)]) for o in orders]


def _getter(items: list[int]) -> _Getter:
    """The getter of ``items`` (two or more) of a list."""
    return cast(_Getter, operator.itemgetter(*items))


def _totals(members: Sequence[int], both: bool, pairs: _Pairs) -> list[int]:
    """For each circular order of ``_circles(K)``: what playing ``members`` in it K times (in its K
    rotations; both ways round when ``both``) adds to the measure."""
    cost = pairs.costs(members, pairs.k, both)
    return [sum(get(cost)) for get in _circles(pairs.k)[1]]


def _circle(members: Sequence[int], both: bool, pairs: _Pairs, rng: random.Random) -> list[int]:
    """The greedy circular order of ``members``: the one that adds least to the measure given the
    partidos counted so far (ties drawn with ``rng``), counted."""
    shuffled = rng.sample(list(members), len(members))
    totals = _totals(shuffled, both, pairs)
    order = [shuffled[x] for x in _circles(pairs.k)[0][totals.index(min(totals))]]
    pairs.play(order, pairs.k, both)
    return order


def _even_circles(circles: Sequence[tuple[list[int], bool]], pairs: _Pairs, work: int = CIRCLE_WORK) -> None:
    """Coordinate descent over the circular orders: each in turn is taken out and chosen again among
    the (K − 1)! given all the others, changed only when that lowers the measure; passes until one
    changes nothing, or ``work`` orders weighed. ``circles``: (the order, changed in place; played
    both ways round), each counted in ``pairs`` (K partidos each way). Deterministic."""
    k = pairs.k
    orders = _circles(k)[0]
    changed = True
    while changed and work > 0:
        changed = False
        for order, both in circles:
            pairs.play(order, -k, both)
            totals = _totals(order, both, pairs)
            best = totals.index(min(totals))  # 0, the order as it is, unless another is better
            if best:
                order[:] = [order[x] for x in orders[best]]
                changed = True
            pairs.play(order, k, both)
            work -= len(orders)
            if work <= 0:
                break


def _walk_circles(
    circles: Sequence[tuple[list[int], bool]], pairs: _Pairs, rng: random.Random, work: int = WALK_WORK
) -> None:
    """A focused walk over the circular orders (min-conflicts, as for exact designs), while some
    ordered pair is beyond ±1 of its share, till ``work`` circular orders weighed; the best state
    met (fewest pairs beyond, then the least measure) is kept.

    A step draws a pair beyond ±1 and weighs every other circular order of a few of the circular
    orders that seat both (:data:`WALK_TABLES`; none changed in the last few steps), given all the
    rest; it takes the change that lowers the measure most or raises it least (ties, and one step
    in fifty, drawn): it may rise, which lets the walk leave the descent's local minima (6
    entrants at tables of 4 over 4 rounds: some 20 steps from where the descent stops, 4 to 12
    partidos, to 8 for every ordered pair). Deterministic from ``rng``.
    """
    if not pairs.beyond:
        return
    k, n = pairs.k, pairs.n
    orders = _circles(k)[0]
    if len(orders) < 2:  # one circular order (two seats): nothing to choose
        return
    holding: dict[int, list[int]] = {}
    for c, (order, _both) in enumerate(circles):
        for a, b in itertools.permutations(order, 2):
            holding.setdefault(a * n + b, []).append(c)
    tenure = min(max(2, len(circles) // 10), len(circles) - 1)
    changed_at = [-tenure - 1] * len(circles)
    measure = 0
    best = (len(pairs.beyond), measure)
    kept = [list(order) for order, _both in circles]
    step = fewest_at = 0
    fewest = len(pairs.beyond)
    while work > 0 and step - fewest_at <= WALK_STALL:
        if not pairs.beyond:
            return
        step += 1
        seating = holding.get(sorted(pairs.beyond)[rng.randrange(len(pairs.beyond))], [])
        if not seating:
            break  # a pair beyond ±1 that no circular order seats
        free = [c for c in seating if step - changed_at[c] > tenure] or seating
        if len(free) > WALK_TABLES:
            free = rng.sample(free, WALK_TABLES)
        work -= len(free) * len(orders)
        low: int | None = None
        ties: list[tuple[int, int]] = []
        for c in free:
            order, both = circles[c]
            pairs.play(order, -k, both)
            totals = _totals(order, both, pairs)
            pairs.play(order, k, both)
            for x in range(1, len(orders)):
                rise = totals[x] - totals[0]
                if low is None or rise < low:
                    low, ties = rise, [(c, x)]
                elif rise == low:
                    ties.append((c, x))
        c, x = ties[rng.randrange(len(ties))]
        if rng.random() < 0.02:
            c, x = free[rng.randrange(len(free))], rng.randrange(1, len(orders))
        order, both = circles[c]
        new = [order[p] for p in orders[x]]
        measure += pairs.replace(order, new, k, both)
        order[:] = new
        changed_at[c] = step
        if len(pairs.beyond) < fewest:
            fewest, fewest_at = len(pairs.beyond), step
        if (len(pairs.beyond), measure) < best:
            best = (len(pairs.beyond), measure)
            kept = [list(order) for order, _both in circles]
    for (order, both), order_kept in zip(circles, kept, strict=True):
        pairs.replace(order, order_kept, k, both)
        order[:] = order_kept


class _Seated:
    """Tables seated one partido each (changed in place), counted in ``pairs``, with their entrants'
    seat counts and how far those are from "within one" (:func:`_walk_tables` may pass through such
    states; :func:`_spread_neighbours` keeps them within one)."""

    def __init__(self, seated: list[list[int]], pairs: _Pairs) -> None:
        k = pairs.k
        self.seated, self.pairs, self.k = seated, pairs, k
        self.counts: dict[int, list[int]] = {}
        self.together: dict[tuple[int, int], list[int]] = {}
        """The tables that seat both of two entrants (the smaller first)."""
        self.tables_of: dict[int, list[int]] = {}
        """The tables that seat each entrant."""
        for t, seats in enumerate(seated):
            for s, e in enumerate(seats):
                self.counts.setdefault(e, [0] * k)[s] += 1
                self.tables_of.setdefault(e, []).append(t)
            pairs.meet(seats)
            pairs.play(seats, 1, mark=False)
            for x, y in itertools.combinations(sorted(seats), 2):
                self.together.setdefault((x, y), []).append(t)
        pairs.mark()
        self.fewest = {e: sum(row) // k for e, row in self.counts.items()}
        """Each entrant's count in every seat is this or one more when they are within one."""
        self.uneven = 0
        """The sum over entrants and seats of the squared distance of the count from those two."""

    def _off(self, e: int, count: int) -> int:
        low = self.fewest[e]
        return (low - count) ** 2 if count < low else (count - low - 1) ** 2 if count > low + 1 else 0

    def moves(self, t: int) -> list[int]:
        """For each ``i·K + s``: what moving the member in seat ``i`` of table ``t`` to seat ``s`` adds to
        :attr:`uneven` (the members' moves add up: each is its own entrant's)."""
        k, counts, off = self.k, self.counts, self._off
        out = [0] * (k * k)
        for i, e in enumerate(self.seated[t]):
            row = counts[e]
            leave = off(e, row[i] - 1) - off(e, row[i])
            for s in range(k):
                if s != i:
                    out[i * k + s] = leave + off(e, row[s] + 1) - off(e, row[s])
        return out

    def move(self, t: int, new: list[int]) -> int:
        """Seat table ``t`` as ``new`` (counts, :attr:`uneven` and pairs updated); what that adds to
        the measure."""
        seats, counts = self.seated[t], self.counts
        for s, (e, f) in enumerate(zip(seats, new, strict=True)):
            if e != f:
                self.uneven -= self._off(e, counts[e][s]) + self._off(f, counts[f][s])
                counts[e][s] -= 1
                counts[f][s] += 1
                self.uneven += self._off(e, counts[e][s]) + self._off(f, counts[f][s])
        rise = self.pairs.replace(seats, new, 1, False)
        seats[:] = new
        return rise


@functools.cache
def _table_moves(k: int) -> list[tuple[_Getter, _Getter, tuple[int, ...]]]:
    """The re-seatings a walk step weighs for a table: two seats swapped, three seats round (either
    way), and the table turned round (the same neighbours, other seats). Each as (a getter of its
    K pairs' costs from a :meth:`_Pairs.costs` list of the table, a getter of its members' moves
    from a :meth:`_Seated.moves` list, ``p``: ``new[s] = old[p[s]]``)."""
    perms: set[tuple[int, ...]] = set()
    for i, j in itertools.combinations(range(k), 2):
        p = list(range(k))
        p[i], p[j] = j, i
        perms.add(tuple(p))
    for i, j, m in itertools.permutations(range(k), 3):
        p = list(range(k))
        p[i], p[j], p[m] = j, m, i
        perms.add(tuple(p))
    for shift in range(1, k):
        perms.add(tuple((s + shift) % k for s in range(k)))
    return [
        (_getter([p[s - 1] * k + p[s] for s in range(k)]), _getter([p[s] * k + s for s in range(k)]), p)
        for p in sorted(perms)
    ]


def _walk_tables(tables: _Seated, rng: random.Random, work: int = WALK_WORK) -> None:
    """A focused walk over the seated tables (min-conflicts, as :func:`_walk_circles`), while some
    ordered pair is beyond ±1 of its share, till ``work`` re-seatings weighed; the best state met
    with every entrant's seat counts within one (fewest pairs beyond, then the least measure) is
    kept.

    A step draws a pair beyond ±1 — or, while some entrant's seat counts are two apart, half of
    the time such an entrant — and weighs every re-seating of :func:`_table_moves` in a few of
    the tables that seat them (none re-seated in the last few steps); it takes the one that lowers
    the energy most or raises it least (ties, and one step in fifty, drawn). The energy is the
    measure plus :data:`SEAT_WEIGHT` × (K − 1)² per unit of :attr:`_Seated.uneven`: the walk may
    take an entrant's counts two apart on the way, since the moves that keep them within one do
    not connect the seatings (a single pass of 5 entrants at tables of 4, each in every seat
    once: the seatings that swapping seats in chains of tables reaches all leave some pair beyond
    ±1, though exact ones exist). Deterministic from ``rng``.
    """
    pairs, seated, k, n = tables.pairs, tables.seated, tables.k, tables.pairs.n
    if not seated or not pairs.beyond:
        return
    weight = SEAT_WEIGHT * (k - 1) ** 2
    moves = _table_moves(k)
    tenure = min(max(2, len(seated) // 10), len(seated) - 1)
    changed_at = [-tenure - 1] * len(seated)
    measure = 0
    best = (len(pairs.beyond), measure)
    kept = [list(seats) for seats in seated]
    step = fewest_at = 0
    fewest = len(pairs.beyond)
    while work > 0 and step - fewest_at <= WALK_STALL:
        step += 1
        if tables.uneven and (not pairs.beyond or rng.random() < 0.5):
            uneven = [e for e, row in tables.counts.items() if max(row) - min(row) > 1]
            holding = tables.tables_of[uneven[rng.randrange(len(uneven))]]
        else:
            a, b = divmod(sorted(pairs.beyond)[rng.randrange(len(pairs.beyond))], n)
            holding = tables.together.get((a, b) if a < b else (b, a)) or tables.tables_of.get(a, [])
        if not holding:
            break  # a pair beyond ±1 whose entrant sits in none of these tables
        free = [t for t in holding if step - changed_at[t] > tenure] or holding
        if len(free) > WALK_TABLES:
            free = rng.sample(free, WALK_TABLES)
        work -= len(free) * len(moves)
        if rng.random() < 0.02:
            t, p = free[rng.randrange(len(free))], moves[rng.randrange(len(moves))][2]
        else:
            low: int | None = None
            ties: list[tuple[int, tuple[int, ...]]] = []
            for u in free:
                old = seated[u]
                pairs.play(old, -1)
                cost = pairs.costs(old, 1, False)
                pairs.play(old, 1)
                kept_cost = sum(cost[((s - 1) % k) * k + s] for s in range(k))
                shifts = tables.moves(u)
                for arcs, moved, q in moves:
                    energy = sum(arcs(cost)) - kept_cost + weight * sum(moved(shifts))
                    if low is None or energy < low:
                        low, ties = energy, [(u, q)]
                    elif energy == low:
                        ties.append((u, q))
            t, p = ties[rng.randrange(len(ties))]
        measure += tables.move(t, [seated[t][s] for s in p])
        changed_at[t] = step
        if not tables.uneven and len(pairs.beyond) < fewest:
            fewest, fewest_at = len(pairs.beyond), step
        if not tables.uneven and (len(pairs.beyond), measure) < best:
            best = (len(pairs.beyond), measure)
            if not pairs.beyond:
                return
            kept = [list(seats) for seats in seated]
    for t, seats in enumerate(kept):
        tables.move(t, seats)


def _reachable(pairs: _Pairs) -> bool:
    """Whether ±1 of every share may be reached by circular orders alone (each counts K partidos of
    its pairs): not when some pair's share is farther than 1 from every multiple of K."""
    k1, k = pairs.k - 1, pairs.k
    step = k1 * k  # d moves by (K − 1) K per order
    return all(min(m % step, step - m % step) <= k1 for m in set(pairs.met) if m)


def _search_circles(circles: Sequence[tuple[list[int], bool]], pairs: _Pairs, rng: random.Random) -> None:
    """Bring the circular orders' "B right after A" close to each pair's share: coordinate descent
    (:func:`_even_circles`), then, where ±1 may be reached (:func:`_reachable`) and is not yet,
    the focused walk (:func:`_walk_circles`) and the descent again."""
    _even_circles(circles, pairs)
    if pairs.beyond and _reachable(pairs):
        _walk_circles(circles, pairs, rng, min(WALK_WORK, WALK_PER_PIECE * len(circles)))
        _even_circles(circles, pairs)


def _search_tables(tables: _Seated, rng: random.Random) -> None:
    """Bring "B right after A" close to each pair's share by re-seating the tables, keeping every
    entrant's seat counts within one: descent (:func:`_spread_neighbours`), then, while a pair is
    beyond ±1, the focused walk (:func:`_walk_tables`) and the descent again."""
    _spread_neighbours(tables)
    if tables.pairs.beyond:
        _walk_tables(tables, rng, min(TABLE_WORK, TABLE_PER_PIECE * len(tables.seated)))
        _spread_neighbours(tables)


def duplicate_orders(
    tables: Sequence[tuple[int, tuple[int, ...]]], k: int, rng: random.Random
) -> list[list[tuple[int, ...]]]:
    """Per table: every order of a shuffled base (K = 3), or the K cyclic rotations of one circular
    order (K >= 4), the circular orders chosen greedily deal after deal, then searched
    (:func:`_search_circles`) so that every ordered pair's "B right after A" comes close to its
    share (:class:`_Pairs`): A right after B about as often as B after A, and the pairs even among
    themselves (within ±1 of the share where the design allows it: a pair's count is a multiple of
    K, so its share must be within 1 of one, and the search must find such orders)."""
    n = 1 + max((e for _round, members in tables for e in members), default=0)
    pairs = _Pairs(n, k)
    bases: list[list[int]] = []
    circles: list[tuple[list[int], bool]] = []
    if k > 3:
        for _round, members in tables:
            pairs.meet(members, k)
        pairs.mark()
    for _round, members in tables:
        if k == 3:
            base = list(members)
            rng.shuffle(base)
        else:
            base = _circle(members, False, pairs, rng)
            circles.append((base, False))
        bases.append(base)
    _search_circles(circles, pairs, rng)
    out = []
    for base in bases:
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
    """Seat orders balanced per entrant (seats) and per ordered pair (who plays right after whom).

    Passes go in blocks: each block of 2K passes seats each subset under the K cyclic
    rotations of one circular order and then the K rotations of its reverse, so every
    entrant sits in every seat equally and, within the block, A plays right after B as
    often as B after A; a last block of K passes (when K more are left) the K rotations
    alone. The blocks' circular orders are chosen greedily (:func:`_circle`) and then searched
    (:func:`_search_circles`) towards each ordered pair's share of the blocks' partidos
    (:class:`_Pairs`): the blocks of 2K passes against their own share first, then the last
    block of K passes given them, then all together if a pair is still beyond ±1 (5 entrants at
    tables of 4 over 100 passes: the 60 orders of the 2K blocks and the 5 of the last reach the
    share, 100 for every ordered pair, one after the other, where one search of all 65 stopped
    at 96 to 104). The tables at ``fixed`` keep their order (developments, exactly balanced by
    construction, their base blocks' orders searched by :meth:`_Cyclic._order`). The remaining
    tables are seated as :func:`seat_balanced` does, each entrant's counts within one, and
    searched (:func:`_search_tables`) towards each pair's share of the whole schedule, given the
    blocks and the fixed tables.
    """
    doubles, left = divmod(passes, 2 * k)
    cycled = 2 * k * doubles + (k if left >= k else 0)
    pairs = _Pairs(n, k)
    base: dict[tuple[tuple[int, ...], int], list[int]] = {}
    circles: list[tuple[list[int], bool]] = []
    rest: list[tuple[int, ...]] = []
    pieces: dict[tuple[tuple[int, ...], int], bool] = {}  # (subset, block): played both ways round
    for i, (r, members) in enumerate(tables):
        if i not in fixed and r < cycled:
            pieces[(members, r // (2 * k))] = r // (2 * k) < doubles  # a block of 2K passes: both
    for ways in (True, False):  # the blocks of 2K passes first: their own share, then with the last
        for (members, _block), both in pieces.items():
            if both == ways:
                pairs.meet(members, 2 * k if both else k)
        pairs.mark()
        added: list[tuple[list[int], bool]] = []
        for (members, block), both in pieces.items():
            if both == ways:
                base[(members, block)] = circle = _circle(members, both, pairs, rng)
                added.append((circle, both))
        _search_circles(added, pairs, rng)
        circles += added
    if pairs.beyond and len(circles) > len(added) > 0:
        _search_circles(circles, pairs, rng)  # the blocks of 2K passes may help the last
    for i, (r, members) in enumerate(tables):
        if i in fixed:
            pairs.meet(members)
            pairs.play(members, 1, mark=False)  # counted in beyond by _Seated
        elif r >= cycled:
            rest.append(members)
    seated = _colour(rest, n, k)
    _search_tables(_Seated(seated, pairs), rng)
    out: list[list[tuple[int, ...]]] = []
    left_seats = iter(seated)
    for i, (r, members) in enumerate(tables):
        if i in fixed:
            out.append([members])
        elif r < cycled:
            block, offset = divmod(r, 2 * k)
            order = base[(members, block)]
            if offset >= k:
                order, offset = order[::-1], offset - k
            out.append([tuple(order[offset:] + order[:offset])])
        else:
            out.append([tuple(next(left_seats))])
    return out


def seat_balanced(
    tables: Sequence[Sequence[int]], n: int, k: int, rng: random.Random | None = None
) -> list[tuple[int, ...]]:
    """Seat each table so every entrant's counts per seat differ by at most one (:func:`_colour`),
    then search the seats (:func:`_search_tables`) so that who plays right after whom comes close
    to each ordered pair's share (:class:`_Pairs`). ``rng``: the search's draws; by default one
    seeded from the tables (so the same tables are seated the same)."""
    seated = _colour(tables, n, k)
    if rng is None:
        rng = random.Random(hashlib.sha256(repr([list(t) for t in tables]).encode()).hexdigest())
    _search_tables(_Seated(seated, _Pairs(n, k)), rng)
    return [tuple(seats) for seats in seated]


def _colour(tables: Sequence[Sequence[int]], n: int, k: int) -> list[list[int]]:
    """Seats for ``tables`` with every entrant's counts per seat within one of each other.

    A proper K-edge-colouring (colour = seat) of the bipartite graph between
    tables and entrant "chunks": each entrant's appearances, in table order, are
    cut into chunks of K, so a chunk sits in each seat at most once and a full
    chunk exactly once. König's theorem says such a colouring exists; it is built
    one edge at a time, flipping an alternating path when the free colours differ.
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
    return [[owner[at[t][c]] for c in range(k)] for t in range(t_count)]


def _orders_within(allowed: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Every assignment of distinct seats, seat ``p[i]`` for member ``i`` taken from ``allowed[i]``
    (the first: each member's first allowed seat)."""
    k = len(allowed)
    taken = [False] * k
    chosen = [0] * k

    def place(i: int) -> Iterator[tuple[int, ...]]:
        if i == k:
            yield tuple(chosen)
            return
        for s in allowed[i]:
            if not taken[s]:
                taken[s] = True
                chosen[i] = s
                yield from place(i + 1)
                taken[s] = False

    return place(0)


def _spread_neighbours(tables: _Seated, work: int = SPREAD_WORK) -> None:
    """Re-seat tables where that brings "B plays right after A" closer to each pair's share.

    The measure is :class:`_Pairs`'s. Two moves: a table re-seated in its best order among
    those that keep every member's seat counts within one (each member moving only to a seat
    it has sat in less often than the one it leaves); or two tables at once where A and B trade
    seats i and j in one and j and i in the other (counts unchanged). Passes over the tables
    until no move improves, or ``work`` orders weighed and tables scanned. Deterministic.
    """
    seated, pairs, counts, k = tables.seated, tables.pairs, tables.counts, tables.k
    every = list(range(k))

    def reseat(t: int, seats: list[int]) -> bool:
        """Re-seat a table in its best order allowed by its members' seat counts; whether it changed."""
        nonlocal work
        allowed = []
        for i, e in enumerate(seats):
            row = counts[e]
            high, low = max(row), min(row)
            allowed.append(
                [i] if row[i] != high or high == low else [i] + [j for j in every if row[j] == low]
            )
        if all(len(a) == 1 for a in allowed):
            return False
        pairs.play(seats, -1)
        cost = pairs.costs(seats, 1, False)
        pairs.play(seats, 1)
        best: tuple[int, ...] | None = None
        low_cost = 0
        for p in _orders_within(allowed):
            work -= 1
            order = [0] * k
            for i, s in enumerate(p):
                order[s] = i
            total = sum(cost[order[s - 1] * k + order[s]] for s in range(k))
            if best is None or total < low_cost:
                best, low_cost = p, total
        assert best is not None  # the identity is always allowed, and enumerated first
        new = list(seats)
        for i, s in enumerate(best):
            new[s] = seats[i]
        if new == seats:
            return False
        tables.move(t, new)
        return True

    improved = True
    while improved and work > 0:
        improved = False
        for t, seats in enumerate(seated):
            if work <= 0:
                break
            if reseat(t, seats):
                improved = True
            for i, j in itertools.combinations(range(k), 2):
                a, b = seats[i], seats[j]
                for u in tables.together[(a, b) if a < b else (b, a)]:
                    work -= 1
                    other = seated[u]
                    if u == t or other[j] != a or other[i] != b:
                        continue
                    swapped, other_swapped = list(seats), list(other)
                    swapped[i], swapped[j] = b, a
                    other_swapped[i], other_swapped[j] = a, b
                    old = list(seats)
                    change = tables.move(t, swapped)
                    change += pairs.change(other, other_swapped, 1, False)
                    if change < 0:
                        tables.move(u, other_swapped)
                        improved = True
                        break
                    tables.move(t, old)


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
    spread: float = 0.0
    """For each ordered pair (A, B) that met, |partidos B played right after A − its share|, the share
    being the partidos they played together / (K − 1) (the mean: each of the K − 1 others follows
    an entrant equally often; see ``_Pairs``): the largest. At most 1: every ordered neighbour pair
    within ±1 of its mean."""
    beyond: int = 0
    """The ordered pairs that met farther than 1 from their share."""


def seating_balance(entrants: int, table_size: int, seats: Iterable[Sequence[int]]) -> SeatingBalance:
    """The balance of ``seats`` (each partido's entrants by seat) among ``entrants`` at tables of
    ``table_size`` (play goes from seat s to s + 1, mod the table)."""
    positions = [[0] * table_size for _e in range(entrants)]
    after: Counter[tuple[int, int]] = Counter()
    met: Counter[tuple[int, int]] = Counter()
    for table in seats:
        for s, e in enumerate(table):
            positions[e][s] += 1
            after[(e, table[(s + 1) % len(table)])] += 1
        met.update(itertools.permutations(table, 2))
    counts = [after[pair] for pair in met] or [0]
    share = max(1, table_size - 1)
    off = [abs(after[pair] - met[pair] / share) for pair in met]
    return SeatingBalance(
        position=max((max(row) - min(row) for row in positions if any(row)), default=0),
        neighbours=max((abs(after[(a, b)] - after[(b, a)]) for a, b in met), default=0),
        fewest=min(counts),
        most=max(counts),
        spread=max(off, default=0.0),
        beyond=sum(d > 1 + 1e-9 for d in off),
    )
