"""Tute Cabrero's ``play`` requests carry ``legal`` (protocol revision 1.3, docs/protocol.md).

Over many random positions (every ruleset and table size, the variants, both the
``disqualify`` and the ``accuse`` policies) the request's ``legal`` is the engine's legal set
(:meth:`arena.games.cabrero.engine.Mano.legal`), in the order of ``hand``; it is exactly the set
of held cards the referee accepts without a renuncio (the others: a ``renuncio`` fault, or under
``accuse`` accepted and marked); and the SDK agrees: ``PlayRequest.legal_cards`` is the field,
``PlayRequest.legal()`` returns it, and what the SDK computes from its own view
(``TableView.legal()``, and ``legal()`` of a request without the field) is the same list.
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from arena.games.cabrero import wire
from arena.games.cabrero.engine import IllegalMove, Partido
from arena.games.cabrero.rules import RULESETS, VARIANTS, RuleSet
from arena.games.cabrero.sdk import PlayRequest, TableView
from arena.games.common.cards import names_of

SEEDS = 8
"""Partidos per case."""
CASES = [
    (ruleset, n, renuncio, variants)
    for ruleset in RULESETS
    for n in (3, 4, 5, 6)
    for renuncio, variants in (("disqualify", ()), ("accuse", ()), ("disqualify", VARIANTS))
]


class Views:
    """Each seat's SDK view of the partido, folded from the events as that seat receives them."""

    def __init__(self, p: Partido) -> None:
        self.p = p
        self.views = [TableView() for _ in range(p.n)]
        self.seen = [0] * p.n
        for seat, view in enumerate(self.views):  # the referee's partido_start, as each seat gets it
            players = [f"p{s}" for s in range(p.n)]
            view.update(
                {"type": "partido_start", "seat": seat, "players": players, "rules": p.rules.to_dict()}
            )

    def of(self, seat: int) -> TableView:
        view = self.views[seat]
        for event in self.p.events[self.seen[seat] :]:
            view.update(self.p.view(event, seat))
        self.seen[seat] = len(self.p.events)
        return view


def _check_accepted(p: Partido, request: dict[str, Any]) -> None:
    """Every held card: accepted as a plain play exactly when it is in ``legal``."""
    legal = set(request["legal"])
    for card in request["hand"]:
        q = p.clone()
        before = len(q.events)
        try:
            q.play(card)
        except IllegalMove as move:
            assert not p.accuse and move.reason == "renuncio" and card not in legal, (card, request)
            continue
        assert p.accuse or card in legal, (card, request)
        played = [e for e in q.events[before:] if e["type"] == "played"]
        assert played[0]["card"] == card
        assert played[0].get("renuncio", False) is (card not in legal), (card, request)


@pytest.mark.parametrize(
    ("ruleset", "n", "renuncio", "variants"),
    CASES,
    ids=[f"{r}-{n}-{p}{'-variants' * bool(v)}" for r, n, p, v in CASES],
)
def test_request_legal_is_the_engines_and_the_sdks(
    ruleset: str, n: int, renuncio: str, variants: tuple[str, ...]
) -> None:
    checked = 0
    for seed in range(SEEDS):
        rng = random.Random(f"{ruleset}-{n}-{renuncio}-{seed}")
        p = Partido(n, 1000 * n + seed, RuleSet(ruleset, variants, renuncio))
        views = Views(p)
        for _step in range(5000):
            if p.over:
                break
            request = cast(dict[str, Any], p.request())
            if request.get("game") or request["type"] == "review":  # a playoff (tute de a dos), a review
                moves = p.moves()
                card, sing = rng.choice(moves)
                p.play(card, sing)
                continue
            m = p.mano
            assert m is not None
            seat = p.to_move
            assert seat is not None and seat == m.turn
            legal = request["legal"]
            assert legal == names_of(m.legal()), request
            assert legal, request  # never empty: a Cabrero play request always asks for a card
            assert set(legal) <= set(request["hand"])
            assert legal == [c for c in request["hand"] if c in set(legal)], request  # the order of hand

            view = views.of(seat)
            msg = cast(wire.PlayRequest, {**request, "id": 1})
            sdk = PlayRequest.from_message(msg, view)
            assert sdk.legal_cards == tuple(legal)
            assert sdk.legal() == legal
            assert view.legal() == legal, request  # the SDK's own computation, from its view
            bare = {k: v for k, v in msg.items() if k != "legal"}  # an older referee's request
            assert PlayRequest.from_message(cast(wire.PlayRequest, bare), view).legal() == legal

            if checked % 5 == 0:
                _check_accepted(p, request)
            checked += 1

            hand = request["hand"]
            if p.accuse and rng.random() < 0.1 and set(hand) - set(legal):
                p.play(rng.choice(sorted(set(hand) - set(legal))))  # a renuncio, accepted
            elif p.accuse and request.get("may_accuse") and rng.random() < 0.02:
                p.play(None, accuse=rng.choice(request["may_accuse"]))
            else:
                card, sing = rng.choice(p.moves())
                p.play(card, sing)
        assert p.over
    assert checked > 100 * SEEDS
