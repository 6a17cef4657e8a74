"""The warm-start server: forks a fresh, contained player process for each partido.

Runs inside a player sandbox (bubblewrap, see :mod:`arena.containment.sandbox`) as
root with the capabilities to make namespaces and change uid, and with the
runtime already imported (the interpreter, the SDK, the runner). It never runs
or imports any player's code: each player process is forked from it and only
then, after it has dropped every privilege, imports its player. So every partido
starts from the same state, as a fresh process would, only without paying for
the interpreter, the imports and the sandbox each time.

For each request of the referee (one message on a ``SOCK_SEQPACKET`` socket,
with the player's three pipe ends attached) it forks two processes, as bwrap
and the runner would be for a fresh start:

1. *init*, pid 1 of a new pid namespace: into the partido's cgroup, new mount, IPC,
   network (loopback only) and cgroup namespaces, a fresh sized ``/tmp``, a fresh
   ``/proc``, the player's staged folder at ``/player`` (every other folder
   unmounted); reaps orphans and exits with the player's status (128 + signal
   when it was killed), which ends every process of the namespace;
2. *player* (pid 2): its own session, the resource limits, a clean environment,
   no descriptor but its three pipes, its leased uid with no groups, no
   capabilities and ``no_new_privs``; then it writes the *ran* mark (which a
   player cannot fake) and runs :func:`arena.player.runner.main`.

Replies: ``{"id", "forked": true}`` (or ``"error"``) once *init* exists, and
``{"id", "exit": status, "ran": bool}`` when it is gone. The request carries the
partido cgroup's ``cgroup.procs`` files, open: *init* moves itself there before it
forks anything, so every process of the player is born in that cgroup; the
referee kills by cgroup.

Knows nothing of the rules or the protocol. Started as
``python -I -c "<bootstrap>" FD CONFIG`` (see :func:`main`).
"""

from __future__ import annotations

import ctypes
import json
import os
import select
import signal
import socket
import sys

from arena.player import sealing

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_MOVE, MS_REC, MS_PRIVATE = 32, 4096, 8192, 16384, 1 << 18
MNT_DETACH = 2
PR_SET_DUMPABLE = 4
PR_SET_PDEATHSIG, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT = 1, 24, 38, 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_SET_MM, PR_SET_MM_MAP = 35, 14
MM_FIELDS = (
    "start_code",
    "end_code",
    "start_data",
    "end_data",
    "start_brk",
    "brk",
    "start_stack",
    "arg_start",
    "arg_end",
    "env_start",
    "env_end",
)
STAT_FIELDS = {
    "start_code": 26,
    "end_code": 27,
    "start_stack": 28,
    "start_data": 45,
    "end_data": 46,
    "start_brk": 47,
    "arg_start": 48,
    "arg_end": 49,
    "env_start": 50,
    "env_end": 51,
}
"""Where /proc/self/stat has them (field numbers of proc(5))."""
CAP_LAST = 63
STAGES = "/stages"
"""Where the referee's staged player folders are seen (unmounted in every player's namespace)."""
SPARE_TMP = "/newtmp"
"""An empty folder where a player's fresh /tmp is made before it is moved over /tmp."""
PLAYER_DIR = "/player"
SETUP_FAILED = 125
MAX_REQUEST = 1 << 16
MAX_FDS = 16

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(
        _libc.mount(
            None if source is None else source.encode(),
            target.encode(),
            None if fstype is None else fstype.encode(),
            ctypes.c_ulong(flags),
            None if data is None else data.encode(),
        ),
        f"mount {target}",  # not shown: the referee names the sandbox failure
    )


def _prctl(option: int, arg: int, arg3: int = 0, arg4: int = 0) -> int:
    return int(_libc.prctl(option, ctypes.c_ulong(arg), ctypes.c_ulong(arg3), ctypes.c_ulong(arg4), 0))


class Request:
    """One player process to start, as the referee asked for it."""

    def __init__(self, data: dict[str, object], fds: list[int]) -> None:
        self.id = str(data["id"])
        self.folder = str(data["folder"])
        self.uid = int(data["uid"])  # type: ignore[call-overload]
        self.tmp_bytes = int(data["tmp_bytes"])  # type: ignore[call-overload]
        self.rlimits = [tuple(map(int, r)) for r in data["rlimits"]]  # type: ignore[attr-defined]
        self.env = {str(k): str(v) for k, v in data["env"].items()}  # type: ignore[attr-defined]
        self.fds = fds[:3]
        self.all_fds = fds
        self.cgroups = fds[3:]
        """``cgroup.procs`` of the partido's cgroup, in each hierarchy, open for writing."""
        rel = os.path.normpath(self.folder)
        if rel.startswith(("/", "..")) or len(fds) < 4 or self.uid <= 0:
            raise ValueError("bad request")  # not shown: the referee's own message, never a player's


