"""Containment of untrusted player programs: bubblewrap, uids and cgroups of their own, rlimits.

A contained player process is started as
``sh -c <join the player's cgroup> prlimit [limits] -- bwrap ... -- [setpriv] argv``:

* the **cgroup** (:mod:`arena.containment.cgroups`), where the machine lets the referee nest
  one under its own: memory, process count and CPU share for the player's whole
  process tree, joined before any of the player's code runs;
* ``prlimit`` (util-linux): per-process limits as a second line (address space,
  CPU seconds, processes, file size);
* ``bwrap`` (Debian ``bubblewrap``), when a trial run shows it works: no network,
  a read-only view of the system with ``/proc`` and ``/dev`` read-only, the
  player's own folder read-only at ``/player``, a private sized ``/tmp``, nothing
  else of the machine (no other player, no output folder, no referee files), a
  clean environment, its own pid namespace, death with the referee;
* the **uid**: a root referee never runs a player as root. It leases each player
  process a uid of its own (:mod:`arena.containment.uids`), not shared with anything else on
  the machine; bwrap (started as root, without a user namespace) mounts the
  sandbox and ``setpriv`` drops to that uid with no capabilities and
  ``no_new_privs`` before the player runs. The player's folder is staged as a
  private copy with normalised modes, so that uid can read it whatever modes a
  submission carries. A non-root referee runs bwrap unprivileged: the sandbox's
  user namespace maps the player to the referee's uid, which only the pid and
  mount namespaces keep away from everything else.
* ``rlimits`` (only when asked for: ``--sandbox rlimits``, root only): the
  limits, the cgroup, a session and a leased uid of its own, a clean
  environment; no filesystem or network isolation. :func:`warning` says what.
* ``none`` (``--sandbox none``): the program as it is, with the referee's
  environment, for debugging on one's own machine only.

Knows nothing of the rules or the protocol.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import multiprocessing.util
import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import i18n
from arena.containment import cgroups, process, seal, uids
from arena.errors import ArenaError
from arena.i18n import N_, _
from arena.inert import EXCERPT
from arena.player import zygote

MODES = ("auto", "bwrap", "rlimits", "none")
MECHANISMS = ("bwrap", "rlimits", "none")
NOBODY = 65534
PLAYER_DIR = "/player"
SDK_DIR = "/opt/arena"
ARENA_PACKAGE = Path(__file__).resolve().parent.parent  # arena/, above this containment/ folder
STAGE_MAX_BYTES = 256 << 20
STAGE_MAX_FILES = 20_000


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


class SandboxError(ArenaError, RuntimeError):
    """The requested containment cannot be had on this machine (or for this player)."""


class SandboxFailure(ArenaError, RuntimeError):
    """The sandbox could not start or run a player: the machine's or referee's failure, never the player's."""


@dataclass(frozen=True)
class Resources:
    """Resource limits of a player: per process (rlimits) and per player (cgroup)."""

    memory_mb: int = 1024
    cpu_s: int = 300
    processes: int = 256
    file_mb: int = 64
    cpus: float = 1.0
    """The most CPU the player's whole tree may take at once, in cores (cgroup)."""

    def prlimit(self, per_player: bool = False) -> list[str]:
        """``prlimit`` argv that sets :meth:`rlimits` and runs the rest of its arguments."""
        names = {resource.RLIMIT_AS: "as", resource.RLIMIT_CPU: "cpu"}
        names |= {resource.RLIMIT_NPROC: "nproc", resource.RLIMIT_FSIZE: "fsize"}
        limits = self.rlimits(per_player)
        return ["prlimit", *(f"--{names[r]}={soft}:{hard}" for r, soft, hard in limits), "--"]

    def rlimits(self, per_player: bool = False) -> list[tuple[int, int, int]]:
        """The per-process limits: (resource, soft, hard).

        ``per_player``: a cgroup bounds the player's whole tree (memory with no swap, pids), so
        memory and processes are left to it: address space is not memory (a JVM or a Go runtime
        reserves gigabytes it never touches, one stack per thread) and ``pids.max`` counts threads.
        Otherwise (the fallback) ``RLIMIT_AS`` and ``RLIMIT_NPROC`` stand in for them, per process.
        """
        out = [
            (resource.RLIMIT_CPU, self.cpu_s, self.cpu_s + 1),  # soft < hard: SIGXCPU names the limit
            (resource.RLIMIT_FSIZE, self.file_mb << 20, self.file_mb << 20),
        ]
        if not per_player:
            out[:0] = [(resource.RLIMIT_AS, self.memory_mb << 20, self.memory_mb << 20)]
            out += [(resource.RLIMIT_NPROC, self.processes, self.processes)]
        return out

    def cgroup(self) -> cgroups.CgroupLimits:
        return cgroups.CgroupLimits(self.memory_mb, self.processes, self.cpus)


