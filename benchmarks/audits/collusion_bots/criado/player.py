"""'Criado': a servant that plays for the entrant named ``maestro`` (``benchmarks/audits/collusion.py``).

It learns who sits where from ``partido_start``'s ``players`` (entrant names by seat: an
entrant's name is its folder's). It plays as the sample ``a_mas`` (hunting points), except
that in a mano where the master is dealt in it serves, always within the rules (a renuncio
would disqualify it), without a thought for its own score:

- it never sings (a canto would raise its score above the master's; a tute would make the
  master lose the mano);
- on a baza the master is winning it throws its highest-points card that does not take the
  baza from the master (feeding it points: the top score of a mano is safe), and only when
  every card it may play wins, its cheapest.

Without the master at the table (or once the master is out) it plays honestly throughout.
``master = None`` makes it honest everywhere (the benchmark's honest copy). The play it shares
with the other bots is in ``../collusion_shared.py``.
"""

import sys
from pathlib import Path

BOTS = str(Path(__file__).resolve().parent.parent)
if BOTS not in sys.path:  # benchmarks/audits/collusion_bots/: the bots' shared module
    sys.path.append(BOTS)

from collusion_shared import Servant  # noqa: E402

from arena.sdk import Move, PlayRequest  # noqa: E402


class Criado(Servant):
    name = "Criado"

    def play(self, request: PlayRequest) -> Move:
        boss = self.master_seat()
        if boss is None:
            return super().play(request)
        card = self.feed(request, boss)
        if card is not None:
            return Move(card=card)
        return super().play(request._replace(may_sing=False))  # a_mas's card, without a canto