def _loopback_up() -> None:
    """The new network namespace's loopback, up (as bwrap leaves it): no other network."""
    import fcntl
    import struct

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sh", b"lo", 0)
        flags = struct.unpack("16sh", fcntl.ioctl(s, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sh", b"lo", flags | IFF_UP))


def _to_null() -> None:
    """Let go of the player's pipes: only the player's processes may hold them."""
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _status(wait_status: int) -> int:
    if os.WIFSIGNALED(wait_status):
        return 128 + os.WTERMSIG(wait_status)
    return os.WEXITSTATUS(wait_status)


def _fresh_mounts(req: Request, tmp_roots: list[str]) -> None:
    """This partido's /tmp, /proc and /player; nothing of the other players' folders."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    flags = MS_NOSUID | MS_NODEV
    _mount("tmpfs", SPARE_TMP, "tmpfs", flags, f"size={req.tmp_bytes},mode=1777")  # not shown
    for root in tmp_roots:  # an interpreter living under /tmp stays visible, read-only
        inside = SPARE_TMP + root[len("/tmp") :]
        os.makedirs(inside, mode=0o755, exist_ok=True)
        _mount(root, inside, None, MS_BIND | MS_REC)
        _mount(None, inside, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags)
    _mount(SPARE_TMP, "/tmp", None, MS_MOVE)
    _mount("proc", "/proc", "proc", flags | MS_NOEXEC | MS_RDONLY)
    for path in _masked_folders:  # default-deny: what of /proc the player need not see (sandbox.PROC_VISIBLE)
        _mount("tmpfs", path, "tmpfs", flags | MS_NOEXEC | MS_RDONLY, "size=4k,mode=0555")  # not shown
    for path in _masked:  # what counts the whole machine's doing: an empty file (see sandbox.MASKED_PROC)
        _mount("/dev/null", path, None, MS_BIND)
        _mount(None, path, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags)
    _mount(os.path.join(STAGES, req.folder), PLAYER_DIR, None, MS_BIND | MS_REC)
    _mount(None, PLAYER_DIR, None, MS_REMOUNT | MS_BIND | MS_RDONLY | flags)
    _check(_libc.umount2(STAGES.encode(), MNT_DETACH), "umount " + STAGES)


def _init(req: Request, tmp_roots: list[str], ran_w: int) -> None:
    """pid 1 of the player's new pid namespace: its cgroup, namespaces and mounts, then the player;
    reaps orphans and exits with the player's status."""
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    os.dup2(req.fds[0], 0)
    os.dup2(req.fds[1], 1)
    os.dup2(req.fds[2], 2)  # from here on, what goes wrong is said in the player's log
    for procs in req.cgroups:
        os.write(procs, b"0")  # into the partido's cgroup, before anything is forked
    signal.set_wakeup_fd(-1)  # the server's signal plumbing is not the player's
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for channel in _channels:
        channel.detach()  # its descriptor is closed below; the object must never close another
    os.closerange(3, ran_w)
    os.closerange(ran_w + 1, 1 << 16)
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWIPC | CLONE_NEWCGROUP | CLONE_NEWNET), "unshare")
    _loopback_up()
    _fresh_mounts(req, tmp_roots)
    player = os.fork()
    if player == 0:
        _player(req, ran_w)
    os.close(ran_w)
    _to_null()
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(SETUP_FAILED)
        if pid == player:
            os._exit(_status(status))


_shown: list[object] = []
"""The argument and environment blocks /proc shows for the player (kept alive for its life)."""


class _MmMap(ctypes.Structure):
    """``struct prctl_mm_map`` (linux/prctl.h)."""

    _fields_ = [
        *((name, ctypes.c_uint64) for name in MM_FIELDS),
        ("auxv", ctypes.c_void_p),
        ("auxv_size", ctypes.c_uint32),
        ("exe_fd", ctypes.c_uint32),
    ]


