"""Tries to carry state from one partido to the next through everything a process could keep.

At import it starts a thread, opens a pipe and leaves it open. At hello it writes one
line ``CARRYOVER {json}`` to stderr with what it finds of an earlier partido, then
leaves traces for the next one:

* ``count``: how many hellos this module has seen (memory: 1 when nothing is kept);
* ``threads``: live threads (1 main + its own import thread when nothing is kept);
* ``fds``: open descriptors;
* ``tmp``: what is in /tmp (a trace file is written there);
* ``shm``: whether a System V shared memory segment of a fixed key exists (one is made);
* ``socket``: whether a listener on an abstract unix socket answers (one is left running,
  in a process of its own that outlives this player if it can);
* ``pid``: this process's pid (a counter that earlier forks would move).
It plays the first legal card.
"""

import ctypes
import json
import os
import socket
import sys
import threading
import time

from arena.sdk import Player, PlayRequest

COUNT = 0
KEY = 0x7475_7465
ADDRESS = "\0tute-arena-carryover"
threading.Thread(target=time.sleep, args=(3600,), daemon=True).start()
KEPT = os.pipe()
libc = ctypes.CDLL(None, use_errno=True)


def listening() -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(ADDRESS)
            return True
        except OSError:
            return False


def leave_listener() -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.bind(ADDRESS)
                s.listen()
                while True:
                    s.accept()[0].close()
        os._exit(0)


class HostileCarryover(Player):
    def handle_hello(self, message: dict) -> str:
        global COUNT
        COUNT += 1
        found = {
            "count": COUNT,
            "threads": threading.active_count(),
            "fds": sorted(int(fd) for fd in os.listdir("/proc/self/fd")),
            "tmp": sorted(os.listdir("/tmp")),
            "shm": libc.shmget(KEY, 0, 0) >= 0,
            "socket": listening(),
            "pid": os.getpid(),
        }
        print("CARRYOVER " + json.dumps(found), file=sys.stderr, flush=True)
        with open(f"/tmp/trace-{os.urandom(4).hex()}", "w") as f:
            f.write("from an earlier partido")
        libc.shmget(KEY, 4096, 0o1000 | 0o666)  # IPC_CREAT
        leave_listener()
        time.sleep(0.05)
        return super().handle_hello(message)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