@dataclass
class Box:
    """One contained player process to start (argv, folder, environment) and what it holds.

    :meth:`release` once the process is gone: it kills whatever is left in the
    player's cgroup and under its uid, and frees them.
    """

    argv: list[str]
    cwd: str
    env: dict[str, str]
    mechanism: str
    uid: int | None = None
    """The host uid the player runs as (None: the referee's own, or mapped from it)."""
    cgroup: cgroups.PlayerCgroup | None = None
    lease: uids.UidLease | None = field(default=None, repr=False)
    status: tuple[int, int] | None = field(default=None, repr=False)
    """bwrap's JSON status pipe (read end, write end): it says whether the sandbox ever ran the player."""
    status_text: bytes = field(default=b"", repr=False)
    pool: uids.UidPool | None = field(default=None, repr=False)
    """Where the lease goes back when every process of the player is known to be gone."""
    cgroups_free: list[cgroups.PlayerCgroup] | None = field(default=None, repr=False)
    """Where the cgroup goes back, emptied, for another player (warm starts)."""
    contained: bool = False
    """Every process of the player is in its cgroup for good (born there, with no cgroup file
    system in its sandbox): killing the cgroup kills them all, with no search by uid."""
    ran: Callable[[], bool | None] | None = field(default=None, repr=False)
    """For a process started otherwise (warm): whether the sandbox ran the player (None: not known yet)."""
    seal_fd: int | None = field(default=None, repr=False)
    """The syscall filter's program (:mod:`arena.containment.seal`), for the launcher to load."""
    since_us: int = field(default_factory=seal.now_us, repr=False)
    """When the box was made, on the kernel log's clock (a call the filter killed is looked up from it)."""

    @property
    def pass_fds(self) -> tuple[int, ...]:
        """Descriptors the launcher must inherit."""
        fds = (self.status[1],) if self.status else ()
        return fds + ((self.seal_fd,) if self.seal_fd is not None else ())

    def started(self) -> None:
        """The process is started: close this side's copy of what it inherited."""
        if self.status and self.status[1] >= 0:
            os.close(self.status[1])
            self.status = (self.status[0], -1)
        if self.seal_fd is not None:
            os.close(self.seal_fd)
            self.seal_fd = None

    def popen(self, **kw: Any) -> subprocess.Popen[Any]:
        """Start the contained process (``subprocess.Popen`` keywords for the rest)."""
        try:
            return subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, pass_fds=self.pass_fds, **kw)
        finally:
            self.started()

    def run(self, timeout: float) -> subprocess.CompletedProcess[str]:
        """Run the contained process to its end, capturing its output as text (tracked meanwhile:
        another thread's orphan reaper leaves it alone)."""
        try:
            proc = process.start(
                self.argv,
                cwd=self.cwd,
                env=self.env,
                pass_fds=self.pass_fds,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        finally:
            self.started()
        try:
            try:
                out, err = proc.communicate(timeout=timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
        finally:
            process.untrack(proc.pid)
        return subprocess.CompletedProcess(self.argv, proc.returncode, out, err)

    def never_ran(self) -> bool:
        """Whether the sandbox exited without ever running the player's command (bwrap only).

        bwrap writes ``exit-code`` on its status pipe only when the command it set up
        has run; a player cannot write there, so it cannot fake a setup failure.
        """
        if self.ran is not None:
            return self.ran() is False
        if not self.status:
            return False
        data = b""
        with contextlib.suppress(OSError):
            os.set_blocking(self.status[0], False)
            while chunk := os.read(self.status[0], 65536):
                data += chunk
        self.status_text += data
        return b'"exit-code"' not in self.status_text

    def limit_hit(self, signal_name: str | None = None) -> str | None:
        """Which per-player limit the kernel enforced (memory, processes; for a ``SIGSYS``, the call
        the syscall filter refused, from the kernel's log), if any."""
        hit = self.cgroup.limit_hit() if self.cgroup else None
        if hit or signal_name != "SIGSYS" or self.mechanism == "none":
            return hit
        call = seal.killed_call(self.uid, self.since_us)
        return _(SEALED_CALL).format(call=call) if call else None

    def cpu_ns(self) -> int | None:
        """CPU time the player's whole tree has used so far (None where not measured)."""
        return self.cgroup.cpu_ns() if self.cgroup else None

    def threads(self) -> list[int] | None:
        """Every thread of the player's whole tree now (None where not known: no cgroup)."""
        return self.cgroup.threads() if self.cgroup else None

    @property
    def cpus(self) -> float | None:
        """The most cores the player's tree can use at once (None: not capped)."""
        return self.cgroup.cpus if self.cgroup else None

    def kill(self) -> None:
        """Kill every process of the player, wherever it went (cgroup, uid)."""
        if self.cgroup:
            self.cgroup.kill()
        if self.uid is not None and not (self.contained and self.cgroup):
            uids.kill_all(self.uid)

    def release(self) -> None:
        self.started()
        if self.status:
            with contextlib.suppress(OSError):
                os.close(self.status[0])
            self.status = None
        emptied = False
        if self.cgroup and self.cgroups_free is not None and self.contained and self.cgroup.vacate():
            self.cgroups_free.append(self.cgroup)  # empty: used again as it is, limits and all
            emptied = True
        elif self.cgroup:
            emptied = self.cgroup.remove()
        self.cgroup = None
        if self.lease:
            if self.pool is not None and self.contained and emptied:
                self.pool.give_back(self.lease)  # no process of it is left: used again as it is
            else:
                self.lease.release(clean_shared=self.mechanism == "rlimits")
            self.lease = None

    def __enter__(self) -> Box:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def _succeeds(argv: list[str], env: dict[str, str] | None = None, pass_fds: Sequence[int] = ()) -> bool:
    """Whether ``argv`` runs and exits 0 within 10 s (a trial run)."""
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, check=False, env=env, pass_fds=pass_fds)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


TRIAL_MOUNTS = ["--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev"]
MASKED_PROC = (
    "/proc/loadavg",
    "/proc/stat",
    "/proc/uptime",
    "/proc/meminfo",
    "/proc/vmstat",
    "/proc/zoneinfo",
    "/proc/buddyinfo",
    "/proc/pagetypeinfo",
    "/proc/schedstat",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/diskstats",
    "/proc/locks",
    "/proc/keys",
    "/proc/key-users",
    "/proc/pressure/cpu",
    "/proc/pressure/io",
    "/proc/pressure/memory",
    "/proc/pressure/irq",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/kernel/random/entropy_avail",
    "/proc/sys/kernel/pty/nr",
    "/proc/sys/fs/aio-nr",
)
"""Files of /proc that count what the whole machine is doing (threads, forks, CPU and memory use,
locks, keys): a channel between two players, one moving a counter and the other reading it. Each is
replaced by an empty file in every player's /proc."""


PROC_VISIBLE = frozenset({"self", "thread-self", "mounts", "net", "cpuinfo", "filesystems", "version", "sys"})
"""What of /proc's top level a player sees besides its own processes: itself, the CPUs (runtimes size
their thread pools by them), static facts of the kernel, and /proc/sys (read-only, its counters
masked). Everything else of the top level is hidden — default-deny, as the syscall filter: an empty
file for a file, an empty read-only folder for a folder. A list of what counts the machine missed
one (``/proc/fs/ext4/<disk>/es_shrinker_info``, the disk's extent cache: up to 16 bits per mano
between two players, ``benchmarks/audits/channels.py``); a list of what a runtime needs cannot."""


@functools.cache
def _proc_top() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The top-level files and folders of /proc a player does not see (pids and symlinks aside)."""
    files: list[str] = []
    folders: list[str] = []
    with contextlib.suppress(OSError), os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit() or entry.name in PROC_VISIBLE or entry.is_symlink():
                continue
            (folders if entry.is_dir(follow_symlinks=False) else files).append(entry.path)
    return tuple(sorted(files)), tuple(sorted(folders))


def masked_proc() -> list[str]:
    """The files of /proc each player sees empty: :data:`MASKED_PROC`, and the top level's hidden files."""
    hidden = tuple(folder + "/" for folder in _proc_top()[1])
    found = [path for path in MASKED_PROC if os.path.exists(path) and not path.startswith(hidden)]
    return found + [path for path in _proc_top()[0] if path not in found]


def masked_proc_folders() -> list[str]:
    """The folders of /proc each player sees empty (the top level's, but for :data:`PROC_VISIBLE`)."""
    return list(_proc_top()[1])


UNSHARE_AS_ROOT = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try"]
"""Every namespace but the user namespace: a root bwrap maps no uid, the player gets its leased one."""


def is_root() -> bool:
    return os.geteuid() == 0


def _drop(uid: int) -> list[str]:
    """``setpriv`` to ``uid`` with no groups, no capabilities and no way back."""
    return [
        "setpriv",
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--no-new-privs",
        "--",
    ]


@functools.cache
def bwrap_works() -> bool:
    """A real trial: can bwrap start a sandbox here as players get it (dropping to a uid as root)?"""
    if shutil.which("bwrap") is None:
        return False
    if is_root():
        if shutil.which("setpriv") is None:
            return False
        box = ["bwrap", *UNSHARE_AS_ROOT, "--die-with-parent", *TRIAL_MOUNTS]
        return _succeeds([*box, *_drop(uids.FIRST_UID - 1), "true"])
    return _succeeds(["bwrap", "--unshare-all", "--die-with-parent", *TRIAL_MOUNTS, "true"])


def seal_problem(mechanism: str) -> str | None:
    """Why players cannot be sealed (their syscall filter) under ``mechanism`` here, or None."""
    if mechanism == "none":
        return None
    problem = seal.problem()
    if problem or mechanism != "bwrap":
        return problem
    if not _bwrap_seals():
        return _("the players' syscall filter cannot be loaded: bubblewrap refuses --seccomp here")
    return None


@functools.cache
def _bwrap_seals() -> bool:
    """A real trial: does bwrap load the players' syscall filter (and does it refuse a key)?"""
    fd = seal.program_fd()
    try:
        box = ["bwrap", "--unshare-all", "--die-with-parent", *TRIAL_MOUNTS, "--seccomp", str(fd)]
        trial = SEAL_TRIAL.format(keyctl=seal.number("keyctl"))
        return _succeeds([*box, sys.executable, "-I", "-S", "-c", trial], pass_fds=(fd,))
    finally:
        os.close(fd)


SEAL_TRIAL = (
    "import ctypes, errno, sys; libc = ctypes.CDLL(None, use_errno=True); "  # not shown
    "r = libc.syscall({keyctl}, 0, 0, 0, 0); "
    "sys.exit(0 if r == -1 and ctypes.get_errno() == errno.EPERM else 1)"
)  # not shown
"""The trial's player: ``keyctl`` must fail with EPERM."""


def rlimits_problem() -> str | None:
    """Why ``--sandbox rlimits`` cannot run players safely here, or None when it can."""
    if not is_root():
        return _(
            "--sandbox rlimits needs a root referee (each player runs under a uid of its own); "
            "install bubblewrap (apt install bubblewrap), or use --sandbox none on your own machine"
        )
    missing = [tool for tool in ("prlimit", "setpriv") if shutil.which(tool) is None]
    if missing:
        tools = (
            missing[0]
            if len(missing) == 1
            else _("{first} and {second}").format(first=missing[0], second=missing[1])
        )
        return _(
            "--sandbox rlimits needs {tools} (util-linux) on PATH; refusing to run players as root"
        ).format(tools=tools)
    return None


def resolve(mode: str) -> str:
    """The mechanism for ``mode``: ``"bwrap"``, ``"rlimits"`` or ``"none"``.

    SandboxError when the mode is unknown or cannot be had here: ``auto`` never
    falls back silently to a weaker containment.
    """
    if mode not in MODES:
        raise SandboxError(
            _("unknown sandbox {mode}; known: {known}").format(mode=repr(mode), known=", ".join(MODES))
        )
    if mode == "none":
        return "none"
    if mode == "rlimits":
        problem = rlimits_problem() or seal_problem("rlimits")
        if problem:
            raise SandboxError(problem)
        return "rlimits"
    if bwrap_works():
        problem = seal_problem("bwrap")
        if problem:
            raise SandboxError(problem)
        return "bwrap"
    if mode == "bwrap":
        raise SandboxError(_("--sandbox bwrap: bubblewrap does not work here (see `arena doctor`)"))
    raise SandboxError(
        _(
            "bubblewrap does not work here, so players cannot be contained: install it "
            "(apt install bubblewrap), or choose a weaker containment explicitly: --sandbox rlimits "
            "(root only: limits and a uid per player, no filesystem or network isolation) "
            "or --sandbox none (your own bot on your own machine); see `arena doctor`"
        )
    )


def warning(mechanism: str) -> str | None:
    """The one warning line for what ``mechanism`` leaves unenforced here, or None."""
    per_player = cgroups.detect() is not None
    if mechanism == "none":
        return _("arena: --sandbox none: player processes run uncontained, as you (debugging only)")
    missing = []
    if mechanism == "rlimits":
        missing += [
            _("network isolation (only Unix sockets; the host's abstract Unix sockets are reachable)"),
            _("filesystem isolation (players can read anything world-readable: other players' folders)"),
            _("a private /tmp"),
            _(
                "a pid namespace (players see each other's processes, "
                "though they cannot signal or trace them)"
            ),
        ]
    if not per_player:
        missing.append(_("limits per player (no writable cgroup: memory, processes and CPU are per process)"))
    if seal.audit_mode():
        missing.append(_("a syscall allowlist (ARENA_SEAL_AUDIT=1: calls outside it are only logged)"))
    if not missing:
        return None
    return _("arena: --sandbox {mechanism} does not give: {missing} — see `arena doctor`").format(
        mechanism=mechanism, missing="; ".join(missing)
    )


def _base_env(extra: dict[str, str]) -> dict[str, str]:
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "TMPDIR": "/tmp",
        "ARENA_PLAYER": "1",
        i18n.ENV: i18n.language(),  # players write their messages in the referee's language
    }
    env.update(extra)
    return env


