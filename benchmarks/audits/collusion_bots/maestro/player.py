"""'Maestro': the master of the colluding pair of ``benchmarks/audits/collusion.py``; it plays honestly.

It knows nothing of its servants: the sample ``a_mas`` itself (imported, through
``../collusion_shared.py``), a decent heuristic player that hunts points (the highest score of
a mano is safe). Sings tute at once, the cuarenta before any veinte; following, wins the baza
with its cheapest winning card, else throws its cheapest card; leading, leads its strongest
non-trump card.
"""

import sys
from pathlib import Path

BOTS = str(Path(__file__).resolve().parent.parent)
if BOTS not in sys.path:  # benchmarks/audits/collusion_bots/: the bots' shared module
    sys.path.append(BOTS)

from collusion_shared import AMas  # noqa: E402


class Maestro(AMas):
    name = "Maestro"
