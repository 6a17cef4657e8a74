"""The rules of Tute Cabrero as pure functions: the file to read to learn the game.

Everything here follows ``docs/rules.md`` (rule numbers in brackets point
into the course's rulebook). Cards are ints and card sets are bit masks, as in
:mod:`arena.games.common.cards`; nothing here keeps state or does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from arena.games.common.cards import ABOVE, RANK, SUIT_MASK, card
from arena.games.common.tute import (
    CANTO_NAMES,
    CUARENTA,
    PAIR_MASK,
    TUTE,
    FrozenRules,
    RulesError,
    beats,
    canto_name,
    has_tute,
)
from arena.games.common.tute import (  # re-exported: the rules of Tute Cabrero in one module
    CUARENTA_POINTS as CUARENTA_POINTS,
)
from arena.games.common.tute import (
    KING as KING,
)
from arena.games.common.tute import (
    KNIGHT as KNIGHT,
)
from arena.games.common.tute import (
    LAST_BAZA_BONUS as LAST_BAZA_BONUS,
)
from arena.games.common.tute import (
    RULE_FAULTS as RULE_FAULTS,
)
from arena.games.common.tute import (
    TUTE_MASKS as TUTE_MASKS,
)
from arena.games.common.tute import (
    VEINTE_POINTS as VEINTE_POINTS,
)
from arena.games.common.tute import (
    FaultError as FaultError,
)
from arena.games.common.tute import (
    baza_winner as baza_winner,
)
from arena.games.common.tute import (
    canto_points as canto_points,
)
from arena.games.common.tute import (
    canto_suit as canto_suit,
)
from arena.i18n import _

RULESETS: tuple[str, ...] = ("cabrero-2002", "rioplatense")
DEFAULT_RULESET = RULESETS[0]
VARIANTS: tuple[str, ...] = ("rotating-trump", "mano-tiebreak", "tute-wins-partido", "hasta-un-ganador")
RENUNCIO_POLICIES: tuple[str, ...] = ("disqualify", "penalize", "accuse")
MIN_PLAYERS, MAX_PLAYERS = 3, 6
STARTING_POROTOS = 4


class RuleSet(FrozenRules):
    """Everything that names how a partido is played; recorded with every result.

    Immutable and hashable. (A hand-written class rather than a dataclass keeps
    player processes quick to start.)
    """

    __slots__ = ("renuncio", "ruleset", "variants")
    ruleset: str
    variants: frozenset[str]
    renuncio: str

    def __init__(
        self, ruleset: str = DEFAULT_RULESET, variants: Iterable[str] = (), renuncio: str = "disqualify"
    ) -> None:
        if ruleset not in RULESETS:
            raise RulesError(
                _("unknown ruleset {name}; known: {known}").format(
                    name=repr(ruleset), known=", ".join(RULESETS)
                )
            )
        if isinstance(variants, str):
            variants = (variants,)
        for v in variants:
            if v not in VARIANTS:
                raise RulesError(
                    _("unknown variant {name}; known: {known}").format(
                        name=repr(v), known=", ".join(VARIANTS)
                    )
                )
        if renuncio not in RENUNCIO_POLICIES:
            raise RulesError(
                _("unknown renuncio policy {name}; known: {known}").format(
                    name=repr(renuncio), known=", ".join(RENUNCIO_POLICIES)
                )
            )
        object.__setattr__(self, "ruleset", ruleset)
        object.__setattr__(self, "variants", frozenset(variants))
        object.__setattr__(self, "renuncio", renuncio)

    def _key(self) -> tuple[str, frozenset[str], str]:
        return (self.ruleset, self.variants, self.renuncio)

    def __repr__(self) -> str:
        return f"RuleSet({self.ruleset!r}, {sorted(self.variants)!r}, {self.renuncio!r})"

    def has(self, variant: str) -> bool:
        return variant in self.variants

    def to_dict(self) -> dict[str, object]:
        """The ``rules`` object of the protocol and the replay."""
        return {"ruleset": self.ruleset, "renuncio": self.renuncio, "variants": sorted(self.variants)}

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> RuleSet:
        variants = d.get("variants") or ()
        if not isinstance(variants, (list, tuple)):
            raise RulesError(_("rules.variants must be a list, got {value}").format(value=repr(variants)))
        return cls(
            str(d.get("ruleset", DEFAULT_RULESET)),
            frozenset(map(str, variants)),
            str(d.get("renuncio", "disqualify")),
        )


def check_table_size(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise RulesError(_("a table has 3 to 6 players, not {n}").format(n=n))


# ---------------------------------------------------------------- dealing [2, 19-21]


def cards_per_player(active: int) -> int:
    """Cards dealt to each dealt-in player when ``active`` players are at the table."""
    check_table_size(active)
    return {3: 13, 4: 10, 5: 8, 6: 8}[active]


def rotating_trump(mano_number: int) -> int:
    """Trump of the k-th mano under ``rotating-trump`` [25.1]: oro, copa, espada, basto, ..."""
    return (mano_number - 1) % 4


def seat_right(seat: int, active: Sequence[bool]) -> int:
    """The next active seat after ``seat`` (to its right), wrapping."""
    n = len(active)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if active[s]:
            return s
    raise RulesError("no active seat")  # not shown


def seat_left(seat: int, active: Sequence[bool]) -> int:
    """The previous active seat before ``seat`` (to its left), wrapping."""
    n = len(active)
    for i in range(1, n + 1):
        s = (seat - i) % n
        if active[s]:
            return s
    raise RulesError("no active seat")  # not shown


Swap = tuple[int, int, int]
"""A cambio exchange: (seat, card given up, card taken)."""


def _holder(hands: Sequence[int], c: int) -> int:
    for s, h in enumerate(hands):
        if h >> c & 1:
            return s
    raise RulesError(f"nobody holds card {c}")  # not shown


def _exchange(hands: list[int], seat: int, gave: int, took: int) -> Swap:
    hands[seat] = (hands[seat] & ~(1 << gave)) | (1 << took)
    return (seat, gave, took)


def first_mano_swap(hands: list[int], leftover: int) -> tuple[int, list[Swap], int]:
    """Three players, first mano [19.1]: who is mano, the face-down swap, the card out.

    The holder of ``2-oro`` takes the face-down leftover and puts ``2-oro`` out of
    play; if ``2-oro`` is the leftover, the holder of ``4-oro`` is mano and
    ``2-oro`` is turned face up. ``hands`` is changed in place.
    """
    two, four = card(2, "oro"), card(4, "oro")
    if leftover == two:
        return _holder(hands, four), [], two
    seat = _holder(hands, two)
    return seat, [_exchange(hands, seat, two, leftover)], two


def cambio(hands: list[int], leftover: int) -> tuple[list[Swap], int]:
    """Three players, later manos [19.2]: the public cambio with the face-up leftover.

    Returns the exchanges in the order applied and the card left out of play;
    ``hands`` is changed in place.
    """
    trump, rank = leftover // 10, RANK[leftover]
    two, seven = card(2, trump), card(7, trump)
    if rank in (2, 4):
        return [], leftover
    if rank in (5, 6, 7):
        return [_exchange(hands, _holder(hands, two), two, leftover)], two
    first = _exchange(hands, _holder(hands, seven), seven, leftover)
    second = _exchange(hands, _holder(hands, two), two, seven)
    return [first, second], two


# ---------------------------------------------------------------- a baza [3-6]


def legal_mask(hand: int, lead: int, winning: int, trump: int) -> int:
    """The cards of ``hand`` that may be played [6].

    ``lead`` is the led suit (-1 when leading: anything goes) and ``winning`` the
    card winning the baza so far. Follow suit and beat if possible, else follow
    suit; without the suit, a trump that beats; else any card.
    """
    if lead < 0:
        return hand
    follow = hand & SUIT_MASK[lead]
    if follow:
        if winning // 10 == lead:
            return (follow & ABOVE[winning]) or follow
        return follow
    trumps = hand & SUIT_MASK[trump]
    if trumps:
        if winning // 10 != trump:
            return trumps
        higher = trumps & ABOVE[winning]
        if higher:
            return higher
    return hand


def proven_renuncios(bazas: Sequence[Sequence[tuple[int, int]]], trump: int) -> dict[int, list[int]]:
    """The renuncios the public play of a mano proves, by seat: the cards each played when it held one
    it played later that the rules would have had it play instead [6, 25.4].

    ``bazas`` are the mano's bazas so far as (seat, card) in playing order, the one in
    progress last. A card ``c`` played on a baza is proven a renuncio when the same seat
    later plays a card ``d`` such that ``c`` is not legal in the hand ``{c, d}``: with ``d``
    in hand (it was: cards only leave hands) the whole hand forbade ``c`` too, as the rules
    only ever narrow what a bigger hand may play.
    """
    later: dict[int, int] = {}  # seat -> the cards it plays after the current point, as a mask
    proven: dict[int, list[int]] = {}
    for baza in reversed(bazas):
        for i in range(len(baza) - 1, -1, -1):
            seat, c = baza[i]
            if i > 0:
                lead = baza[0][1] // 10
                winning = baza[0][1]
                for _s, x in baza[1:i]:
                    if beats(x, winning, trump):
                        winning = x
                rest = later.get(seat, 0)
                while rest:
                    d = (rest & -rest).bit_length() - 1
                    rest &= rest - 1
                    if not legal_mask((1 << c) | (1 << d), lead, winning, trump) >> c & 1:
                        proven.setdefault(seat, []).insert(0, c)
                        break
            later[seat] = later.get(seat, 0) | 1 << c
    return proven


# ---------------------------------------------------------------- cantos [12-18]

_KNIGHTS = TUTE_MASKS[1]
assert all(KING[s] == KNIGHT[s] + 1 for s in range(4))  # each rey's card id follows its caballo's


def valid_cantos(hand: int, trump: int, sung_suits: int) -> list[str]:
    """The cantos ``hand`` may sing now; ``sung_suits`` is the set (bits) already sung."""
    out = [TUTE] if has_tute(hand) else []
    if hand & hand >> 1 & _KNIGHTS:  # some caballo with its rey (the next card id): a pair to look at
        for s in range(4):
            if not sung_suits >> s & 1 and (hand & PAIR_MASK[s]) == PAIR_MASK[s]:
                out.append(canto_name(s, trump))
    return out


def is_valid_canto(canto: str, hand: int, trump: int, sung_suits: int) -> bool:
    """Whether ``canto`` may be sung from ``hand`` now (the singer just won a baza)."""
    if canto == CUARENTA:
        s = trump
    elif canto == TUTE:
        return has_tute(hand)
    elif canto in CANTO_NAMES:
        s = CANTO_NAMES.index(canto)
        if s == trump:
            return False  # the trump pair is the cuarenta, not a veinte
    else:
        return False
    return not sung_suits >> s & 1 and (hand & PAIR_MASK[s]) == PAIR_MASK[s]


# ---------------------------------------------------------------- who loses [7-10, 22]


def mano_losers(
    rules: RuleSet,
    dealt: Sequence[int],
    bazas: Sequence[int],
    scores: Sequence[int],
    card_points: Sequence[int],
    sang_pair: Sequence[bool],
) -> list[int]:
    """The seats that lose a mano played to its last baza.

    ``dealt`` lists the dealt-in seats from the mano (first to lead) going right;
    the other arguments are indexed by seat: bazas taken, scores (cards + 10 de
    última + cantos), card points alone, and whether the seat sang a cuarenta or
    veinte. The six-player dealer is not in ``dealt`` and so never loses [21].
    """
    total = sum(bazas[s] for s in dealt)
    for s in dealt:
        if bazas[s] == total:  # capote [7, 18]
            return [s] if sang_pair[s] else sorted(t for t in dealt if t != s)
    in_baza = [s for s in dealt if bazas[s] > 0]  # "P": only those who took cards [9]
    rioplatense = rules.ruleset == "rioplatense"
    if rioplatense:
        for s in in_baza:
            if card_points[s] == 120:
                return sorted(t for t in in_baza if t != s)
    value: dict[int, float] = {s: float(scores[s]) for s in in_baza}
    if rules.has("mano-tiebreak"):  # [25.2]: 1/2 to the mano, 1/4 to the next, ...
        for i, s in enumerate(dealt):
            if s in value:
                value[s] += 0.5 ** (i + 1)
    hi, lo = max(value.values()), min(value.values())
    if len(in_baza) == 2:  # [8]: the lower loses; a tie, both [22]
        return sorted(s for s in in_baza if value[s] == lo)
    middle = [s for s in in_baza if lo < value[s] < hi]  # "los del medio" [9]
    if middle:
        return sorted(middle)
    if rioplatense and hi != lo:
        return sorted(s for s in in_baza if value[s] < hi)
    return sorted(in_baza)  # nobody in the middle: all who took cards lose [22]