def _python_roots() -> list[str]:
    """Folders the Python interpreter needs (the venv and its base installation)."""
    roots = {sys.prefix, sys.base_prefix, str(Path(os.path.realpath(sys.executable)).parent.parent)}
    return sorted(r for r in roots if r and not r.startswith(("/usr", "/bin", "/lib")))


# ------------------------------------------------------------------ staging a player's folder

_stages: dict[int, Path] = {}
_threads = threading.RLock()
"""Guards what a referee process makes once for all its threads (stage root, uid pool)."""
_staged: dict[tuple[int, str, str], Path] = {}


def at_exit(fn: Callable[[], None]) -> None:
    """Run ``fn`` when this process ends, also as a multiprocessing worker (which skips atexit)."""
    atexit.register(fn)
    multiprocessing.util.Finalize(None, fn, exitpriority=10)


def stage_root() -> Path:
    """This process's root-owned staging folder (0711: enterable, not listable); removed at exit.

    Folders left by a process killed hard are swept when the next one is made.
    """
    pid = os.getpid()
    with _threads:
        if pid not in _stages:
            _make_stage_root(pid)
    return _stages[pid]


def _make_stage_root(pid: int) -> None:
    """Sweep the stage roots of referees that are gone; make this process's."""
    tmp = Path(tempfile.gettempdir())
    for stale in tmp.glob("tute-arena-stage-*-*"):
        owner = stale.name.split("-")[3]
        if owner.isdigit() and int(owner) != pid and not cgroups.pid_alive(int(owner)):
            with contextlib.suppress(OSError):
                if stale.stat().st_uid == os.geteuid():
                    shutil.rmtree(stale, ignore_errors=True)
    root = Path(tempfile.mkdtemp(prefix=f"tute-arena-stage-{pid}-"))  # not shown
    root.chmod(0o711)
    _stages[pid] = root
    at_exit(lambda: _remove_stage(pid))


