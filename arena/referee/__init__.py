"""The referee side: one partido between player programs, judged.

The referee's end of the protocol (``connection``), the partido itself (``table``: deals, asks,
judges every reply, writes the replay and the incident files), the replay file (``replay``,
``narrate``, ``stats``), and finding player folders (``players``). Player processes and their
containment are :mod:`arena.containment`, below it. It reaches the game only through
the registry (``arena.games``) and the game's spec, and never imports the tournament or results sides.
"""
