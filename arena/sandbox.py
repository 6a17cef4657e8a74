"""Containment of untrusted player programs: bubblewrap where it works, rlimits always.

A contained player runs as ``prlimit [limits] -- [setpriv] [bwrap ...] argv``:

* ``prlimit`` (util-linux) sets the resource limits before anything of the
  player runs: address space (memory), CPU seconds, processes, file size;
* ``bwrap`` (Debian ``bubblewrap``), when a trial run shows it works: no network,
  a read-only view of the system, the player's own folder read-only at
  ``/player``, a private writable ``/tmp``, nothing else of the machine (no other
  player, no output folder, no referee files), a clean environment, an
  unprivileged uid, its own pid namespace, and death with the referee;
* ``rlimits`` (what ``auto`` falls back to when the trial fails): the limits, a
  session of its own, a clean environment, and an unprivileged uid via
  ``setpriv`` when the referee runs as root and that uid can read the player's
  folder and run the interpreter. One warning line says what is not enforced.
* ``none`` (``--sandbox none``): the program as it is, with the referee's
  environment — for debugging on one's own machine only.

Knows nothing of the rules or the protocol.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

MODES = ("auto", "bwrap", "none")
MECHANISMS = ("bwrap", "rlimits", "none")
NOBODY = 65534
PLAYER_DIR = "/player"
SDK_DIR = "/opt/arena"
ARENA_PACKAGE = Path(__file__).resolve().parent


ETC_FILES = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "ssl",
    "ca-certificates",
    "passwd",
    "group",
    "nsswitch.conf",
    "mime.types",
    "java-17-openjdk",
    "timezone",
)
"""What of /etc a sandboxed player sees (the rest, /etc/shadow first, stays out)."""


class SandboxError(RuntimeError):
    """The requested containment cannot be had on this machine."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of a player process."""

    memory_mb: int = 1024
    cpu_s: int = 300
    processes: int = 256
    file_mb: int = 64

    def prlimit(self) -> list[str]:
        return [
            "prlimit",
            f"--as={self.memory_mb << 20}",
            f"--cpu={self.cpu_s}:{self.cpu_s + 1}",  # soft < hard: SIGXCPU names the limit
            f"--nproc={self.processes}",
            f"--fsize={self.file_mb << 20}",
            "--",
        ]


@dataclass(frozen=True)
class Plan:
    """How to start one contained player: argv, working folder, environment."""

    argv: list[str]
    cwd: str
    env: dict[str, str]


def _succeeds(argv: list[str], env: dict[str, str] | None = None) -> bool:
    """Whether ``argv`` runs and exits 0 within 10 s (a trial run)."""
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, check=False, env=env)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


TRIAL_MOUNTS = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
AS_NOBODY = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@functools.cache
def bwrap_works() -> bool:
    """A real trial: can bwrap start a fully unshared sandbox here?"""
    if shutil.which("bwrap") is None:
        return False
    return _succeeds(["bwrap", "--unshare-all", "--die-with-parent", *TRIAL_MOUNTS, "true"])


def resolve(mode: str) -> str:
    """The mechanism for ``mode``: ``"bwrap"``, ``"rlimits"`` or ``"none"``.

    SandboxError when the mode is unknown or bwrap is demanded and does not work.
    """
    if mode not in MODES:
        raise SandboxError(f"unknown sandbox {mode!r}; known: {', '.join(MODES)}")
    if mode == "none":
        return "none"
    if bwrap_works():
        return "bwrap"
    if mode == "bwrap":
        raise SandboxError("--sandbox bwrap: bubblewrap does not work here (see `arena doctor`)")
    return "rlimits"


def warning(mechanism: str) -> str | None:
    """The one warning line for what ``mechanism`` leaves unenforced, or None."""
    if mechanism == "bwrap":
        return None
    if mechanism == "none":
        return "arena: --sandbox none: player processes run uncontained, as you (debugging only)"
    missing = [
        "network",
        "filesystem isolation (other players' folders, the output folder)",
        "separation between players (they share uid 65534)",
    ]
    if not can_drop_to_nobody():
        missing[-1] = "a separate unprivileged user"
    return (
        "arena: without bubblewrap, player processes get resource limits and their own session, "
        f"but not: {', '.join(missing)}; install bubblewrap (apt install bubblewrap) — see `arena doctor`"
    )


def _base_env(extra: dict[str, str]) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        "ARENA_PLAYER": "1",
    }
    env.update(extra)
    return env


def _python_roots() -> list[str]:
    """Folders the Python interpreter needs (the venv and its base installation)."""
    roots = {sys.prefix, sys.base_prefix, str(Path(os.path.realpath(sys.executable)).parent.parent)}
    return sorted(r for r in roots if r and not r.startswith(("/usr", "/bin", "/lib")))