def _remove_stage(pid: int) -> None:
    if os.getpid() == pid and pid in _stages:
        shutil.rmtree(_stages.pop(pid), ignore_errors=True)


def _fingerprint(folder: Path) -> str:
    """Names, sizes and modification times of everything in ``folder`` (to reuse a stage)."""
    digest = hashlib.sha256()
    count = 0
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files) + dirs:
            info = os.lstat(os.path.join(root, name))
            digest.update(f"{root}/{name}\0{info.st_size}\0{info.st_mtime_ns}\0{info.st_mode}\n".encode())
            count += 1
            if count > STAGE_MAX_FILES:
                raise SandboxError(
                    _("{folder}: more than {count} files; too large to run").format(
                        folder=folder, count=STAGE_MAX_FILES
                    )
                )
    return digest.hexdigest()


def stage(folder: Path) -> Path:
    """A private, read-only copy of ``folder`` any uid can read (0755 folders, 0644/0755 files).

    Symbolic links are copied as links (never followed as root); other special
    files are left out. Reused while the folder is unchanged.
    """
    key = (os.getpid(), str(folder), _fingerprint(folder))
    if key in _staged and _staged[key].is_dir():
        return _staged[key]
    dest = Path(tempfile.mkdtemp(dir=stage_root(), prefix="p-")) / folder.name
    total = 0
    for root, dirs, files in os.walk(folder):
        rel = Path(root).relative_to(folder)
        target = dest / rel
        target.mkdir(mode=0o755, exist_ok=True)
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            src, out = Path(root, name), target / name
            info = os.lstat(src)
            if stat.S_ISLNK(info.st_mode):
                os.symlink(os.readlink(src), out)
            elif stat.S_ISREG(info.st_mode):
                total += info.st_size
                if total > STAGE_MAX_BYTES:
                    raise SandboxError(
                        _("{folder}: more than {mib} MiB; too large to run").format(
                            folder=folder, mib=STAGE_MAX_BYTES >> 20
                        )
                    )
                shutil.copyfile(src, out, follow_symlinks=False)
                out.chmod(0o755 if info.st_mode & 0o111 else 0o644)
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
    dest.parent.chmod(0o711)
    for root, dirs, _files in os.walk(dest):
        os.chmod(root, 0o755)  # explicitly: the umask may be stricter
        dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
    _staged[key] = dest
    return dest


