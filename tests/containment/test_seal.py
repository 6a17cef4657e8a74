"""The players' syscall filter (``arena.containment.seal``): every family refused in every kind of
start, honest bots unaffected, and no player started where the filter cannot be had."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from arena.containment import sandbox, seal
from arena.player import sealing
from arena.referee.players import find_player
from arena.referee.table import play_folders
from tests.paths import BOTS, ROOT
from tests.torneos import comparable

pytestmark = pytest.mark.usefixtures("run_token")

SAMPLES = ROOT / "sample_players"
FALLBACK = {"clone3", "preadv2"}
"""Refused with ENOSYS (the C library falls back to the older call)."""
NO_FAMILY = {"socket_inet", "socket_inet6", "socket_vsock", "socket_netlink", "socketpair_vsock"}
"""Sockets of any family but AF_UNIX: refused with EAFNOSUPPORT (a family the kernel lacks)."""


def _expected(name: str) -> int:
    return errno.ENOSYS if name in FALLBACK else errno.EAFNOSUPPORT if name in NO_FAMILY else errno.EPERM

STARTS: list[Any] = [
    pytest.param(
        "bwrap", True, id="warm", marks=pytest.mark.skipif(not sandbox.warm_ready(), reason="no warm starts")
    ),
    pytest.param(
        "bwrap", False, id="cold", marks=pytest.mark.skipif(not sandbox.bwrap_works(), reason="no bwrap")
    ),
    pytest.param(
        "rlimits",
        False,
        id="rlimits",
        marks=pytest.mark.skipif(sandbox.rlimits_problem() is not None, reason="rlimits needs root"),
    ),
]


def _replay(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.mark.parametrize(("mechanism", "warm"), STARTS)
def test_every_refused_family_is_refused_in_every_start(mechanism: str, warm: bool, tmp_path: Path) -> None:
    bot = find_player(BOTS / "hostile_syscalls")
    others = [find_player(SAMPLES / "a_mas"), find_player(SAMPLES / "random_legal")]
    replay = tmp_path / "partido.jsonl"
    play_folders([bot, *others], 1, replay=replay, mechanism=mechanism, warm=warm)
    log = next(Path(f"{replay}.logs").glob("hostile_syscalls*.stderr.log")).read_text()
    report = json.loads(next(x for x in log.splitlines() if x.startswith("SYSCALLS "))[len("SYSCALLS ") :])
    expected = {name: _expected(name) for name in report["tried"]}
    assert {"socket_vsock", "pidfd_open", "clone_pidfd"} <= set(expected)
    assert report["tried"] == expected
    assert all(report["honest"].values()), report["honest"]  # threads, children, fcntl, pipes still work
    if mechanism == "bwrap":  # (rlimits has the host's /proc: see docs/security.md)
        assert not any(report["counters"].values()), report["counters"]  # machine-wide counters: empty
    assert not any(e["type"] == "fault" for e in _replay(replay))  # it played on, legally


def test_honest_partidos_are_unchanged_by_the_filter(tmp_path: Path) -> None:
    """The same deal with sealed players (every kind of start) as with unsealed ones in-process."""
    folders = [find_player(SAMPLES / name) for name in ("a_mas", "a_menos", "random_legal", "node_basico")]
    seen = []
    for mechanism, warm in (("bwrap", True), ("bwrap", False), ("none", False)):
        replay = tmp_path / f"{mechanism}-{warm}.jsonl"
        play_folders(folders, 11, replay=replay, mechanism=mechanism, warm=warm)
        seen.append(comparable(replay))
    assert seen[0] == seen[1] == seen[2]


def _in_child(program: bytes | None, uid: int, calls: list[tuple[int, tuple[int, ...]]]) -> list[int]:
    """errno of each raw call in a forked child of ``uid`` (0: it worked), with ``program`` loaded."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.setsid()
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            if program is not None:
                sealing.load(program)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall.restype = ctypes.c_long
            out = []
            for number, args in calls:
                ctypes.set_errno(0)
                result = libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
                out.append(ctypes.get_errno() if result == -1 else 0)
            os.write(write, json.dumps(out).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return list(json.loads(data))


@pytest.mark.skipif(os.geteuid() != 0, reason="drops to another uid")
def test_the_filter_and_not_the_machine_refuses() -> None:
    """Calls an unprivileged process may make on this machine work without the filter, not with it."""
    with tempfile.NamedTemporaryFile() as shared:
        os.chmod(shared.name, 0o644)
        fd = os.open(shared.name, os.O_RDONLY)
        try:
            lock_sh_nb = 1 | 4
            calls = [
                (seal.number("flock"), (fd, lock_sh_nb)),
                (seal.number("inotify_init1"), (0,)),
                (seal.number("fcntl"), (fd, (1 << 32) | 1, 0)),  # F_GETFD with high bits: allowed
            ]
            unsealed = _in_child(None, 0x6FFFFFF0, calls)
            sealed = _in_child(seal.program(), 0x6FFFFFF0, calls)
        finally:
            os.close(fd)
    assert unsealed[:2] == [0, 0], unsealed
    assert sealed[:2] == [errno.EPERM, errno.EPERM], sealed
    assert sealed[2] == unsealed[2] == 0  # not every fcntl: only the lock commands


def test_a_machine_without_the_filter_starts_no_player(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> bytes:
        raise seal.SealError("the players' syscall filter cannot be built: libseccomp is missing (test)")

    monkeypatch.setattr(seal, "program", broken)
    for mode in ("auto", "bwrap", "rlimits"):
        if mode == "rlimits" and sandbox.rlimits_problem():
            continue
        if mode != "rlimits" and not sandbox.bwrap_works():
            continue
        with pytest.raises(sandbox.SandboxError) as caught:
            sandbox.resolve(mode)
        assert "libseccomp" in str(caught.value) and "\n" not in str(caught.value)
    assert sandbox.resolve("none") == "none"  # debugging on one's own machine: no filter asked for


def test_the_program_is_for_this_machine_only() -> None:
    names = {rule.name for rule in seal.rules()}
    for family in ("keyctl", "add_key", "flock", "fcntl(F_OFD_SETLK)", "unshare", "clone(CLONE_NEWUSER)"):
        assert family in names
    assert {"ptrace", "pidfd_open", "clone(CLONE_PIDFD)", "socket(AF_UNIX)", "read", "futex"} <= names
    assert len(seal.program()) % 8 == 0


def test_every_allowed_call_has_a_reason_and_none_is_also_refused() -> None:
    allowed = {name for _why, names in seal.ALLOWED.values() for name in names}
    refused = {name for _code, names in seal.REFUSED.values() for name in names}
    assert all(why.strip() and names for why, names in seal.ALLOWED.values())
    assert not allowed & refused, allowed & refused
    assert not {"socket", "socketpair", "clone", "fcntl", "ioctl", "madvise"} & (allowed | refused)  # checked
    assert 150 <= seal.size() <= 260  # the list's size on this machine (arena doctor shows it)


def _killed_by(program: bytes, nr: int, *args: int) -> int | None:
    """The signal that ended a child which loaded ``program`` and made the raw call (None: it lived)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            sealing.load(program)
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(a) for a in args))
        finally:
            os._exit(0)
    _pid, status = os.waitpid(pid, 0)
    return os.WTERMSIG(status) if os.WIFSIGNALED(status) else None


def test_a_call_on_no_list_kills_the_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Default-deny: a call neither allowed nor refused (and a number no kernel has) ends the player."""
    assert _killed_by(seal.program(), 9999) == 31  # SIGSYS
    assert _killed_by(seal.program(), seal.number("getpid")) is None
    monkeypatch.setenv(seal.AUDIT_ENV, "1")  # deriving the list: logged and let through
    assert _killed_by(seal.program(), 9999) is None


@pytest.mark.skipif(os.geteuid() != 0, reason="drops to another uid; reads the kernel log")
def test_the_killed_call_is_named_from_the_kernel_log() -> None:
    if not os.access("/dev/kmsg", os.R_OK):
        pytest.skip("the kernel log cannot be read here")
    uid = 0x6FFFFFF1
    since = seal.now_us()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            sealing.load(seal.program())
            ctypes.CDLL(None, use_errno=True).syscall(ctypes.c_long(seal.number("acct")), 0)
        finally:
            os._exit(0)
    _pid, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == 31
    assert seal.killed_call(uid, since) == "acct"
    assert seal.killed_call(uid + 1, since, wait_s=0.2) is None


@pytest.mark.parametrize(("mechanism", "warm"), STARTS)
def test_a_player_killed_by_the_filter_is_told_which_call(mechanism: str, warm: bool, tmp_path: Path) -> None:
    """Its fault is a crash whose detail names the call (not a SIGSYS the student cannot read)."""
    bot = find_player(BOTS / "hostile_unlisted")
    others = [find_player(SAMPLES / "a_mas"), find_player(SAMPLES / "random_legal")]
    replay = tmp_path / "partido.jsonl"
    play_folders([bot, *others], 2, replay=replay, mechanism=mechanism, warm=warm)
    fault = next(e for e in _replay(replay) if e["type"] == "disqualified")
    assert fault["seat"] == 0 and fault["reason"] == "crash" and fault["exit"] == "SIGSYS"
    assert "acct" in fault["detail"] or not seal.kernel_records(), fault["detail"]
    log = next(Path(f"{replay}.logs").glob("hostile_unlisted*.stderr.log")).read_text()
    assert f"VSOCK refused errno={errno.EAFNOSUPPORT}" in log and "ACCT survived" not in log


@pytest.mark.skipif(os.uname().machine != "x86_64", reason="the x32 ABI is x86-64's")
def test_another_abi_on_the_same_machine_kills_the_process() -> None:
    """keyctl through the x32 ABI (number | 0x40000000) is not let through under another number."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            sealing.load(seal.program())
            libc = ctypes.CDLL(None, use_errno=True)
            libc.syscall(ctypes.c_long(0x40000000 | seal.number("keyctl")), 0, -4, 0, 0)
        finally:
            os._exit(0)
    _pid, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == 31, status  # SIGSYS: killed by the filter


def test_the_docs_list_every_call_the_filter_allows_or_refuses() -> None:
    """docs/security.md's tables are the filter's: a call added to the code is written down in its group."""
    docs = (ROOT / "docs" / "security.md").read_text()
    section = docs[docs.index("## The syscall filter") : docs.index("## Channels between players")]
    rows = {line.split("|")[1].strip(): line for line in section.splitlines() if line.startswith("| ")}
    for group, (why, names) in seal.ALLOWED.items():
        row = rows[group.replace("_", " ")]
        assert why in row and all(f"`{name}`" in row for name in names), group
    for family, (_code, names) in seal.REFUSED.items():
        row = rows[family.replace("_", " ")]
        assert all(f"`{name}`" in row for name in names), family
