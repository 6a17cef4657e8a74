"""Ships every game's sample players inside the wheel (``sample_*/`` -> ``arena/sample_*/``), so
``arena check`` finds its opponents from any folder, and a new game's samples need no line here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SamplesHook(BuildHookInterface):
    """Force-includes each ``sample_*`` folder beside ``pyproject.toml``."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        for folder in sorted(Path(self.root).glob("sample_*")):
            if folder.is_dir():
                build_data["force_include"][str(folder)] = f"arena/{folder.name}"
