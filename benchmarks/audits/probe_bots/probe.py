"""What a contained player can see of another (issue 48): the inner half of ``channels.py --probe``.

Run inside a player sandbox (``sandbox.contain``), one JSON command a line on standard input,
one JSON reply a line on standard output. The same script is the sender (A, acting), the
receiver (B, looking) and background noise (another table). Commands (``op``):

* ``families``: create a socket of every family 0-45 and type, bind it (and listen) where an
  address format is known; keep them; reply per (family, type) what happened.
* ``families_probe`` (``made``: A's reply): the same addresses from here: ``EADDRINUSE`` on bind
  or a connection accepted means A's socket is visible.
* ``refusals``: the calls a counter channel needs (``pidfd_open``, ``clone(CLONE_PIDFD)``,
  ``statfs`` of every mount, ``sysinfo``...): what each returns.
* ``files``: list every readable file under /proc (own pids only) and /sys.
* ``send`` (``t0``, ``slot``, ``bits``): from ``t0`` (CLOCK_MONOTONIC, shared by every sandbox)
  a slot per bit: a burst of activity (:func:`burst`) in the first ``BUSY`` of a 1 slot, idle in
  a 0 slot.
* ``recv`` (``t0``, ``slot``, ``n``, ``paths``, ``full``): a sample at the end of each slot
  (and one before the first): the numbers of ``paths`` and the counters of :func:`counters`;
  with ``full`` each path's change against the previous sample only (``[tokens changed, sum of
  absolute differences]``), to screen thousands of files.
* ``noise`` (``seconds``): random bursts at random times (another table on the machine).

Uses only calls the players' allowlist has (or that it refuses with an error number).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import itertools
import json
import mmap
import os
import random
import re
import socket
import sys
import threading
import time
from collections.abc import Iterator

libc = ctypes.CDLL(None, use_errno=True)
BUSY = 0.7  # the part of a slot a 1 bit is busy
SAMPLE_AT = 0.85  # where in the slot the receiver samples
MAX_READ = 1 << 16
SKIP = {"mem", "pagemap", "kcore", "kmsg", "clear_refs", "kpagecount", "kpageflags", "kpagecgroup"}
SKIP_DIRS = {"fd", "map_files", "root", "cwd", "exe", "task"}  # task: thread-self is walked instead
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
TYPES = {"STREAM": 1, "DGRAM": 2, "RAW": 3, "SEQPACKET": 5}
CLOCKS = {
    "realtime": 0,
    "monotonic": 1,
    "process_cputime": 2,
    "thread_cputime": 3,
    "monotonic_raw": 4,
    "realtime_coarse": 5,
    "monotonic_coarse": 6,
    "boottime": 7,
    "tai": 11,
}


def reply(**fields: object) -> None:
    sys.stdout.write(json.dumps(fields, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def err(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno:
        return errno.errorcode.get(exc.errno, str(exc.errno))
    return type(exc).__name__


# ---------------------------------------------------------------- socket families


def address(family: int, kind: int, nonce: str) -> object | None:
    """An address to bind a socket of ``family`` to, the same in every sandbox (None: no format)."""
    port = 20000 + (int(nonce, 16) + kind) % 20000
    if family == socket.AF_UNIX:
        return f"\0tute-probe-{nonce}-{kind}"
    if family == socket.AF_INET:
        return ("127.0.0.1", port)
    if family == socket.AF_INET6:
        return ("::1", port)
    if family == getattr(socket, "AF_VSOCK", 40):
        return (0xFFFFFFFF, port)  # VMADDR_CID_ANY: a port of the machine's vsock space
    if family == getattr(socket, "AF_NETLINK", 16):
        return (port, 0)
    return None


_kept: list[socket.socket] = []


def families(nonce: str) -> list[dict]:
    out = []
    for family in range(46):
        for name, kind in TYPES.items():
            row: dict = {"family": family, "type": name}
            try:
                s = socket.socket(family, kind, 0)
            except OSError as exc:
                row["create"] = err(exc)
                out.append(row)
                continue
            row["create"] = "ok"
            _kept.append(s)
            addr = address(family, kind, nonce)
            if addr is None:
                row["bind"] = "no address format"
            else:
                try:
                    s.bind(addr)  # type: ignore[arg-type]
                    row["bind"] = "ok"
                    if kind in (1, 5):
                        with contextlib.suppress(OSError):
                            s.listen(4)
                except OSError as exc:
                    row["bind"] = err(exc)
            out.append(row)
    return out


def families_probe(made: list[dict], nonce: str) -> list[dict]:
    out = []
    for row in made:
        if row.get("create") != "ok":
            continue
        family, kind = row["family"], TYPES[row["type"]]
        seen: dict = {"family": family, "type": row["type"]}
        addr = address(family, kind, nonce)
        try:
            s = socket.socket(family, kind, 0)
        except OSError as exc:
            seen["create"] = err(exc)
            out.append(seen)
            continue
        with s:
            seen["create"] = "ok"
            if addr is None or row.get("bind") != "ok":
                seen["visible"] = None
                out.append(seen)
                continue
            try:
                s.bind(addr)  # type: ignore[arg-type]
                seen["bind"] = "ok"
            except OSError as exc:
                seen["bind"] = err(exc)
        if kind in (1, 5):
            with socket.socket(family, kind, 0) as c:
                c.settimeout(0.2)
                try:
                    c.connect(addr)  # type: ignore[arg-type]
                    seen["connect"] = "ok"
                except OSError as exc:
                    seen["connect"] = err(exc)
        seen["visible"] = seen.get("bind") == "EADDRINUSE" or seen.get("connect") == "ok"
        out.append(seen)
    return out


# ---------------------------------------------------------------- refused counters


def refusals() -> dict:
    out: dict = {}
    try:
        fd = os.pidfd_open(os.getpid())
        st = os.fstat(fd)
        os.close(fd)
        out["pidfd_open"] = f"ok (inode {st.st_ino})"
    except OSError as exc:
        out["pidfd_open"] = err(exc)
    pidfd = ctypes.c_int(-1)
    flags = 0x00001000 | 17  # CLONE_PIDFD | SIGCHLD
    ctypes.set_errno(0)
    pid = libc.syscall(56, flags, 0, ctypes.byref(pidfd), 0, 0)  # clone on x86-64
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
        out["clone_pidfd"] = f"ok (pidfd {pidfd.value})"
    else:
        out["clone_pidfd"] = errno.errorcode.get(ctypes.get_errno(), "?")
    statvfs: dict = {}
    with open("/proc/self/mountinfo") as f:
        mounts = sorted({line.split()[4] for line in f})
    for point in mounts:
        try:
            st = os.statvfs(point)
            statvfs[point] = f"ok ({st.f_bfree} blocks, {st.f_ffree} inodes free)"
        except OSError as exc:
            statvfs[point] = err(exc)
    out["statvfs"] = statvfs
    buf = ctypes.create_string_buffer(128)
    ctypes.set_errno(0)
    out["sysinfo"] = "ok" if libc.sysinfo(buf) == 0 else errno.errorcode.get(ctypes.get_errno(), "?")
    out["sys_mounted"] = os.path.isdir("/sys") and bool(os.listdir("/sys"))
    out["cgroup_fs"] = os.path.exists("/sys/fs/cgroup/cgroup.controllers")
    return out


# ---------------------------------------------------------------- files


def walk_files() -> tuple[list[str], dict[str, int]]:
    """Every regular file under /proc (of its own processes: self, thread-self), /proc/net and
    /sys that this process can read, and how many it could not (by errno)."""
    readable: list[str] = []
    why: dict[str, int] = {}
    for root in ("/proc", "/proc/self", "/proc/thread-self", "/proc/net", "/sys"):
        own = root in ("/proc/self", "/proc/thread-self")
        for top, dirs, files in os.walk(root, followlinks=False):
            if top == "/proc":
                dirs[:] = [d for d in dirs if not d.isdigit()]  # other pids; self: its own root
            elif own:
                dirs[:] = [d for d in dirs if d not in SKIP_DIRS and d != "net"]  # net: /proc/net
            for name in files:
                if name in SKIP:
                    continue
                path = os.path.join(top, name)
                try:
                    read(path)
                except OSError as exc:
                    key = err(exc)
                    why[key] = why.get(key, 0) + 1
                    continue
                readable.append(path)
    return sorted(set(readable)), why


def read(path: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        return os.read(fd, MAX_READ)
    finally:
        os.close(fd)


def numbers(data: bytes) -> list[float]:
    return [float(x) for x in NUMBER.findall(data)]


def change(old: bytes, new: bytes) -> list[float]:
    """[tokens changed, sum of absolute differences of the numbers] between two readings."""
    a, b = old.split(), new.split()
    changed = sum(x != y for x, y in zip(a, b, strict=False)) + abs(len(a) - len(b))
    na, nb = numbers(old), numbers(new)
    diff = sum(abs(x - y) for x, y in zip(na, nb, strict=False)) if len(na) == len(nb) else 0.0
    return [float(changed), diff]


# ---------------------------------------------------------------- counters


def inode_of_pipe() -> int:
    r, w = os.pipe()
    ino = os.fstat(r).st_ino
    os.close(r)
    os.close(w)
    return ino


def inode_of_memfd() -> int:
    fd = os.memfd_create("probe", 0)
    ino = os.fstat(fd).st_ino
    os.close(fd)
    return ino


def inode_of_socket() -> int:
    a, b = socket.socketpair()
    ino = os.fstat(a.fileno()).st_ino
    a.close()
    b.close()
    return ino


def keyed(path: str) -> dict[str, float]:
    """``name value`` lines of a /proc/self file as numbers."""
    out = {}
    with contextlib.suppress(OSError):
        for line in read(path).decode(errors="replace").splitlines():
            parts = re.split(r"[:\s]+", line.strip())
            if len(parts) >= 2:
                with contextlib.suppress(ValueError):
                    out[parts[0]] = float(parts[-1] if parts[-1] != "kB" else parts[-2])
    return out


_last: dict[str, dict[int, float]] = {"pipe-inode": {}, "memfd-inode": {}}


def counters() -> dict[str, float]:
    """This process's view of clocks and counters now."""
    import resource

    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        out["socket-inode"] = float(inode_of_socket())
    # The pipe and memfd inode counters hand out numbers in batches per CPU (a player cannot pin
    # itself: sched_setaffinity says EPERM): the last number seen on each CPU, summed.
    for name, fn in (("pipe-inode", inode_of_pipe), ("memfd-inode", inode_of_memfd)):
        with contextlib.suppress(OSError):
            for _ in range(4):
                value = float(fn())
                _last[name][getcpu()] = value
        out[name] = sum(_last[name].values())
        for cpu, value in _last[name].items():
            out[f"{name}.cpu{cpu}"] = value
    mono = time.clock_gettime_ns(1)
    for name, clock in CLOCKS.items():
        with contextlib.suppress(OSError):
            out[f"clock.{name}-monotonic"] = float(time.clock_gettime_ns(clock) - mono)
    with contextlib.suppress(OSError):
        out["getcpu"] = float(getcpu())
    ru = resource.getrusage(resource.RUSAGE_SELF)
    for field in ("ru_utime", "ru_stime", "ru_maxrss", "ru_minflt", "ru_majflt", "ru_nvcsw", "ru_nivcsw"):
        out[f"getrusage.{field}"] = float(getattr(ru, field))
    with contextlib.suppress(OSError):
        fields = read("/proc/self/stat").rsplit(b")", 1)[1].split()
        for i, name in (
            (7, "minflt"),
            (9, "majflt"),
            (11, "utime"),
            (12, "stime"),
            (17, "num_threads"),
            (36, "processor"),
        ):
            out[f"stat.{name}"] = float(fields[i])
    status = keyed("/proc/self/status")
    for name in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches", "VmRSS"):
        if name in status:
            out[f"status.{name}"] = status[name]
    sched = keyed("/proc/self/sched")
    for name in (
        "nr_switches",
        "nr_voluntary_switches",
        "nr_involuntary_switches",
        "se.nr_migrations",
        "se.wait_sum",
    ):
        if name in sched:
            out[f"sched.{name}"] = sched[name]
    with contextlib.suppress(OSError, ValueError, IndexError):
        out["schedstat.run_delay"] = float(read("/proc/self/schedstat").split()[1])
    return out