def _show(argv: list[str], env: dict[str, str]) -> None:
    """Make /proc/<pid>/cmdline and /environ show ``argv`` and ``env``, as for a fresh process:
    what tools (and the referee's orphan reaper) read of a player is then true.

    ``PR_SET_MM_MAP`` needs no privilege when the executable stays the same.
    """
    with open("/proc/self/stat", "rb") as stat:  # not shown
        fields = stat.read().rsplit(b")", 1)[1].split()
    now = {name: int(fields[number - 3]) for name, number in STAT_FIELDS.items()}
    _libc.sbrk.restype = ctypes.c_void_p
    now["brk"] = int(_libc.sbrk(0) or now["start_brk"])
    blocks = []
    for text in ("".join(a + "\0" for a in argv), "".join(f"{k}={v}\0" for k, v in env.items())):
        data = text.encode()
        block = ctypes.create_string_buffer(data, len(data))
        blocks.append((ctypes.addressof(block), ctypes.addressof(block) + len(data)))
        _shown.append(block)
    (now["arg_start"], now["arg_end"]), (now["env_start"], now["env_end"]) = blocks
    mm = _MmMap(*(now[name] for name in MM_FIELDS), None, 0, 0xFFFFFFFF)
    _check(_prctl(PR_SET_MM, PR_SET_MM_MAP, ctypes.addressof(mm), ctypes.sizeof(mm)), "PR_SET_MM_MAP")


