"""Player processes: start with pipes, read a line with a deadline, kill the whole tree.

Knows nothing of the rules or of the protocol's messages; only lines and bytes.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.containment.stderr_log import StderrLog
from arena.inert import EXCERPT
from arena.protocol import MAX_LINE_BYTES

WRITER_CHECK_S = 0.05


class LineTimeout(Exception):
    """No complete line before the deadline."""


class LineClosed(Exception):
    """The process closed its standard output (or exited) before a complete line."""


class LineTooLong(Exception):
    """A line longer than the cap; ``head`` holds its first bytes."""

    def __init__(self, head: bytes) -> None:
        super().__init__("line too long")  # not shown: the caller words its own fault
        self.head = head


_PR_SET_CHILD_SUBREAPER = 36
_subreaper = False


def become_subreaper() -> bool:
    """Make this process adopt orphaned descendants (Linux), so none can escape a kill."""
    global _subreaper
    if _subreaper:
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        _subreaper = libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        _subreaper = False
    return _subreaper


def _children_map() -> dict[int, list[int]]:
    """Parent pid -> child pids, read from /proc."""
    out: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:  # not shown
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        out.setdefault(ppid, []).append(int(entry))
    return out


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (children, grandchildren, ...)."""
    tree = _children_map()
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in tree.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


_TICK_NS = 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def process_tree_cpu_ns(pid: int) -> int | None:
    """CPU time of ``pid`` and its live descendants, plus what they reaped, from /proc (tick precision).

    The fallback where no cgroup measures a player; None when ``pid`` is gone.
    """
    total = 0
    for i, p in enumerate([pid, *descendants(pid)]):
        try:
            with open(f"/proc/{p}/stat", "rb") as f:  # not shown
                stat = f.read()
        except OSError:
            if i == 0:
                return None
            continue
        fields = stat[stat.rindex(b")") + 2 :].split()
        total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return total * _TICK_NS


def _signal_all(pids: Sequence[int], sig: int) -> None:
    for p in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, sig)


_live: set[int] = set()
"""Pids of player processes this process started and has not yet reaped."""

start_lock = threading.RLock()
"""Held around starting a child and :func:`track`-ing it, and by :func:`reap_orphans` while it looks
for orphans and kills them. From its fork until it is tracked, a child one thread starts (in a
session of its own, ``ARENA_PLAYER=1``) is just what another thread's reap takes for an orphan:
it would kill and reap it, and its owner read exit 0. Never held while waiting for a player."""


def track(pid: int) -> None:
    """Count ``pid`` (a child this process started) as no orphan while it runs: :func:`reap_orphans`
    leaves it alone until :func:`untrack`. Start the child and track it under :data:`start_lock`."""
    _live.add(pid)


def untrack(pid: int) -> None:
    _live.discard(pid)


