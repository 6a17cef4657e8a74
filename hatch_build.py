"""Ships every game's sample players inside the wheel (``sample_*/`` -> ``arena/sample_*/``), so
``arena check`` finds its opponents from any folder, and a new game's samples need no line here.
What ``.gitignore`` leaves out is left out here too: a sample built in the checkout (``*.class``, a
compiled ``bot``) or a ``__pycache__`` is never shipped."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pathspec  # hatchling's own dependency
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SamplesHook(BuildHookInterface):
    """Force-includes every file of each ``sample_*`` folder beside ``pyproject.toml``, less what
    ``.gitignore`` ignores (force-included files escape the build's own exclusions)."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        gitignore = root / ".gitignore"
        ignored = pathspec.GitIgnoreSpec.from_lines(
            gitignore.read_text().splitlines() if gitignore.is_file() else []
        )
        for folder in sorted(root.glob("sample_*")):
            if not folder.is_dir():
                continue
            for path in sorted(folder.rglob("*")):
                name = path.relative_to(root).as_posix()
                if path.is_file() and not ignored.match_file(name):
                    build_data["force_include"][str(path)] = f"arena/{name}"