def _drop(uid: int) -> None:
    """No capabilities, no groups, the leased uid, and no way back (``no_new_privs``)."""
    for cap in range(CAP_LAST + 1):
        _prctl(PR_CAPBSET_DROP, cap)  # EINVAL past the kernel's last capability: harmless
    _prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL)
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this thread
    _check(_libc.capset(header, (ctypes.c_uint32 * 6)()), "capset")  # nothing inheritable either
    _check(_prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")
    _check(_prctl(PR_SET_DUMPABLE, 1), "dumpable")  # as after an exec: its own /proc files are its own
    if os.getuid() != uid or os.geteuid() != uid or os.getgroups() or _held():
        raise OSError("privileges still held")  # not shown


def _held() -> bool:
    """Whether any capability is left in any set."""
    with open("/proc/self/status") as status:  # not shown
        return any(line.startswith("Cap") and int(line.split()[1], 16) for line in status if ":" in line)


def _player(req: Request, ran_w: int) -> None:
    """The player's own process: limits, environment, uid; then the runner."""
    import resource

    try:
        os.setsid()
        os.environ.clear()
        os.environ.update(req.env)
        os.environ["PWD"] = PLAYER_DIR
        os.chdir(PLAYER_DIR)
        _show([sys.executable, "-m", "arena.player.runner", PLAYER_DIR], dict(os.environ))
        for which, soft, hard in req.rlimits:
            resource.setrlimit(which, (soft, hard))
        _drop(req.uid)
        sealing.load(_seal[0])  # the players' syscall filter, before any of the player's code
        os.write(ran_w, b"1")
        os.close(ran_w)
    except OSError as exc:
        os.write(2, f"arena-sandbox: {exc}\n".encode())  # not shown: the referee reports it
        os._exit(SETUP_FAILED)
    _forget_server()
    global _is_player
    _is_player = True
    from arena import i18n
    from arena.player import runner

    i18n.follow_env()
    sys.argv = [runner.__file__, PLAYER_DIR]
    sdk = os.path.dirname(os.path.dirname(os.path.dirname(runner.__file__)))
    sys.path[:] = [PLAYER_DIR, sdk, *(p for p in sys.path if p != sdk)]  # as ``python -m`` has it
    # An exception the runner lets through (KeyboardInterrupt) goes up to the interpreter, which
    # ends this process as it ends ``python -m arena.player.runner`` (the traceback, the status). After a
    # normal end: what an interpreter does before it exits — the player's non-daemon threads joined,
    # its atexit handlers, the streams flushed — without tearing down every module (a copy of the
    # server's: that would only cost the machine's time).
    code = runner.main([PLAYER_DIR])
    import atexit
    import threading

    threading._shutdown()  # type: ignore[attr-defined]  # as the interpreter does at exit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120  # as the interpreter does when it cannot flush
    os._exit(code)


def _forget_server() -> None:
    """Drop what the server knew (its children, its requests) from the player's copy of it."""
    _children.clear()
    sys.modules.pop(__name__, None)


_masked: list[str] = []
"""Files of /proc each player sees empty (the referee's list: ``sandbox.masked_proc``)."""
_masked_folders: list[str] = []
"""Folders of /proc each player sees empty and read-only (``sandbox.masked_proc_folders``)."""
_seal: list[bytes] = []
"""The players' syscall filter (a BPF program compiled by the referee), loaded into every player."""
_own_pid_ns: list[int] = []
"""The server's own pid namespace, open (each player's *init* is forked into a new one)."""
_channels: list[socket.socket] = []
"""The server's socket to the referee (detached in every fork)."""
_is_player = False
"""True in a player's process: from there everything goes up to the interpreter (see :func:`_player`)."""
_children: dict[int, tuple[str, int]] = {}
"""pid of an *init* process -> (request id, read end of its *ran* mark)."""


def _back_to_own_pid_ns() -> None:
    """Later forks of the server go to its own pid namespace again (or the server ends: it could
    not make another player's)."""
    if _libc.setns(_own_pid_ns[0], CLONE_NEWPID) != 0:
        os._exit(1)


def _fork(req: Request, tmp_roots: list[str]) -> int:
    """Fork the player's *init* into a new pid namespace (the server stays in its own)."""
    ran_r, ran_w = os.pipe()
    try:
        _check(_libc.unshare(CLONE_NEWPID), "unshare")
        try:
            pid = os.fork()
        except OSError:
            _back_to_own_pid_ns()
            raise
    except OSError:
        os.close(ran_r)
        os.close(ran_w)
        raise
    if pid != 0:
        _back_to_own_pid_ns()
    else:
        try:
            os.close(ran_r)
            _init(req, tmp_roots, ran_w)
        except BaseException as exc:  # nothing but the player's own end may return into the server's loop
            if _is_player:
                raise
            try:
                os.write(2, f"arena-sandbox: {exc}\n".encode())  # not shown
            finally:
                os._exit(SETUP_FAILED)
    os.close(ran_w)
    _children[pid] = (req.id, ran_r)
    return pid


def _reap(channel: socket.socket) -> None:
    """Report every *init* process that has ended."""
    while _children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        if pid not in _children:
            continue
        rid, ran_r = _children.pop(pid)
        os.set_blocking(ran_r, False)
        try:
            ran = os.read(ran_r, 1) == b"1"
        except BlockingIOError:
            ran = False
        os.close(ran_r)
        _send(channel, {"id": rid, "exit": _status(status), "ran": ran})


def _close(fds: list[int]) -> None:
    for fd in fds:
        os.close(fd)


def _send(channel: socket.socket, message: dict[str, object]) -> None:
    channel.send(json.dumps(message).encode())


def _serve(channel: socket.socket, tmp_roots: list[str]) -> None:
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    os.set_blocking(wake_r, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    poll = select.poll()
    poll.register(channel.fileno(), select.POLLIN)
    poll.register(wake_r, select.POLLIN)
    while True:
        events = dict(poll.poll())
        if wake_r in events:
            while True:
                try:
                    if not os.read(wake_r, 512):
                        break
                except BlockingIOError:
                    break
            _reap(channel)
        if channel.fileno() not in events:
            continue
        data, fds, _flags, _addr = socket.recv_fds(channel, MAX_REQUEST, MAX_FDS)
        if not data:
            return  # the referee is gone
        try:
            req = Request(json.loads(data), list(fds))
        except (ValueError, KeyError, TypeError, AttributeError):
            for fd in fds:
                os.close(fd)
            _send(channel, {"id": None, "error": "bad request"})  # not shown
            continue
        # No ``finally`` here: in a player's process its own end (SystemExit, KeyboardInterrupt)
        # comes up through this frame to the interpreter, and must close nothing on its way.
        try:
            _fork(req, tmp_roots)
        except OSError as exc:
            _close(req.all_fds)
            _send(channel, {"id": req.id, "error": str(exc)})
            continue
        _close(req.all_fds)
        _send(channel, {"id": req.id, "forked": True})
        _reap(channel)


def _trial() -> str | None:
    """Why a player process could not be shown as a fresh one here (None: it can)."""
    pid = os.fork()
    if pid == 0:
        try:
            _show([sys.executable], {"ARENA_PLAYER": "1"})
        except OSError:
            os._exit(1)
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        return "PR_SET_MM_MAP refused"  # not shown
    return None


def main() -> None:
    """``FD CONFIG``: the socket to the referee, and a JSON config (``tmp_roots``, ``preload``)."""
    fd, config = int(sys.argv[1]), json.loads(sys.argv[2])
    channel = socket.socket(fileno=fd)
    _channels.append(channel)
    _own_pid_ns.append(os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC))
    _seal.append(bytes.fromhex(config["seal"]))
    _masked.extend(str(path) for path in config.get("masked", []))
    _masked_folders.extend(str(path) for path in config.get("masked_folders", []))
    for module in config.get("preload", []):
        __import__(module)
    problem = _trial()
    if problem:
        _send(channel, {"error": problem})
        return
    _send(channel, {"ready": os.getpid()})
    _serve(channel, list(config.get("tmp_roots", [])))
