"""Nothing survives a player (issue 27, item 3).

A leased uid is swept at every release (and at a lease, unless its last release swept it):
keys, locks, SysV and POSIX IPC objects, files in every folder a player may reach. Acting as the
uid (a process dropped to it, not a player: players are refused these calls by the syscall
filter), the tests leave one of each, release the lease, and check that nothing is left and that
the next player of the uid finds none; a uid of which something cannot be removed is
quarantined, never leased again.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import resource
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.containment import leftovers, seal, uids

if os.geteuid() != 0:
    pytest.skip("leasing uids and acting as them needs a root referee", allow_module_level=True)

ADD_KEY, KEYCTL = seal.number("add_key"), seal.number("keyctl")
KEYS = Path("/proc/key-users").exists()
MQUEUE = leftovers.mqueue_folder() is not None

PRELUDE = """
import ctypes, fcntl, json, os, sys, time
uid = int(sys.argv[1])
arg = json.loads(sys.argv[2])
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.shmat.restype = ctypes.c_void_p
os.setgroups([])
os.setresgid(uid, uid, uid)
os.setresuid(uid, uid, uid)
os.umask(0o022)

def call(r):
    return r if r >= 0 else -ctypes.get_errno()

def keyctl(op, *args):
    args = [a if isinstance(a, bytes) else ctypes.c_ulong(a & (2**64 - 1)) for a in args]
    return call(libc.syscall(arg["keyctl"], ctypes.c_long(op), *args))

def add_key(desc, ring):
    data = b"secret of " + desc
    size, ring = ctypes.c_size_t(len(data)), ctypes.c_long(ring)
    return call(libc.syscall(arg["add_key"], b"user", desc, data, size, ring))

SESSION, USER = -3, -4
out = {}
"""
"""Run as root, dropped to the uid (first argument) before anything else; the second is JSON."""

LEAVE = """
tag = arg["tag"]
if arg["keys"]:
    out["user_key"] = add_key(b"left-in-user", USER)
    out["session"] = keyctl(1, b"left-session-" + tag.encode())  # a named session keyring of its own
    out["session_key"] = add_key(b"left-in-session", SESSION)
    out["open_key"] = add_key(b"left-open", SESSION)
    out["setperm"] = keyctl(5, out["open_key"], 0x3F3F3F3F)  # anyone may read, write, link it
    out["link"] = keyctl(8, SESSION, USER)  # the session keyring into the user keyring: it outlives us
    out["persistent"] = keyctl(22, uid, SESSION)  # KEYCTL_GET_PERSISTENT (it lives for days)
    out["persistent_key"] = add_key(b"left-in-persistent", out["persistent"])
for kind, make in (
    ("shm", lambda k: libc.shmget(k, 4096, 0o1666)),
    ("sem", lambda k: libc.semget(k, 1, 0o1666)),
    ("msg", lambda k: libc.msgget(k, 0o1666)),
):
    if arg["ipc_key"]:
        out[kind] = call(make(arg["ipc_key"]))  # IPC_CREAT | 0666, under a key the next player could ask for
        out[kind + "_private"] = call(make(0))  # IPC_PRIVATE
if arg["mqueue"]:
    mq_open = getattr(libc, "mq_open", None) or ctypes.CDLL("librt.so.1", use_errno=True).mq_open
    out["mqueue"] = call(mq_open(arg["mqueue"].encode(), os.O_CREAT | os.O_RDWR, 0o666, None))
for path in arg["files"]:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("left by the last player")
deep = arg["deep"]
os.makedirs(deep)
with open(os.path.join(deep, "bottom"), "w") as f:
    f.write("at the bottom")
for target, link in arg["links"]:
    os.symlink(target, link)
print(json.dumps(out), flush=True)
"""

HOLD_LOCK = """
fd = os.open(arg["path"], os.O_RDWR | os.O_CREAT, 0o666)
fcntl.flock(fd, fcntl.LOCK_EX)
print(os.fstat(fd).st_ino, flush=True)
time.sleep(600)
"""

LOOK = """
def key_users():
    with open("/proc/key-users") as f:
        return [line for line in f if line.split(":")[0].strip() == str(uid)]

if arg["keys"]:
    out["key_users"] = key_users()  # before this process touches a keyring (that makes two)
    out["read_old"] = {name: keyctl(11, key, 0, 0) for name, key in arg["old_keys"].items()}
    out["search"] = keyctl(10, USER, b"user", b"left-in-user", 0)
    out["user_keyring"] = keyctl(11, USER, 0, 0)  # bytes needed to list it: 0, empty
for kind, get in (("shm", lambda k: libc.shmget(k, 0, 0)), ("sem", lambda k: libc.semget(k, 0, 0)),
                  ("msg", lambda k: libc.msgget(k, 0))):
    if arg["ipc_key"]:  # not 0, IPC_PRIVATE: that would make one
        out[kind] = call(get(arg["ipc_key"]))
