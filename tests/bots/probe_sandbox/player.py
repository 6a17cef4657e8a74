"""Writes what it can see of its sandbox at hello (one ``SEEN {json}`` line on stderr), then plays
legally: who it runs as, its capabilities and limits, its folders, what /proc shows of it."""

import json
import os
import resource
import sys

from arena.sdk import Player, PlayRequest

LIMITS = (resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_NPROC, resource.RLIMIT_FSIZE)


def status(key: str) -> list[str]:
    with open("/proc/self/status") as f:
        return [line.split(":", 1)[1].strip() for line in f if line.startswith(key)]


def read(path: str) -> list[str]:
    with open(path) as f:
        return f.read().split("\0")


class ProbeSandbox(Player):
    def handle_hello(self, message: dict) -> str:
        seen = {
            "leased_uid": os.getuid() >= 0x70000000,
            "root": os.geteuid() == 0,
            "groups": os.getgroups(),
            "caps": status("Cap"),
            "nnp": status("NoNewPrivs"),
            "limits": [resource.getrlimit(r) for r in LIMITS],
            "cwd": os.getcwd(),
            "root_dir": sorted(set(os.listdir("/")) - {"stages", "newtmp"}),
            "proc": sorted(p for p in os.listdir("/proc") if p.isdigit()),
            "environ": read("/proc/self/environ"),
            "cmdline": read("/proc/self/cmdline")[1:],
            "argv": sys.argv,
            "path": sys.path[:2],
            "env": dict(os.environ),
        }
        print("SEEN " + json.dumps(seen, sort_keys=True), file=sys.stderr, flush=True)
        return super().handle_hello(message)

    def play(self, request: PlayRequest) -> str:
        return request.legal()[0]
