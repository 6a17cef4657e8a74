"""Tries, at hello, one call of every syscall family the players' filter refuses, and logs the errno
each got (one ``SYSCALLS {json}`` line on stderr: 0 means it worked); then plays legally.

Its own syscall numbers (x86-64 and aarch64), independent of the filter it tests. It also checks
that what honest bots need still works: threads, a child process, ordinary fcntl.
"""

import ctypes
import fcntl
import json
import mmap
import os
import platform
import socket
import struct
import subprocess
import sys
import threading

from arena.sdk import Player, PlayRequest

NUMBERS = {  # name: (x86_64, aarch64)
    "add_key": (248, 217),
    "keyctl": (250, 219),
    "request_key": (249, 218),
    "fcntl": (72, 25),
    "inotify_init1": (294, 26),
    "fanotify_init": (300, 262),
    "unshare": (272, 97),
    "clone": (56, 220),
    "clone3": (435, 435),
    "setns": (308, 268),
    "ptrace": (101, 117),
    "process_vm_readv": (310, 270),
    "perf_event_open": (298, 241),
    "bpf": (321, 280),
    "userfaultfd": (323, 282),
    "io_uring_setup": (425, 425),
    "kcmp": (312, 272),
    "mount": (165, 40),
    "umount2": (166, 39),
    "pivot_root": (155, 41),
    "fsopen": (430, 430),
    "shmget": (29, 194),
    "msgget": (68, 186),
    "semget": (64, 190),
    "mq_open": (240, 180),
    "fadvise64": (221, 223),
    "cachestat": (451, 451),
    "madvise": (28, 233),
    "preadv2": (327, 286),
    "pidfd_getfd": (438, 438),
    "sysinfo": (99, 179),
    "socket": (41, 198),
    "socketpair": (53, 199),
    "pidfd_open": (434, 434),
    "statfs": (137, 43),
    "mincore": (27, 232),
}
COUNTERS = (
    "/proc/loadavg",
    "/proc/stat",
    "/proc/uptime",
    "/proc/meminfo",
    "/proc/sys/fs/file-nr",
    "/proc/sys/kernel/pty/nr",
    "/proc/sys/fs/aio-nr",
)
"""What counts the whole machine's threads, forks, CPU and memory (a channel between players)."""
ARCH = 0 if platform.machine() == "x86_64" else 1
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
CLONE_NEWUSER = 0x10000000
CLONE_PIDFD = 0x00001000
SIGCHLD = 17


def call(name: str, *args: int) -> int:
    """errno of the raw call (0: it worked)."""
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(NUMBERS[name][ARCH]), *(ctypes.c_long(a) for a in args))
    if result == 0 and name == "clone":
        os._exit(0)  # a child made after all: gone at once
    return ctypes.get_errno() if result == -1 else 0


def text(value: bytes) -> int:
    """The address of a NUL-terminated copy of ``value`` (kept alive)."""
    kept = ctypes.create_string_buffer(value)
    _kept.append(kept)
    return ctypes.addressof(kept)


_kept: list[object] = []


def py(fn) -> int:
    try:
        fn()
    except OSError as exc:
        return exc.errno or -1
    return 0


