"""The syscall filter of every player process: what no player may ask of the kernel.

A seccomp-BPF program, compiled once per referee process with libseccomp (through
its ctypes binding ``pyseccomp``), for the machine's own architecture (x86-64 or
aarch64). Every player process gets it before any of its code runs and passes it
to every child: bubblewrap loads it (``--seccomp FD``) for a fresh start, the
warm-start server (:mod:`arena.zygote`) right after it drops to the player's uid,
and :mod:`arena.sealing` under ``--sandbox rlimits``.

What it refuses, with ``EPERM`` (``ENOSYS`` where a C library must fall back to an
older call): every kernel object two players could share or find — keys, file
locks and leases, inotify and fanotify watches, System V and POSIX IPC — new user
namespaces and mounts, reading or tracing other processes, and the calls that
reach the kernel's wider surface (BPF, io_uring, perf, userfaultfd, modules).
:data:`REFUSED` lists them with the family each belongs to (for ``arena doctor``
and the docs). Any other architecture than the native one (x32, i386 through
``int 0x80``) kills the process.

Knows nothing of the rules or the protocol.
"""

from __future__ import annotations

import errno
import functools
import os
import platform
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.i18n import _

CLONE_NEWUSER = 0x10000000
U32 = 0xFFFFFFFF
LOCK_COMMANDS = {
    "F_GETLK": 5,
    "F_SETLK": 6,
    "F_SETLKW": 7,
    "F_OFD_GETLK": 36,
    "F_OFD_SETLK": 37,
    "F_OFD_SETLKW": 38,
    "F_SETLEASE": 1024,
    "F_GETLEASE": 1025,
    "F_NOTIFY": 1026,
}
"""``fcntl`` commands refused: record locks (POSIX and open-file-description), leases, dnotify."""
MADVISE_EVICT = {"MADV_COLD": 20, "MADV_PAGEOUT": 21}
INET_FAMILIES = {"AF_INET": 2, "AF_INET6": 10, "AF_PACKET": 17}
"""``socket`` families refused: a player has no network (its namespace holds only its own loopback),
and the kernel counts every TCP and UDP socket and packet machine-wide (``/proc/net/sockstat``,
``/proc/net/softnet_stat``, readable from any namespace): a channel. ``AF_UNIX`` works."""
"""``madvise`` advice refused: pushing shared file pages out of the page cache (a channel)."""

FAMILIES: dict[str, tuple[str, ...]] = {
    "keyring": ("add_key", "keyctl", "request_key"),
    "locks": ("flock",),  # and fcntl's LOCK_COMMANDS
    "watches": ("inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init", "fanotify_mark"),
    "sysv_ipc": (
        "shmget",
        "shmat",
        "shmdt",
        "shmctl",
        "semget",
        "semop",
        "semtimedop",
        "semctl",
        "msgget",
        "msgsnd",
        "msgrcv",
        "msgctl",
    ),
    "posix_mq": ("mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr"),
    "namespaces": ("setns",),  # and unshare/clone with CLONE_NEWUSER; clone3 is ENOSYS
    "mounts": (
        "mount",
        "umount2",
        "pivot_root",
        "chroot",
        "fsopen",
        "fsconfig",
        "fsmount",
        "fspick",
        "move_mount",
        "open_tree",
        "mount_setattr",
    ),
    "other_processes": (
        "ptrace",
        "process_vm_readv",
        "process_vm_writev",
        "process_madvise",
        "pidfd_getfd",
        "kcmp",
    ),
    "page_cache": ("cachestat", "fadvise64", "readahead"),  # and madvise's MADVISE_EVICT
    "global_counters": ("sysinfo",),  # the machine's thread count and free memory (with /proc masked)
    "kernel_surface": (
        "bpf",
        "perf_event_open",
        "userfaultfd",
        "io_uring_setup",
        "io_uring_enter",
        "io_uring_register",
        "init_module",
        "finit_module",
        "delete_module",
        "kexec_load",
        "kexec_file_load",
        "swapon",
        "swapoff",
        "reboot",
        "acct",
        "quotactl",
        "quotactl_fd",
        "syslog",
        "lookup_dcookie",
        "name_to_handle_at",
        "open_by_handle_at",
        "iopl",
        "ioperm",
        "uselib",
        "vhangup",
    ),
}
"""Refused with EPERM, by family (a name the machine's architecture lacks is skipped)."""
FALLBACK = ("clone3", "preadv2", "pwritev2")
"""Refused with ENOSYS, so that the C library falls back to ``clone``, ``preadv``, ``pwritev``:
``clone3``'s flags are out of a filter's reach, and ``RWF_NOWAIT`` tells whether a shared
file's page is cached (a channel)."""
NEW_NUMBERS = {
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "clone3": 435,
    "pidfd_getfd": 438,
    "process_madvise": 440,
    "mount_setattr": 442,
    "quotactl_fd": 443,
    "cachestat": 451,
}
"""Calls newer than some libseccomp releases know, by their number, which is the same on every
architecture since Linux 5.1 (the common syscall table)."""
ARCHITECTURES = ("x86_64", "aarch64")