# ------------------------------------------------------------------ planning a start


def _bwrap_mounts(
    folder: Path | None, limits: Resources, env: dict[str, str], as_root: bool, chdir: str = PLAYER_DIR
) -> list[str]:
    """bwrap's arguments: what of the machine the player sees, and how.

    Without a ``folder``: the warm-start server's sandbox (:func:`zygote_box`), with every staged
    folder at :data:`arena.player.zygote.STAGES` instead, and empty folders to mount the players' on.
    """
    unshare = UNSHARE_AS_ROOT if as_root else ["--unshare-all"]
    box = ["bwrap", *unshare, "--die-with-parent", "--new-session"]
    made: set[str] = {"/"}

    def folders_above(dest: str) -> list[str]:
        """``--dir`` for each folder above ``dest`` not made yet: 0755 whatever the umask."""
        out = []
        for parent in reversed(Path(dest).parents):
            if str(parent) not in made:
                made.add(str(parent))
                out += ["--perms", "0755", "--dir", str(parent)]
        return out

    def bind(source: str, dest: str) -> list[str]:
        made.add(dest)
        return [*folders_above(dest), "--ro-bind", source, dest]

    box += bind("/usr", "/usr")
    for link in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        target = Path("/") / link
        if target.is_symlink():
            box += ["--symlink", os.readlink(target), f"/{link}"]
        elif target.is_dir():
            box += bind(f"/{link}", f"/{link}")
    for name in ETC_FILES:  # not all of /etc: nothing like /etc/shadow
        if Path("/etc", name).exists():
            box += bind(f"/etc/{name}", f"/etc/{name}")
    # The private /tmp first: an interpreter (a venv) living under /tmp is bound on top of it.
    box += ["--perms", "1777", "--size", str(limits.file_mb << 20), "--tmpfs", "/tmp"]
    made.add("/tmp")
    for root in _python_roots():
        box += bind(root, root)
    box += bind(str(ARENA_PACKAGE), f"{SDK_DIR}/arena")
    if folder is not None:
        box += bind(str(folder), PLAYER_DIR)
    else:
        box += bind(str(stage_root()), zygote.STAGES)
        box += ["--perms", "0755", "--dir", PLAYER_DIR, "--perms", "0755", "--dir", zygote.SPARE_TMP]
    box += ["--proc", "/proc", "--dev", "/dev"]
    for path in masked_proc_folders():
        box += ["--perms", "0555", "--tmpfs", path, "--remount-ro", path]
    for path in masked_proc():
        box += ["--ro-bind", "/dev/null", path]
    if not as_root:
        box += ["--uid", str(NOBODY), "--gid", str(NOBODY)]
    box += [
        "--remount-ro",  # no unbounded in-memory place to write: only the sized /tmp
        "/",
        "--remount-ro",
        "/dev",
        "--remount-ro",
        "/proc",
        "--chdir",
        chdir,
        "--clearenv",
    ]
    for key, value in env.items():
        box += ["--setenv", key, value]
    return box


