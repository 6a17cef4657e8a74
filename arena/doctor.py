"""``arena doctor``: which protections for player processes work on this machine.

Each protection is tried for real: a probe program is started exactly as a player
would be (same containment), attempts what a hostile bot would, and reports.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from arena import sandbox

PROBE = r"""
import json, os, resource, socket, sys
other, secret_env, host_port = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = {}
def attempt(name, fn):
    try:
        fn(); out[name] = False
    except Exception:
        out[name] = True
attempt("no_network", lambda: socket.create_connection(("127.0.0.1", host_port), timeout=1).close())
attempt("other_folders_hidden", lambda: open(other).read())
attempt("own_folder_read_only", lambda: open("probe-write-test", "w").write("x"))
try:
    with open("/tmp/probe", "w") as f:
        f.write("x")
    out["private_tmp_writable"] = True
except OSError:
    out["private_tmp_writable"] = False
def outside_uid():
    try:
        for line in open("/proc/self/uid_map"):
            inside, outside, count = map(int, line.split())
            if inside <= os.getuid() < inside + count:
                return outside + os.getuid() - inside
    except OSError:
        pass
    return os.getuid()
out["unprivileged_user"] = outside_uid() != 0
out["clean_environment"] = secret_env not in os.environ
def hog():
    b = bytearray(3 << 30)
    b[-1] = 1
attempt("memory_limit", hog)
out["cpu_limit"] = resource.getrlimit(resource.RLIMIT_CPU)[0] != resource.RLIM_INFINITY
def fork_flood():
    children = []
    try:
        for _ in range(64):
            pid = os.fork()
            if pid == 0:
                import time
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
out["file_size_limit"] = resource.getrlimit(resource.RLIMIT_FSIZE)[0] != resource.RLIM_INFINITY
out["own_pid_namespace"] = os.getpid() < 10
print(json.dumps(out))
"""

CHECKS = {
    "no_network": ("no network", "bwrap --unshare-net"),
    "other_folders_hidden": ("other players' folders and the output folder hidden", "bwrap"),
    "own_folder_read_only": ("its own folder read-only", "bwrap --ro-bind"),
    "private_tmp_writable": ("a private writable /tmp", "bwrap --tmpfs /tmp"),
    "unprivileged_user": (
        "an unprivileged user",
        "a root referee with setpriv, and Python and the player "
        "folders reachable by uid 65534 (e.g. Python outside /root)",
    ),
    "clean_environment": ("a clean environment", "bwrap --clearenv / the rlimits fallback"),
    "memory_limit": ("memory limit (1 GiB)", "prlimit --as (util-linux)"),
    "cpu_limit": ("CPU time limit", "prlimit --cpu (util-linux)"),
    "process_limit": (
        "process count limit",
        "prlimit --nproc and a non-root uid outside the sandbox "
        "(Python and the player folders reachable by uid 65534)",
    ),
    "file_size_limit": ("file size limit", "prlimit --fsize (util-linux)"),
    "own_pid_namespace": ("own pid namespace (no process escapes the kill)", "bwrap --unshare-pid"),
}


def probe(mechanism: str) -> dict[str, bool]:
    """Run the probe as a player under ``mechanism``; which protections held."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.chmod(root, 0o755)
        mine, other = root / "probe", root / "other"
        mine.mkdir()
        other.mkdir()
        os.chmod(mine, 0o755)
        (other / "secret.txt").write_text("hidden")
        os.chmod(other / "secret.txt", 0o644)
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        secret = "ARENA_DOCTOR_SECRET"
        env_before = os.environ.get(secret)
        os.environ[secret] = "1"
        try:
            how = sandbox.plan(
                [sys.executable, "-c", PROBE, str(other / "secret.txt"), secret, str(port)], mine, mechanism
            )
            done = subprocess.run(
                how.argv, cwd=how.cwd, env=how.env, capture_output=True, text=True, timeout=60, check=False
            )
        finally:
            listener.close()
            if env_before is None:
                os.environ.pop(secret, None)
        lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
        if not lines:
            raise RuntimeError(f"the probe did not run under {mechanism}: {done.stderr.strip()[-300:]}")
        return dict(json.loads(lines[-1]))


def report(mode: str = "auto") -> list[str]:
    """The doctor's lines for containment ``mode``."""
    lines = []
    works = sandbox.bwrap_works()
    lines.append(f"{'✓' if works else '✗'} bubblewrap: {'works (trial run)' if works else 'not usable here'}")
    if not works:
        lines.append("  install it: apt install bubblewrap (needs root, or unprivileged user namespaces)")
    mechanism = sandbox.resolve(mode)
    lines.append(f"Containment for --sandbox {mode}: {mechanism}")
    results = probe(mechanism)
    for key, (label, how) in CHECKS.items():
        ok = results.get(key, False)
        lines.append(f"{'✓' if ok else '✗'} {label}" + ("" if ok else f" — needs {how}"))
    warning = sandbox.warning(mechanism)
    if warning:
        lines.append(warning)
    return lines
