"""The syscall filter of every player process: an allowlist, and every other call refused.

A seccomp-BPF program, compiled once per referee process with libseccomp (through its
ctypes binding ``pyseccomp``), for the machine's own architecture (x86-64 or aarch64).
Every player process gets it before any of its code runs and passes it to every child:
bubblewrap loads it (``--seccomp FD``) for a fresh start, the warm-start server
(:mod:`arena.player.zygote`) right after it drops to the player's uid, and :mod:`arena.player.sealing`
under ``--sandbox rlimits``.

Default-deny. :data:`ALLOWED` is every call a player may make, by group, each group with
the reason a supported runtime needs it (Python with the SDK, warm and cold starts; Node;
the JVM; a static C binary; a shell script: derived by running them, see
``benchmarks/audits/allowlist.py``). A few calls are allowed only with checked arguments
(:func:`rules`: ``socket`` only for ``AF_UNIX``, ``clone`` without namespaces or a
pidfd, ``fcntl`` and ``ioctl`` for listed commands). :data:`REFUSED` are calls refused
with an error number, quietly, because runtimes try them and carry on (``clone3`` gets
``ENOSYS`` so that the C library falls back to ``clone``) or because a hostile player
tries them and must be told no (keys, locks, IPC...). **Every other call kills the
process** (``SIGSYS``); the kernel logs the call's number, and the referee names it in
the player's fault (:func:`killed_call`). Any other architecture than the native one
(x32, i386 through ``int 0x80``) kills the process too.

``ARENA_SEAL_AUDIT=1`` in the referee's environment builds the program with *log*
instead of *kill* (every call outside the list is let through and logged by the kernel):
for deriving the list, never for a torneo (the CLI says so).

Knows nothing of the rules or the protocol.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import platform
import re
import time
from dataclasses import dataclass

from arena.errors import ArenaError
from arena.i18n import _

U32 = 0xFFFFFFFF
AUDIT_ENV = "ARENA_SEAL_AUDIT"
"""Set to 1 in the referee's environment: calls outside the list are logged, not refused."""