def _cgroup(name: str, limits: Resources) -> cgroups.PlayerCgroup | None:
    """The player's own cgroup where the machine lets us make one (None otherwise)."""
    if cgroups.detect() is None:
        return None
    try:
        return cgroups.PlayerCgroup.create(name, limits.cgroup())
    except cgroups.CgroupError:
        return None


def _holds(box: Box) -> bool:
    """Whether the box's cgroup bounds its player's memory and processes on its own."""
    return box.cgroup is not None and box.cgroup.holds_memory


@functools.cache
def _reaches(executable: str) -> bool:
    """Whether an unprivileged uid can run the Python ``executable`` (tried once, as uid 65534)."""
    return _succeeds([*_drop(NOBODY), executable, "-c", "pass"])


_names = iter(range(1, 1 << 62))
_ready: set[str] = set()


def preflight(mechanism: str) -> None:
    """Try, once per process and mechanism, that a player's user can run Python and import the SDK.

    SandboxError (one line naming the path and the fix) when it cannot: a setup problem
    of the machine is named before the first partido, never charged to every player.
    """
    if mechanism == "none" or mechanism in _ready:
        return
    probe = "import arena.player.runner, arena.sdk"  # not shown
    with tempfile.TemporaryDirectory(prefix="tute-arena-preflight-") as tmp:
        os.chmod(tmp, 0o755)
        box = contain([sys.executable, "-c", probe, tmp], Path(tmp), mechanism, python_player=True)
        try:
            done = box.run(timeout=60)
        except (OSError, subprocess.SubprocessError) as exc:
            raise SandboxError(
                _("cannot start a player process under {mechanism}: {error}").format(
                    mechanism=mechanism, error=exc
                )
            ) from None
        finally:
            box.release()
    if done.returncode != 0:
        said = [line for line in done.stderr.splitlines() if line.strip()]
        why = said[-1][:EXCERPT] if said else _("exit status {status}").format(status=done.returncode)
        raise SandboxError(
            _(
                "players cannot run here under {mechanism}: {python} importing the SDK from {package} fails "
                "for the players' user ({why}); make the interpreter and {package} readable by every user "
                "(chmod -R o+rX), or install the project where they are"
            ).format(mechanism=mechanism, python=sys.executable, package=ARENA_PACKAGE, why=why)
        )
    _ready.add(mechanism)


