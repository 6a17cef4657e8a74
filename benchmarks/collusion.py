"""``benchmarks/collusion.py`` (issue 50's name): runs ``benchmarks/audits/collusion.py``."""

import runpy
from pathlib import Path

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).resolve().parent / "audits" / "collusion.py"), run_name="__main__")