ALLOWED: dict[str, tuple[str, tuple[str, ...]]] = {
    "io": (
        "read and write its own descriptors: the protocol's pipes, its log, its files",  # not shown
        ("read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "lseek"),
    ),
    "descriptors": (
        "open, copy and close descriptors (every runtime; close_range before exec)",  # not shown
        ("close", "close_range", "dup", "dup2", "dup3", "pipe", "pipe2"),
    ),
    "files": (
        "open and look up files: the runtime's libraries, its own folder, its private /tmp",  # not shown
        (
            "open",
            "openat",
            "openat2",
            "creat",
            "stat",
            "fstat",
            "lstat",
            "newfstatat",
            "fstatat64",
            "statx",
            "access",
            "faccessat",
            "faccessat2",
            "readlink",
            "readlinkat",
            "getdents",
            "getdents64",
            "getcwd",
            "chdir",
            "fchdir",
            "umask",
        ),
    ),
    "own_files": (
        "change files in its private /tmp (every other mount is read-only to it)",  # not shown
        (
            "mkdir",
            "mkdirat",
            "rmdir",
            "unlink",
            "unlinkat",
            "rename",
            "renameat",
            "renameat2",
            "symlink",
            "symlinkat",
            "link",
            "linkat",
            "truncate",
            "ftruncate",
            "fallocate",
            "fsync",
            "fdatasync",
            "chmod",
            "fchmod",
            "fchmodat",
            "fchmodat2",
            "utime",
            "utimes",
            "utimensat",
            "futimesat",
            "sendfile",
            "copy_file_range",
            "splice",
            "tee",
        ),
    ),
    "xattr_reads": (
        "read extended attributes (Python's shutil.copy2 asks; nothing can set them)",  # not shown
        ("getxattr", "lgetxattr", "fgetxattr", "listxattr", "llistxattr", "flistxattr"),
    ),
    "memory": (
        "map and unmap its own memory (every runtime; the JVM's heap, V8's code space)",  # not shown
        ("brk", "mmap", "munmap", "mprotect", "mremap", "msync", "membarrier"),
    ),
    "signals": (
        "handle its signals; signal its own processes (its pid namespace and uid hold no other)",  # not shown
        (
            "rt_sigaction",
            "rt_sigprocmask",
            "rt_sigreturn",
            "rt_sigpending",
            "rt_sigtimedwait",
            "rt_sigsuspend",
            "rt_sigqueueinfo",
            "rt_tgsigqueueinfo",
            "sigaltstack",
            "signalfd",
            "signalfd4",
            "kill",
            "tkill",
            "tgkill",
            "pause",
        ),
    ),
    "processes": (
        "start and wait for its children and threads (shell bots, multiprocessing, runtimes)",  # not shown
        (
            "fork",
            "vfork",
            "execve",
            "execveat",
            "exit",
            "exit_group",
            "wait4",
            "waitid",
            "set_tid_address",
            "set_robust_list",
            "get_robust_list",
            "rseq",
            "arch_prctl",
            "restart_syscall",
            "prctl",
            "seccomp",
            "personality",
        ),
    ),
    "identity": (
        "read who it is; let setpriv (sealed, before the player) drop to the player's uid",  # not shown
        (
            "getpid",
            "getppid",
            "gettid",
            "getuid",
            "geteuid",
            "getgid",
            "getegid",
            "getresuid",
            "getresgid",
            "getgroups",
            "getpgrp",
            "getpgid",
            "getsid",
            "setsid",
            "setpgid",
            "setuid",
            "setgid",
            "setreuid",
            "setregid",
            "setresuid",
            "setresgid",
            "setgroups",
            "setfsuid",
            "setfsgid",
            "capget",
            "capset",
            "uname",
        ),
    ),
    "threads": (
        "wait and wake its own threads (every runtime with threads: Python, the JVM, Node)",  # not shown
        ("futex", "futex_waitv", "futex_wake", "futex_wait", "futex_requeue", "sched_yield"),
    ),
    "scheduling": (
        "read its CPU set and priority (runtimes size thread pools by it); lower its own",  # not shown
        (
            "sched_getaffinity",
            "sched_getparam",
            "sched_getscheduler",
            "sched_getattr",
            "sched_get_priority_max",
            "sched_get_priority_min",
            "sched_rr_get_interval",
            "getpriority",
            "setpriority",
            "getcpu",
        ),
    ),
    "time": (
        "read clocks, sleep and set its own timers (search players budget their moves)",  # not shown
        (
            "clock_gettime",
            "clock_getres",
            "clock_nanosleep",
            "nanosleep",
            "gettimeofday",
            "time",
            "alarm",
            "getitimer",
            "setitimer",
            "timer_create",
            "timer_settime",
            "timer_gettime",
            "timer_getoverrun",
            "timer_delete",
            "timerfd_create",
            "timerfd_settime",
            "timerfd_gettime",
        ),
    ),
    "waiting": (
        "wait for its descriptors (Node's and the JVM's event loops, Python's selectors)",  # not shown
        (
            "poll",
            "ppoll",
            "select",
            "pselect6",
            "epoll_create",
            "epoll_create1",
            "epoll_ctl",
            "epoll_wait",
            "epoll_pwait",
            "epoll_pwait2",
            "eventfd",
            "eventfd2",
        ),
    ),
    "unix_sockets": (
        "use AF_UNIX sockets it made (socket, socketpair: argument-checked): multiprocessing",  # not shown
        (
            "connect",
            "bind",
            "listen",
            "accept",
            "accept4",
            "sendto",
            "recvfrom",
            "sendmsg",
            "recvmsg",
            "sendmmsg",
            "recvmmsg",
            "shutdown",
            "getsockname",
            "getpeername",
            "getsockopt",
            "setsockopt",
        ),
    ),
    "limits": (
        "read its limits and use (runtimes size stacks and heaps by them); lower them",  # not shown
        ("getrlimit", "setrlimit", "prlimit64", "getrusage", "times"),
    ),
    "randomness": ("random bytes (Python's hash seed, secrets, random)", ("getrandom",)),  # not shown
}
"""Every call a player may make: group -> (why, calls). A name this architecture lacks is skipped."""

REFUSED: dict[str, tuple[int, tuple[str, ...]]] = {
    "keyring": (errno.EPERM, ("add_key", "keyctl", "request_key")),
    "locks": (errno.EPERM, ("flock",)),  # and fcntl's LOCK_COMMANDS
    "watches": (
        errno.EPERM,
        (
            "inotify_init",
            "inotify_init1",
            "inotify_add_watch",
            "inotify_rm_watch",
            "fanotify_init",
            "fanotify_mark",
        ),
    ),
    "sysv_ipc": (
        errno.EPERM,
        (
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
    ),
    "posix_mq": (
        errno.EPERM,
        ("mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr"),
    ),
    "namespaces": (errno.EPERM, ("setns", "unshare")),  # and clone with a namespace flag
    "mounts": (
        errno.EPERM,
        (
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
    ),
    "other_processes": (
        errno.EPERM,
        (
            "ptrace",
            "process_vm_readv",
            "process_vm_writev",
            "process_madvise",
            "pidfd_open",
            "pidfd_getfd",
            "pidfd_send_signal",
            "kcmp",
        ),
    ),
    "page_cache": (errno.EPERM, ("cachestat", "fadvise64", "readahead", "mincore")),  # and MADVISE_EVICT
    "global_counters": (errno.EPERM, ("sysinfo", "statfs", "fstatfs", "ustat", "sysfs", "syslog")),
    "kernel_surface": (
        errno.EPERM,
        (
            "bpf",
            "perf_event_open",
            "userfaultfd",
            "io_uring_setup",
            "io_uring_enter",
            "io_uring_register",
            "io_setup",
            "io_destroy",
            "io_submit",
            "io_getevents",
            "io_pgetevents",
            "io_cancel",
            "name_to_handle_at",
            "open_by_handle_at",
            "mknod",
            "mknodat",
            "sync",
            "syncfs",
            "sync_file_range",
            "ioprio_set",
            "ioprio_get",
            "mbind",
            "set_mempolicy",
            "get_mempolicy",
            "migrate_pages",
            "move_pages",
            "landlock_create_ruleset",
            "landlock_add_rule",
            "landlock_restrict_self",
        ),
    ),
    "pinning": (
        errno.EPERM,
        (
            "sched_setaffinity",
            "sched_setscheduler",
            "sched_setparam",
            "sched_setattr",
            "mlock",
            "mlock2",
            "mlockall",
        ),
    ),
    "fallback": (
        errno.ENOSYS,
        ("clone3", "preadv2", "pwritev2", "pkey_alloc", "pkey_free", "pkey_mprotect", "memfd_create"),
    ),
}
"""Refused with an error number (no kill): family -> (errno, calls). ``fallback``: ENOSYS, so that
the C library falls back to ``clone``, ``preadv``, ``pwritev`` (``clone3``'s flags are out of a
filter's reach; ``RWF_NOWAIT`` tells whether a shared file's page is cached: a channel); V8 (Node)
tries memory protection keys and does without them; a memfd's inode number comes from the machine's
one inode counter (up to 8.7 bits per mano between two players, ``benchmarks/audits/channels.py``), and no
runtime needs one.
``pinning``: pinning itself to a core, a real-time class or locked memory would sharpen a timing
channel through the machine's shared cores and memory (and no runtime asks). ``global_counters``:
what counts the whole machine (free memory and threads; free blocks of a
shared file system). ``other_processes`` includes ``pidfd_open``: a new pid's pidfs inode number
counts every process started on the machine (a channel)."""

NAMESPACE_FLAGS = {
    "CLONE_NEWNS": 0x00020000,
    "CLONE_NEWCGROUP": 0x02000000,
    "CLONE_NEWUTS": 0x04000000,
    "CLONE_NEWIPC": 0x08000000,
    "CLONE_NEWUSER": 0x10000000,
    "CLONE_NEWPID": 0x20000000,
    "CLONE_NEWNET": 0x40000000,
    "CLONE_PIDFD": 0x00001000,
}
"""``clone`` flags refused (EPERM): new namespaces; a pidfd (its inode number counts the machine's pids)."""
CLONE_REFUSED_MASK = functools.reduce(lambda a, b: a | b, NAMESPACE_FLAGS.values())
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
"""``fcntl`` commands refused (EPERM): record locks (POSIX and open-file-description), leases, dnotify."""
FCNTL_ALLOWED = {
    "F_DUPFD": 0,
    "F_GETFD": 1,
    "F_SETFD": 2,
    "F_GETFL": 3,
    "F_SETFL": 4,
    "F_DUPFD_CLOEXEC": 1030,
    "F_SETPIPE_SZ": 1031,
    "F_GETPIPE_SZ": 1032,
    "F_ADD_SEALS": 1033,
    "F_GET_SEALS": 1034,
}
"""``fcntl`` commands allowed: descriptor flags and copies, pipe sizes, memfd seals."""
IOCTL_ALLOWED = {
    "TCGETS": 0x5401,
    "TIOCGWINSZ": 0x5413,
    "TIOCGPGRP": 0x540F,
    "FIONREAD": 0x541B,
    "FIONBIO": 0x5421,
    "FIONCLEX": 0x5450,
    "FIOCLEX": 0x5451,
}
"""``ioctl`` commands allowed (is it a terminal?, bytes waiting, blocking and close-on-exec flags);
every other command gets ENOTTY, what a pipe answers."""
MADVISE_EVICT = {"MADV_COLD": 20, "MADV_PAGEOUT": 21}
"""``madvise`` advice refused (EPERM): pushing shared file pages out of the page cache (a channel)."""
MADVISE_ALLOWED = (0, 1, 2, 3, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 22, 23, 24, 25, 102, 103)
"""``madvise`` advice allowed: the usual hints on its own memory (normal, random, sequential, willneed,
dontneed, free, (no)fork, (no)mergeable, (no)hugepage, (no)dump, (keep|wipe)onfork, populate,
collapse, guards); not MADVISE_EVICT, not the privileged hwpoison and soft-offline."""
AF_UNIX = 1
NEW_NUMBERS = {
    "pidfd_send_signal": 424,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "pidfd_open": 434,
    "clone3": 435,
    "close_range": 436,
    "openat2": 437,
    "pidfd_getfd": 438,
    "faccessat2": 439,
    "process_madvise": 440,
    "epoll_pwait2": 441,
    "mount_setattr": 442,
    "quotactl_fd": 443,
    "landlock_create_ruleset": 444,
    "landlock_add_rule": 445,
    "landlock_restrict_self": 446,
    "futex_waitv": 449,
    "cachestat": 451,
    "fchmodat2": 452,
    "futex_wake": 454,
    "futex_wait": 455,
    "futex_requeue": 456,
}
"""Calls newer than some libseccomp releases know, by their number, which is the same on every
architecture since Linux 5.1 (the common syscall table)."""
ARCHITECTURES = ("x86_64", "aarch64")
KILLED_RECORD = re.compile(rb"type=1326 .*? uid=(\d+) .*? sig=31 .*? syscall=(\d+) ")
"""The kernel's record of a process killed by a seccomp filter (audit type 1326, SIGSYS)."""


class SealError(ArenaError, RuntimeError):
    """The syscall filter cannot be built here: players are not started."""


@dataclass(frozen=True)
class Rule:
    """One rule: a call, what it gets (None: allowed; else the errno), the argument test if any."""

    family: str
    name: str
    number: int
    errno: int | None = errno.EPERM
    arg: tuple[int, int, int] | None = None
    op: str = "masked_eq"
    """How ``arg``'s value is compared: ``masked_eq`` (arg & mask == value) or ``gt`` / ``lt``."""


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
    try:
        number = int(sc.resolve_syscall(sc.Arch.NATIVE, name))  # type: ignore[attr-defined]
    except (ValueError, OSError):
        number = -1
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


@functools.cache
def call_name(nr: int) -> str:
    """The name of the call numbered ``nr`` on this machine (``syscall N`` when unknown)."""
    with contextlib.suppress(SealError, ValueError, OSError, TypeError):
        sc = _library()
        name = sc.resolve_syscall(sc.Arch.NATIVE, nr)  # type: ignore[attr-defined]
        if isinstance(name, bytes):
            name = name.decode()
        if name:
            return str(name)
    for name, value in NEW_NUMBERS.items():
        if value == nr:
            return name
    return f"syscall {nr}"


def _plain(sc: object, family: str, names: tuple[str, ...], action: int | None) -> list[Rule]:
    out = []
    for name in names:
        nr = _number(sc, name)
        if nr is not None:
            out.append(Rule(family, name, nr, action))
    return out


def allowed_calls() -> list[Rule]:
    """Every call allowed without an argument test, for this machine (by group)."""
    sc = _library()
    return [rule for group, (_why, names) in ALLOWED.items() for rule in _plain(sc, group, names, None)]


def rules() -> list[Rule]:
    """Every rule of the filter, for this machine's architecture: allowed calls, checked calls, refusals."""
    sc = _library()
    out = allowed_calls()
    for family, (code, names) in REFUSED.items():
        out += _plain(sc, family, names, code)
    fcntl, madvise, ioctl = number("fcntl"), number("madvise"), number("ioctl")
    socket, socketpair, clone = number("socket"), number("socketpair"), number("clone")
    out += [Rule("locks", f"fcntl({c})", fcntl, errno.EPERM, (1, U32, v)) for c, v in LOCK_COMMANDS.items()]
    out += [Rule("checked", f"fcntl({c})", fcntl, None, (1, U32, v)) for c, v in FCNTL_ALLOWED.items()]
    out += [Rule("checked", f"ioctl({c})", ioctl, None, (1, U32, v)) for c, v in IOCTL_ALLOWED.items()]
    low, high = min(IOCTL_ALLOWED.values()), max(IOCTL_ALLOWED.values())
    gaps = [value for value in range(low, high) if value not in IOCTL_ALLOWED.values()]
    out += [Rule("checked", f"ioctl({value:#x})", ioctl, errno.ENOTTY, (1, U32, value)) for value in gaps]
    out.append(Rule("checked", f"ioctl(<{low:#x})", ioctl, errno.ENOTTY, (1, 0, low), "lt"))
    out.append(Rule("checked", f"ioctl(>{high:#x})", ioctl, errno.ENOTTY, (1, 0, high), "gt"))
    out += [Rule("checked", f"madvise({v})", madvise, None, (2, U32, v)) for v in MADVISE_ALLOWED]
    out += [
        Rule("page_cache", f"madvise({a})", madvise, errno.EPERM, (2, U32, v))
        for a, v in MADVISE_EVICT.items()
    ]
    for name, nr in (("socket", socket), ("socketpair", socketpair)):
        out.append(Rule("checked", f"{name}(AF_UNIX)", nr, None, (0, U32, AF_UNIX)))  # not shown
        out.append(
            Rule("network", name + "(<AF_UNIX)", nr, errno.EAFNOSUPPORT, (0, 0, AF_UNIX), "lt")
        )  # not shown
        out.append(
            Rule("network", name + "(>AF_UNIX)", nr, errno.EAFNOSUPPORT, (0, 0, AF_UNIX), "gt")
        )  # not shown
    out.append(Rule("checked", "clone", clone, None, (0, CLONE_REFUSED_MASK, 0)))
    out += [
        Rule("namespaces", f"clone({flag})", clone, errno.EPERM, (0, bit, bit))
        for flag, bit in NAMESPACE_FLAGS.items()
    ]
    return out


def audit_mode() -> bool:
    """Whether calls outside the list are logged and let through (``ARENA_SEAL_AUDIT=1``)."""
    return os.environ.get(AUDIT_ENV, "") == "1"


def size() -> int:
    """How many calls the players may make on this machine (allowed outright or with checked arguments)."""
    return len({rule.number for rule in rules() if rule.errno is None})


@functools.cache
def _program(audit: bool) -> bytes:
    machine = platform.machine()
    if machine not in ARCHITECTURES:
        raise SealError(
            _("the players' syscall filter supports {known}, not this machine's {arch}").format(
                known=", ".join(ARCHITECTURES), arch=machine
            )
        )
    sc = _library()
    try:
        seal = sc.SyscallFilter(sc.LOG if audit else sc.KILL_PROCESS)  # type: ignore[attr-defined]
        seal.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)  # type: ignore[attr-defined]
        with contextlib.suppress(AttributeError, OSError, ValueError):
            seal.set_attr(sc.Attr.CTL_OPTIMIZE, 2)  # type: ignore[attr-defined]  # a binary tree of calls
        ops = {"masked_eq": sc.MASKED_EQ, "gt": sc.GT, "lt": sc.LT}  # type: ignore[attr-defined]
        for rule in rules():
            action = sc.ALLOW if rule.errno is None else sc.ERRNO(rule.errno)  # type: ignore[attr-defined]
            args = []
            if rule.arg is not None:
                index, mask, value = rule.arg
                if rule.op == "masked_eq":
                    args.append(sc.Arg(index, sc.MASKED_EQ, mask, value))  # type: ignore[attr-defined]
                else:
                    args.append(sc.Arg(index, ops[rule.op], value))  # type: ignore[attr-defined]
            seal.add_rule(action, rule.number, *args)
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


def program() -> bytes:
    """The compiled BPF program (``struct sock_filter`` array) for this machine; SealError if impossible."""
    return _program(audit_mode())


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


KERNEL_CLOCK_SLACK_US = 1_000_000
"""The kernel log stamps records with its own clock (``local_clock``), which runs apart from
CLOCK_MONOTONIC by up to milliseconds: a record written just after :func:`now_us` can carry an
earlier stamp (CI saw 0.5 ms). ``since`` starts this much earlier; the uid tells records apart."""


def now_us() -> int:
    """A point of the kernel log's clock no later than now, in µs (:func:`killed_call`'s ``since``)."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000 - KERNEL_CLOCK_SLACK_US


def kernel_records(since_us: int = 0) -> list[tuple[int, bytes]]:
    """The kernel log's records from ``since_us`` on, as (microseconds, text); [] where unreadable."""
    out: list[tuple[int, bytes]] = []
    try:
        fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return out
    try:
        while True:
            try:
                record = os.read(fd, 8192)
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno == errno.EPIPE:  # overwritten while reading: go on with the next
                    continue
                break
            head, _sep, text = record.partition(b";")
            fields = head.split(b",")
            with contextlib.suppress(IndexError, ValueError):
                when = int(fields[2])
                if when >= since_us:
                    out.append((when, text))
    finally:
        os.close(fd)
    return out


KILL_RECORD_WAIT_S = 1.0
"""How long :func:`killed_call` waits for the kill's record: the kernel's audit thread writes it a
moment after the process died, later on a loaded machine."""


def killed_call(uid: int | None, since_us: int, wait_s: float = KILL_RECORD_WAIT_S) -> str | None:
    """The call that got a process of ``uid`` killed by the filter since ``since_us`` (its name), if logged.

    The kernel logs every kill by a seccomp filter (audit record 1326: uid, signal, call number),
    readable by a root referee in /dev/kmsg; None where it cannot be read or names no such kill
    within ``wait_s`` (called only for a process that died of SIGSYS).
    """
    if uid is None:
        return None
    deadline = time.monotonic() + wait_s
    while True:
        found = None
        for _when, text in kernel_records(since_us):
            match = KILLED_RECORD.search(text)
            if match and int(match.group(1)) == uid:
                found = int(match.group(2))
        if found is not None:
            return call_name(found)
        if time.monotonic() >= deadline or not os.access("/dev/kmsg", os.R_OK):
            return None
        time.sleep(0.05)
