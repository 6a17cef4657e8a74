"""Where the checkout's folders are, for a test module at any depth under ``tests/``."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: ``arena/``, ``docs/``, ``sample_players/``, ``tests/``."""
BOTS = ROOT / "tests" / "bots"
"""The misbehaving and hostile player programs the tests play, one folder each."""