address = libc.shmat(arg["old_shm"], None, 0)  # by its id, not its key
out["shm_old"] = -ctypes.get_errno() if address in (None, 2**64 - 1) else address
sysv = []
for kind in ("shm", "sem", "msg"):
    with open("/proc/sysvipc/" + kind) as f:
        head = f.readline().split()
        at = head.index("uid"), head.index("cuid")
        sysv += [line for line in f if str(uid) in [line.split()[i] for i in at]]
out["sysv"] = sysv
if arg["mqueue"]:
    mq_open = getattr(libc, "mq_open", None) or ctypes.CDLL("librt.so.1", use_errno=True).mq_open
    out["mqueue"] = call(mq_open(arg["mqueue"].encode(), os.O_RDONLY, 0, None))
paths = arg["files"] + [arg["deep"]] + [link for _, link in arg["links"]]
out["files"] = [p for p in paths if os.path.lexists(p)]
print(json.dumps(out), flush=True)
"""


def as_uid(uid: int, script: str, **arg: Any) -> Any:
    """Run ``script`` as ``uid``; the JSON it printed."""
    arg.update(keyctl=KEYCTL, add_key=ADD_KEY, keys=KEYS)
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PRELUDE + script, str(uid), json.dumps(arg)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def tag() -> Iterator[str]:
    """A name unique to the test; root's folders of that name are removed after it."""
    name = f"tute-left-{uuid.uuid4().hex[:10]}"
    yield name
    for place in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        for path in Path(place).glob(name + "*"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)