def start(argv: Sequence[str], **popen: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv, **popen)``, tracked under :data:`start_lock`: no other thread's
    :func:`reap_orphans` sees it untracked (:func:`untrack` it once it is reaped)."""
    with start_lock:
        child = subprocess.Popen(argv, **popen)
        track(child.pid)
        return child


def _is_player_orphan(pid: int, my_session: int) -> bool:
    """Whether an untracked child of ours comes from a player (adopted as an orphan).

    Players start in sessions of their own, so any of their descendants is in
    another session than ours (or carries the player mark in its environment);
    children this process started itself in the ordinary way share our session.
    """
    try:
        if os.getsid(pid) != my_session:
            return True
        with open(f"/proc/{pid}/environ", "rb") as f:  # not shown
            return b"ARENA_PLAYER=1" in f.read()
    except OSError:
        return True  # an adopted zombie: reap it


def reap_orphans() -> None:
    """Kill and reap adopted orphans: children of ours that are no tracked player."""
    if not _subreaper:
        return
    me, session = os.getpid(), os.getsid(0)
    with start_lock:  # no other thread's child is between its start and track(), none reaps these
        for child in _children_map().get(me, []):
            if child in _live:
                continue
            if _is_player_orphan(child, session):
                _signal_all([child], signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(child, 0)


def _holds(pid: int, pipe: str) -> bool | None:
    """Whether process ``pid`` has ``pipe`` open; None when that cannot be told for sure.

    A process that moves its descriptors while being looked at (a shell parking its
    stdout on another fd for a redirection) can hide the pipe from one listing; a
    "no" stands only when the listing was the same before and after the look.
    """
    try:
        fds = os.listdir(f"/proc/{pid}/fd")  # not shown
    except OSError:
        return None
    for fd in fds:
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}") == pipe:  # not shown
                return True
        except OSError:
            continue  # closed since the listing: not our pipe's last holder
    try:
        return None if sorted(os.listdir(f"/proc/{pid}/fd")) != sorted(fds) else False  # not shown
    except OSError:
        return None


class PipedProcess:
    """A player process spoken to through pipes: stdin written without blocking, stdout read by
    lines with a deadline, stderr drained into a capped log. How it was started, how its exit is
    known and how it is killed belong to the subclasses."""

    wrapper: str | None = None
    """The name of a wrapper program (``bwrap``) that holds the player's pipes open: a
    player that closes its stdout is then found by looking at who still holds it."""
    pid: int
    killed: bool

    def _open_pipes(
        self, stdin: int, stdout: int, stderr: int, stderr_log: Path | None, line_cap: int, exit_fd: int
    ) -> None:
        """Take the referee's ends of the pipes; ``exit_fd`` (or -1) is readable once the player may
        have exited (:meth:`_exited` says)."""
        self.line_cap = line_cap
        self.stderr = StderrLog(stderr, stderr_log)
        self._in_fd = stdin
        os.set_blocking(self._in_fd, False)
        self._outgoing = b""
        self._out_fd = stdout
        os.set_blocking(self._out_fd, False)
        self._poll_out = select.poll()
        self._poll_out.register(self._out_fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        self._exit_fd = exit_fd
        if exit_fd >= 0:
            self._poll_out.register(exit_fd, select.POLLIN)
        self._poll_in = select.poll()
        self._poll_in.register(self._in_fd, select.POLLOUT)
        self._buf = b""
        self._eof = False
        self.killed = False

    def queue(self, data: bytes) -> None:
        """Queue ``data`` for stdin, to go out with the next :meth:`write`."""
        self._outgoing += data

    def write(self, data: bytes = b"", timeout: float = 0.0) -> bool:
        """Queue ``data`` for stdin and write what the pipe takes within ``timeout`` seconds.

        Never blocks longer: a player that does not read its input cannot hang the
        referee. Returns whether everything queued was written; BrokenPipeError if
        the process is gone.
        """
        self._outgoing += data
        deadline = time.monotonic() + timeout
        while self._outgoing:
            try:
                n = os.write(self._in_fd, self._outgoing)
                self._outgoing = self._outgoing[n:]
                continue
            except BlockingIOError:
                pass
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self._poll_in.poll(max(1, int(left * 1000)))
        return True

    def pending(self, wait: bool = True) -> bool:
        """Whether output is waiting to be read: in the buffer, or (``wait``) in the pipe now."""
        if wait and not self._buf:
            self._fill(0.0)
        return bool(self._buf)

    def read_line(self, timeout: float) -> bytes:
        """The next line (without ``\\n``) within ``timeout`` seconds.

        Raises LineTimeout, LineClosed or LineTooLong (after ``line_cap`` bytes,
        without waiting for the rest).
        """
        now = time.monotonic()
        deadline = now + timeout
        next_check = now + WRITER_CHECK_S
        closed_looks = 0  # consecutive looks that found no player holding our pipe
        while True:
            nl = self._buf.find(b"\n", 0, self.line_cap + 1)
            if nl >= 0:
                line, self._buf = self._buf[:nl], self._buf[nl + 1 :]
                return line
            if len(self._buf) > self.line_cap:
                raise LineTooLong(self._buf[:EXCERPT])
            if self._eof:
                raise LineClosed()
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                raise LineTimeout()
            if self.wrapper is not None and now >= next_check:
                next_check = now + WRITER_CHECK_S
                closed_looks = closed_looks + 1 if self._player_writers() == [] else 0
                if closed_looks >= 2:
                    self._eof = True  # only the wrapper holds our pipe: the player closed it
                    continue
            self._fill(min(left, WRITER_CHECK_S) if self.wrapper is not None else left)

    def _fill(self, timeout: float) -> None:
        if self._eof:
            return
        ready = self._poll_out.poll(max(0, int(timeout * 1000 + 0.999)))
        if not ready:
            return
        exited = self._exit_fd >= 0 and any(fd == self._exit_fd for fd, _events in ready) and self._exited()
        try:
            chunk = os.read(self._out_fd, 65536)
        except BlockingIOError:
            chunk = None
        except OSError:
            chunk = b""
        if chunk is None:
            if exited:  # the player is gone; whatever holds its stdout is not the player
                self._eof = True
            return
        if chunk:
            self._buf += chunk
        else:
            self._eof = True

    def _exited(self) -> bool:
        """Whether the player has exited (called when :attr:`_exit_fd` is readable)."""
        return True

    def ready(self) -> None:
        """Wait until the process exists (it may be started asynchronously); OSError if it cannot."""

    def _player_writers(self) -> list[int] | None:
        """Processes other than the wrapper still holding our stdout (None: cannot tell)."""
        return None

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The exit status (negative: killed by that signal), or None while running."""
        raise NotImplementedError

    def processes(self) -> list[int]:
        """The pids (as this process sees them) of the player's processes now."""
        return [self.pid, *descendants(self.pid)]

    def kill_tree(self, grace: float = 0.0, also: Callable[[], None] | None = None) -> int | None:
        """Wait up to ``grace`` seconds for an exit, then kill the player and all it started."""
        raise NotImplementedError

    def _close_pipes(self) -> None:
        for fd in (self._in_fd, self._out_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._in_fd = self._out_fd = -1


class PlayerProcess(PipedProcess):
    """One player program: stdin/stdout pipes, stderr to a capped log, its own session."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | Path,
        env: Mapping[str, str] | None = None,
        stderr_log: Path | None = None,
        line_cap: int = MAX_LINE_BYTES,
        wrapper: str | None = None,
        pass_fds: Sequence[int] = (),
    ) -> None:
        self.argv = list(argv)
        self.wrapper = wrapper
        become_subreaper()
        child_env = dict(env if env is not None else os.environ)
        child_env["ARENA_PLAYER"] = "1"
        err_r, err_w = os.pipe()
        try:
            self.popen = start(
                self.argv,
                cwd=cwd,
                env=child_env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err_w,
                start_new_session=True,
                bufsize=0,
                pass_fds=tuple(pass_fds),
            )
        except BaseException:
            os.close(err_r)
            raise
        finally:
            os.close(err_w)
        self.pid = self.popen.pid
        assert self.popen.stdin is not None and self.popen.stdout is not None
        self._in = self.popen.stdin
        self._pidfd = -1
        self._poll_exit = select.poll()
        with contextlib.suppress(OSError, AttributeError):  # Linux 5.3+: readable at exit
            self._pidfd = os.pidfd_open(self.pid)
            self._poll_exit.register(self._pidfd, select.POLLIN)
        self._open_pipes(
            self._in.fileno(), self.popen.stdout.fileno(), err_r, stderr_log, line_cap, self._pidfd
        )

    def _player_writers(self) -> list[int] | None:
        """Descendants other than the wrapper (e.g. bwrap) that still hold our stdout pipe.

        None when nothing can be concluded: no such process exists yet (the wrapper is
        still setting up, or the player is gone, which its exit tells soon enough), or
        a process could not be looked at completely (its descriptors change as it runs:
        an interpreter opening and closing files while it starts must not read as a
        player that closed its output).
        """
        pipe = f"pipe:[{os.fstat(self._out_fd).st_ino}]"
        players = 0
        holders = []
        for pid in [self.pid, *descendants(self.pid)]:
            try:
                with open(f"/proc/{pid}/comm") as f:  # not shown
                    if f.read().strip() == self.wrapper:
                        continue
            except OSError:
                continue  # gone
            players += 1
            holds = _holds(pid, pipe)
            if holds is None:
                return None
            if holds:
                holders.append(pid)
        return holders if players else None

    def exit_status(self, wait: float = 0.0) -> int | None:
        """The exit status (negative: killed by that signal), or None while running."""
        try:
            return self.popen.wait(wait) if wait > 0 else self.popen.poll()
        except subprocess.TimeoutExpired:
            return None

    def _wait_exit(self, timeout: float) -> bool:
        """Whether the player has exited, waiting up to ``timeout`` s, without reaping it."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                    return True
            except ChildProcessError:
                return True  # reaped already
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            if self._pidfd >= 0:  # readable once the player has exited: no polling delay
                self._poll_exit.poll(max(1, int(left * 1000)))
            else:
                time.sleep(min(left, 0.01))

    def kill_tree(self, grace: float = 0.0, also: Callable[[], None] | None = None) -> int | None:
        """Wait up to ``grace`` seconds for an exit, then kill the process and all it started.

        Freezes the whole tree first (so nothing forks while being killed), kills
        it, reaps the player and any adopted orphan. ``also`` kills what the tree
        cannot show (e.g. everything in the player's cgroup). Returns the exit status.
        """
        # Signals by pid and process group only while the player is unreaped: its pid (and so
        # its group's id) cannot be given to another process before that. Once it is reaped,
        # what it left behind is found as adopted orphans (reap_orphans) and by ``also``.
        reaped = self.popen.returncode is not None
        if not reaped and grace > 0:
            self._wait_exit(grace)
        if also is not None:
            also()
        for _round in range(0 if reaped else 3):
            tree = [self.pid, *descendants(self.pid)]
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGSTOP)
            _signal_all(tree, signal.SIGSTOP)
            tree = list(dict.fromkeys([*tree, *descendants(self.pid)]))
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            _signal_all(tree, signal.SIGKILL)
            if len(tree) == 1 and self._wait_exit(1.0):
                break
        status = self.exit_status(1.0)
        if status is not None:
            self.killed = True
            _live.discard(self.pid)
        for stream in (self._in, self.popen.stdout):
            with contextlib.suppress(OSError):
                stream.close()  # type: ignore[union-attr]
        if self._pidfd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = -1
        reap_orphans()
        self.stderr.join(1.0)
        return status