def readable_by_others(folder: Path) -> bool:
    """Whether an unprivileged uid can reach ``folder`` and read its files (by the 'other' bits)."""
    path = folder.resolve()
    for parent in [*reversed(path.parents), path]:
        try:
            mode = parent.stat().st_mode
        except OSError:
            return False
        if not mode & 0o001:
            return False
    return all(f.stat().st_mode & 0o004 for f in path.iterdir() if f.is_file())


@functools.cache
def nobody_reaches_python() -> bool:
    """Whether uid 65534 can run this interpreter and start bwrap (tried for real, once)."""
    if shutil.which("setpriv") is None or os.geteuid() != 0:
        return False
    box = ["bwrap", "--unshare-all", *TRIAL_MOUNTS]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ARENA_PACKAGE.parent)}
    return _succeeds([*AS_NOBODY, *box, sys.executable, "-c", "import arena.sandbox"], env)


@functools.cache
def can_drop_to_nobody() -> bool:
    """Whether the fallback can run players as an unprivileged uid.

    Needs a root referee, ``setpriv``, and a Python interpreter that uid can run.
    """
    return (
        os.geteuid() == 0
        and shutil.which("setpriv") is not None
        and _succeeds([*AS_NOBODY, sys.executable, "-c", "pass"])
    )


def plan(
    argv: Sequence[str],
    folder: Path,
    mechanism: str,
    limits: Limits | None = None,
    python_player: bool = False,
    extra_env: dict[str, str] | None = None,
) -> Plan:
    """The contained way to start ``argv`` for the player in ``folder``.

    For a Python player pass the runner's argv with the folder as last argument;
    inside bwrap the folder is seen at ``/player`` and the SDK at ``/opt/arena``.
    """
    limits = limits or Limits()
    folder = folder.resolve()
    argv = list(argv)
    if mechanism not in MECHANISMS:
        raise SandboxError(f"unknown containment {mechanism!r}; known: {', '.join(MECHANISMS)}")
    if mechanism == "none":
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ARENA_PACKAGE.parent), env.get("PYTHONPATH")) if p
        )
        env["ARENA_PLAYER"] = "1"
        return Plan(argv, str(folder), env)
    if mechanism == "rlimits":
        env = _base_env({"PYTHONPATH": str(ARENA_PACKAGE.parent), **(extra_env or {})})
        head = limits.prlimit() if shutil.which("prlimit") else []
        if can_drop_to_nobody():
            if not readable_by_others(folder):
                raise SandboxError(
                    f"{folder}: not readable by an unprivileged user, so it would run as root; "
                    "make it world-readable (chmod -R o+rX) or use bubblewrap"
                )
            head += [*AS_NOBODY, "--"]
        return Plan(head + argv, str(folder), env)
    if python_player:
        argv[-1] = PLAYER_DIR
    env = _base_env({"PYTHONPATH": SDK_DIR, **(extra_env or {})})
    box = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr"]
    for link in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        target = Path("/") / link
        if target.is_symlink():
            box += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            box += ["--ro-bind", f"/{link}", f"/{link}"]
    for name in ETC_FILES:  # not all of /etc: nothing like /etc/shadow
        if Path("/etc", name).exists():
            box += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    # The private /tmp first: an interpreter (a venv) living under /tmp is bound on top of it.
    box += ["--size", str(limits.file_mb << 20), "--tmpfs", "/tmp"]
    for root in _python_roots():
        box += ["--ro-bind", root, root]
    box += [
        "--ro-bind",
        str(ARENA_PACKAGE),
        f"{SDK_DIR}/arena",
        "--ro-bind",
        str(folder),
        PLAYER_DIR,
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--uid",
        str(NOBODY),
        "--gid",
        str(NOBODY),
        "--remount-ro",  # no unbounded in-memory place to write: only the sized /tmp
        "/",
        "--remount-ro",
        "/dev",
        "--chdir",
        PLAYER_DIR,
        "--clearenv",
    ]
    for key, value in env.items():
        box += ["--setenv", key, value]
    head = limits.prlimit()
    if os.geteuid() == 0 and nobody_reaches_python() and readable_by_others(folder):
        # bwrap started by root maps the sandbox's uid to root outside: drop to nobody first,
        # so that root-owned files stay closed and the process limit counts.
        head += [*AS_NOBODY, "--"]
    return Plan(head + box + ["--", *argv], str(folder), env)


SIGNAL_LIMITS = {"SIGXCPU": "CPU time limit", "SIGXFSZ": "file size limit", "SIGKILL": "killed"}


def limit_hint(stderr_tail: str, signal_name: str | None) -> str | None:
    """Which resource limit a crash most likely hit, from its signal or its last words."""
    if signal_name in ("SIGXCPU", "SIGXFSZ"):
        return SIGNAL_LIMITS[signal_name]
    text = stderr_tail.lower()
    if "memoryerror" in text or "out of memory" in text or "cannot allocate memory" in text:
        return "memory limit"
    if "file too large" in text or "no space left" in text:
        return "file size limit"
    if "resource temporarily unavailable" in text and "fork" in text:
        return "process limit"
    return None