@pytest.fixture
def same_uid(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``lease_again(uid)``: a new lease that tries ``uid`` first (the next player of that uid)."""

    def lease_again(uid: int) -> uids.UidLease:
        monkeypatch.setattr(uids, "_start", lambda: uid - uids.FIRST_UID)
        monkeypatch.setattr(uids, "_recent", [])
        return uids.UidLease()

    return lease_again


def lock_lines(inode: int) -> list[str]:
    """/proc/locks lines of the locks on inode ``inode``."""
    lines = Path("/proc/locks").read_text().splitlines()
    return [line for line in lines if line.split()[-3].endswith(f":{inode}")]


def test_nothing_a_uid_leaves_reaches_its_next_player(tag: str, same_uid: Any) -> None:
    shared = Path("/tmp", tag + "-shared")  # root's, anyone may write in it, deep down
    (shared / "a" / "b" / "c").mkdir(parents=True)
    for folder in (shared, shared / "a", shared / "a" / "b", shared / "a" / "b" / "c"):
        folder.chmod(0o1777)
    canary = Path("/tmp", tag + "-canary")  # root's: a link of the player's must never lead here
    canary.mkdir(mode=0o755)
    (canary / "keep").write_text("root's")
    own = f"/tmp/{tag}-own"
    files = [
        f"{own}/x/y/z/deep-file",
        f"{shared}/a/b/c/in-roots-folder",
        f"/var/tmp/{tag}-file",
        f"/dev/shm/{tag}-file",
        f"/dev/shm/sem.{tag}",  # what sem_open leaves
    ]
    if os.access("/run/lock", os.W_OK) and os.stat("/run/lock").st_mode & 0o002:
        files.append(f"/run/lock/{tag}-file")
    deep = own + "/d" * 150  # deeper than a walk holds open: flattened as it is removed
    links = [(str(canary), f"{own}/to-canary"), (str(canary / "keep"), f"/tmp/{tag}-link")]
    ipc_key = int(uuid.uuid4().hex[:7], 16)
    lease = uids.UidLease()
    uid = lease.uid
    try:
        left = as_uid(uid, LEAVE, tag=tag, files=files, deep=deep, links=links, ipc_key=ipc_key, mqueue="")
        assert all(v >= 0 for v in left.values()), json.dumps(left)
        lock = json.dumps({"path": f"{own}/lock"})
        holder = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", PRELUDE + HOLD_LOCK, str(uid), lock],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert holder.stdout is not None
        inode = int(holder.stdout.readline())
        assert lock_lines(inode), "the flock is held"
        found = leftovers.leftovers(uid)
        kinds = {item.split(":")[0] for item in found}
        assert {"process", "lock", "shm", "sem", "msg", "file"} <= kinds, found
        if KEYS:
            assert "keys" in kinds and leftovers.key_count(uid) >= 7, found

        holder.kill()  # as a player's process is killed, and reaped, before its uid is released
        assert holder.wait(5) == -9
        started = time.perf_counter()
        lease.release()
        took = time.perf_counter() - started

        assert leftovers.leftovers(uid) == []
        assert uid not in uids.quarantined()
        assert (uids._lock_folder() / str(uid)).read_bytes() == uids.SWEPT, "noted: released clean"
        assert not lock_lines(inode), "no lock survives its holder"
        assert (canary / "keep").read_text() == "root's", "no link of the player's is followed"
        assert shared.is_dir() and (shared / "a" / "b" / "c").is_dir(), "root's folders stay"
        assert not list(shared.rglob("*in-roots-folder")) and not Path(own).exists()
        assert took < 10, took

        again = same_uid(uid)
        try:
            assert again.uid == uid
            old_keys = {k: v for k, v in left.items() if "key" in k or k in ("session", "persistent")}
            seen = as_uid(
                uid, LOOK, files=files, deep=deep, links=links, ipc_key=ipc_key, mqueue="",
                old_keys=old_keys, old_shm=left["shm"],
            )  # fmt: skip
        finally:
            again.release()
        if KEYS:
            assert seen["key_users"] == [], "the next player of the uid has no keys"
            assert all(err < 0 for err in seen["read_old"].values()), seen["read_old"]
            assert seen["search"] < 0 and seen["user_keyring"] == 0, seen
        assert seen["shm"] < 0 and seen["sem"] < 0 and seen["msg"] < 0 and seen["shm_old"] < 0, seen
        assert seen["sysv"] == [], seen["sysv"]
        assert seen["files"] == []
        assert leftovers.leftovers(uid) == [] and leftovers.key_count(uid) == 0, "its own look is swept too"
    finally:
        lease.release()


@pytest.mark.skipif(not MQUEUE, reason="no POSIX message queue folder to look in (no fsopen, no /dev/mqueue)")
def test_a_posix_message_queue_does_not_reach_the_next_player(tag: str, same_uid: Any) -> None:
    """The last item of the test above, apart: it needs the queues to be seen."""
    mqueue = f"/{tag}"
    lease = uids.UidLease()
    uid = lease.uid
    try:
        as_uid(uid, LEAVE, tag=tag, files=[], deep=f"/tmp/{tag}-mq/x", links=[], ipc_key=0, mqueue=mqueue)
        assert f"mqueue:{mqueue}" in leftovers.leftovers(uid)
        lease.release()
        assert leftovers.leftovers(uid) == []
        again = same_uid(uid)
        try:
            seen = as_uid(
                uid,
                LOOK,
                files=[],
                deep="/nowhere",
                links=[],
                ipc_key=0,
                mqueue=mqueue,
                old_keys={},
                old_shm=-1,
            )
        finally:
            again.release()
        assert seen["mqueue"] < 0, "no such queue"
    finally:
        lease.release()


def test_a_uid_with_something_that_cannot_be_removed_is_quarantined(
    tag: str, same_uid: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A shared memory segment still attached (here by the test, as root) outlives ``IPC_RMID``."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmdt.argtypes = [ctypes.c_void_p]
    lease = uids.UidLease()
    uid = lease.uid
    ident = as_uid(uid, "print(json.dumps(call(libc.shmget(0, 4096, 0o1600))))")
    address = libc.shmat(ident, None, 0)
    assert address not in (None, ctypes.c_void_p(-1).value)
    try:
        with caplog.at_level(logging.WARNING, logger="arena.containment.uids"):
            lease.release()
        assert uid in uids.quarantined()
        assert leftovers.leftovers(uid) == [f"shm:{ident}"]
        assert any(str(uid) in r.getMessage() and f"shm:{ident}" in r.getMessage() for r in caplog.records)
        assert len([r for r in caplog.records if str(uid) in r.getMessage()]) == 1, "one line"
        assert (uids._lock_folder() / str(uid)).read_text() == f"shm:{ident}\n", "noted for later referees"

        other = same_uid(uid)
        try:
            assert other.uid != uid, "a quarantined uid is not leased again"
        finally:
            other.release()
        pool = uids.UidPool()
        taken = pool.take()
        assert taken.uid != uid
        pool.give_back(taken)
        assert pool.take() is taken, "a clean uid goes back to the pool"
        pool.give_back(taken)
        pool.close()
    finally:
        libc.shmdt(ctypes.c_void_p(address))
    deadline = time.monotonic() + 5
    while leftovers.leftovers(uid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert leftovers.leftovers(uid) == [], "detached, the segment goes"
    with contextlib.suppress(KeyError):
        uids._quarantined.remove(uid)


def test_the_warm_pool_sweeps_a_uid_before_giving_it_again(tag: str) -> None:
    pool = uids.UidPool()
    lease = pool.take()
    try:
        files = [f"/tmp/{tag}-w/f", f"/dev/shm/{tag}-w"]
        key = int(uuid.uuid4().hex[:7], 16)
        mqueue = f"/{tag}" if MQUEUE else ""
        as_uid(
            lease.uid,
            LEAVE,
            tag=tag,
            files=files,
            deep=f"/tmp/{tag}-wd/x",
            links=[],
            ipc_key=key,
            mqueue=mqueue,
        )
        assert leftovers.leftovers(lease.uid)
        pool.give_back(lease)
        assert leftovers.leftovers(lease.uid) == []
        assert pool.take() is lease
        pool.give_back(lease)
    finally:
        pool.close()


def test_a_dirty_uid_given_back_to_the_pool_is_quarantined_instead(tag: str) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmdt.argtypes = [ctypes.c_void_p]
    pool = uids.UidPool()
    lease = pool.take()
    uid = lease.uid
    ident = as_uid(uid, "print(json.dumps(call(libc.shmget(0, 4096, 0o1600))))")
    address = libc.shmat(ident, None, 0)
    try:
        pool.give_back(lease)
        assert uid in uids.quarantined()
        assert pool.take().uid != uid
    finally:
        libc.shmdt(ctypes.c_void_p(address))
        pool.close()
        with contextlib.suppress(KeyError):
            uids._quarantined.remove(uid)


def test_what_a_referee_killed_hard_left_is_swept_by_the_next_one(tag: str, same_uid: Any) -> None:
    """Leases never released (their referee killed with SIGKILL): the next referee's first lease
    sweeps every player uid that owns something and that no one leases, and a lease of such a uid
    sweeps it first."""
    dropped = []
    for n in range(2):
        lease = uids.UidLease()
        files = [f"/tmp/{tag}-k{n}/f", f"/var/tmp/{tag}-k{n}"]
        as_uid(
            lease.uid, LEAVE, tag=tag, files=files, deep=f"/tmp/{tag}-kd{n}/x", links=[], ipc_key=0, mqueue=""
        )
        os.close(lease._fd)  # as the kernel does for a referee killed hard
        lease._fd = -1
        assert leftovers.leftovers(lease.uid) and lease.uid in leftovers.owners()
        assert (uids._lock_folder() / str(lease.uid)).read_bytes() == uids.LEASED, "never released"
        dropped.append(lease.uid)
    first, second = dropped

    assert first in uids.sweep_abandoned()
    assert leftovers.leftovers(first) == [] and first not in leftovers.owners()
    assert (uids._lock_folder() / str(first)).read_bytes() == uids.SWEPT

    uids._abandoned_swept.add(os.getpid())  # already done by this process
    again = same_uid(second)
    try:
        assert again.uid == second
        assert leftovers.leftovers(second) == []
    finally:
        again.release()


@pytest.mark.parametrize("watched", [True, False], ids=["inotify", "no-inotify"])
def test_a_folder_made_writable_deep_in_a_walked_tree_is_walked_again(
    tag: str, watched: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Walks remember the folders they read; a folder deep in root's tree that root opens to all
    (no change to the folders above it) is seen, and what a player left there goes."""
    if not watched:
        monkeypatch.setattr(leftovers._Tree, "watch", lambda self, fd, key: False)
        monkeypatch.setattr(leftovers, "QUIET_NS", 0)  # every folder here is new: trusted at once
    monkeypatch.setattr(leftovers, "_trees", {})
    deep = Path("/tmp", tag + "-tree", "a", "b", "c")
    deep.mkdir(parents=True)
    for folder in [deep, *deep.parents][:4]:
        folder.chmod(0o755)
    lease = uids.UidLease()
    uid = lease.uid
    try:
        assert leftovers.leftovers(uid) == []
        top = leftovers._tree().nodes[(deep.stat().st_dev, deep.parents[2].stat().st_ino)]
        assert top.clean is watched, "root's tree: no player may write in it"
        assert leftovers.leftovers(uid) == [], "walked again, from what is remembered"
        deep.chmod(0o1777)
        as_uid(
            uid, LEAVE, tag=tag, files=[f"{deep}/left"], deep=f"{deep}/d/e", links=[], ipc_key=0, mqueue=""
        )
        files = sorted(item for item in leftovers.leftovers(uid) if item.startswith("file:"))
        assert files == [f"file:{deep}/d", f"file:{deep}/left"]
        lease.release()
        assert leftovers.leftovers(uid) == [] and not list(deep.iterdir())
    finally:
        lease.release()


def test_release_is_cheap() -> None:
    """A torneo releases thousands of uids: a clean lease and release cost a few milliseconds of
    the referee's CPU, and a uid released clean is the next one leased, with nothing to sweep."""

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    first = uids.UidLease()  # the first one opens what the next ones reuse
    first.release()
    count = 50
    started = cpu()
    for _ in range(count):
        lease = uids.UidLease()
        assert lease.uid == first.uid
        lease.release()
    each = (cpu() - started) / count
    assert each < 0.025, f"{each * 1000:.1f} ms of CPU per lease and release"
