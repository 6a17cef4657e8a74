"""Containment of the players' processes (``arena.containment``): sandbox, seal, uids, cgroups, warm
starts, idle and CPU time, standard error, hostile bots against each mechanism."""
