"""``benchmarks/peek.py`` (issue 50's name): runs ``benchmarks/audits/peek.py``."""

import runpy
from pathlib import Path

if __name__ == "__main__":
    runpy.run_path(str(Path(__file__).resolve().parent / "audits" / "peek.py"), run_name="__main__")