def getcpu() -> int:
    return int(libc.sched_getcpu())


def spin(seconds: float) -> dict[str, float]:
    """Spin ``seconds`` of wall time: how much CPU and how many loops this process got (contention)."""
    start, cpu0, n = time.monotonic(), time.process_time(), 0
    cpus = {getcpu()}
    while time.monotonic() - start < seconds:
        n += 1
    cpus.add(getcpu())
    return {"spin.loops": float(n), "spin.cpu": time.process_time() - cpu0, "spin.cpus": float(len(cpus))}


# ---------------------------------------------------------------- activity


def _pinned_spin(until: float) -> None:
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    while time.monotonic() < until:
        pass


def _shared_files() -> Iterator[str]:
    for top, _dirs, files in os.walk("/usr"):
        for name in files:
            yield os.path.join(top, name)


_fresh = _shared_files()


def burst(until: float, rng: random.Random) -> None:
    """Everything a player may do, as much as fits before ``until``: processes, threads, memory,
    pipes, unix sockets, files in its private /tmp, shared files read (ones not read before),
    CPU (one thread pinned to the first CPU)."""
    spinner = threading.Thread(target=_pinned_spin, args=(until,), daemon=True)
    spinner.start()
    rounds = 0
    while time.monotonic() < until:
        for _ in range(2):
            pid = os.fork()
            if pid == 0:
                os._exit(0)
            os.waitpid(pid, 0)
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()
        with contextlib.suppress(OSError, ValueError):
            m = mmap.mmap(-1, 8 << 20)
            for i in range(0, 8 << 20, 4096):
                m[i] = 1
            m.close()
        pipes = [os.pipe() for _ in range(300)]
        for r, w in pipes:
            os.close(r)
            os.close(w)
        pairs = [socket.socketpair() for _ in range(30)]
        for a, b in pairs:
            a.close()
            b.close()
        with contextlib.suppress(OSError):
            name = f"/tmp/probe-{rng.getrandbits(32):08x}"
            with open(name, "wb") as f:
                f.write(os.urandom(256 << 10))
            os.unlink(name)
        for path in itertools.islice(_fresh, 20):
            with contextlib.suppress(OSError):
                read(path)
        rounds += 1
        if rounds % 4 == 0:
            deadline = min(until, time.monotonic() + 0.005)
            while time.monotonic() < deadline:
                pass
    spinner.join()


