"""The referee (``arena.referee``): player programs that misbehave, hostile replies, hello faults,
the start-ups, a player in another language."""
