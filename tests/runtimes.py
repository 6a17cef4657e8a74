"""The player runtimes: one honest, legal-playing bot per language runtime a player may use.

Each runtime has a bot in ``tests/bots/runtime_<name>/`` (source and a ``player.toml``)
that plays the cheapest legal card, never sings and never accuses, using what a
typical player in that language uses (see each bot's header). Tests and benchmarks
use them to exercise every supported runtime, e.g. to derive or check the
players' syscall filter:

* ``c`` — plain C99, built as a static binary (``gcc -static -O2 -o bot bot.c``),
  run as ``./bot``;
* ``java`` — Java 17, built with ``javac -d . Bot.java``, run by ``java`` with no
  flags (the player's cgroup bounds its memory, not an address-space rlimit);
* ``shell`` — bash builtins only, run as ``bash bot.sh``; nothing to build.

The sources are committed, the build artefacts are not: :func:`built` copies a
bot away and builds the copy, leaving ``tests/bots`` untouched.

Public API:

* ``RUNTIMES`` — the runtime names, for ``pytest.mark.parametrize``;
* ``source(name)`` — the bot's folder in the repository;
* ``missing(name)`` — what the runtime's toolchain lacks on this machine, or None;
* ``built(name, dest)`` — a built copy of the bot under ``dest``, or None when
  the toolchain is missing (a test then skips).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

RUNTIMES = ("c", "java", "shell")
"""The supported player runtimes, each with a bot in ``tests/bots/runtime_<name>/``."""

BOTS = Path(__file__).resolve().parent / "bots"

BUILD_TIMEOUT_S = 300
"""The most a build may take (a cold javac on a loaded machine takes seconds)."""

_ARTEFACTS = ("bot", "*.class", "hs_err_pid*.log")
"""Build outputs never copied from the repository's folder (stale or foreign builds)."""


def source(name: str) -> Path:
    """The folder of runtime ``name``'s bot in the repository (``tests/bots/runtime_<name>``)."""
    if name not in RUNTIMES:
        raise ValueError(f"unknown runtime {name!r}; known: {', '.join(RUNTIMES)}")
    return BOTS / f"runtime_{name}"


def _static_libc() -> bool:
    """Whether gcc finds a static C library (``libc.a``), needed by ``gcc -static``."""
    try:
        out = subprocess.run(
            ["gcc", "-print-file-name=libc.a"], capture_output=True, text=True, timeout=60, check=False
        )
    except OSError:
        return False
    path = out.stdout.strip()
    return out.returncode == 0 and Path(path).is_absolute() and Path(path).is_file()


def missing(name: str) -> str | None:
    """What this machine lacks to build and run runtime ``name``'s bot, or None when nothing.

    The answer is a short human-readable reason, suitable for ``pytest.skip``.
    """
    source(name)  # rejects an unknown name
    if name == "c":
        if shutil.which("gcc") is None:
            return "gcc is not on PATH"
        if not _static_libc():
            return "no static C library (libc.a) for gcc -static"
        return None
    if name == "java":
        for tool in ("javac", "java"):
            if shutil.which(tool) is None:
                return f"{tool} is not on PATH"
        return None
    if shutil.which("bash") is None:
        return "bash is not on PATH"
    return None


def _build_command(name: str) -> list[str] | None:
    """The argv that builds runtime ``name``'s bot in its folder, or None when there is nothing to build."""
    if name == "c":
        return ["gcc", "-static", "-O2", "-o", "bot", "bot.c"]
    if name == "java":
        return ["javac", "-d", ".", "Bot.java"]
    return None


def built(name: str, dest: Path) -> Path | None:
    """Copy runtime ``name``'s bot into ``dest`` and build it there; return the player folder.

    The copy is ``dest / "runtime_<name>"`` (so the player's name is ``runtime_<name>``
    and several runtimes may share one ``dest``); ``dest`` is created if needed and an
    existing copy is overwritten. The C bot is compiled with ``gcc -static -O2``, the
    Java bot with ``javac``; the shell bot needs no build. Returns None when the
    toolchain is missing (see :func:`missing`); a build that fails with the toolchain
    present raises :class:`subprocess.CalledProcessError`, with the compiler's output.
    """
    if missing(name) is not None:
        return None
    folder = Path(dest) / f"runtime_{name}"
    shutil.copytree(source(name), folder, ignore=shutil.ignore_patterns(*_ARTEFACTS), dirs_exist_ok=True)
    command = _build_command(name)
    if command is not None:
        subprocess.run(
            command, cwd=folder, check=True, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
        )
    return folder