class SealError(ArenaError, RuntimeError):
    """The syscall filter cannot be built here: players are not started."""


@dataclass(frozen=True)
class Rule:
    """One refusal: a call, the errno it gets, and the argument test (index, mask, value) if any."""

    family: str
    name: str
    number: int
    errno: int = errno.EPERM
    arg: tuple[int, int, int] | None = None


def _library() -> object:
    try:
        import pyseccomp
    except (ImportError, OSError, AttributeError, TypeError) as exc:
        raise SealError(
            _(
                "the players' syscall filter cannot be built: libseccomp is missing ({error}); "
                "install it (apt install libseccomp2) and the project's dependencies"
            ).format(error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        ) from None
    return pyseccomp


def _number(sc: object, name: str) -> int | None:
    """The call's number on this machine (None: this architecture has no such call)."""
    number = int(sc.resolve_syscall(sc.Arch.NATIVE, name))  # type: ignore[attr-defined]
    if number >= 0:
        return number
    return NEW_NUMBERS.get(name)


def number(name: str) -> int:
    """The number of the call ``name`` on this machine (SealError when unknown)."""
    found = _number(_library(), name)
    if found is None:
        raise SealError(
            _("the players' syscall filter cannot be built: no call {name} here").format(name=name)
        )
    return found


def rules() -> list[Rule]:
    """Every refusal of the filter, for this machine's architecture."""
    sc = _library()
    out: list[Rule] = []
    for family, names in FAMILIES.items():
        for name in names:
            number = _number(sc, name)
            if number is not None:
                out.append(Rule(family, name, number))
    fcntl = _number(sc, "fcntl")
    madvise = _number(sc, "madvise")
    assert fcntl is not None and madvise is not None
    out += [
        Rule("locks", f"fcntl({cmd})", fcntl, arg=(1, U32, value)) for cmd, value in LOCK_COMMANDS.items()
    ]
    out += [Rule("page_cache", f"madvise({a})", madvise, arg=(2, U32, v)) for a, v in MADVISE_EVICT.items()]
    socket = _number(sc, "socket")
    assert socket is not None
    out += [Rule("network", f"socket({f})", socket, arg=(0, U32, v)) for f, v in INET_FAMILIES.items()]
    for name, index in (("unshare", 0), ("clone", 0)):
        number = _number(sc, name)
        assert number is not None
        label = f"{name}(CLONE_NEWUSER)"  # not shown
        out.append(Rule("namespaces", label, number, arg=(index, CLONE_NEWUSER, CLONE_NEWUSER)))
    for name in FALLBACK:
        number = _number(sc, name)
        if number is not None:
            out.append(Rule("fallback", name, number, errno=errno.ENOSYS))
    return out


@functools.cache
def program() -> bytes:
    """The compiled BPF program (``struct sock_filter`` array) for this machine; SealError if impossible."""
    machine = platform.machine()
    if machine not in ARCHITECTURES:
        raise SealError(
            _("the players' syscall filter supports {known}, not this machine's {arch}").format(
                known=", ".join(ARCHITECTURES), arch=machine
            )
        )
    sc = _library()
    try:
        seal = sc.SyscallFilter(sc.ALLOW)  # type: ignore[attr-defined]
        seal.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)  # type: ignore[attr-defined]
        for rule in rules():
            args = []
            if rule.arg is not None:
                index, mask, value = rule.arg
                args.append(sc.Arg(index, sc.MASKED_EQ, mask, value))  # type: ignore[attr-defined]
            seal.add_rule(sc.ERRNO(rule.errno), rule.number, *args)  # type: ignore[attr-defined]
        fd = os.memfd_create("tute-arena-seal-build", os.MFD_CLOEXEC)
        with os.fdopen(fd, "w+b") as out:
            seal.export_bpf(out)
            out.seek(0)
            data = out.read()
    except OSError as exc:
        raise SealError(_("the players' syscall filter cannot be built: {error}").format(error=exc)) from None
    if not data or len(data) % 8:
        raise SealError(_("the players' syscall filter cannot be built: libseccomp gave no program"))
    return data


def problem() -> str | None:
    """Why players cannot be given the filter here (None: they can)."""
    try:
        program()
    except SealError as exc:
        return str(exc)
    return None


def program_fd() -> int:
    """A new descriptor to read the program from (a memfd; bubblewrap's ``--seccomp FD``)."""
    fd = os.memfd_create("tute-arena-seal", os.MFD_CLOEXEC)
    try:
        os.write(fd, program())
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd
