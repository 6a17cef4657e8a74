"""Per-player control groups: memory, processes and CPU for a player's whole process tree.

Each player process gets a cgroup of its own, nested under the referee's own
cgroup (``<own>/tute-arena-<referee pid>/<player>``, never elsewhere in the
machine's hierarchy): cgroup v2 where the referee's cgroup offers the ``memory``,
``pids`` and ``cpu`` controllers to its children, cgroup v1's ``memory``,
``pids``, ``cpu`` and ``cpuacct`` controllers otherwise. A player is attached
before any of its code runs: the launcher shell writes its own pid into every
``cgroup.procs`` and then execs the player (see :meth:`PlayerCgroup.launcher`).

Knows nothing of the rules, the protocol or the sandbox.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import multiprocessing.util
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.i18n import _

V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct")
V2_CONTROLLERS = ("memory", "pids", "cpu")
RUN_PREFIX = "tute-arena-"
CFS_PERIOD_US = 100_000


class CgroupError(ArenaError, RuntimeError):
    """A player's cgroup could not be set up."""


@dataclass(frozen=True)
class Hierarchy:
    """Where this process may create cgroups: its own cgroup folder, per controller (v2: one)."""

    version: int
    own: dict[str, Path]
    """Controller -> this process's own cgroup folder (v2: the key ``"unified"``)."""

    def describe(self) -> str:
        if self.version == 2:
            return _("cgroup v2 under {folder}").format(folder=self.own["unified"])
        return _("cgroup v1 ({folders})").format(folders=", ".join(f"{c}: {p}" for c, p in self.own.items()))


def _mounts() -> list[tuple[str, str, str, set[str]]]:
    """(mount root, mount point, fstype, super options) of every cgroup mount."""
    out = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8") as f:
        for line in f:
            left, _sep, right = line.partition(" - ")
            fields, tail = left.split(), right.split()
            if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
                continue
            root, point = fields[3], fields[4].replace("\\040", " ")
            out.append((root, point, tail[0], set(tail[2].split(","))))
    return out


def _own_paths() -> dict[str, str]:
    """Controller (or ``""`` for v2) -> this process's cgroup path, from /proc/self/cgroup."""
    out: dict[str, str] = {}
    with contextlib.suppress(OSError), open("/proc/self/cgroup", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split(":", 2)
            if len(parts) != 3:
                continue
            for controller in parts[1].split(",") if parts[1] else [""]:
                out[controller] = parts[2]
    return out


def _folder(mount_root: str, point: str, path: str) -> Path | None:
    """The folder of cgroup ``path`` in a mount of the hierarchy's ``mount_root`` at ``point``."""
    if mount_root != "/" and not (path == mount_root or path.startswith(mount_root + "/")):
        return None
    rel = path[len(mount_root) :] if mount_root != "/" else path
    return Path(point + rel) if rel.startswith("/") else Path(point) / rel


def _writable(folder: Path) -> bool:
    return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)


@functools.cache
def detect() -> Hierarchy | None:
    """The hierarchy this process can nest players' cgroups under, or None (v2 first)."""
    own = _own_paths()
    mounts = _mounts()
    if "" in own:
        for root, point, fstype, _options in mounts:
            if fstype != "cgroup2":
                continue
            folder = _folder(root, point, own[""])
            if folder is None or not _writable(folder):
                continue
            try:
                offered = set((folder / "cgroup.controllers").read_text().split())
            except OSError:
                continue
            if set(V2_CONTROLLERS) <= offered:
                return Hierarchy(2, {"unified": folder})
    found: dict[str, Path] = {}
    for controller in V1_CONTROLLERS:
        for root, point, fstype, options in mounts:
            if fstype == "cgroup" and controller in options and controller in own:
                folder = _folder(root, point, own[controller])
                if folder is not None and _writable(folder):
                    found[controller] = folder
                    break
    if set(found) == set(V1_CONTROLLERS):
        return Hierarchy(1, found)
    return None


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs: a zombie (dead, not yet reaped — say a worker killed -9 whose
    parent is gone too) does not, so the run folders it left are swept."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:  # not shown
            stat = f.read()
        return stat[stat.rindex(b")") + 2 :].split()[0] not in (b"Z", b"X")
    except (OSError, ValueError, IndexError):
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _procs(folder: Path) -> list[int]:
    try:
        return [int(p) for p in (folder / "cgroup.procs").read_text().split()]
    except (OSError, ValueError):
        return []


