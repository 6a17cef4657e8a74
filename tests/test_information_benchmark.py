"""benchmarks/information.py: maestro told some true hands is told exactly those, in the tricks asked."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.information import Reveal, told
from benchmarks.omniscient import Truth
from benchmarks.strength import play_counted, search_player


def test_a_reveal_item_reads_as_whose_hands_in_which_tricks() -> None:
    assert Reveal.parse("none") == Reveal(frozenset(), 1, 99)
    assert Reveal.parse("all") == Reveal(None, 1, 99)
    assert Reveal.parse("a_mas+random_legal@4-") == Reveal(frozenset({"a_mas", "random_legal"}), 4, 99)
    assert Reveal.parse("all@1-3") == Reveal(None, 1, 3)
    names = ("random_legal", "subject", "a_mas", "a_menos")
    assert Reveal.parse("all").seats(names, 1) == {0, 2, 3}
    assert Reveal.parse("a_menos").seats(names, 1) == {3}
    assert Reveal.parse("none").seats(names, 1) == set()


@pytest.mark.parametrize("item", ["all", "a_mas@3-", "random_legal@1-2"])
def test_the_told_player_deals_the_true_hands_of_the_seats_told_and_only_in_their_tricks(item: str) -> None:
    reveal = Reveal.parse(item)
    truth = Truth()
    names = ("subject", "a_mas", "a_menos", "random_legal")
    seats = reveal.seats(names, 0)
    base = told(type(search_player("maestro:1", 1)), truth, seats, reveal.first, reveal.last)
    seen = {"told": 0, "free": 0, "other_true": 0}

    class Watched(base):  # type: ignore[misc,valid-type]
        def sample(self, rng: random.Random, know: Any) -> dict[int, int]:
            hands: dict[int, int] = super().sample(rng, know)
            trick = len(self.view.played) // 4 + 1
            for s, h in hands.items():
                if s in seats and reveal.first <= trick <= reveal.last:
                    assert h == truth.hands[s], (item, trick, s)
                    seen["told"] += 1
                else:
                    seen["free"] += 1
                    seen["other_true"] += h == truth.hands[s]
            return hands

    players = [Watched(seed=2002, simulations=4), *(search_player(n, 2002) for n in names[1:])]
    result, _stats = play_counted(players, names, 3, "info-test", (truth,))
    assert not result.faults
    assert seen["told"] > 0
    if item == "all":  # every opponent in every trick: the omniscient bound
        assert seen["free"] == 0
    else:
        assert seen["other_true"] < seen["free"]  # the rest is dealt, not told