def contain(
    argv: Sequence[str],
    folder: Path,
    mechanism: str,
    limits: Resources | None = None,
    python_player: bool = False,
    extra_env: dict[str, str] | None = None,
) -> Box:
    """The contained way to start ``argv`` for the player in ``folder``; release the Box after.

    For a Python player pass the runner's argv with the folder as last argument;
    inside bwrap the folder is seen at ``/player`` and the SDK at ``/opt/arena``.
    """
    limits = limits or Resources()
    folder = folder.resolve()
    argv = list(argv)
    if mechanism not in MECHANISMS:
        raise SandboxError(
            _("unknown containment {mechanism}; known: {known}").format(
                mechanism=repr(mechanism), known=", ".join(MECHANISMS)
            )
        )
    if mechanism == "none":
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ARENA_PACKAGE.parent), env.get("PYTHONPATH")) if p
        )
        env["ARENA_PLAYER"] = "1"
        return Box(argv, str(folder), env, mechanism)
    if mechanism == "rlimits":
        problem = rlimits_problem()
        if problem:
            raise SandboxError(problem)
        if python_player and not _reaches(sys.executable):
            raise SandboxError(
                _(
                    "--sandbox rlimits: the Python interpreter {python} cannot be run by an unprivileged "
                    "user (a folder above it is private); use bubblewrap, or a Python installed where every "
                    "user can run it"
                ).format(python=os.path.realpath(sys.executable))
            )
    as_root = is_root()
    seen = stage(folder) if as_root else folder
    box = Box(argv, str(seen), {}, mechanism)
    try:
        if as_root:
            box.lease = uids.UidLease()
            box.uid = box.lease.uid
        box.cgroup = _cgroup(f"p{os.getpid()}-{next(_names)}", limits)
        launch = box.cgroup.launcher() if box.cgroup else []
        drop = _drop(box.uid) if box.uid is not None else []
        box.seal_fd = seal.program_fd()
        if mechanism == "rlimits":
            if python_player:
                argv[-1] = str(seen)
            box.env = _base_env({"PYTHONPATH": str(ARENA_PACKAGE.parent), **(extra_env or {})})
            launcher = str(ARENA_PACKAGE / "player" / "sealing.py")
            sealing = [sys.executable, "-I", "-S", launcher, str(box.seal_fd), "--"]
            box.argv = [*launch, *limits.prlimit(_holds(box)), *sealing, *drop, *argv]  # sealed, then dropped
            return box
        if python_player:
            argv[-1] = PLAYER_DIR
        box.env = _base_env({"PYTHONPATH": SDK_DIR, **(extra_env or {})})
        box.status = os.pipe()
        os.set_inheritable(box.status[1], True)
        inner = _bwrap_mounts(seen, limits, box.env, as_root)
        inner[1:1] = ["--json-status-fd", str(box.status[1]), "--seccomp", str(box.seal_fd)]
        box.argv = [*launch, *limits.prlimit(_holds(box)), *inner, "--", *drop, *argv]
        return box
    except BaseException:
        box.release()
        raise


ZYGOTE_CAPS = ("CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")
"""All the warm-start server keeps (bwrap drops the rest): to make a partido's namespaces and mounts,
bring its loopback up, and drop to a uid; every one of them is dropped before a player's code runs."""
ZYGOTE_BOOT = (
    "import sys; sys.path.insert(0, {sdk!r}); import arena.player.zygote as z; z.main()"  # not shown
)


def warm_ready() -> bool:
    """Whether warm starts can contain players here as fresh starts do: a root referee with working
    bubblewrap and cgroups of its own (each partido's processes are born in their own cgroup)."""
    return is_root() and bwrap_works() and cgroups.detect() is not None