def _kill_folder(folder: Path, wait: float = 2.0) -> bool:
    """SIGKILL everything in ``folder`` (and its children) until it is empty, then remove it.

    Whether it is gone (False: something in it outlived ``wait`` seconds). Another referee may be
    removing the same folder (two sweeping a dead referee's): what is gone already is fine."""
    try:
        children = [p for p in folder.iterdir() if p.is_dir()]
    except FileNotFoundError:
        return True
    except NotADirectoryError:
        children = []
    for child in children:
        _kill_folder(child, wait)
    if (folder / "cgroup.kill").exists():
        with contextlib.suppress(OSError):
            (folder / "cgroup.kill").write_text("1")
    deadline = time.monotonic() + wait
    while True:
        pids = _procs(folder)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        try:
            folder.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005 if not pids else 0.02)


_runs: dict[int, dict[str, Path]] = {}
"""Referee pid -> its run folders (a forked worker makes its own)."""


SWEEP_S = 1.0
"""How often a referee looks for the run folders of referees that died (at a player's start)."""

_swept: dict[int, float] = {}


def _sweep(h: Hierarchy, pid: int) -> None:
    """Kill what is left in the run folders of referees that are gone (killed -9, say), and remove them.

    Done when a referee starts its first player and then at most every SWEEP_S at later starts,
    so the players a killed worker left behind (one caught starting as it died escapes
    bwrap's ``--die-with-parent``) are gone by the next partido of any referee on the machine.
    """
    now = time.monotonic()
    if now - _swept.get(pid, -SWEEP_S) < SWEEP_S:
        return
    _swept[pid] = now
    for own in h.own.values():
        for stale in own.glob(RUN_PREFIX + "*"):
            suffix = stale.name[len(RUN_PREFIX) :]
            if suffix.isdigit() and int(suffix) != pid and not pid_alive(int(suffix)):
                _kill_folder(stale)


NICE_WEIGHTS = (1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15)
"""The kernel's CPU weight of a task at niceness 0..19 (``sched_prio_to_weight``): cgroup v1's
``cpu.shares`` for a group that should weigh as one such task."""


def _inherit_niceness(key: str, run: Path) -> None:
    """Give the run folder ``run`` the CPU weight of this process's niceness, when it is positive.

    The players' cgroups are scheduled as groups: a niceness of the referee (``nice arena …``, or
    ``arena serve``'s worker process) would not reach its players, who would compete with the rest
    of the machine at the default weight. The run folder weighs instead as one task of the referee's
    niceness: cgroup v2 ``cpu.weight.nice``, v1 ``cpu.shares``. CPU time is counted as before."""
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    if nice <= 0:
        return
    with contextlib.suppress(OSError):
        if key == "unified":
            (run / "cpu.weight.nice").write_text(str(min(nice, 19)))
        elif key == "cpu":
            (run / "cpu.shares").write_text(str(NICE_WEIGHTS[min(nice, 19)]))


def _run_folders(h: Hierarchy) -> dict[str, Path]:
    """This process's ``tute-arena-<pid>`` folder in every hierarchy (made once; stale ones swept)."""
    pid = os.getpid()
    _sweep(h, pid)
    if pid in _runs:
        return _runs[pid]
    folders: dict[str, Path] = {}
    for key, own in h.own.items():
        run = own / f"{RUN_PREFIX}{pid}"
        run.mkdir(exist_ok=True)
        if h.version == 2:
            with contextlib.suppress(OSError):
                (own / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in V2_CONTROLLERS))
            (run / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in V2_CONTROLLERS))
        _inherit_niceness(key, run)
        folders[key] = run
    _runs[pid] = folders
    atexit.register(remove_run)
    multiprocessing.util.Finalize(None, remove_run, exitpriority=10)  # workers skip atexit
    return folders


