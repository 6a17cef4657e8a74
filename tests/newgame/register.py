"""Register the proof game the way an installed distribution does, without installing anything:
a ``nim_game-0.1.dist-info`` with the entry points of ``tests/newgame/pyproject.toml``, in a folder
put on ``PYTHONPATH`` beside this one (what ``pip install tests/newgame`` would leave in site-packages)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def dist_info(folder: Path) -> Path:
    """Write the proof game's distribution metadata under ``folder``; returns ``folder``."""
    project = tomllib.loads((HERE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8"
    )
    lines = []
    for group, points in project["entry-points"].items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def environment(folder: Path) -> dict[str, str]:
    """The environment of a command that sees the proof game registered (``PYTHONPATH``)."""
    path = os.pathsep.join([str(dist_info(folder)), str(HERE), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path.rstrip(os.pathsep)}
