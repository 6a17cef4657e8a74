"""The strong sample player (``sample_players/fuerte``): legal, in time, sound inference, reproducible."""

from __future__ import annotations

import importlib.util
import random
import time
from collections.abc import Sequence
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from arena import cards
from arena.cards import ABOVE, SUIT_MASK, parse
from arena.games.cabrero import inference
from arena.player.loader import load_player_class
from arena.referee.table import play_partido
from arena.rules import RuleSet
from arena.sdk import Move, Player, PlayRequest, TableView
from tests.helpers import SEARCH_TABLES
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuerte_player", SAMPLES / "fuerte" / "player.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


F = _load()
OTHERS = [load_player_class(SAMPLES / n) for n in ("a_mas", "a_menos", "random_legal")]


def m(*names: str) -> int:
    return cards.parse_mask(names)


class Strict(F.Fuerte):  # type: ignore[name-defined,misc]
    strict = True


# ---------------------------------------------------------------- legal, in time, reproducible


@pytest.mark.parametrize(("n", "ruleset"), SEARCH_TABLES)
@pytest.mark.parametrize("seed", [11, pytest.param(12, marks=pytest.mark.slow)])  # the second: full run
def test_it_never_faults(n: int, ruleset: RuleSet, seed: int) -> None:
    """Two strong players at every table size (the 6-player dealer sits out): no fault."""
    players: list[Player] = [Strict(seed=1, simulations=8), Strict(seed=2, simulations=8)]
    players += [OTHERS[i % 3]() for i in range(n - 2)]
    result = play_partido(players, seed=seed + n, ruleset=ruleset)
    assert result.faults == []
    assert result.reply_ms[0] and result.reply_ms[1]


def test_the_registered_class_loads_with_defaults() -> None:
    cls = load_player_class(SAMPLES / "fuerte")
    player = cls()
    player.setup("fuerte", {"init_ms": 10_000, "move_ms": 1000})
    assert player.budget_ms == 300
    player = cls()
    player.setup("fuerte", {"init_ms": 10_000, "move_ms": 200})
    assert player.budget_ms == pytest.approx(60)


