"""SDK speed: the calls a search player makes, per second, on one core.

Plays a few random partidos through ``arena.engine.Partido`` while every seat keeps its
SDK view (fed each event as the referee would send it), and keeps the positions met at
every move. Then it times, over those positions, for ``--seconds`` each:

* ``Partido.clone`` — the referee's whole state, copied;
* ``Mano.clone`` — what a search copies once per candidate and deal;
* ``Mano.from_position`` — the mano rebuilt from public facts and the true hands;
* ``PlayRequest.simulation`` — the same from the player's request (as ``fuerte`` calls it
  once per move, without hidden hands) and ``simulation(hidden_hands=...)`` with masks;
* ``playout`` — a search's inner step: ``with_hands``, ``clone``, then random legal play
  to the mano's end (cantos sung), and ``losers``.

The last line reads ``clone/s: N; from_position/s: N; simulation/s: N; playout/s: N``.

    python benchmarks/performance/sdk.py --seconds 2
"""

from __future__ import annotations

import argparse
import copy
import os
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from arena.cards import cards_of, parse
from arena.engine import Mano, Partido
from arena.games.common import replies
from arena.rules import RuleSet
from arena.sdk import PlayRequest, TableView


class Position(NamedTuple):
    """One move of a partido, as the engine and as the player to move see it."""

    partido: Partido
    mano: Mano
    request: PlayRequest
    rebuild: dict[str, Any]
    """The keyword arguments of ``Mano.from_position`` that rebuild ``mano``."""
    hidden: dict[int, int]
    """The other seats' true hands (masks)."""


def collect(n: int, partidos: int, every: int, ruleset: RuleSet) -> list[Position]:
    """Positions from ``partidos`` random partidos of ``n``: one in ``every`` moves."""
    out: list[Position] = []
    for seed in range(partidos):
        p = Partido(n, seed, ruleset)
        rng = random.Random(seed)
        views = [TableView() for _ in range(n)]
        for s, v in enumerate(views):
            v.update(
                {
                    "type": "partido_start",
                    "seat": s,
                    "players": list("abcdef")[:n],
                    "rules": ruleset.to_dict(),
                }
            )
        sent = moves = 0
        sung: list[tuple[int, str]] = []
        while not p.over:
            for event in p.events[sent:]:
                if event["type"] == "mano_start":
                    sung = []
                elif event["type"] == "sang":
                    sung.append((event["seat"], event["canto"]))
                for s, v in enumerate(views):
                    v.update(replies.view(event, s))
            sent = len(p.events)
            m = p.mano
            assert m is not None
            request = PlayRequest.from_message({**p.request(), "id": moves}, views[m.turn])
            if moves % every == 0:
                view = request.view
                rebuild = {
                    "number": p.mano_number,
                    "trump": m.trump,
                    "order": m.order,
                    "hands": m.hands[:],
                    "turn": m.turn,
                    "table": [(s, parse(c)) for s, c in request.table],
                    "bazas": view.bazas,
                    "card_points": [sc - cp for sc, cp in zip(view.scores, m.canto_points, strict=True)],
                    "sung": list(sung),
                }
                hidden = {s: m.hands[s] for s in m.order if s != view.seat}
                out.append(Position(copy.deepcopy(p), m.clone(), copy.deepcopy(request), rebuild, hidden))
            moves += 1
            cantos = request.cantos()
            sing = cantos[0] if cantos else None
            if sing == "tute":
                p.play(None, sing)
            else:
                p.play(rng.choice(request.legal()), sing)
    return out


def playout(position: Position, rng: random.Random) -> None:
    """A search's inner step from ``position``: deal, copy, play to the end at random, judge."""
    root = position.mano.with_hands(position.hidden)
    m = root.clone()
    rand = rng.random
    while not m.over:
        cantos = m.cantos()
        if cantos:
            m.sing(cantos[0])
            if m.over:
                break
        options = cards_of(m.legal())
        m.play(options[int(rand() * len(options))])
    m.losers(position.partido.rules)


def rate(call: Callable[[Position], object], positions: list[Position], seconds: float) -> float:
    """Calls per second of ``call`` over ``positions``, cycling, for about ``seconds``."""
    done = 0
    perf = time.perf_counter
    start = perf()
    deadline = start + seconds
    while perf() < deadline:
        for position in positions:
            call(position)
        done += len(positions)
    return done / (perf() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--partidos", type=int, default=6, help="partidos to draw positions from")
    ap.add_argument("--every", type=int, default=7, help="keep one position in this many moves")
    ap.add_argument("--seconds", type=float, default=2.0, help="timing of each call")
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    positions = collect(args.players, args.partidos, args.every, RuleSet())
    rng = random.Random(1)
    calls: dict[str, Callable[[Position], object]] = {
        "Partido.clone": lambda x: x.partido.clone(),
        "Mano.clone": lambda x: x.mano.clone(),
        "Mano.from_position": lambda x: Mano.from_position(**x.rebuild),
        "PlayRequest.simulation()": lambda x: x.request.simulation(),
        "PlayRequest.simulation(hidden_hands)": lambda x: x.request.simulation(hidden_hands=x.hidden),
        "playout": lambda x: playout(x, rng),
    }
    print(
        f"players: {args.players}  positions: {len(positions)}  seconds per call: {args.seconds}"
        f" in {args.rounds} rounds (the best round counts)"
    )
    rates = dict.fromkeys(calls, 0.0)
    for _round in range(args.rounds):  # the calls take turns, so a busy moment hits one round only
        for label, call in calls.items():
            rates[label] = max(rates[label], rate(call, positions, args.seconds / args.rounds))
    for label, r in rates.items():
        print(f"{label:38} {r:>10.0f}/s")
    print(
        f"clone/s: {rates['Partido.clone']:.0f}; mano clone/s: {rates['Mano.clone']:.0f};"
        f" from_position/s: {rates['Mano.from_position']:.0f};"
        f" simulation/s: {rates['PlayRequest.simulation()']:.0f}; playout/s: {rates['playout']:.0f}"
    )


if __name__ == "__main__":
    main()
