"""The games (``arena.games``), one folder each, and what they share (``common``)."""
