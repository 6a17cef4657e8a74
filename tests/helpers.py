"""Shared helpers for the engine tests: random drivers, stacked deals, event lookups.

Public API (kept small on purpose; other test modules may import it):

* ``play_randomly(partido, rng, sing=True)`` — plays until the partido is over,
  singing the first valid canto whenever the player to move may sing.
* ``play_mano(partido, rng, sing=False)`` — plays the current mano to its end.
* ``play_first_legal(partido)`` — plays the weakest legal card (suit order) once.
* ``fill_hands(specs, size, leftover=None)`` — completes partial hands (dealing order)
  with the unused cards, for ``engine.stack_deck``.
* ``events(partido, type)`` / ``last(partido, type)`` — replay events of a type.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena import cards
from arena.engine import Partido
from arena.rules import RuleSet


def legal_cards(partido: Partido) -> list[int]:
    """The legal cards of the player to move, as card ids (suit order, weakest first)."""
    assert partido.mano is not None
    return cards.cards_of(partido.mano.legal())


def play_step(partido: Partido, rng: random.Random, sing: bool = True) -> None:
    """One move of the player to move: a random legal card, singing the first canto if any."""
    m = partido.mano
    assert m is not None and not partido.over
    canto = None
    if sing and m.may_sing:
        cantos = m.cantos()
        if cantos:
            canto = cantos[0]
    if canto == "tute":
        partido.play(None, sing="tute")
        return
    partido.play(rng.choice(legal_cards(partido)), sing=canto)


def play_randomly(partido: Partido, rng: random.Random, sing: bool = True) -> Partido:
    """Drive ``partido`` with random legal plays until it is over; returns it."""
    while not partido.over:
        play_step(partido, rng, sing)
    return partido


def play_mano(partido: Partido, rng: random.Random, sing: bool = False) -> None:
    """Play the current mano to its end with random legal cards."""
    k = partido.mano_number
    while not partido.over and partido.mano_number == k:
        play_step(partido, rng, sing)


def play_first_legal(partido: Partido, sing: str | None = None) -> int:
    """Play the first legal card (lowest suit, weakest) of the player to move; returns it."""
    c = legal_cards(partido)[0]
    partido.play(cards.NAMES[c], sing=sing)
    return c


def fill_hands(specs: Sequence[Sequence[str]], size: int, leftover: str | None = None) -> list[list[str]]:
    """Complete each partial hand to ``size`` cards with the unused cards, lowest id first.

    Hands are in dealing order (the first hand goes to the first seat dealt).
    Everything not named in ``specs`` or ``leftover`` is handed out in order, so
    name every card that matters to the test (in particular ``2-oro`` in a first mano).
    """
    used = {c for h in specs for c in h}
    assert len(used) == sum(len(h) for h in specs), "a card is named twice"
    if leftover is not None:
        assert leftover not in used
        used.add(leftover)
    free = [n for n in cards.NAMES if n not in used]
    out = []
    for h in specs:
        assert len(h) <= size
        need = size - len(h)
        out.append([*h, *free[:need]])
        free = free[need:]
    assert not free, f"{len(free)} cards left over: give more hands or a leftover"
    return out


def events(partido: Partido, type_: str) -> list[dict[str, Any]]:
    return [e for e in partido.events if e["type"] == type_]


def last(partido: Partido, type_: str) -> dict[str, Any]:
    return events(partido, type_)[-1]


def mano_start(partido: Partido, number: int | None = None) -> dict[str, Any]:
    """The ``mano_start`` event of mano ``number`` (default: the current mano)."""
    k = partido.mano_number if number is None else number
    return next(e for e in partido.events if e["type"] == "mano_start" and e["mano"] == k)


def seats_from(start: int, active: Sequence[bool], skip: int | None = None) -> list[int]:
    """Active seats from ``start`` going right, leaving out ``skip`` (hand-written, not the engine's)."""
    n = len(active)
    return [(start + i) % n for i in range(n) if active[(start + i) % n] and (start + i) % n != skip]


SEARCH_TABLES = [
    (3, RuleSet()),
    (4, RuleSet(variants={"rotating-trump"})),
    (4, RuleSet(variants={"tute-wins-partido"}, renuncio="penalize")),
    (5, RuleSet("rioplatense", {"mano-tiebreak"})),
    (6, RuleSet()),
]
"""Table sizes and rule sets a search sample (fuerte, maestro) must play whole partidos under."""


def audited(entrants: list[str]) -> Any:
    """An Auditoría sheet as ``arena audit`` leaves it (:func:`arena.results.peek.frame`): the first
    entrant flagged for a peek, the second for a time tell, the rest clean."""
    from arena.results.peek import Verdict, frame
    from arena.results.tell import Tell

    verdicts = [
        Verdict(
            name,
            30,
            900,
            0.04 if i == 0 else 0.001,
            6.0 if i == 0 else 0.1,
            0.0,
            0.0 if i == 0 else 1.0,
            i == 0,
        )
        for i, name in enumerate(entrants)
    ]
    tells = [
        Tell(
            name, 1200, 0.3 if i == 1 else 0.01, 0.4 if i == 1 else 0.02, 0.0, 0.0 if i == 1 else 0.9, i == 1
        )
        for i, name in enumerate(entrants)
    ]
    return frame(verdicts, tells)