def zygote_box(channel: int, preload: Sequence[str], limits: Resources | None = None) -> Box:
    """How to start the warm-start server (:mod:`arena.player.zygote`), talking on descriptor ``channel``.

    The sandbox is a player's (:func:`contain`), with every staged folder seen instead of one and
    the server left as root with :data:`ZYGOTE_CAPS` (it never runs a player's code); each
    player it forks gets its own namespaces, /tmp, /proc, folder, limits and uid.
    """
    limits = limits or Resources()
    box = Box([], "/", _base_env({}), "bwrap")
    try:
        box.cgroup = _cgroup(f"z{os.getpid()}-{next(_names)}", limits)
        if box.cgroup is None:
            raise SandboxError(_("warm starts need a cgroup of their own for every player"))
        box.status = os.pipe()
        os.set_inheritable(box.status[1], True)
        inner = _bwrap_mounts(None, limits, box.env, as_root=True, chdir="/")
        inner.remove("--unshare-cgroup-try")  # its forks move into their partido's cgroup by themselves
        inner[1:1] = ["--json-status-fd", str(box.status[1])]
        for cap in ZYGOTE_CAPS:
            inner[1:1] = ["--cap-add", cap]
        inner[1:1] = ["--cap-drop", "ALL"]
        import json

        tmp_roots = [r for r in _python_roots() if r == "/tmp" or r.startswith("/tmp/")]
        config = json.dumps(
            {
                "tmp_roots": tmp_roots,
                "preload": list(preload),
                "seal": seal.program().hex(),
                "masked": masked_proc(),
                "masked_folders": masked_proc_folders(),
            }
        )
        boot = ZYGOTE_BOOT.format(sdk=SDK_DIR)
        python = [sys.executable, "-I", "-c", boot, str(channel), config]
        box.argv = [*box.cgroup.launcher(), *inner, "--", *python]
        return box
    except BaseException:
        box.release()
        raise


_pools: dict[int, uids.UidPool] = {}
_free_cgroups: dict[tuple[int, Resources], list[cgroups.PlayerCgroup]] = {}
"""(referee pid, limits) -> emptied player cgroups with those limits, kept for warm starts."""


def _uid_pool() -> uids.UidPool:
    """This process's pool of player uids (warm starts only; freed at exit)."""
    pid = os.getpid()
    with _threads:
        if pid not in _pools:
            _pools[pid] = uids.UidPool()
            at_exit(lambda: _pools.pop(pid).close() if os.getpid() == pid and pid in _pools else None)
    return _pools[pid]


def warm_box(folder: Path, limits: Resources | None = None, extra_env: dict[str, str] | None = None) -> Box:
    """What a warm-started Python player holds (its uid, its cgroup) and the environment it gets,
    as :func:`contain` would give it; the warm-start server starts the process itself.

    ``box.cwd`` is the player's staged folder relative to :func:`stage_root`.
    """
    limits = limits or Resources()
    seen = stage(folder.resolve())
    box = Box([], str(seen.relative_to(stage_root())), {}, "bwrap", contained=True)
    try:
        box.pool = _uid_pool()
        box.lease = box.pool.take()
        box.uid = box.lease.uid
        box.cgroups_free = _free_cgroups.setdefault((os.getpid(), limits), [])
        try:
            box.cgroup = box.cgroups_free.pop()  # one step: two threads never take the same one
            box.cgroup.reuse()
        except IndexError:
            box.cgroup = _cgroup(f"p{os.getpid()}-{next(_names)}", limits)
        if box.cgroup is None:
            raise SandboxError(_("warm starts need a cgroup of their own for every player"))
        box.env = _base_env({"PYTHONPATH": SDK_DIR, **(extra_env or {})})
        return box
    except BaseException:
        box.release()
        raise


SIGNAL_LIMITS = {
    "SIGXCPU": N_("CPU time limit"),
    "SIGXFSZ": N_("file size limit"),
    "SIGKILL": N_("killed"),
    "SIGSYS": N_("a system call outside the players' allowlist"),
}
"""Signal -> the limit it names (marked for the catalog: translate where shown)."""


SEALED_CALL = N_("the system call {call}, outside the players' allowlist (docs/security.md)")
"""A player killed by the syscall filter, the call named from the kernel's log."""


def limit_hint(stderr_tail: str, signal_name: str | None) -> str | None:
    """Which resource limit a crash most likely hit, from its signal or its last words."""
    if signal_name in ("SIGXCPU", "SIGXFSZ", "SIGSYS"):
        return _(SIGNAL_LIMITS[signal_name])
    text = stderr_tail.lower()
    if "memoryerror" in text or "out of memory" in text or "cannot allocate memory" in text:  # not shown
        return _("memory limit")
    if "file too large" in text or "no space left" in text:  # not shown
        return _("file size limit")
    if "resource temporarily unavailable" in text and "fork" in text:  # not shown
        return _("process limit")
    return None
