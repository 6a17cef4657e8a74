"""Tries to become or act as host root, then plays legally.

On its first play it writes ``UID <n>`` (its uid as the host sees it, from
``/proc/self/status`` and ``/proc/self/uid_map``) and, for host settings a root
process could change, ``OPENED <path>`` or ``BLOCKED <path> <error>`` after
trying to open each for writing (it writes nothing). Then ``ROOT DONE``.
"""

import os
import sys

from arena.sdk import Player, PlayRequest

TARGETS = (
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/kernel/modprobe",
    "/proc/sys/vm/drop_caches",
    "/proc/sysrq-trigger",
    "/sys/kernel/uevent_helper",
    "/etc/passwd",
)


def log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def host_uid() -> int:
    uid = os.getuid()
    try:
        with open("/proc/self/uid_map") as f:
            for line in f:
                inside, outside, count = map(int, line.split())
                if inside <= uid < inside + count:
                    return outside + uid - inside
    except OSError:
        pass
    return uid


class HostileRoot(Player):
    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def play(self, request: PlayRequest) -> str:
        if not self.done:
            self.done = True
            log(f"UID {host_uid()}")
            for path in TARGETS:
                try:
                    fd = os.open(path, os.O_WRONLY)
                except OSError as exc:
                    log(f"BLOCKED {path} {type(exc).__name__}")
                else:
                    os.close(fd)
                    log(f"OPENED {path}")
            try:
                os.setuid(0)
                log("OPENED setuid(0)")
            except OSError as exc:
                log(f"BLOCKED setuid(0) {type(exc).__name__}")
            log("ROOT DONE")
        return request.legal()[0]
