"""Which scheduled partidos may start now: never two that share a deal.

Under ``--duplicate`` the rotations of one deal give the same cards to other seats. Two of them
played at the same time would seat copies of one entrant's bot at two tables dealt alike: through
any channel between them at all (a socket, a file, a counter, timing) each copy could tell the
other its hand, and each would then hold an opponent's exact cards. No sandbox is trusted to
close every channel, so the coordinator removes the simultaneity instead: at most one partido of
each deal (partido seed) is in flight at a time, on any backend. In flight means submitted and not
yet seen done: a task queued in a pool counts, so two of a deal can never run side by side.

The partidos of other deals fill the workers meanwhile (the groups interleave); near the end,
when few deals are left, the deals with the most partidos left go first, so that the last deals,
whose partidos must follow one another, run side by side as long as they can. The order in which partidos
start never changes a result (each is played from its own seed and seats and stored by its
position), so this costs no determinism.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from arena.seeds import Seed
from arena.tournament.schedule import ScheduledPartido

ENDGAME = 2
"""Deals left, per partido allowed in flight, below which the deals with most partidos left go first."""


class DealGate:
    """The deals in flight, and the partidos not yet settled per deal (a deal: a partido seed)."""

    def __init__(self, partidos: Iterable[ScheduledPartido] = ()) -> None:
        self.left: Counter[Seed] = Counter(p.seed for p in partidos)
        """Unsettled partidos per deal (only deals with some)."""
        self.busy: set[Seed] = set()
        """The deals with a partido in flight."""

    def free(self, partido: ScheduledPartido) -> bool:
        """Whether ``partido`` may start: no partido of its deal is in flight."""
        return partido.seed not in self.busy

    def start(self, partido: ScheduledPartido) -> None:
        """``partido`` is submitted; ValueError if one of its deal is in flight (a bug)."""
        if partido.seed in self.busy:
            raise ValueError(f"{partido.id}: a partido of its deal is in flight")  # not shown: a bug
        self.busy.add(partido.seed)

    def end(self, partido: ScheduledPartido) -> None:
        """``partido``'s task is done (committed or failed): its deal is free."""
        self.busy.discard(partido.seed)

    def settle(self, partido: ScheduledPartido) -> None:
        """``partido`` is settled (committed or withdrawn): one partido fewer left in its deal."""
        self.left[partido.seed] -= 1
        if self.left[partido.seed] <= 0:
            del self.left[partido.seed]

    def endgame(self, cap: int) -> bool:
        """Whether at most ``ENDGAME × cap`` deals have partidos left (``cap``: how many may be in flight)."""
        return len(self.left) <= ENDGAME * cap

    def pick(self, candidates: Sequence[ScheduledPartido], room: int, cap: int) -> list[ScheduledPartido]:
        """Up to ``room`` of ``candidates`` (ready to start, in schedule order) to submit now: none of a
        deal in flight, at most one per deal.

        In schedule order, or in the :meth:`endgame` the deals with the most partidos left first (then
        in schedule order): the longest chains of partidos that must follow one another start soonest.
        """
        first: dict[Seed, ScheduledPartido] = {}
        for p in candidates:
            if self.free(p) and p.seed not in first:
                first[p.seed] = p
        chosen = list(first.values())
        if self.endgame(cap):
            chosen.sort(key=lambda p: (-self.left[p.seed], p.pos))
        return chosen[: max(room, 0)]