def send(t0: float, slot: float, bits: list[int]) -> None:
    rng = random.Random(os.getpid())
    for i, bit in enumerate(bits):
        start = t0 + i * slot
        sleep_until(start)
        if bit:
            burst(start + BUSY * slot, rng)


def sleep_until(t: float) -> None:
    while (left := t - time.monotonic()) > 0:
        time.sleep(min(left, 0.05))


def recv(t0: float, slot: float, n: int, paths: list[str], full: bool) -> dict:
    """Samples at the end of slots -1 .. n-1; a spin in the middle of each slot (contention)."""
    last: dict[str, bytes] = {}
    samples: list[dict] = []
    spins: list[dict] = []
    late = 0
    for i in range(-1, n):
        if i >= 0:
            sleep_until(t0 + (i + 0.3) * slot)
            spins.append(spin(0.15 * slot))
        sleep_until(t0 + (i + SAMPLE_AT) * slot)
        if time.monotonic() > t0 + (i + SAMPLE_AT + 0.1) * slot:
            late += 1
        sample: dict = {"counters": counters()}
        files: dict = {}
        for path in paths:
            try:
                data = read(path)
            except OSError:
                continue
            if full:
                if path in last and data != last[path]:
                    files[path] = change(last[path], data)
                last[path] = data
            else:
                files[path] = numbers(data)
        sample["files"] = files
        samples.append(sample)
    return {"samples": samples, "spins": spins, "late": late}


