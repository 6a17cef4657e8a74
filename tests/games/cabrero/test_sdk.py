"""The SDK's view of the game: what a player knows is right, complete and read-only."""

from __future__ import annotations

from typing import Any

import pytest

from arena import cards
from arena.referee.table import play_partido
from arena.rules import RuleSet
from arena.sdk import Move, Player, PlayRequest, TableView


class Auditor(Player):
    """Plays randomly-legal and checks its view against the request at every turn."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        import random

        self.rng = random.Random(seed)
        self.checked = 0
        self.events: list[dict[str, Any]] = []

    def on_mano_start(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def play(self, request: PlayRequest) -> Move:
        v = self.view
        assert v.hand == request.hand
        assert v.table == request.table
        assert sorted(v.legal()) == sorted(request.legal())
        assert v.winning() == request.winning()
        if request.table:
            assert v.winning() in request.table
        assert v.mano == request.mano
        # scores so far: card points of the finished bazas + cantos, by seat
        done = v.played[: len(v.played) - len(v.table)]
        assert sum(v.scores) == sum(cards.POINTS[cards.parse(c)] for _, c in done) + sum(
            40 if c == "cuarenta" else 20 for _, c in v.sung if c != "tute"
        )
        # unseen cards: exactly those held by nobody known, never mine or played
        unseen = set(v.unseen())
        assert not unseen & set(v.hand) and not unseen & {c for _, c in v.played}
        assert len(unseen) + len(v.hand) + len(v.played) + (v.out_of_play is not None) <= 40
        self.checked += 1
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        return Move(self.rng.choice(request.legal()), cantos[0] if cantos else None)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_view_agrees_with_every_request(n: int) -> None:
    players = [Auditor(s) for s in range(n)]
    result = play_partido(players, seed=40 + n, ruleset=RuleSet())
    assert not result.faults  # an assertion failing inside play() would be a crash fault
    assert all(p.checked > 0 for p in players)
    for seat, p in enumerate(players):
        assert p.view.seat == seat and len(p.view.players) == n
        assert p.view.porotos == tuple(result.scores)
        assert set(p.view.active) == set(result.winners)
        assert len(p.view.results) == result.manos


def test_the_view_is_read_only() -> None:
    v = TableView()
    for name in ("hand", "trump", "porotos", "played", "scores", "seat"):
        with pytest.raises(AttributeError):
            setattr(v, name, None)
    assert isinstance(v.hand, tuple) and isinstance(v.played, tuple)


def test_the_view_knows_the_ruleset() -> None:
    player = Auditor(1)
    rs = RuleSet("rioplatense", {"mano-tiebreak"}, "penalize")
    play_partido([player, Auditor(2), Auditor(3)], seed=5, ruleset=rs)
    assert player.view.ruleset == rs


def test_hooks_are_called_for_their_events() -> None:
    player = Auditor(1)
    result = play_partido([player, Auditor(2), Auditor(3), Auditor(4)], seed=9)
    assert [e["mano"] for e in player.events] == list(range(1, result.manos + 1))


class OrderAuditor(Auditor):
    """Also checks, at every mano's end, that ``view.order`` is the seats that played it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.ends_with_an_elimination = 0

    def on_mano_end(self, event: dict[str, Any]) -> None:
        v = self.view
        played = {s for s, _ in v.played}
        assert played <= set(v.order), (v.order, played)
        if event["eliminated"]:
            self.ends_with_an_elimination += 1


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_order_at_a_manos_end_is_the_seats_dealt_in_even_when_it_eliminated_one(n: int) -> None:
    players = [OrderAuditor(s) for s in range(n)]
    result = play_partido(players, seed=70 + n, ruleset=RuleSet())
    assert not result.faults  # an assertion failing in a hook would be a crash fault
    assert players[0].ends_with_an_elimination > 0  # the case the test is about happened