def attempts() -> dict[str, int]:
    own = os.open(__file__, os.O_RDONLY)
    ptr = ctypes.create_string_buffer(256)
    addr = ctypes.addressof(ptr)
    user_keyring = -4
    child = subprocess.Popen(["sleep", "5"])
    kind, name = text(b"user"), text(b"arena-probe")
    lock = struct.pack("hhqqi4x", fcntl.F_RDLCK, 0, 0, 0, 0)
    tried = {
        "add_key": call("add_key", kind, name, addr, 1, user_keyring),
        "keyctl": call("keyctl", 0, user_keyring, 1),
        "request_key": call("request_key", kind, name, 0, 0),
        "flock": py(lambda: fcntl.flock(own, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        "fcntl_setlk": py(lambda: fcntl.lockf(own, fcntl.LOCK_SH | fcntl.LOCK_NB)),
        "fcntl_getlk": call("fcntl", own, 5, addr),
        "fcntl_ofd_setlk": py(lambda: fcntl.fcntl(own, 37, lock)),
        "fcntl_high_bits": call("fcntl", own, (1 << 32) | 6, addr),
        "fcntl_notify": call(
            "fcntl", os.open(os.path.dirname(os.path.abspath(__file__)), os.O_RDONLY), 1026, 1
        ),
        "inotify": call("inotify_init1", 0),
        "fanotify": call("fanotify_init", 0, 0),
        "unshare_newuser": call("unshare", CLONE_NEWUSER),
        "clone_newuser": call("clone", CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0),
        "setns": call("setns", os.open("/proc/self/ns/net", os.O_RDONLY), 0),
        "ptrace": call("ptrace", 16, child.pid, 0, 0),  # PTRACE_ATTACH to its own child
        "process_vm_readv": call("process_vm_readv", os.getpid(), 0, 0, 0, 0, 0),
        "perf_event_open": call("perf_event_open", addr, 0, -1, -1, 0),
        "bpf": call("bpf", 0, addr, 0),
        "userfaultfd": call("userfaultfd", 0),
        "io_uring": call("io_uring_setup", 1, addr),
        "kcmp": call("kcmp", os.getpid(), os.getpid(), 0, 0, 0),
        "mount": call("mount", 0, text(b"/tmp"), 0, 0, 0),
        "umount2": call("umount2", text(b"/tmp"), 2),
        "pivot_root": call("pivot_root", 0, 0),
        "fsopen": call("fsopen", text(b"tmpfs"), 0),
        "shmget": call("shmget", 0, 4096, 0o1600),
        "msgget": call("msgget", 0, 0o1600),
        "semget": call("semget", 0, 1, 0o1600),
        "mq_open": call("mq_open", text(b"probe"), 0o102, 0o600, 0),
        "fadvise": call("fadvise64", own, 0, 0, 4),
        "cachestat": call("cachestat", own, addr, addr, 0),
        "madvise_pageout": madvise_pageout(own),
        "preadv2": call("preadv2", own, addr, 0, 0, 0, 8),
        "clone3": call("clone3", 0, 0),
        "pidfd_getfd": call("pidfd_getfd", 0, 0, 0),
        "sysinfo": call("sysinfo", addr),
        "socket_inet": call("socket", 2, 1, 0),
        "socket_inet6": call("socket", 10, 2, 0),
        "socket_vsock": call("socket", 40, 1, 0),  # machine-wide ports (issue 48)
        "socket_netlink": call("socket", 16, 2, 0),
        "socketpair_vsock": call("socketpair", 40, 1, 0, addr),
        "pidfd_open": call("pidfd_open", os.getpid(), 0),  # a pidfs inode counts the machine's pids
        "clone_pidfd": call("clone", CLONE_PIDFD | SIGCHLD, 0, addr, 0, 0),
        "statfs": call("statfs", text(b"/"), addr),  # free blocks of a shared file system
        "mincore": call("mincore", 0, 4096, addr),
    }
    child.kill()
    child.wait()
    return tried


def madvise_pageout(fd: int) -> int:
    length = mmap.PAGESIZE
    libc.mmap.restype = ctypes.c_void_p
    addr = libc.mmap(None, length, mmap.PROT_READ, mmap.MAP_PRIVATE, fd, 0)
    try:
        return call("madvise", addr, length, 21)
    finally:
        libc.munmap(ctypes.c_void_p(addr), length)


def honest() -> dict[str, object]:
    """What an honest bot needs, still working."""
    box: list[int] = []
    worker = threading.Thread(target=lambda: box.append(1))
    worker.start()
    worker.join()
    out = subprocess.run(["sh", "-c", "echo $((6 * 7))"], capture_output=True, text=True)
    return {
        "thread": box == [1],
        "child": out.stdout.strip() == "42",
        "fcntl": fcntl.fcntl(0, fcntl.F_GETFD) >= 0,
        "pipe": len(os.pipe()) == 2,
        "unix_socketpair": len(socket.socketpair()) == 2,
    }


def counters() -> dict[str, int]:
    """How many bytes each machine-wide counter file shows (0: masked)."""
    seen = {}
    for path in COUNTERS:
        try:
            with open(path, "rb") as f:
                seen[path] = len(f.read())
        except OSError:
            seen[path] = 0
    return seen


class HostileSyscalls(Player):
    def handle_hello(self, message: dict) -> str:
        report = {"tried": attempts(), "honest": honest(), "counters": counters()}
        print("SYSCALLS " + json.dumps(report, sort_keys=True), file=sys.stderr, flush=True)
        return super().handle_hello(message)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
