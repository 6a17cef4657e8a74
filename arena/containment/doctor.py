"""``arena doctor``: which protections for player processes hold on this machine.

Each protection is tried for real: a probe program is started exactly as a player
would be (same containment, uid and cgroup), attempts what a hostile bot would,
and reports; the referee then checks from outside what the probe could not see
(whether its /tmp was private, whether it could signal another player).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.containment import cgroups, sandbox, seal
from arena.i18n import N_, _

PROBE_LIMITS = sandbox.Resources(memory_mb=512, cpu_s=30, processes=32, file_mb=16, cpus=0.5)
"""Small limits, so that the probe can exceed each of them quickly."""

PROBE = r"""
import json, os, resource, socket, sys, time
other, secret_env, host_port, private, victim, tmp_name = sys.argv[1:7]
out = {}
def attempt(name, fn):
    try:
        fn(); out[name] = False
    except Exception:
        out[name] = True
attempt("no_network", lambda: socket.create_connection(("127.0.0.1", int(host_port)), timeout=1).close())
attempt("other_folders_hidden", lambda: open(other).read())
attempt("referee_files_closed", lambda: open(private).read())
attempt("own_folder_read_only", lambda: open("probe-write-test", "w").write("x"))
attempt("proc_sys_read_only", lambda: open("/proc/sys/kernel/core_pattern", "w").close())
try:
    with open("/tmp/" + tmp_name, "w") as f:
        f.write("x")
    out["tmp_writable"] = True
except OSError:
    out["tmp_writable"] = False
out["clean_environment"] = secret_env not in os.environ
def signal_other():
    os.kill(int(victim), 0)
attempt("others_untouchable", signal_other)
def read_other_memory():
    open(f"/proc/{int(victim)}/mem", "rb").close()
attempt("others_memory_closed", read_other_memory)
def hog():
    pid = os.fork()
    if pid == 0:  # a child takes (and touches) 1 GiB: refused, or killed by the cgroup's OOM killer
        try:
            b = bytearray(1 << 30)
            b[::4096] = b"\1" * (len(b) // 4096)
        except MemoryError:
            os._exit(1)
        os._exit(0)
    return os.waitpid(pid, 0)[1] != 0
out["memory_limit"] = hog()
def tree_hog():
    kids = []
    for _ in range(4):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                b = bytearray(200 << 20)
                for i in range(0, len(b), 4096):
                    b[i] = 1
                os.write(w, b"1")
                time.sleep(3)
            finally:
                os._exit(0)
        os.close(w)
        kids.append((pid, r))
    for pid, r in kids:
        os.read(r, 1)  # b"" when the child died before holding its share
    time.sleep(0.3)
    holding = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid, _ in kids)
    for pid, _ in kids:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
    return holding * 200 <= 512
out["memory_limit_per_player"] = tree_hog()
out["cpu_limit"] = resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY
def fork_flood():
    children = []
    try:
        for _ in range(64):
            pid = os.fork()
            if pid == 0:
                time.sleep(5)
                os._exit(0)
            children.append(pid)
    except OSError:
        return True
    finally:
        for pid in children:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
    return False
out["process_limit"] = fork_flood()
def cpu_share():
    before = os.times()
    kids = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            end = time.monotonic() + 1.0
            while time.monotonic() < end:
                pass
            os._exit(0)
        kids.append(pid)
    for pid in kids:
        os.waitpid(pid, 0)
    after = os.times()
    used = after.children_user + after.children_system - before.children_user - before.children_system
    return used < 0.9
out["cpu_share_per_player"] = cpu_share()
out["file_size_limit"] = resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY
out["own_pid_namespace"] = os.getpid() < 10
print(json.dumps(out))
"""  # not shown

PAIR_PROBE = r"""
import ctypes, errno, fcntl, json, os, sys, time
role, shared, word = sys.argv[1:4]
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
ADD_KEY, KEYCTL, UNSHARE = map(int, sys.argv[4:7])  # this machine's numbers (arena.containment.seal)
def raw(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(a) for a in args))
    return r if r >= 0 else -ctypes.get_errno()
out = {}
fd = os.open(shared, os.O_RDONLY)
if role == "a":
    kind, desc, data = (ctypes.create_string_buffer(b) for b in (b"user", word.encode(), b"hand"))
    key = raw(ADD_KEY, ctypes.addressof(kind), ctypes.addressof(desc), ctypes.addressof(data), 4, -4)
    if key > 0:
        raw(KEYCTL, 15, key, 20)  # KEYCTL_SET_TIMEOUT: gone in 20 s, whatever happens to this probe
        raw(KEYCTL, 5, key, 0x3F3F3F3F)  # KEYCTL_SETPERM: everyone may view, read, search
    out["key"] = key > 0
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        out["lock"] = True
    except OSError:
        out["lock"] = False
    print(json.dumps(out), flush=True)
    time.sleep(5)