def swap_on() -> bool:
    """Whether the machine has swap in use (a memory limit without swap accounting spills into it)."""
    try:
        with open("/proc/swaps", encoding="utf-8") as f:
            return len(f.read().strip().splitlines()) > 1
    except OSError:
        return True


def remove_run() -> None:
    """Remove this process's run folders (and kill whatever is still in them)."""
    for folder in _runs.pop(os.getpid(), {}).values():
        _kill_folder(folder)


@dataclass(frozen=True)
class CgroupLimits:
    """What one player's whole process tree may use."""

    memory_mb: int
    processes: int
    cpus: float


class PlayerCgroup:
    """The cgroup (one folder per hierarchy) of one player process and all it starts."""

    def __init__(self, hierarchy: Hierarchy, folders: dict[str, Path], cpus: float | None = None) -> None:
        self.hierarchy = hierarchy
        self.folders = folders
        self.cpus = cpus
        """The CPU cap in cores (None: not capped)."""
        self._cpu_fd = -1
        """The CPU usage file, open: read twice per request, it is read again in place (``pread``)."""
        self._base = (0, 0)
        """The limits' counters when the current use began (:meth:`reuse`)."""
        self.holds_memory = False
        """Whether the cgroup alone bounds the tree's memory: ``memory.max`` set and no swap to
        spill into (swap limited to 0, or no swap on the machine). Then no address-space rlimit
        is needed (:meth:`arena.containment.sandbox.Resources.rlimits`)."""

    @classmethod
    def create(cls, name: str, limits: CgroupLimits, hierarchy: Hierarchy | None = None) -> PlayerCgroup:
        """A new cgroup ``name`` under this referee's run folder, with ``limits`` applied."""
        h = hierarchy or detect()
        if h is None:
            raise CgroupError(_("no cgroup hierarchy is writable here"))
        folders = {key: run / name for key, run in _run_folders(h).items()}
        group = cls(h, folders, limits.cpus)
        try:
            for folder in folders.values():
                folder.mkdir()
            group._limit(limits)
        except OSError as exc:
            group.remove()
            raise CgroupError(
                _("cannot set up cgroup {name}: {error}").format(name=name, error=exc)
            ) from None
        return group

    def _write(self, key: str, name: str, value: str) -> None:
        (self.folders[key] / name).write_text(value)

    def _try_write(self, key: str, name: str, value: str) -> bool:
        try:
            self._write(key, name, value)
        except OSError:
            return False
        return True

    def _limit(self, limits: CgroupLimits) -> None:
        memory = str(limits.memory_mb << 20)
        quota = str(max(1000, int(limits.cpus * CFS_PERIOD_US)))
        if self.hierarchy.version == 2:
            self._write("unified", "memory.max", memory)
            self.holds_memory = self._try_write("unified", "memory.swap.max", "0") or not swap_on()
            self._write("unified", "pids.max", str(limits.processes))
            self._write("unified", "cpu.max", f"{quota} {CFS_PERIOD_US}")
            return
        self._write("memory", "memory.limit_in_bytes", memory)
        # no swap accounting on some kernels: then only a machine without swap holds the limit
        self.holds_memory = self._try_write("memory", "memory.memsw.limit_in_bytes", memory) or not swap_on()
        self._write("pids", "pids.max", str(limits.processes))
        self._write("cpu", "cpu.cfs_period_us", str(CFS_PERIOD_US))
        self._write("cpu", "cpu.cfs_quota_us", quota)

    def launcher(self) -> list[str]:
        """``sh -c`` argv that joins this cgroup and then execs the rest of its arguments."""
        joins = " && ".join(f"echo $$ > '{f}/cgroup.procs'" for f in self.folders.values())  # not shown
        return ["/bin/sh", "-c", f'{joins} && exec "$@"', "arena-player"]

    def pids(self) -> list[int]:
        """Every process in the cgroup now."""
        key = "unified" if self.hierarchy.version == 2 else "pids"
        return _procs(self.folders[key])

    def threads(self) -> list[int]:
        """Every thread in the cgroup now (host tids)."""
        key, name = ("unified", "cgroup.threads") if self.hierarchy.version == 2 else ("pids", "tasks")
        try:
            return [int(t) for t in (self.folders[key] / name).read_text().split()]
        except (OSError, ValueError):
            return []

    def cpu_ns(self) -> int | None:
        """CPU time used by every process that ever ran in the cgroup, in nanoseconds."""
        v2 = self.hierarchy.version == 2
        try:
            if self._cpu_fd < 0:
                path = (
                    self.folders["unified"] / "cpu.stat" if v2 else self.folders["cpuacct"] / "cpuacct.usage"
                )
                self._cpu_fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            text = os.pread(self._cpu_fd, 4096, 0)
            if not v2:
                return int(text)
            for line in text.splitlines():
                key, _sep, value = line.partition(b" ")
                if key == b"usage_usec":
                    return int(value) * 1000
            return None
        except (OSError, ValueError):
            return None

    def memory_peak_mb(self) -> float | None:
        """The most memory the tree held at once, in MiB (where the kernel tells)."""
        key, name = (
            ("unified", "memory.peak")
            if self.hierarchy.version == 2
            else ("memory", "memory.max_usage_in_bytes")
        )
        try:
            return int((self.folders[key] / name).read_text()) / (1 << 20)
        except (OSError, ValueError):
            return None

    def _limit_counters(self) -> tuple[int, int]:
        """How many times the kernel has enforced the memory and the process limit here."""
        v2 = self.hierarchy.version == 2
        events = _counters(
            self.folders["unified" if v2 else "memory"] / ("memory.events" if v2 else "memory.oom_control")
        )
        pids = _counters(self.folders["unified" if v2 else "pids"] / "pids.events")
        return events.get("oom_kill", 0), pids.get("max", 0)

    def limit_hit(self) -> str | None:
        """Which limit of this cgroup the kernel enforced since its current use began, if any:
        memory or processes."""
        memory, processes = self._limit_counters()
        if memory > self._base[0]:
            return _("memory limit")
        if processes > self._base[1]:
            return _("process limit")
        return None

    def vacate(self, wait: float = 2.0) -> bool:
        """Kill everything in the cgroup and wait until it is empty, keeping it for another use
        (:meth:`reuse`); whether it is empty."""
        deadline = time.monotonic() + wait
        while True:
            pids = [pid for folder in self.folders.values() for pid in _procs(folder)]
            if not pids:
                return True
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)

    def reuse(self) -> None:
        """Begin another use of an empty cgroup: its limits' counters start again from here."""
        self._base = self._limit_counters()

    def kill(self) -> None:
        """Kill every process in the cgroup (whatever session or namespace it moved to)."""
        for folder in self.folders.values():
            for pid in _procs(folder):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)

    def remove(self) -> bool:
        """Kill what is left and remove the cgroup's folders; whether every process is gone."""
        if self._cpu_fd >= 0:
            os.close(self._cpu_fd)
            self._cpu_fd = -1
        gone = True
        for folder in self.folders.values():
            if folder.exists():
                gone = _kill_folder(folder) and gone
        return gone


def _counters(path: Path) -> dict[str, int]:
    """``key value`` lines of a cgroup file as a dict (empty when unreadable)."""
    out: dict[str, int] = {}
    try:
        text = path.read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _sep, value = line.partition(" ")
        with contextlib.suppress(ValueError):
            out[key] = int(value)
    return out