def test_it_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its deadline logic, on its own CPU clock: load elsewhere on the machine does not count.

    (The wall-clock figure is measured by ``benchmarks/performance/timing.py``, fuerte_budget.)
    """
    monkeypatch.setattr(F, "time", SimpleNamespace(perf_counter=time.thread_time))
    budget = 40.0
    spent: list[float] = []

    class Timed(Strict):
        def play(self, request: PlayRequest) -> Move:
            start = time.thread_time()
            move = super().play(request)
            spent.append((time.thread_time() - start) * 1000)
            return move

    result = play_partido([Timed(budget_ms=budget), OTHERS[0](), OTHERS[1]()], seed=5)  # 13 cards: widest
    assert result.faults == []
    assert spent and max(spent) < budget + 40, spent


def test_same_seed_and_simulations_same_moves() -> None:
    def moves(seed: int) -> list[tuple[int, str]]:
        events: list[dict[str, Any]] = []
        players = [Strict(seed=seed, simulations=6), OTHERS[0](), Strict(seed=seed + 1, simulations=6)]
        play_partido(players, seed=3, sinks=[events.append])
        return [(e["seat"], e["card"]) for e in events if e["type"] == "played"]

    assert moves(9) == moves(9)
    assert moves(9) != moves(10)  # the seed is what decides


def test_it_sings_tute_at_once() -> None:
    view = _view(
        seat=0,
        hand=["12-oro", "12-copa", "12-espada", "12-basto", "2-oro", "4-oro", "5-oro", "6-oro", "7-oro"],
        played=[(0, "4-copa"), (1, "2-copa"), (2, "5-copa"), (3, "6-copa")],
        hand_before=["4-copa"],
    )
    player = Strict(simulations=3)
    player.view = view
    request = PlayRequest(2, 2, view.hand, (), True, view)
    assert player.play(request) == Move(sing="tute")


# ---------------------------------------------------------------- inference


def _view(
    seat: int,
    hand: list[str],
    played: list[tuple[int, str]],
    hand_before: Sequence[str] = (),
    trump: str = "oro",
    shown: str | None = None,
    sung: dict[int, tuple[int, str]] | None = None,
    mano: int = 5,
) -> TableView:
    """A 4-player view at mano ``mano`` (mano seat 0, dealer 3) after ``played``;
    ``sung`` maps a baza number to the (seat, canto) sung before it."""
    view = TableView()
    view.update(
        {"type": "partido_start", "seat": seat, "players": list("abcd"), "rules": RuleSet().to_dict()}
    )
    view.update(
        {
            "type": "mano_start",
            "mano": mano,
            "dealer": 3,
            "mano_seat": 0,
            "sitting_out": None,
            "active": [0, 1, 2, 3],
            "porotos": [4, 4, 4, 4],
            "trump": trump,
            "shown": shown,
            "out_of_play": None,
            "swaps": [],
            "hand": [*hand, *hand_before],
        }
    )
    table: list[tuple[int, str]] = []
    baza = 1
    for s, c in played:
        view.update({"type": "played", "seat": s, "card": c})
        table.append((s, c))
        if len(table) == 4:
            winner = view.winning()
            assert winner is not None
            view.update(
                {
                    "type": "trick_end",
                    "trick": baza,
                    "winner": winner[0],
                    "cards": [{"seat": a, "card": b} for a, b in table],
                }
            )
            table, baza = [], baza + 1
            if sung and baza in sung:
                who, canto = sung[baza]
                view.update({"type": "sang", "seat": who, "canto": canto})
    assert list(view.hand) == hand
    return view


def test_constraint_reads_each_rule_backwards() -> None:
    oro, copa, basto = 0, 1, 3
    c = parse
    # did not follow, nobody has trumped: void in the led suit and in trump
    assert inference.constraint(c("2-espada"), copa, c("12-copa"), oro) == SUIT_MASK[copa] | SUIT_MASK[oro]
    # did not follow nor overtrump a trump: void in the led suit, no trump above the winner
    assert inference.constraint(c("2-espada"), copa, c("10-oro"), oro) == SUIT_MASK[copa] | ABOVE[c("10-oro")]
    assert inference.constraint(c("4-oro"), copa, c("10-oro"), oro) == SUIT_MASK[copa] | ABOVE[c("10-oro")]
    # trumped (or overtrumped): only the void
    assert inference.constraint(c("4-oro"), copa, c("12-copa"), oro) == SUIT_MASK[copa]
    assert inference.constraint(c("1-oro"), copa, c("10-oro"), oro) == SUIT_MASK[copa]
    # followed without beating: nothing higher in the suit; beating or under a trump: nothing
    assert inference.constraint(c("6-copa"), copa, c("12-copa"), oro) == m("3-copa", "1-copa")
    assert inference.constraint(c("1-copa"), copa, c("12-copa"), oro) == 0
    assert inference.constraint(c("6-copa"), copa, c("10-oro"), oro) == 0
    # trump led: following low means no higher trump
    assert inference.constraint(c("2-basto"), basto, c("7-basto"), basto) == ABOVE[c("7-basto")]


HAND = ["1-oro", "2-oro", "11-oro", "6-basto", "2-basto", "4-basto", "7-copa", "5-copa", "2-copa"]
PLAYED = [
    (0, "4-copa"),
    (1, "12-copa"),
    (2, "2-espada"),  # void in copa; did not trump a copa: void in oro
    (3, "6-copa"),  # followed without beating the 12: no 3 nor 1 of copa
    (1, "7-basto"),
    (2, "5-basto"),  # followed without beating: no basto above the 7
    (3, "10-oro"),  # void in basto
]


def _scenario() -> Any:
    view = _view(0, HAND, PLAYED, hand_before=["4-copa"], sung={2: (1, "veinte-basto")})
    return inference.infer(view)


def test_infer_voids_higher_cards_and_trumps() -> None:
    know = _scenario()
    assert know.order == (0, 1, 2, 3)
    assert know.counts == {1: 8, 2: 8, 3: 8}
    assert know.forbidden[1] == 0
    assert know.forbidden[2] == SUIT_MASK[1] | SUIT_MASK[0] | ABOVE[parse("7-basto")]
    assert know.forbidden[3] == m("3-copa", "1-copa") | SUIT_MASK[3]
    assert know.known == {parse("12-basto"): 1, parse("11-basto"): 1}  # the sung pair
    assert know.unseen.bit_count() == 24
    assert not know.unseen & (m(*HAND) | m(*(c for _, c in PLAYED)))


def test_infer_knows_the_shown_card_and_the_first_2_oro() -> None:
    know = inference.infer(_view(1, [*HAND, "4-copa"], [], shown="5-oro", mano=2))
    assert know.known == {parse("5-oro"): 3}  # the dealer, last dealt
    know = inference.infer(_view(1, [*(c for c in HAND if c != "2-oro"), "4-copa", "5-oro"], [], mano=1))
    assert know.known == {parse("2-oro"): 0}  # the first mano's mano holds it


def test_sampler_respects_counts_constraints_and_known_cards() -> None:
    know = _scenario()
    rng = random.Random(1)
    espadas = SUIT_MASK[2] & know.unseen
    for _ in range(300):
        hands = inference.sample_hands(rng, know)
        assert sorted(hands) == [1, 2, 3]
        union = 0
        for s, h in hands.items():
            assert h.bit_count() == know.counts[s]
            assert not h & know.forbidden[s]
            assert not h & union
            union |= h
        assert union == know.unseen
        assert all(hands[s] >> c & 1 for c, s in know.known.items())
        assert (hands[2] & espadas).bit_count() == 8  # seat 2 can only hold espadas


def test_sampler_falls_back_when_constraints_contradict() -> None:
    know = _scenario()
    impossible = {s: SUIT_MASK[2] for s in know.counts}  # nobody may hold the espadas
    hands = inference.sample_hands(random.Random(2), know._replace(forbidden=impossible))
    assert [hands[s].bit_count() for s in (1, 2, 3)] == [8, 8, 8]
    assert hands[1] | hands[2] | hands[3] == know.unseen


def test_exact_sampler_finds_the_rare_deals() -> None:
    """Tight constraints where a blind greedy deal often fails: the exact search still deals."""
    free = list(range(12))
    cap = {1: 4, 2: 4, 3: 4}
    allowed = {c: [1, 2, 3] if c < 4 else ([2, 3] if c < 8 else [1]) for c in free}
    for seed in range(30):
        hands = inference._exact(random.Random(seed), free, allowed, cap)
        assert hands is not None
        assert hands[1] == 0xF00 and hands[2].bit_count() == hands[3].bit_count() == 4
    assert inference._exact(random.Random(0), free, {c: [1] for c in free}, cap) is None


class Truth:
    """A replay sink that keeps the true hands (it sees every card)."""

    def __init__(self) -> None:
        self.hands: list[int] = []

    def __call__(self, event: dict[str, Any]) -> None:
        if event["type"] == "mano_start":
            self.hands = [m(*h) if h else 0 for h in event["hands"]]
        elif event["type"] == "played":
            self.hands[event["seat"]] &= ~(1 << parse(event["card"]))


class Audited(Strict):
    """Checks, before every move, that what it infers is true and that its deals obey it."""

    truth: Truth
    checked = 0

    def play(self, request: PlayRequest) -> Move:
        know = inference.infer(self.view, request.hand)
        true = self.truth.hands
        union = 0
        for s, count in know.counts.items():
            assert count == true[s].bit_count()
            assert not know.forbidden[s] & true[s], (s, cards.names_of(know.forbidden[s] & true[s]))
            union |= true[s]
        assert union == know.unseen
        for c, s in know.known.items():
            assert true[s] >> c & 1
        hands = inference.sample_hands(random.Random(self.checked), know)
        for s, h in hands.items():
            assert h.bit_count() == know.counts[s] and not h & know.forbidden[s]
        self.checked += 1
        return super().play(request)


@pytest.mark.parametrize(
    ("n", "ruleset"),
    [
        (3, RuleSet()),
        (4, RuleSet()),
        (5, RuleSet()),
        (6, RuleSet()),
        (4, RuleSet(variants={"rotating-trump"})),
    ],
)
def test_inference_is_true_in_real_partidos(n: int, ruleset: RuleSet) -> None:
    truth = Truth()
    audited = Audited(simulations=1)
    audited.truth = truth
    players: list[Player] = [audited] + [OTHERS[i % 3]() for i in range(n - 1)]
    result = play_partido(players, seed=20 + n, ruleset=ruleset, sinks=[truth])
    assert result.faults == []
    assert audited.checked > 20
