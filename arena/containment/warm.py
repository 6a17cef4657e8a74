"""Warm starts: player processes forked, for each partido, from a server that has the runtime ready.

A referee process keeps one warm-start server (:mod:`arena.player.zygote`) in a sandbox of its own
and asks it for each Python player's process of a partido: the process gets the same
containment as a fresh start (its own namespaces, /tmp, /proc, folder, limits, cgroup and
leased uid) without paying for the sandbox, the interpreter and the runtime's imports every
time. The player's own code is imported by the forked process, never by the server, so no
state of a player passes from one partido to another. ``--cold-start`` (``warm=False``) and
machines where warm starts cannot contain players as well (:func:`sandbox.warm_ready`) use
fresh starts.

Knows nothing of the rules or of the protocol's messages.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import logging
import os
import secrets
import select
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from arena.containment import cgroups, process, sandbox
from arena.containment.process import PipedProcess
from arena.i18n import _
from arena.player import preload
from arena.protocol import MAX_LINE_BYTES

log = logging.getLogger("arena.containment.warm")

PRELOAD = preload.MODULES
"""What the server imports once for every player process (the runtime, never a player's code)."""
START_S = 30.0
"""How long the server may take to be ready."""
FORK_S = 10.0
"""How long a fork may take before the server is given up (the machine's failure, not a player's)."""
EXIT_WAIT_S = 1.0
LOOK_S = 0.02
"""The longest one wait on the server's channel lasts: the threads of a referee share the server,
and the message one awaits may be read (and recorded) by another while it waits."""


class WarmStartError(RuntimeError):
    """The warm-start server failed: the machine's or the referee's failure, never a player's."""


class Server:
    """The warm-start server of this referee process, and what it reported about its children."""

    def __init__(self, preload: tuple[str, ...] = PRELOAD) -> None:
        self.channel, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.channel.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.exits: dict[str, tuple[int, bool]] = {}
        self.forks: dict[str, dict[str, object]] = {}
        """Replies to fork requests not yet awaited (:meth:`forked`)."""
        self.pending: set[str] = set()
        self.dead = False
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - kept open while the server runs
        try:
            self.box = sandbox.zygote_box(theirs.fileno(), preload)
            try:
                self.proc = process.start(  # a child of ours, not an orphan to reap
                    self.box.argv,
                    cwd="/",
                    env=self.box.env,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=self._errors,
                    pass_fds=(theirs.fileno(), *self.box.pass_fds),
                    start_new_session=True,
                )
            finally:
                self.box.started()
                theirs.close()
            self.pid = self._ready()
        except BaseException:
            self.close()
            raise

    def _ready(self) -> int:
        """Wait for the server's first message; its pid as this process sees it (from the kernel)."""
        if not select.select([self.channel], [], [], START_S)[0]:
            raise WarmStartError(self._why(_("not ready within {s} s").format(s=START_S)))
        size = socket.CMSG_SPACE(struct.calcsize("iII"))
        data, ancillary, _flags, _addr = self.channel.recvmsg(4096, size)
        said = json.loads(data) if data else {}
        if "error" in said:
            raise WarmStartError(self._why(str(said["error"])))
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS and data:
                pid, _uid, _gid = struct.unpack("iII", payload[: struct.calcsize("iII")])
                return int(pid)
        raise WarmStartError(self._why(_("ended before it was ready")))

    def _why(self, what: str) -> str:
        self._errors.seek(0)
        said = [line for line in self._errors.read().decode(errors="replace").splitlines() if line.strip()]
        last = said[-1] if said else ""
        return _("the warm-start server: {what}").format(what=f"{what} {last}".strip())

    def start(
        self, box: sandbox.Box, stderr_log: Path | None, limits: sandbox.Resources | None = None
    ) -> ForkedPlayer:
        """A player process for ``box`` (from :func:`sandbox.warm_box`), born in its cgroup."""
        limits = limits or sandbox.Resources()
        if self.dead:
            raise WarmStartError(_("the warm-start server is gone"))
        assert box.cgroup is not None and box.uid is not None and self.box.cgroup is not None
        rid = secrets.token_hex(8)  # nothing a player could count partidos by
        request = {
            "id": rid,
            "folder": box.cwd,
            "uid": box.uid,
            "tmp_bytes": limits.file_mb << 20,
            "rlimits": limits.rlimits(box.cgroup.holds_memory),
            "env": {**box.env, "ARENA_PLAYER": "1"},
        }
        in_r, in_w = os.pipe()
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        theirs = [in_r, out_w, err_w]
        try:
            # The fork moves itself into the partido's cgroup (through these) before it does anything
            # else: every process of the player is born there.
            theirs += [
                os.open(f / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC) for f in box.cgroup.folders.values()
            ]
            socket.send_fds(self.channel, [json.dumps(request).encode()], theirs)
        except BaseException as exc:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            if isinstance(exc, OSError):  # the server is gone or stuck: the next start makes a new one
                self.close()
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        self.pending.add(rid)
        player = ForkedPlayer(self, rid, in_w, out_r, err_r, stderr_log, box.cgroup)
        box.ran = player.ran
        return player

    def forked(self, rid: str) -> None:
        """Wait until the server has forked the process of ``rid``; WarmStartError if it could not.

        Requests are answered in order, so a table's starts overlap: every request is sent,
        then each reply awaited.
        """
        deadline = time.monotonic() + FORK_S
        while rid not in self.forks:
            if self.dead or time.monotonic() >= deadline:
                self.close()
                raise WarmStartError(_("the warm-start server did not answer"))
            self._receive(min(LOOK_S, max(0.0, deadline - time.monotonic())))
        reply = self.forks.pop(rid)
        if "error" in reply:
            self.pending.discard(rid)
            raise WarmStartError(
                _("the warm-start server could not fork: {error}").format(error=reply["error"])
            )

    def _receive(self, timeout: float) -> list[dict[str, object]]:
        """Messages now waiting (waiting up to ``timeout`` s for the first); exits are recorded."""
        out: list[dict[str, object]] = []
        if self.dead:
            return out
        ready = select.select([self.channel], [], [], timeout)[0]
        while ready:
            try:
                data = self.channel.recv(4096, socket.MSG_DONTWAIT)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self._gone()
                break
            message = json.loads(data)
            rid = str(message.get("id"))
            if "exit" in message:
                self.exits[rid] = (int(message["exit"]), bool(message["ran"]))
                self.pending.discard(rid)
            else:
                self.forks[rid] = message
            out.append(message)
        return out

    def _gone(self) -> None:
        """The server ended: its children ended with it (they die with their parent)."""
        self.dead = True
        while self.pending:  # (another thread may add to it meanwhile)
            self.exits.setdefault(self.pending.pop(), (128 + signal.SIGKILL, True))

    def poll(self, timeout: float = 0.0) -> None:
        """Record the exits reported so far (waiting up to ``timeout`` s for a report)."""
        self._receive(timeout)

    def exit_of(self, rid: str) -> int | None:
        found = self.exits.get(rid)
        return None if found is None else found[0]

    def ran(self, rid: str) -> bool | None:
        """Whether the player's own process ever started (None: not known yet)."""
        found = self.exits.get(rid)
        if found is None:
            self.poll()
            found = self.exits.get(rid)
        return None if found is None else found[1]

    def forget(self, rid: str) -> None:
        self.exits.pop(rid, None)
        self.forks.pop(rid, None)

    def close(self) -> None:
        """Stop the server (its sandbox and cgroup with it)."""
        self.dead = True
        with contextlib.suppress(OSError):
            self.channel.close()
        proc = getattr(self, "proc", None)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(1.0)
        box = getattr(self, "box", None)
        if box is not None:
            box.kill()
            box.release()
        if proc is not None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(2.0)
            process.untrack(proc.pid)
        self._errors.close()


class ForkedPlayer(PipedProcess):
    """A player process the warm-start server forked: its exit is reported by the server, and it is
    killed through its cgroup and its uid (the ``also`` of :meth:`kill_tree`)."""

    def __init__(
        self,
        server: Server,
        rid: str,
        stdin: int,
        stdout: int,
        stderr: int,
        stderr_log: Path | None,
        cgroup: cgroups.PlayerCgroup,
        line_cap: int = MAX_LINE_BYTES,
    ) -> None:
        self.server = server
        self.rid = rid
        self.cgroup = cgroup
        self._pid: int | None = None
        self._ready = False
        self._final: tuple[int, bool] | None = None
        """(exit status, ran) once the player is gone and the server has forgotten it."""
        self._open_pipes(stdin, stdout, stderr, stderr_log, line_cap, server.channel.fileno())

    def ready(self) -> None:
        """Wait until the server has forked the player (WarmStartError if it could not)."""
        if not self._ready:
            self.server.forked(self.rid)
            self._ready = True

    @property
    def pid(self) -> int:  # type: ignore[override]  # known once the server has forked
        """The sandbox's outermost process (as bwrap's for a fresh start; -1 once gone): the player's
        processes are its descendants. Never signalled by pid: the player is killed by cgroup and uid."""
        if self._pid is None:
            self.ready()
            self._pid = _outer_pid(self.cgroup, self.server.pid)
        return self._pid

    def processes(self) -> list[int]:
        """Every process in the player's cgroup (the sandbox's own and the player's)."""
        return self.cgroup.pids()

    def _exited(self) -> bool:
        self.server.poll()
        return self.server.exit_of(self.rid) is not None or self.server.dead

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The exit status (128 + signal when the player was killed), or None while running."""
        if self._final is not None:
            return self._final[0]
        self._wait_exit(wait)
        return self.server.exit_of(self.rid)

    def ran(self) -> bool | None:
        """Whether the sandbox ran the player's own process (None: not known yet)."""
        return self._final[1] if self._final is not None else self.server.ran(self.rid)

    def _wait_exit(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            self.server.poll()
            if self.server.exit_of(self.rid) is not None:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.server.poll(min(LOOK_S, left))

    def kill_tree(self, grace: float = 0.0, also: Callable[[], None] | None = None) -> int | None:
        """Wait up to ``grace`` s for an exit, then kill everything of the player (``also``)."""
        if grace > 0:
            self._wait_exit(grace)
        if also is not None:
            also()
        status = self.exit_status(EXIT_WAIT_S)
        if status is not None:
            self.killed = True
            found = self.server.exits.get(self.rid)
            if self._final is None and found is not None:  # (stopped once already: known)
                self._final = found
        self.server.forget(self.rid)  # the server keeps nothing of a finished player
        self._close_pipes()
        self.stderr.join(1.0)
        return status


def _outer_pid(cgroup: cgroups.PlayerCgroup, server: int) -> int:
    """The pid of the server's child in ``cgroup`` (-1 if it is gone already)."""
    for pid in cgroup.pids():
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:  # not shown
                stat = f.read()
        except OSError:
            continue
        if int(stat[stat.rindex(b")") + 2 :].split()[1]) == server:
            return pid
    return -1


_servers: dict[int, Server] = {}
_broken: set[int] = set()
_lock = threading.Lock()
"""Held by :func:`server`: threads asking at once get the same server (one started, none leaked)."""


def server() -> Server | None:
    """This process's warm-start server (started at the first call); None when it cannot run here.

    One for all the threads of the process (a Dask worker's ``--nthreads``)."""
    with _lock:
        return _server()


def _server() -> Server | None:
    pid = os.getpid()
    found = _servers.get(pid)
    if found is not None and not found.dead and found.proc.poll() is None:
        return found
    if found is not None:  # gone (killed, say): a new one
        _servers.pop(pid).close()
    if pid in _broken or not sandbox.warm_ready():
        return None
    try:
        found = _servers[pid] = _lasting(Server)
    except (OSError, WarmStartError, sandbox.SandboxError) as exc:
        _broken.add(pid)
        log.warning(_("warm starts are off: {error}").format(error=exc))
        return None
    sandbox.at_exit(lambda: _stop(pid))
    return found


_keepers: dict[int, concurrent.futures.ThreadPoolExecutor] = {}
"""Per process: the one thread that starts its warm-start servers when another thread asks."""


def _lasting(make: Callable[[], Server]) -> Server:
    """``make()`` run in a thread that lasts as long as this process: bwrap's ``--die-with-parent``
    kills the server when the *thread* that started it ends (a Dask worker's, a test's), not the
    process. (Called under :data:`_lock`.)"""
    if threading.current_thread() is threading.main_thread():
        return make()
    keeper = _keepers.get(os.getpid())
    if keeper is None:
        keeper = _keepers[os.getpid()] = concurrent.futures.ThreadPoolExecutor(1, "warm-start-server")
    return keeper.submit(make).result()


def _stop(pid: int) -> None:
    if os.getpid() == pid and pid in _servers:
        _servers.pop(pid).close()
