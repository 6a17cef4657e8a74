"""``benchmarks/seating.py`` (issue 50's name): runs ``benchmarks/experiments/seating.py``."""

import runpy
from pathlib import Path

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).resolve().parent / "experiments" / "seating.py"), run_name="__main__")
