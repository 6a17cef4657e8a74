"""The conformance test of a game, as a library any game's tests call (as PettingZoo ships
``api_test``): random legal play through the seam only — its :class:`~arena.games.gamespec.GameSpec`
and the :class:`arena.games.gamespec.Game` protocol — as OpenSpiel's random simulation test does.

:func:`check_game` plays partidos of random legal decisions at every ruleset and table size and checks
that every request is answerable and the partido ends; that the same seed and decisions give the same
events (the replay re-checks); that every event and request is JSON, as every seat sees it; that a
seat disqualified mid-partido leaves a partido that still ends, with the seat ranked last; that the
ranking places every seat once; that the figures add up (:func:`arena.referee.stats.partido_stats`)
and that the account tells every event with its placeholders filled. A game's own secrets (what a
seat must not see) are the game's tests' to check: the house cannot know them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from typing import Any

from arena.errors import FaultError
from arena.games.gamespec import Game, GameSpec
from arena.referee.narrate import narrate
from arena.referee.stats import fields, partido_stats

MAX_STEPS = 20_000
"""A partido not over after this many decisions is a failure (it must end)."""

Event = dict[str, Any]


class ConformanceError(AssertionError):
    """What a game breaks of the seam's contract, naming the game, ruleset, table and seed."""


def cases(spec: GameSpec) -> Iterator[tuple[str, int]]:
    """Every ruleset at every table size, and each variant (``ruleset+variant``) with the first ruleset
    at its smallest and largest tables."""
    for ruleset in spec.rulesets:
        for n in spec.table_sizes:
            yield ruleset, n
    for variant in spec.variants:
        for n in sorted({min(spec.table_sizes), max(spec.table_sizes)}):
            yield f"{spec.rulesets[0]}+{variant}", n  # not shown


def rules_for(spec: GameSpec, ruleset: str) -> Any:
    """The rule set named ``ruleset`` (``name`` or ``name+variant``) of game ``spec``."""
    name, _plus, variant = ruleset.partition("+")
    return spec.make_rules(name, (variant,) if variant else (), spec.renuncio_policies[0], None)


def random_partido(
    spec: GameSpec, ruleset: str, n: int, seed: int, fault_at: int | None = None
) -> tuple[Game, list[Any]]:
    """A partido of random legal decisions; the decisions made, in order. ``fault_at``: the step at
    which the seat to move is disqualified (a ``crash``), as the referee would."""
    p: Game = spec.new_partido(n, seed, rules_for(spec, ruleset))
    rng = random.Random(seed)
    decisions: list[Any] = []
    where = f"{spec.name} {ruleset} at {n} seats, seed {seed}"  # not shown
    for step in range(MAX_STEPS):
        if p.over:
            return p, decisions
        mover = p.to_move
        if mover is None:
            raise ConformanceError(f"{where}: no seat to move and not over")  # not shown
        if step == fault_at:
            if not p.fault(mover, "crash", "conformance: a crash"):  # not shown
                raise ConformanceError(
                    f"{where}: the fault of seat {mover}, still playing, was not recorded"  # not shown
                )  # not shown
            continue
        moves = p.legal_actions()
        if not moves:
            raise ConformanceError(f"{where}: a request with no legal decision: {p.request()}")  # not shown
        _json(p.request(), f"{where}: the request")  # not shown
        move = rng.choice(moves)
        p.act(move)
        decisions.append(move)
    raise ConformanceError(f"{where}: not over after {MAX_STEPS} decisions")  # not shown


def _json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise ConformanceError(f"{what} is not JSON: {exc}") from None  # not shown


def check_partido(spec: GameSpec, ruleset: str, n: int, seed: int) -> None:
    """Every check of the module docstring on one partido (and its replay, and one with a fault)."""
    where = f"{spec.name} {ruleset} at {n} seats, seed {seed}"  # not shown
    p, decisions = random_partido(spec, ruleset, n, seed)
    again: Game = spec.new_partido(n, seed, rules_for(spec, ruleset))
    try:
        for move in decisions:
            again.act(move)
    except FaultError as exc:
        raise ConformanceError(
            f"{where}: a decision is not legal in the replay: {exc}"  # not shown
        ) from None  # not shown
    if not again.over or [_json(e, where) for e in again.events] != [_json(e, where) for e in p.events]:
        raise ConformanceError(
            f"{where}: the same seed and decisions do not give the same events"  # not shown
        )  # not shown
    for seat in range(n):
        for e in p.events:
            _json(p.view(e, seat), f"{where}: seat {seat}'s view of {e.get('type')}")  # not shown
    _check_ranking(p, n, where)
    _check_account(spec, p, n, seed, where)
    if decisions:  # a crash half-way: the partido still ends and the seat ranks last
        half = random.Random(seed).randrange(len(decisions))
        faulted, _d = random_partido(spec, ruleset, n, seed, fault_at=half)
        _check_ranking(faulted, n, where + " (a crash)")
        if faulted.disqualified and faulted.ranking()[-1] != [faulted.disqualified[0]]:
            raise ConformanceError(
                f"{where}: the disqualified seat does not rank last: {faulted.ranking()}"  # not shown
            )  # not shown
        _check_account(spec, faulted, n, seed, where + " (a crash)")


def _check_ranking(p: Game, n: int, where: str) -> None:
    seats = sorted(s for group in p.ranking() for s in group)
    if seats != list(range(n)):
        raise ConformanceError(
            f"{where}: the ranking does not place every seat once: {p.ranking()}"  # not shown
        )  # not shown
    if not set(p.winners) <= set(p.ranking()[0]):
        raise ConformanceError(
            f"{where}: the winners {p.winners} are not the ranking's first group"  # not shown
        )  # not shown


def _check_account(spec: GameSpec, p: Game, n: int, seed: int, where: str) -> None:
    start: Event = {
        "type": "partido_start",
        "partido": "conformance",
        "seed": seed,
        "game": spec.name,
        **({"teams": [list(t) for t in spec.teams]} if spec.teams else {}),
        "rules": p.rules.to_dict(),
        "players": [{"seat": s, "name": f"p{s}", "source": "conformance"} for s in range(n)],  # not shown
    }
    events = [start, *p.events]
    stats = partido_stats(events)
    if [s for s in range(n) if stats[s]["won"]] != sorted(p.winners):
        raise ConformanceError(f"{where}: the figures' winners are not the partido's")  # not shown
    for seat, row in enumerate(stats):
        missing = [f for f in fields(spec) if not isinstance(row.get(f), int)]
        if missing:
            raise ConformanceError(f"{where}: seat {seat} has no count {missing}")  # not shown
        if not 0 <= row["manos_perdidas"] <= row["manos"] <= p.mano_number:
            raise ConformanceError(f"{where}: seat {seat}'s manos do not add up: {row}")  # not shown
    lines = list(narrate(events, hands=True))
    unformatted = [line for line in lines if "{" in line and "}" in line]
    if not lines or unformatted:
        raise ConformanceError(f"{where}: the account leaves placeholders: {unformatted[:3]}")  # not shown


def check_game(spec: GameSpec, seeds: Iterable[int] = range(10)) -> int:
    """:func:`check_partido` at every case of :func:`cases` for each seed; returns the partidos checked.
    Raises :class:`ConformanceError` at the first broken rule."""
    count = 0
    for ruleset, n in cases(spec):
        for seed in seeds:
            check_partido(spec, ruleset, n, seed)
            count += 1
    return count
