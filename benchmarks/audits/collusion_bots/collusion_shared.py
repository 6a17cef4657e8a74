"""What the collusion bots share (not a player folder): the samples they play as, and the servants' base.

``maestro/``, ``escudero/`` and ``criado/`` import this module from their parent folder, and it
imports the sample players ``a_mas`` (the point hunter all three play as when honest) and
``fuerte`` (the search ``escudero`` runs) from ``sample_players/``: the play they build on is the
samples' own, not a copy of it. So the bots run where the whole checkout can be read: in the
benchmark's process (``benchmarks/audits/collusion.py``, ``tests/results/test_collusion.py``), and by
hand with ``arena play --in-process`` or ``--sandbox none``; not in a sandbox, which shows a player
only its own folder (``docs/security.md``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import PlayRequest

SAMPLES = Path(__file__).resolve().parents[3] / "sample_players"
MASTER = "maestro"
"""The entrant the servants serve (an entrant's name is its folder's)."""


def sample(name: str) -> ModuleType:
    """``sample_players/<name>/player.py`` as a module (imported once, as ``collusion_sample_<name>``)."""
    key = f"collusion_sample_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, SAMPLES / name / "player.py")
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import the sample player {name} from {SAMPLES / name}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[key]
            raise
    return sys.modules[key]


a_mas = sample("a_mas")
fuerte = sample("fuerte")
"""The sample ``fuerte``: :func:`infer`, :func:`sample_hands` and :func:`rollout` are its search."""
AMas = a_mas.AMas
strength = a_mas.strength


def cheap(card: str) -> tuple[int, int]:
    """A card's points, then its strength: the cheapest card is the least of these."""
    return POINTS[parse(card)], strength(card)


class Servant(AMas):
    """A servant of the entrant named :data:`MASTER`: plays as ``a_mas`` unless it serves.

    ``master = None`` makes it honest everywhere (the benchmark's honest copy).
    """

    master: str | None = MASTER

    def master_seat(self) -> int | None:
        """The master's seat when it is dealt in this mano (and so am I), else None."""
        view = self.view
        if self.master is None or self.master not in view.players:
            return None
        seat = view.players.index(self.master)
        return seat if seat != view.seat and seat in view.order else None

    def feed(self, request: PlayRequest, boss: int) -> str | None:
        """On a baza the master (seat ``boss``) is winning: my highest-points card that does not
        take the baza from it (the cheapest in strength among equals); None on any other baza,
        or when every card I may play would take it."""
        win = request.winning()
        if win is None or win[0] != boss:
            return None
        trump = self.view.trump_suit
        losers = [c for c in request.legal() if not beats(parse(c), parse(win[1]), trump)]
        return max(losers, key=lambda c: (POINTS[parse(c)], -strength(c))) if losers else None
