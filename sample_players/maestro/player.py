"""'Maestro': determinized search that reads the opponents as well as the cards.

It builds on ``fuerte`` (read that first) and adds:

1. **Who are the others?** Each opponent is modelled by its *profile*: a style of
   play for leading, for following a baza it can win and one it cannot, each one of
   ``azar`` (a random legal card), ``a_mas`` (win cheaply, lead strong), ``a_menos``
   (duck, lead low), ``alto`` (its strongest card) and ``bajo`` (its weakest), and a way
   of singing (``canta``: all, ``calla``: only tute and the cuarenta). After every mano
   played out, every card an opponent held is known (it played them all), so the exact
   likelihood of its play under each style updates a per-opponent belief (Bayes' rule): one
   style throughout, or a style per situation drawn apart (:func:`posterior`).
2. **Which deals explain the play?** The hidden hands are dealt consistently with
   the rules' certainties (voids, no trump, no higher card: :func:`infer`), and
   then *weighted* by how likely each opponent's play so far is in that deal under
   its mixture of profiles (:func:`style_loglik`, :func:`evidence`); the search rolls out deals
   drawn again in proportion to those weights (importance resampling).
3. **Rollouts that play like the table.** In each rollout every opponent plays
   the profile drawn from its posterior for that deal; the player itself ducks.
4. **A tree over its own later moves.** Below each candidate, a small Monte Carlo
   tree search (UCB1, nodes shared by every deal that leads to the same visible
   history) chooses the player's own next moves instead of random ones. Equivalent
   cards are one candidate, and candidates clearly worse on the same deals are dropped.

Options: ``seed`` (default 2002), ``budget_ms`` (default 30% of the referee's
``move_ms``, at most 300 ms), ``simulations`` (a fixed amount of search per
move: as many rollouts as that many deals for every candidate; with it the same seed and partido
give the same moves).
See README.md.
"""

from __future__ import annotations

import bisect
import gc
import math
import random
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from arena.cards import ABOVE, NAMES, POINTS, SUIT_MASK, cards_of, parse, parse_mask
from arena.engine import Mano
from arena.games.cabrero.inference import Dealer, Knowledge, infer
from arena.rules import CUARENTA, TUTE, beats, canto_suit, legal_mask, valid_cantos
from arena.sdk import Move, Player, PlayRequest

# ---------------------------------------------------------------- what the play proves


# ---------------------------------------------------------------- styles of play (opponent models)

AZAR, A_MAS, A_MENOS, ALTO, BAJO = 0, 1, 2, 3, 4
STYLES = ("azar", "a_mas", "a_menos", "alto", "bajo")
"""How a player may choose its card: at random, as the samples a_mas and a_menos, or always its
strongest (``alto``) or weakest (``bajo``) legal card, trumps first and last respectively."""
DETERMINISTIC = (A_MAS, A_MENOS, ALTO, BAJO)
CANTA, CALLA = 0, 1
SINGING = ("canta", "calla")
"""How a player may sing: every canto it may (``canta``), or only tute and the cuarenta."""
PURE_SINGING = (CANTA, CANTA, CALLA, CANTA, CALLA)
"""How each style sings when a player plays it throughout (as the sample of that name does)."""
PRIOR = (0.3, 0.2, 0.2, 0.15, 0.15)
"""Belief in each style before an opponent has shown anything."""
LEAD, WIN, DUCK, SING = 0, 1, 2, 3
"""The situations a player decides in: leading a baza, following one it can win (some legal
card beats the card winning it), following one it cannot win, and singing."""
PLAYING = (LEAD, WIN, DUCK)
Profile = tuple[int, int, int, int]
"""A player's profile: its style in each of the ``PLAYING`` situations, and how it sings."""
PURE: tuple[Profile, ...] = tuple((t, t, t, PURE_SINGING[t]) for t in range(len(STYLES)))
"""The profiles of a player of one style throughout, like the sample players."""
MIXED = 0.2
"""The prior belief that an opponent picks its style for each situation apart (uniformly),
rather than playing one style throughout."""
NOISE = 0.1
"""A deterministic style plays its own card with probability 1 - NOISE (+ its share of NOISE)."""
Rows = list[list[float]]
"""By situation (``LEAD``, ``WIN``, ``DUCK``, ``SING``), a log-likelihood for each style (of play,
or of singing) of an opponent's decisions in it."""

RANK_MASK = tuple(sum(1 << (suit * 10 + r) for suit in range(4)) for r in range(10))
"""The four cards of each strength (0: the 2s, ..., 9: the ases)."""
KNIGHTS = RANK_MASK[6]
KINGS = RANK_MASK[7]


def weakest(cards_mask: int) -> int:
    """The weakest card of a non-empty set (ties: the first suit). A card's points grow with
    its strength, so it is also the cheapest."""
    for r in range(10):
        x = cards_mask & RANK_MASK[r]
        if x:
            return (x & -x).bit_length() - 1
    raise ValueError("no card")


def strongest(cards_mask: int) -> int:
    """The strongest card of a non-empty set (ties: the first suit)."""
    for r in range(9, -1, -1):
        x = cards_mask & RANK_MASK[r]
        if x:
            return (x & -x).bit_length() - 1
    raise ValueError("no card")