def noise(seconds: float) -> None:
    """Another table: bursts of random length at random times."""
    rng = random.Random()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(rng.uniform(0.0, 0.1))
        burst(time.monotonic() + rng.uniform(0.005, 0.06), rng)


def main() -> None:
    for line in sys.stdin:
        cmd = json.loads(line)
        op = cmd["op"]
        try:
            if op == "families":
                reply(ok=families(cmd["nonce"]))
            elif op == "families_probe":
                reply(ok=families_probe(cmd["made"], cmd["nonce"]))
            elif op == "refusals":
                reply(ok=refusals())
            elif op == "files":
                start = time.monotonic()
                paths, why = walk_files()
                reply(ok={"paths": paths, "unreadable": why, "seconds": time.monotonic() - start})
            elif op == "send":
                send(cmd["t0"], cmd["slot"], cmd["bits"])
                reply(ok=True)
            elif op == "recv":
                reply(ok=recv(cmd["t0"], cmd["slot"], cmd["n"], cmd["paths"], cmd.get("full", False)))
            elif op == "noise":
                noise(cmd["seconds"])
                reply(ok=True)
            elif op == "now":
                reply(ok=time.monotonic())
            else:
                reply(error=f"unknown op {op}")
        except Exception as exc:  # reported, not fatal: the controller decides
            reply(error=f"{type(exc).__name__}: {exc}")


if __name__ == "__main__":
    main()
