"""``benchmarks/seating.py``, the name issue 50 gives it: runs :mod:`benchmarks.experiments.seating`.

How evenly the schedule seats entrants — by seat, and who plays right after whom (both directions of
a pair, and every ordered pair against its share, within ±1) — old schedule against new. The same
options (``--seed``, ``--old``, ``--big``, ``--check``)::

    python benchmarks/seating.py
    python benchmarks/seating.py --check
"""

from __future__ import annotations

import runpy
from pathlib import Path

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).resolve().parent / "experiments" / "seating.py"), run_name="__main__")