else:
    try:
        with open("/proc/keys") as keys:
            out["key_seen"] = word in keys.read()
    except OSError:
        out["key_seen"] = False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        out["lock_seen"] = False
    except OSError as exc:
        out["lock_seen"] = exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN)
    out["nested_userns"] = raw(UNSHARE, 0x10000000) == 0
    print(json.dumps(out), flush=True)
"""  # not shown
"""Two contained 'players' trying to reach each other: a key, a lock; and a nested user namespace."""

SEALING = str(sandbox.ARENA_PACKAGE / "player" / "sealing.py").encode()
IDLE_PROBE = "import time; time.sleep(1.5)"  # not shown

CHECKS = {
    "no_network": (N_("no network"), N_("bubblewrap (--unshare-net)")),
    "other_folders_hidden": (N_("other players' folders and the output folder hidden"), N_("bubblewrap")),
    "referee_files_closed": (
        N_("the referee's private files (store, log, replays) closed"),
        N_("bubblewrap, or rlimits"),
    ),
    "own_folder_read_only": (N_("its own folder read-only"), N_("bubblewrap, or a root referee")),
    "proc_sys_read_only": (N_("host settings (/proc/sys) read-only"), N_("bubblewrap, or a root referee")),
    "private_tmp": (N_("a private /tmp, gone after the partido"), N_("bubblewrap (--tmpfs /tmp)")),
    "unprivileged_user": (N_("an unprivileged user (never host root)"), N_("setpriv (util-linux), as root")),
    "own_uid": (N_("a uid of its own, shared with nothing else"), N_("a root referee")),
    "clean_environment": (N_("a clean environment"), N_("bubblewrap or rlimits")),
    "others_untouchable": (N_("cannot signal other players"), N_("bubblewrap, or a root referee")),
    "others_memory_closed": (N_("cannot read other players' memory"), N_("bubblewrap, or a root referee")),
    "memory_limit": (N_("memory limit per process"), N_("prlimit --as (util-linux)")),
    "memory_limit_per_player": (
        N_("memory limit per player (its whole process tree)"),
        N_("a writable cgroup"),
    ),
    "cpu_limit": (N_("CPU time limit per process"), N_("prlimit --cpu (util-linux)")),
    "cpu_share_per_player": (
        N_("CPU share per player (its background processes included)"),
        N_("a writable cgroup"),
    ),
    "process_limit": (N_("process count limit per player"), N_("a writable cgroup, or a root referee")),
    "file_size_limit": (N_("file size limit"), N_("prlimit --fsize (util-linux)")),
    "own_pid_namespace": (
        N_("own pid namespace (no process escapes the kill)"),
        N_("bubblewrap (--unshare-pid)"),
    ),
    "syscall_filter": (
        N_("a syscall filter (keys, locks, watches, IPC, namespaces, tracing refused)"),  # an allowlist
        N_("libseccomp, and bubblewrap's --seccomp"),
    ),
    "unlisted_call_refused": (
        N_("a call outside the syscall allowlist ends the player (tried: one no kernel has)"),
        N_("the syscall filter, not in audit mode (ARENA_SEAL_AUDIT)"),
    ),
    "no_shared_key": (N_("no kernel key shared between two players"), N_("the syscall filter")),
    "no_shared_lock": (N_("no file lock seen across two players"), N_("the syscall filter")),
    "no_nested_userns": (N_("no nested user namespace"), N_("the syscall filter")),
    "idle_measured": (
        N_("idle time per reply measured (a sleeping reply is caught)"),
        N_("per-thread schedstat in /proc, and a cgroup per player"),
    ),
}
"""Protection -> (what it is, what it needs), both marked for the catalog and translated where shown."""


def _victim(mechanism: str, folder: Path) -> tuple[sandbox.Box, subprocess.Popen[bytes]]:
    """Another contained 'player' (a sleeper) for the probe to try to reach."""
    box = sandbox.contain(["sleep", "60"], folder, mechanism, PROBE_LIMITS)
    try:
        proc = box.popen(start_new_session=True)
    except OSError:
        box.release()
        raise
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not _sleeper(proc.pid):
        time.sleep(0.01)
    return box, proc


def _sleeper(pid: int) -> int | None:
    """The host pid of the ``sleep`` under ``pid`` (through bwrap's processes), if started."""
    from arena.containment.process import descendants

    for p in [pid, *descendants(pid)]:
        with contextlib.suppress(OSError), open(f"/proc/{p}/comm") as f:  # not shown
            if f.read().strip() == "sleep":
                return p
    return None


def _host_uids(proc: subprocess.Popen[str], marker: str) -> set[int]:
    """The uids (real, effective, saved), as the host sees them, of the probe's processes.

    Read from outside, while the probe runs: nested user namespaces make any
    answer from inside unreliable.
    """
    from arena.containment.process import descendants

    found: set[int] = set()
    while proc.poll() is None:
        for pid in [proc.pid, *descendants(proc.pid)]:
            with contextlib.suppress(OSError, ValueError):
                with open(f"/proc/{pid}/cmdline", "rb") as f:  # not shown
                    cmdline = f.read()
                    if marker.encode() not in cmdline or SEALING in cmdline:
                        continue  # (the referee's sealing launcher runs as root, before the drop)
                with open(f"/proc/{pid}/comm") as f:  # not shown
                    if not f.read().startswith("python"):
                        continue
                with open(f"/proc/{pid}/status") as f:  # not shown
                    for line in f:
                        if line.startswith("Uid:"):
                            found.update(map(int, line.split()[1:4]))
        if found:
            return found
        time.sleep(0.005)
    return found


def probe(mechanism: str) -> dict[str, bool]:
    """Every protection of :data:`CHECKS` under ``mechanism``: which held."""
    results = _alone(mechanism)
    results["syscall_filter"] = mechanism != "none" and sandbox.seal_problem(mechanism) is None
    results["unlisted_call_refused"] = results["syscall_filter"] and _outside(mechanism)
    results.update(_pair(mechanism))
    results["idle_measured"] = _idle(mechanism)
    return results


def _alone(mechanism: str) -> dict[str, bool]:
    """Run the probe as a player under ``mechanism``; which protections held."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.chmod(root, 0o755)
        mine, other = root / "probe", root / "other"
        for folder in (mine, other):
            folder.mkdir()
            os.chmod(folder, 0o755)
        (other / "secret.txt").write_text("hidden")
        os.chmod(other / "secret.txt", 0o644)
        private = root / "torneo.sqlite"
        private.write_text("the referee's store")  # not shown
        os.chmod(private, 0o600)
        tmp_name = f"tute-arena-doctor-{os.getpid()}-{time.monotonic_ns()}"  # not shown
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        secret = "ARENA_DOCTOR_SECRET"
        env_before = os.environ.get(secret)
        os.environ[secret] = "1"
        victim_box, victim = _victim(mechanism, other)
        target = _sleeper(victim.pid) or victim.pid
        argv = [sys.executable, "-c", PROBE, str(other / "secret.txt"), secret, str(port), str(private)]
        box = sandbox.contain([*argv, str(target), tmp_name], mine, mechanism, PROBE_LIMITS)
        try:
            proc = box.popen(stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            host_uids = _host_uids(proc, tmp_name)
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            listener.close()
            if env_before is None:
                os.environ.pop(secret, None)
            uid = box.uid
            capped = box.cgroup is not None  # seen from outside: the probe's tree has a CPU quota
            left = Path(tempfile.gettempdir(), tmp_name)
            shared_tmp = left.exists()  # seen from outside while the player's uid still holds it
            box.release()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(victim.pid, signal.SIGKILL)
            victim.wait()
            victim_box.release()
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        if not lines:
            raise RuntimeError(
                _("the probe did not run under {mechanism}: {stderr}").format(
                    mechanism=mechanism, stderr=stderr.strip()[-300:]
                )
            )
        out = dict(json.loads(lines[-1]))
        out["unprivileged_user"] = bool(host_uids) and 0 not in host_uids
        out["private_tmp"] = out.pop("tmp_writable") and not shared_tmp
        with contextlib.suppress(OSError):
            left.unlink()
        out["own_uid"] = uid is not None
        # The probe's spinners got less than 0.9 s of CPU in 1 s: on a loaded machine that happens
        # without any cap, so it counts only where the tree really was in a cgroup of its own.
        out["cpu_share_per_player"] = bool(out["cpu_share_per_player"]) and capped
        return out


def _pair(mechanism: str) -> dict[str, bool]:
    """Two sandboxes as two players of one table: can a key or a lock pass between them?"""
    shared = str(sandbox.ARENA_PACKAGE / "__init__.py")
    if mechanism == "bwrap":
        shared = f"{sandbox.SDK_DIR}/arena/__init__.py"  # not shown
    word = f"tute-arena-doctor-{os.getpid()}-{time.monotonic_ns()}"  # not shown
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        folder = Path(tmp)
        calls = [str(seal.number(name)) for name in ("add_key", "keyctl", "unshare")]
        probe = [sys.executable, "-c", PAIR_PROBE]
        first = sandbox.contain([*probe, "a", shared, word, *calls], folder, mechanism)
        second = sandbox.contain([*probe, "b", shared, word, *calls], folder, mechanism)
        a = first.popen(stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert a.stdout is not None
            said_a = json.loads(a.stdout.readline() or "{}")
            done = second.run(timeout=30)
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            said_b = json.loads(lines[-1]) if lines else {}
        finally:
            a.kill()
            a.wait()
            first.release()
            second.release()
    return {
        "no_shared_key": bool(said_b) and not (said_a.get("key") and said_b.get("key_seen")),
        "no_shared_lock": bool(said_b) and not (said_a.get("lock") and said_b.get("lock_seen")),
        "no_nested_userns": bool(said_b) and not said_b.get("nested_userns"),
    }


OUTSIDE_PROBE = "import ctypes; ctypes.CDLL(None).syscall(9999); print('survived')"  # not shown


def _outside(mechanism: str) -> bool:
    """A contained process makes a call on no list: is it killed by SIGSYS, before it can say so?"""
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        box = sandbox.contain([sys.executable, "-c", OUTSIDE_PROBE], Path(tmp), mechanism, PROBE_LIMITS)
        done = box.run(timeout=30)
    status = done.returncode
    return "survived" not in done.stdout and status in (-signal.SIGSYS, 128 + signal.SIGSYS)


def _idle(mechanism: str) -> bool:
    """A contained process that sleeps 1.5 s: does the referee's idle clock see at least 1 s of it?"""
    from arena.containment import idle

    if not idle.measurable():
        return False
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        box = sandbox.contain([sys.executable, "-c", IDLE_PROBE], Path(tmp), mechanism, PROBE_LIMITS)
        proc = box.popen()
        try:
            clock = idle.tree_clock(box, proc.pid)
            time.sleep(0.3)  # past the start-up: the sleep itself
            clock.start()
            time.sleep(1.1)
            seen = clock.idle_ms()
        finally:
            proc.kill()
            proc.wait()
            box.release()
    return seen is not None and seen >= 1000


def report(mode: str = "auto") -> list[str]:
    """The doctor's lines for containment ``mode``."""
    lines = []
    works = sandbox.bwrap_works()
    lines.append(_("✓ bubblewrap: works (trial run)") if works else _("✗ bubblewrap: not usable here"))
    if not works:
        lines.append(
            "  " + _("install it: apt install bubblewrap (needs root, or unprivileged user namespaces)")
        )
    if sandbox.is_root():
        lines.append(_("Referee: root: each player gets a uid of its own"))
    else:
        lines.append(_("Referee: not root: players share your uid (kept apart by namespaces)"))
    hierarchy = cgroups.detect()
    lines.append(
        _("Limits per player: {hierarchy}").format(hierarchy=hierarchy.describe())
        if hierarchy
        else _(
            "Limits per player: none (no writable cgroup; under systemd: systemd-run --user --scope -p "
            "Delegate=yes arena ...)"
        )
    )
    mechanism = sandbox.resolve(mode)
    lines.append(_("Containment for --sandbox {mode}: {mechanism}").format(mode=mode, mechanism=mechanism))
    if mechanism != "none" and seal.problem() is None:
        lines.append(
            _("Syscall allowlist: {n} calls a player may make; every other call is refused").format(
                n=seal.size()
            )
        )
        if seal.audit_mode():
            lines.append(
                _(
                    "⚠ {env}=1: calls outside the list are only logged (for deriving it, never for a torneo)"
                ).format(env=seal.AUDIT_ENV)
            )
    results = probe(mechanism)
    for key, (label, how) in CHECKS.items():
        if results.get(key, False):
            lines.append(f"✓ {_(label)}")
        else:
            lines.append(
                _("✗ {protection} — needs {requirement}").format(protection=_(label), requirement=_(how))
            )
    lines.append(_warm_line(mechanism))
    warning = sandbox.warning(mechanism)
    if warning:
        lines.append(warning)
    return lines


def _warm_line(mechanism: str) -> str:
    """Whether Python players start warm here (:mod:`arena.containment.warm`), tried for real."""
    from arena.containment import warm

    if mechanism != "bwrap" or not sandbox.warm_ready():
        return _("Warm starts: off (they need bubblewrap, a root referee and cgroups); fresh starts")
    start = time.monotonic()
    server = warm.server()
    if server is None:
        return _("✗ warm starts: the warm-start server does not start here (see the log); fresh starts")
    return _("✓ warm starts: server ready in {ms} ms (--cold-start to turn them off)").format(
        ms=round((time.monotonic() - start) * 1000)
    )
