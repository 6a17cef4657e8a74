"""A partido of Nim de montones, behind the house's :class:`arena.games.gamespec.Game` protocol.

Each mano deals heaps of counters (their sizes drawn from the partido's seed); the seats take turns,
each taking one or more counters from one heap (``"h:k"``); whoever takes the last counter wins the
mano and a point. The first to the ruleset's points wins the partido (or the most points after
``MAX_MANOS``). Nothing is hidden: every seat sees every event but the referee's measured times.
"""

from __future__ import annotations

import random
from typing import Any

from nim_game.rules import MAX_MANOS, NimRules

from arena.errors import FaultError
from arena.seeds import Seed

Event = dict[str, Any]


def parse(move: str) -> tuple[int, int]:
    """``"h:k"`` as (heap, count); ValueError when it is not two integers."""
    heap, _colon, count = move.partition(":")
    return int(heap), int(count)


class NimPartido:
    """A partido of Nim between ``n`` seats (2–4)."""

    def __init__(self, n: int, seed: Seed, rules: NimRules | None = None, *, deal: bool = True) -> None:
        self.n = n
        self._seed = seed
        self._rules = rules or NimRules()
        self._rng = random.Random(f"nim/{seed}")
        self.events: list[Event] = []
        self.points = [0] * n  # manos won: the score by seat
        self.winners: list[int] = []
        self.disqualified: list[int] = []
        self.mano_number = 0
        self.over = False
        self.heaps: list[int] = []
        self.turn: int | None = None
        if deal:
            self.start()

    @property
    def rules(self) -> NimRules:
        return self._rules

    @property
    def seed(self) -> Seed:
        return self._seed

    @property
    def scores(self) -> list[int]:
        return self.points[:]

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.turn

    def _active(self) -> list[int]:
        return [s for s in range(self.n) if s not in self.disqualified]

    def start(self) -> None:
        """Deal the first mano (or end the partido if fewer than two seats are left)."""
        if not self.over and self.mano_number == 0:
            self._next_mano()

    def _next_mano(self) -> None:
        active = self._active()
        if len(active) < 2 or self.mano_number >= MAX_MANOS or max(self.points) >= self._rules.to_win:
            self._end()
            return
        self.mano_number += 1
        self.heaps = [self._rng.randint(1, 7) for _h in range(self.n + 1)]
        first = active[(self.mano_number - 1) % len(active)]
        self.turn = first
        self.events.append(
            {
                "type": "mano_start",
                "mano": self.mano_number,
                "heaps": self.heaps[:],
                "first": first,
                "points": self.points[:],
            }
        )

    def _end(self) -> None:
        self.over = True
        self.turn = None
        ranking = self.ranking()
        self.winners = ranking[0] if ranking and ranking[0][0] not in self.disqualified else []
        self.events.append(
            {"type": "partido_end", "winners": self.winners, "ranking": ranking, "manos": self.mano_number}
        )

    def request(self) -> dict[str, Any]:
        """The ``play`` request: the heaps, the points and every legal move."""
        return {
            "type": "play",
            "heaps": self.heaps[:],
            "points": self.points[:],
            "legal": self.legal_actions(),
        }

    def legal_actions(self) -> list[str]:
        return [f"{h}:{k}" for h, size in enumerate(self.heaps) for k in range(1, size + 1)]

    def view(self, event: Event, seat: int) -> Event:
        """Nothing is hidden but the referee's measured times and a fault's evidence."""
        if event["type"] == "took":
            return {k: v for k, v in event.items() if k not in ("ms", "cpu_ms")}
        if event["type"] == "disqualified":
            return {k: event[k] for k in ("type", "seat", "reason", "detail")}
        return dict(event)

    def act(self, decision: str) -> None:
        """The seat to move takes ``decision`` (``"h:k"``); an ``illegal`` fault if it may not."""
        seat = self.turn
        assert seat is not None and not self.over
        if decision not in self.legal_actions():
            raise FaultError("illegal", f"cannot take {decision!r} from heaps {self.heaps}", move=decision)
        heap, count = parse(decision)
        self.heaps[heap] -= count
        self.events.append(
            {"type": "took", "seat": seat, "heap": heap, "count": count, "heaps": self.heaps[:]}
        )
        if not any(self.heaps):
            self.points[seat] += 1
            self.events.append(
                {"type": "mano_end", "mano": self.mano_number, "winner": seat, "points": self.points[:]}
            )
            self._next_mano()
        else:
            self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        active = self._active()
        later = [s for s in active if s > seat]
        self.turn = (later or active)[0]

    def fault(self, seat: int, reason: str, detail: str, **evidence: Any) -> bool:
        """Disqualify ``seat`` (Nim has no penalties); False when it no longer plays."""
        if seat in self.disqualified or self.over:
            return False
        self.disqualified.append(seat)
        self.events.append(
            {"type": "disqualified", "seat": seat, "reason": reason, "detail": detail, **evidence}
        )
        active = self._active()
        if self.mano_number == 0:
            if len(active) < 2:
                self._end()
            return True
        if len(active) < 2:
            self._end()
        elif self.turn == seat:
            self._pass_turn(seat)
        return True

    def ranking(self) -> list[list[int]]:
        """By points, most first (ties share a group); the disqualified last, the latest first."""
        groups: dict[int, list[int]] = {}
        for s in self._active():
            groups.setdefault(self.points[s], []).append(s)
        out = [groups[p] for p in sorted(groups, reverse=True)]
        return out + [[s] for s in reversed(self.disqualified)]
