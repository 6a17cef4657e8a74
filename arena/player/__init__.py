"""What runs inside a player's process: the runner speaking the protocol for an SDK player, the
loader of a ``player.py``, the warm-start server's forks (``zygote``) and the launcher that seals a
process (``sealing``). Nothing here may import the referee, the tournament, the results or the CLI:
a player's process holds nothing of theirs.
"""
