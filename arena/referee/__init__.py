"""The referee side: one partido between player programs, judged.

Player processes and their containment (``process``, ``sandbox``, ``cgroups``,
``uids``), the referee's end of the protocol (``connection``), the partido
itself (``table``: deals, asks, judges every reply, writes the replay and the
incident files), the replay file (``replay``, ``narrate``, ``stats``), finding
player folders (``players``), and the student's checker and the machine check
(``check``, ``doctor``). It reaches the game only through ``arena.game`` (the
interface a second game implements) and never imports the tournament or results
sides.
"""
