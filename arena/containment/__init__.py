"""Containment of untrusted player processes: the operating system's side of a player.

bubblewrap sandboxes, a uid and a cgroup per player, rlimits, the syscall allowlist (``seal``),
the warm-start server (``warm``), the process tree and its pipes (``process``), idle time
(``idle``), what a released uid leaves behind (``leftovers``), ``arena doctor``. It has its own
threat model (docs/security.md) and knows nothing of any game, the rules or the protocol's
messages: the referee (:mod:`arena.referee`) sits above it.
"""