def can_win(legal: int, winning: int, trump: int) -> bool:
    """Whether one of the ``legal`` cards beats ``winning``, the card winning the baza."""
    return bool(legal & (ABOVE[winning] | (SUIT_MASK[trump] if winning // 10 != trump else 0)))


def style_card(style: int, legal: int, lead: int, winning: int, trump: int) -> int:
    """The card a deterministic style plays from the ``legal`` cards: ``A_MAS`` and ``A_MENOS``
    exactly as the sample players of those names choose it; ``ALTO`` its strongest trump, else its
    strongest card; ``BAJO`` its weakest card outside trumps, else its weakest trump."""
    trumps = SUIT_MASK[trump]
    if style == ALTO:
        return strongest(legal & trumps or legal)
    if style == BAJO:
        return weakest(legal & ~trumps or legal)
    if lead < 0:
        plain = legal & ~trumps or legal
        # a_mas leads its strongest card outside trumps; a_menos its weakest, trumps last
        return strongest(plain) if style == A_MAS else weakest(plain)
    beaters = legal & (ABOVE[winning] | (trumps if winning // 10 != trump else 0))
    if style == A_MAS:
        return weakest(beaters or legal)  # win as cheaply as it can, else throw its cheapest
    losing = legal & ~beaters
    return strongest(losing) if losing else weakest(legal)  # duck as high as it can


def style_canto(singing: int, cantos: Sequence[str]) -> str | None:
    """What a way of singing sings from the cantos it may sing now: tute, else the cuarenta, else
    (``CANTA``) the first veinte or (``CALLA``) nothing."""
    if not cantos:
        return None
    if TUTE in cantos:
        return TUTE
    if CUARENTA in cantos:
        return CUARENTA
    return None if singing == CALLA else cantos[0]


def play_likelihood(
    style: int, card_id: int, legal: int, lead: int, winning: int, trump: int, noise: float = NOISE
) -> float:
    """P(the style plays ``card_id`` | the legal cards and the baza)."""
    n = legal.bit_count()
    if style == AZAR or n == 1:
        return 1.0 / n
    hit = style_card(style, legal, lead, winning, trump) == card_id
    return (1.0 - noise if hit else 0.0) + noise / n


def canto_likelihood(singing: int, sang: str | None, cantos: Sequence[str], noise: float = NOISE) -> float:
    """P(a way of singing sings ``sang`` (None: nothing) | it may sing ``cantos``)."""
    if not cantos:
        return 1.0
    hit = style_canto(singing, cantos) == sang
    return (1.0 - noise if hit else 0.0) + noise / (len(cantos) + 1)


def no_evidence() -> Rows:
    """:data:`Rows` of nothing seen yet."""
    return [[0.0] * len(STYLES) for _ in PLAYING] + [[0.0] * len(SINGING)]


class Event(NamedTuple):
    """One decision an opponent made this mano, with what was public when it made it."""

    seat: int
    at: int
    """Its place in the mano's cards played (a canto: the card it then led); ``index`` is tuple's."""
    card: int
    """The card played, or -1 for a canto opportunity."""
    lead: int
    winning: int
    sang: str | None
    sung_suits: int
    """Suits already sung before this decision."""


def history(
    order: Sequence[int], played: Sequence[tuple[int, str]], sang_at: dict[int, str], trump: int, me: int
) -> tuple[list[Event], dict[int, list[int]]]:
    """The opponents' decisions this mano and, by seat, the cards each played from each of
    its decisions on (to rebuild its hand at that moment from the hand it holds now)."""
    k = len(order)
    events: list[Event] = []
    lead = winning = -1
    sung_suits = 0
    for i, (seat, name) in enumerate(played):
        c = parse(name)
        if i % k == 0:
            lead = winning = -1
            if i and seat != me:  # led a baza after winning one: it could have sung
                events.append(Event(seat, i, -1, -1, -1, sang_at.get(i), sung_suits))
            canto = sang_at.get(i)
            if canto is not None and canto != TUTE:
                sung_suits |= 1 << canto_suit(canto, trump)
        if seat != me:
            events.append(Event(seat, i, c, lead, winning, None, sung_suits))
        if lead < 0:
            lead, winning = c // 10, c
        elif beats(c, winning, trump):
            winning = c
    later: dict[int, list[int]] = {}
    acc: dict[int, int] = dict.fromkeys(order, 0)
    after = [dict(acc)]
    for i in range(len(played) - 1, -1, -1):
        seat, name = played[i]
        acc[seat] = acc.get(seat, 0) | 1 << parse(name)
        after.append(dict(acc))
    after.reverse()  # after[i][seat]: the cards seat played at index >= i
    for seat in order:
        later[seat] = [after[i].get(seat, 0) for i in range(len(played) + 1)]
    return events, later


def style_cards(legal: int, lead: int, winning: int, trump: int) -> tuple[int, ...]:
    """The card each of the ``DETERMINISTIC`` styles plays (:func:`style_card`), worked out together."""
    trumps = SUIT_MASK[trump]
    plain = legal & ~trumps or legal
    alto, bajo = strongest(legal & trumps or legal), weakest(plain)
    if lead < 0:
        return strongest(plain), bajo, alto, bajo  # a_menos leads as bajo does
    beaters = legal & (ABOVE[winning] | (trumps if winning // 10 != trump else 0))
    losing = legal & ~beaters
    return weakest(beaters or legal), strongest(losing) if losing else weakest(legal), alto, bajo


_DECISIONS: dict[float, dict[int, list[float]]] = {}
"""A cache, by noise: (legal cards, baza, card, trump) -> the log-likelihood of the play under each style."""


def _decision(legal: int, lead: int, winning: int, card_id: int, trump: int, noise: float) -> list[float]:
    """The log-likelihood under each style of playing ``card_id`` from ``legal`` (two or more cards)."""
    cache = _DECISIONS.get(noise)
    if cache is None or len(cache) > 200_000:
        cache = _DECISIONS[noise] = {}
    key = (((legal << 3 | (lead + 1)) << 6 | (winning + 1)) << 6 | card_id) << 2 | trump
    out = cache.get(key)
    if out is None:
        n = legal.bit_count()
        hit, miss = math.log(1.0 - noise + noise / n), math.log(noise / n)
        out = [-math.log(n)] + [
            hit if c == card_id else miss for c in style_cards(legal, lead, winning, trump)
        ]
        cache[key] = out
    return out


def style_loglik(
    events: Sequence[Event],
    later: dict[int, list[int]],
    hands: dict[int, int],
    trump: int,
    noise: float = NOISE,
    start: dict[int, Rows] | None = None,
) -> dict[int, Rows]:
    """By opponent seat, the log-likelihood of its decisions this mano in each situation under
    each style (:data:`Rows`), if it now holds ``hands[seat]``; added to ``start[seat]`` (what
    its earlier play said) when given."""
    out = {s: [row[:] for row in start[s]] if start else no_evidence() for s in hands}
    log = math.log
    for e in events:
        rows = out.get(e.seat)
        if rows is None:
            continue
        held = hands[e.seat] | later[e.seat][e.at]
        if e.card < 0:
            cantos = valid_cantos(held, trump, e.sung_suits)
            if cantos:
                row = rows[SING]
                for t in (CANTA, CALLA):
                    row[t] += log(canto_likelihood(t, e.sang, cantos, noise))
            continue
        legal = legal_mask(held, e.lead, e.winning, trump)
        row = rows[LEAD if e.lead < 0 else WIN if can_win(legal, e.winning, trump) else DUCK]
        if not legal >> e.card & 1:  # impossible in this deal (or a renuncio): very unlikely
            for t in range(len(STYLES)):
                row[t] += -20.0
            continue
        if legal & (legal - 1) == 0:  # one legal card: no choice, no evidence
            continue
        inc = _decision(legal, e.lead, e.winning, e.card, trump, noise)
        row[0] += inc[0]
        row[1] += inc[1]
        row[2] += inc[2]
        row[3] += inc[3]
        row[4] += inc[4]
    return out


class Posterior(NamedTuple):
    """What one opponent's play says of its profile: the log of its evidence (to weigh a deal)
    and cumulative weights to draw a profile from (see :func:`posterior`)."""

    log_evidence: float
    components: list[float]
    """Cumulative: one per pure profile (``PURE``), then the mixed one."""
    parts: list[list[float]]
    """Cumulative, by situation: the mixed player's style (or way of singing) in it (empty when
    the posterior believes in pure profiles only)."""

    def draw(self, rand: Any) -> Profile:
        """A profile drawn from the posterior (``rand``: a ``random.random``)."""
        comp = self.components
        k = bisect.bisect_right(comp, rand() * comp[-1])
        if k < len(PURE):
            return PURE[k]
        a, b, c, d = (_pick(cum, rand) for cum in self.parts)
        return (a, b, c, d)

    def best(self) -> Profile:
        """The profile most believed."""
        comp = _steps(self.components)
        k = max(range(len(comp)), key=comp.__getitem__)
        if k < len(PURE):
            return PURE[k]
        a, b, c, d = (_argmax(_steps(cum)) for cum in self.parts)
        return (a, b, c, d)


def _pick(cum: list[float], rand: Any) -> int:
    return min(bisect.bisect_right(cum, rand() * cum[-1]), len(cum) - 1)


def _steps(cum: list[float]) -> list[float]:
    return [b - a for a, b in zip([0.0, *cum], cum, strict=False)]


def _argmax(xs: list[float]) -> int:
    return max(range(len(xs)), key=xs.__getitem__)


_LOG_PURE = [math.log((1 - MIXED) * p) for p in PRIOR]
_LOG_STYLE = -math.log(len(STYLES))
_LOG_SINGING = -math.log(len(SINGING))
_LOG_MIXED = math.log(MIXED) + len(PLAYING) * _LOG_STYLE + _LOG_SINGING


def _lse(xs: Sequence[float], exp: Any = math.exp) -> float:
    """log(sum(exp(x) for x in xs)), without overflow."""
    top = max(xs)
    return top + math.log(sum([exp(x - top) for x in xs]))


def _pure(rows: Rows) -> list[float]:
    """The log of prior times likelihood of each pure profile."""
    lead, win, duck, sing = rows
    return [_LOG_PURE[t] + lead[t] + win[t] + duck[t] + sing[PURE_SINGING[t]] for t in range(len(STYLES))]


def evidence(rows: Rows, mixed: bool = True) -> float:
    """The log of the probability of an opponent's play (:data:`Rows`) averaged over its profiles
    by the prior (:func:`posterior`'s ``log_evidence``, without what drawing a profile needs)."""
    xs = _pure(rows)
    if not mixed:
        return _lse(xs) - math.log(1 - MIXED)
    lead, win, duck, sing = rows
    xs.append(_LOG_MIXED + _lse(lead) + _lse(win) + _lse(duck) + _lse(sing))
    return _lse(xs)


def _cumulative(xs: Sequence[float]) -> tuple[float, list[float]]:
    """The largest of ``xs`` and the running sums of exp(x - largest)."""
    top = max(xs)
    exp = math.exp
    acc, cum = 0.0, []
    for x in xs:
        acc += exp(x - top)
        cum.append(acc)
    return top, cum


def posterior(rows: Rows, mixed: bool = True) -> Posterior:
    """The posterior over an opponent's profiles from the :data:`Rows` of all its play: one style
    throughout (prior ``(1 - MIXED) * PRIOR``), or (prior ``MIXED``, when ``mixed``) a style for
    each situation drawn apart, uniformly."""
    logs = _pure(rows)
    parts: list[list[float]] = []
    if mixed:
        log_mixed = _LOG_MIXED
        for row in rows:
            top, cum = _cumulative(row)
            log_mixed += top + math.log(cum[-1])
            parts.append(cum)
        logs.append(log_mixed)
    else:
        logs = [x - math.log(1 - MIXED) for x in logs]
        logs.append(-math.inf)
    top, components = _cumulative(logs)
    return Posterior(top + math.log(components[-1]), components, parts)


def _add(a: Rows, b: Rows) -> Rows:
    return [[x + y for x, y in zip(r, q, strict=True)] for r, q in zip(a, b, strict=True)]


def resample(weights: Sequence[float], count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` (systematic resampling: an index
    of weight share ``w`` comes about ``w * count`` times), in random order."""
    total = sum(weights)
    step = total / count
    u = rng.random() * step
    out: list[int] = []
    i, acc = 0, weights[0]
    for k in range(count):
        target = u + k * step
        while acc < target and i < len(weights) - 1:
            i += 1
            acc += weights[i]
        out.append(i)
    rng.shuffle(out)
    return out


# ---------------------------------------------------------------- rollouts


def step(m: Mano, profile: Profile, rng: random.Random) -> int:
    """The player to move sings (as its profile does) and plays a card in its style for the
    situation; returns the card, or -1 when it sang tute (the mano is then over)."""
    hand = m.hands[m.turn]
    if m.may_sing and (hand & hand >> 1 & KNIGHTS or hand & KINGS == KINGS or hand & KNIGHTS == KNIGHTS):
        sing = style_canto(profile[SING], m.cantos())
        if sing is not None:
            m.sing(sing)
            if sing == TUTE:
                return -1
    legal = m.legal()
    situation = LEAD if m.lead < 0 else WIN if can_win(legal, m.winning, m.trump) else DUCK
    style = profile[situation]
    if style == AZAR or legal & (legal - 1) == 0:
        options = cards_of(legal)
        c = options[int(rng.random() * len(options))]
    else:
        c = style_card(style, legal, m.lead, m.winning, m.trump)
    m.play(c)
    return c


def rollout(m: Mano, rng: random.Random, styles: Sequence[Profile], stop: int = -1) -> None:
    """Play ``m`` to its end, every seat in its profile (``styles`` by seat), or until it is
    seat ``stop``'s turn.

    The same play as calling :func:`step` until then (the same cards from the same random
    numbers), with the baza kept in local variables: the search spends most of its time here.
    """
    if m.over or m.turn == stop:
        return
    hands, next_seat, trump = m.hands, m.next_seat, m.trump
    trumps = SUIT_MASK[trump]
    bazas, card_points = m.bazas, m.card_points
    size = len(m.order)
    rand = rng.random
    lead, winning, winner, turn, baza, nbazas = m.lead, m.winning, m.winner, m.turn, m.baza, m.nbazas
    table = m.table
    on_table = len(table)
    taken = sum(POINTS[x] for _s, x in table)
    may_sing = m.may_sing
    while True:
        if turn == stop:
            m.table, m.lead, m.winning, m.winner, m.turn, m.baza = table, lead, winning, winner, turn, baza
            m.may_sing = may_sing
            return
        hand = hands[turn]
        profile = styles[turn]
        if may_sing and (hand & hand >> 1 & KNIGHTS or hand & KINGS == KINGS or hand & KNIGHTS == KNIGHTS):
            sing = style_canto(profile[SING], valid_cantos(hand, trump, m.sung_suits))
            if sing is not None:
                m.turn = turn
                m.sing(sing)
                if sing == TUTE:  # the mano ends here, a baza just completed
                    m.table, m.lead, m.winning, m.winner, m.baza = table, -1, winning, winner, baza
                    m.may_sing = True
                    return
        # the rule of play [6] (rules.legal_mask), inline
        if lead < 0:
            legal = hand
            style = profile[LEAD]
        else:
            follow = hand & SUIT_MASK[lead]
            if follow:
                legal = (follow & ABOVE[winning] or follow) if winning // 10 == lead else follow
            else:
                legal = hand & trumps
                if legal and winning // 10 == trump:
                    legal = legal & ABOVE[winning]
                legal = legal or hand
            style = profile[WIN]
            if style != profile[DUCK] and not legal & (
                ABOVE[winning] | (trumps if winning // 10 != trump else 0)
            ):
                style = profile[DUCK]  # can_win(), inline
        if style == AZAR or legal & (legal - 1) == 0:
            options = cards_of(legal)
            c = options[int(rand() * len(options))]
        else:
            c = style_card(style, legal, lead, winning, trump)
        hands[turn] = hand & ~(1 << c)
        may_sing = False
        if lead < 0:
            lead, winning, winner = c // 10, c, turn
        else:
            suit, wsuit = c // 10, winning // 10
            if (suit == wsuit and c > winning) or (suit == trump and wsuit != trump):  # rules.beats
                winning, winner = c, turn
        taken += POINTS[c]
        on_table += 1
        if on_table < size:
            if stop >= 0:
                table.append((turn, c))
            turn = next_seat[turn]
            continue
        bazas[winner] += 1
        card_points[winner] += taken
        taken = on_table = 0
        table = []
        lead = -1
        turn = winner
        if baza == nbazas:
            break
        baza += 1
        may_sing = True
    m.table, m.lead, m.winning, m.winner, m.turn, m.baza = [], -1, winning, winner, winner, baza
    m.last_winner, m.over, m.may_sing = winner, True, False


# ---------------------------------------------------------------- the tree of my later choices


class Candidate(NamedTuple):
    """A choice: a card (-1 with tute), and the canto sung before it (or None)."""

    card: int
    sing: str | None


def choices(m: Mano) -> list[Candidate]:
    """My moves in ``m`` (my turn): tute alone when I can sing it; else every legal card,
    also after the best canto when I may sing one."""
    legal = cards_of(m.legal())
    cantos = m.cantos()
    if TUTE in cantos:
        return [Candidate(-1, TUTE)]
    out = [Candidate(c, None) for c in legal]
    if cantos:
        sing = CUARENTA if CUARENTA in cantos else cantos[0]
        out += [Candidate(c, sing) for c in legal]
    return out


def apply(m: Mano, move: Candidate) -> None:
    if move.sing is not None:
        m.sing(move.sing)
    if move.card >= 0:
        m.play(move.card)


def others_play(
    m: Mano, me: int, styles: Sequence[Profile], rng: random.Random, coarse: bool = False
) -> tuple[int, ...]:
    """The others play, each in its style, until it is my turn again or the mano is over;
    returns the cards they played (-1: a tute), or with ``coarse`` what the score sheet and
    the baza on the table then show (bazas, card and canto points by seat, the pairs sung)."""
    if coarse:
        rollout(m, rng, styles, me)
        return (*m.bazas, *m.card_points, *m.canto_points, m.sung_suits, *(c for _s, c in m.table))
    out = []
    while not m.over and m.turn != me:
        out.append(step(m, styles[m.turn], rng))
    return tuple(out)


class Node:
    """A moment when I am to play again, reached by one history of my moves and the others'
    replies (their cards, or with ``coarse`` what they did to the score sheet and the baza):
    visits, and (plays, mano not lost) by my move from here."""

    __slots__ = ("moves", "next", "stats", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.moves: list[Candidate] | None = None
        """My moves here, worked out at the first pass: my hand (my own moves led here), the
        baza on the table and whether I may sing (I lead after winning a baza) are the same
        in every deal that reaches this node: its key holds them."""
        self.stats: dict[Candidate, list[int]] = {}
        self.next: dict[tuple[Candidate, tuple[int, ...]], Node] = {}


def descend(
    node: Node,
    m: Mano,
    me: int,
    styles: Sequence[Profile],
    rng: random.Random,
    explore: float,
    coarse: bool = False,
) -> Node:
    """One pass of Monte Carlo tree search over my later moves in ``m`` (played in place to its
    end): down the tree by UCB1 while the nodes are known, then one new node and a rollout.
    Returns the leaf; :func:`backup` records the result."""
    path: list[tuple[Node, Candidate]] = []
    while not m.over:
        if node.visits == 0:
            rollout(m, rng, styles)
            break
        log_n = math.log(node.visits)
        best: Candidate | None = None
        top = -1.0
        moves = node.moves
        if moves is None:
            moves = node.moves = choices(m)
        elif CHECK_NODES and set(moves) != set(choices(m)):
            raise AssertionError(f"a node's moves {moves} are not this deal's {choices(m)}")
        for move in moves:
            st = node.stats.get(move)
            if st is None:
                best = move
                break
            value = st[1] / st[0] + explore * math.sqrt(log_n / st[0])
            if value > top:
                best, top = move, value
        assert best is not None
        path.append((node, best))
        apply(m, best)
        key = (best, others_play(m, me, styles, rng, coarse))
        child = node.next.get(key)
        if child is None:
            child = node.next[key] = Node()
        node = child
    _PATH[:] = path
    return node


_PATH: list[tuple[Node, Candidate]] = []

CHECK_NODES = False
"""Tests set it: every visit of a node checks that its moves are the moves of the deal reaching it."""


def backup(leaf: Node, won: int) -> None:
    """Record a finished pass (``won``: 1 when I did not lose) along the last :func:`descend`."""
    leaf.visits += 1
    for node, move in _PATH:
        node.visits += 1
        st = node.stats.get(move)
        if st is None:
            node.stats[move] = [1, won]
        else:
            st[0] += 1
            st[1] += won


# ---------------------------------------------------------------- the player

TEARDOWN_CAP_S = 0.05
"""The most of a budget kept for freeing the search's objects after it."""

PRUNE_EVERY = 16
"""Searched deals between two looks at which candidates to drop."""
PRUNE_Z = 2.5
"""How sure a drop must be: the loss difference in standard deviations of a paired (McNemar) test."""


def prune(active: list[int], outcomes: list[int], lost: list[int], z: float = PRUNE_Z) -> list[int]:
    """The candidates still worth searching: all but those that lost clearly more often than the
    best on the same deals with the same luck. ``outcomes[j]`` has bit k set when candidate j lost
    on the k-th deal; among the deals where two candidates differ, a difference of more than
    ``z`` standard deviations (sqrt of their number) is not luck."""
    best = min(active, key=lambda j: lost[j])
    keep = []
    for j in active:
        discordant = (outcomes[j] ^ outcomes[best]).bit_count()
        if j == best or lost[j] - lost[best] <= z * math.sqrt(discordant):
            keep.append(j)
    return keep


def distinct(legal: Sequence[int], mine_or_gone: int) -> list[int]:
    """The legal cards less those that play exactly like a weaker one kept: two cards of no
    points in one suit are equivalent when every card between them is in my hand or already
    played (whatever anybody does, either wins, loses and scores as the other would)."""
    out: list[int] = []
    for c in sorted(legal):
        if out and not POINTS[c]:
            k = out[-1]
            between = ((1 << c) - 1) & ~((1 << (k + 1)) - 1)
            if k // 10 == c // 10 and not POINTS[k] and between & ~mine_or_gone == 0:
                continue
        out.append(c)
    return out


class Maestro(Player):
    """Determinized Monte Carlo with opponent models: deals weighted by how well they
    explain the play, rollouts in each opponent's inferred style."""

    name = "Maestro"
    budget_fraction = 0.3
    budget_cap_ms = 300.0
    pool_factor = 4
    """Deals drawn per deal rolled out (the pool the weighted resampling draws from)."""
    self_style = A_MENOS
    """How the player itself plays its later cards in the rollouts, below its tree (-1: a style
    drawn each time). Ducking is what keeps a player safe most often in Cabrero: a rollout in
    which it ducks values a position as a player who can still duck would (at four players,
    40 deals: 22.3 and 22.6 manos lost per 100 against 23.5 and 24.6 playing at random)."""
    tree = True
    """Search my own later moves with a tree (else they are random, as in fuerte)."""
    explore = 0.5
    """UCB1's exploration constant in that tree."""
    coarse = True
    """Key the tree's nodes by what the others' replies did to the score sheet and the baza,
    not by their cards: histories that differ only in which of the others' cards fell share a
    node, so the tree grows deeper (docs/engine.md: at four players, 100 deals, 18.8 manos lost
    per 100 against 19.5 keyed by the cards; within the noise at three, five and six)."""
    prune = True
    """Stop searching the candidates clearly worse than the best (:func:`prune`)."""
    prune_z = PRUNE_Z
    """How sure a drop must be (:func:`prune`)."""
    pool_share = 0.35
    """The share of the budget the pool of deals may take at most (the search has the rest)."""
    mixed = True
    """Believe that an opponent may pick its style for each situation apart, not only play one."""
    noise = NOISE
    """How often a deterministic style is believed to play another card (the likelihoods)."""
    pause_gc = True
    """Pause Python's cyclic garbage collector from a move's request until the move is played.
    The search's deals, rows and trees are many small containers that live for the move: they
    trigger full collections, each of which walks every object of the process (at four players,
    a fifth to a quarter of the move's time and moves up to 500 ms: benchmarks/search_time.py).
    They hold no cycles, so reference counting frees them when the search returns, and the
    collections the move's allocations call for run between moves, when no move is timed."""
    keep_pool = False
    """Keep the last search's pool of deals and their weights in :attr:`last_stats` (tests and
    benchmarks/information.py): thousands of objects the collector then walks after the move."""
    strict = False
    """Tests set it: an error in the search then raises instead of falling back."""

    def __init__(
        self, seed: int = 2002, budget_ms: float | None = None, simulations: int | None = None
    ) -> None:
        super().__init__()
        self.seed = seed
        self.budget_ms = budget_ms
        self.simulations = simulations
        self.partido_id = ""
        self.belief: dict[int, Rows] = {}
        """Seat -> the log-likelihood of its play under each style, from the manos played out so far."""
        self.sang_at: dict[int, str] = {}
        """This mano's cantos, by the index of the card the singer then led."""
        self._dealer: tuple[Knowledge, Dealer] | None = None
        """The dealer of the position being searched (its knowledge, the dealer)."""
        self.gc_paused = False
        """Whether this player paused the garbage collector for its move (:attr:`pause_gc`)."""
        self.teardown_s = 0.01
        """How long a search takes to free its deals and trees once it has chosen (a fading maximum
        of the last ones; a guess before the first)."""
        self.last_stats: dict[str, Any] = {}
        """The last search: its sizes and times, losses by candidate, and with :attr:`keep_pool` its
        pool of deals and their weights (relative to the heaviest) (for curiosity, tests and
        benchmarks/information.py)."""

    def setup(self, name: str, limits: dict[str, int]) -> None:
        if self.budget_ms is None:
            move_ms = limits.get("move_ms", 1000)
            self.budget_ms = min(self.budget_cap_ms, self.budget_fraction * move_ms)

    # ---- what the others are like

    def on_partido_start(self, event: dict[str, Any]) -> None:
        self.partido_id = str(event.get("partido", ""))
        self.belief = {}

    def on_mano_start(self, event: dict[str, Any]) -> None:
        self.sang_at = {}

    def on_sang(self, event: dict[str, Any]) -> None:
        self.sang_at[len(self.view.played)] = str(event["canto"])

    def on_mano_end(self, event: dict[str, Any]) -> None:
        """A mano played out shows every hand (each played all its cards): score the styles."""
        self.resume_gc()  # a tute sung ends the mano with no card played
        if event.get("outcome") not in ("points", "capote"):
            return
        view = self.view
        me = view.seat
        events, later = history(view.order, view.played, self.sang_at, view.trump_suit, me)
        empty = {s: 0 for s in view.order if s != me}
        for seat, rows in style_loglik(events, later, empty, view.trump_suit, self.noise).items():
            self.belief[seat] = _add(self.beliefs(seat), rows)

    def beliefs(self, seat: int) -> Rows:
        """What ``seat``'s play so far says of each style (:data:`Rows`; nothing before it has
        shown its play)."""
        if seat not in self.belief:
            self.belief[seat] = no_evidence()
        return self.belief[seat]

    def profile(self, seat: int) -> Profile:
        """The profile ``seat`` is most believed to play."""
        return posterior(self.beliefs(seat), self.mixed).best()

    # ---- the move

    def play(self, request: PlayRequest) -> Move:
        start = time.perf_counter()
        if self.pause_gc and gc.isenabled():
            gc.disable()  # until the move is played (on_played): the collector runs between moves
            self.gc_paused = True
        legal = [parse(c) for c in request.legal()]
        cantos = request.cantos()
        if TUTE in cantos:
            return Move(sing=TUTE)  # the singer cannot lose the mano
        sings: list[str | None] = [None]
        if cantos:
            sings.append(max(cantos, key=lambda c: c == "cuarenta"))
        gone = 0
        for _seat, name in self.view.played:
            gone |= 1 << parse(name)
        legal = distinct(legal, parse_mask(request.hand) | gone)
        candidates = [Candidate(c, s) for s in sings for c in legal]
        choice = candidates[0]  # legal: the fallback if anything goes wrong
        if len(candidates) > 1:
            try:
                choice = self.search(request, candidates, start)
            except Exception:  # never let a bug in the search cost the partido
                self.resume_gc()
                if self.strict:
                    raise
            # Freeing the search's deals and trees (on its return) is part of the move's time too:
            # the next search keeps that much of its budget for it
            # (none known if it failed; a slowly fading maximum, as the searches' sizes vary).
            ended = self.last_stats.get("ended", 0.0)
            took = time.perf_counter() - ended if ended >= start else 0.0
            self.teardown_s = min(max(took, 0.8 * self.teardown_s), TEARDOWN_CAP_S)
        return Move(card=NAMES[choice.card], sing=choice.sing)

    def resume_gc(self) -> None:
        """Let Python's garbage collector run again, if this player's move paused it."""
        if self.gc_paused:
            self.gc_paused = False
            gc.enable()

    def on_played(self, event: dict[str, Any]) -> None:
        self.resume_gc()  # a card was played: no move of mine is being timed

    def on_partido_end(self, event: dict[str, Any]) -> None:
        self.resume_gc()

    def rng(self) -> random.Random:
        """A random stream that depends only on the seed and the position: reproducible."""
        v = self.view
        return random.Random(f"maestro/{self.seed}/{self.partido_id}/{v.seat}/{v.mano}/{len(v.played)}")

    def deals(self, request: PlayRequest, rng: random.Random) -> tuple[Knowledge, Any]:
        """The knowledge and a generator of weighted deals: (hands by seat, log-weight, and by
        seat what all its play says of the styles, :data:`Rows`)."""
        view = self.view
        know = infer(view, request.hand)
        trump = view.trump_suit
        events, later = history(view.order, view.played, self.sang_at, trump, view.seat)
        priors = {s: self.beliefs(s) for s in know.counts}
        prior_z = {s: evidence(rows, self.mixed) for s, rows in priors.items()}
        by_seat = {s: [e for e in events if e.seat == s] for s in know.counts}
        known: dict[tuple[int, int], tuple[Rows, float]] = {}
        """(seat, hand) -> all its play's rows and their log-weight: a seat's likelihood depends on
        its own hand alone, and late in a mano few hands are possible, so most deals repeat one."""

        def draw() -> tuple[dict[int, int], float, dict[int, Rows]]:
            hands = self.sample(rng, know)
            weight = 0.0
            seen: dict[int, Rows] = {}
            for s, h in hands.items():
                hit = known.get((s, h))
                if hit is None:
                    total = style_loglik(by_seat[s], later, {s: h}, trump, self.noise, priors)[s]
                    hit = known[s, h] = (total, evidence(total, self.mixed) - prior_z[s])
                seen[s] = hit[0]
                weight += hit[1]
            return hands, weight, seen

        return know, draw

    def sample(self, rng: random.Random, know: Knowledge) -> dict[int, int]:
        """One deal of the unseen cards (the omniscient benchmark player overrides it)."""
        if self._dealer is None or self._dealer[0] is not know:
            self._dealer = (know, Dealer(know))
        return self._dealer[1].deal(rng)

    def search(self, request: PlayRequest, candidates: list[Candidate], start: float) -> Candidate:
        """The candidate with the lowest weighted loss rate over the resampled deals.

        Phase 1 draws a pool of deals and weighs them; phase 2 draws deals from the pool
        in proportion to their weights (systematic resampling, so a deal of weight 3/N is
        rolled out about 3 times, each time with new rollout luck) and rolls every candidate
        out on each, with common random numbers, until ``simulations`` or the budget.
        """
        view = self.view
        rng = self.rng()
        _know, draw = self.deals(request, rng)
        me = view.seat
        base = request.simulation()
        ruleset = view.ruleset
        budget = (self.budget_ms if self.budget_ms is not None else 300.0) / 1000
        deadline = start + budget - self.teardown_s
        limit = self.simulations
        pool: list[tuple[dict[int, int], float, dict[int, Rows]]] = []
        pool_size = None if limit is None else self.pool_factor * limit
        pool_deadline = start + budget * self.pool_share
        slowest = 0.0
        while True:
            now = time.perf_counter()
            if pool_size is not None:
                if len(pool) >= pool_size:
                    break
            elif pool and now + slowest > pool_deadline:
                break
            pool.append(draw())
            slowest = max(slowest, time.perf_counter() - now)
        pooled = time.perf_counter()
        top = max(w for _h, w, _p in pool)
        weights = [math.exp(w - top) for _h, w, _p in pool]
        total = sum(weights)
        ess = total * total / sum(w * w for w in weights)
        n = len(candidates)
        lost = [0] * n
        margin = [0.0] * n
        nseat = len(base.hands)
        order = resample(weights, limit or len(pool), rng)
        trees: dict[tuple[Candidate, tuple[int, ...]], Node] = {}
        posteriors: dict[int, dict[int, Posterior]] = {}  # by pool index, once it is searched
        outcomes = [0] * n  # bit k: the candidate lost the mano on the k-th searched deal
        active = list(range(n))
        sims = rollouts = 0
        slowest = 0.0
        while True:
            now = time.perf_counter()
            if limit is not None:
                if rollouts >= limit * n:
                    break
            elif sims and now + slowest > deadline:
                break
            i = order[sims % len(order)]
            hands, _w, seen = pool[i]
            post = posteriors.get(i)
            if post is None:
                post = posteriors[i] = {s: posterior(rows, self.mixed) for s, rows in seen.items()}
            styles = [PURE[AZAR]] * nseat
            styles[me] = PURE[self.self_style if self.self_style >= 0 else int(rng.random() * len(PURE))]
            for s, p in post.items():
                styles[s] = p.draw(rng.random)
            root = base.with_hands(hands)
            state = rng.getstate()
            for j in active:
                cand = candidates[j]
                m = root.clone()
                apply(m, cand)
                rng.setstate(state)  # common random numbers
                if self.tree:
                    key = (cand, others_play(m, me, styles, rng, self.coarse))
                    node = trees.get(key)
                    if node is None:
                        node = trees[key] = Node()
                    leaf = descend(node, m, me, styles, rng, self.explore, self.coarse)
                else:
                    rollout(m, rng, styles)
                losers = m.losers(ruleset)
                if self.tree:
                    backup(leaf, me not in losers)
                if me in losers:
                    lost[j] += 1
                    outcomes[j] |= 1 << sims
                margin[j] += self.safety(m, me, losers)
            rollouts += len(active)
            sims += 1
            if self.prune and sims % PRUNE_EVERY == 0:
                active = prune(active, outcomes, lost, self.prune_z)
                if len(active) == 1:
                    break  # the rest can only confirm it
            slowest = max(slowest, time.perf_counter() - now)
        best = min(active, key=lambda j: (lost[j], -margin[j]))
        ended = time.perf_counter()
        self.last_stats = {
            "ended": ended,
            "sims": sims,
            "rollouts": rollouts,
            "pool_ms": (pooled - start) * 1000,
            "search_ms": (ended - pooled) * 1000,
            "ess": ess,
            "candidates": candidates,
            "lost": lost,
            "active": [candidates[j] for j in active],
        }
        if self.keep_pool:
            self.last_stats.update(pool=pool, weights=weights)
        return candidates[best]

    @staticmethod
    def safety(m: Mano, me: int, losers: list[int]) -> float:
        """Tie-break (as fuerte): -1 lost, 1 safe without a baza, else the distance to the
        nearest loser's score as a fraction of 130."""
        if me in losers:
            return -1.0
        if not m.bazas[me]:
            return 1.0
        scores = m.scores()
        mine = scores[me] or 0
        return min((abs(mine - (scores[s] or 0)) for s in losers), default=0) / 130
