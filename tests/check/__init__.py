"""``arena check`` and ``arena new`` (``arena.check``): the student's path, hints, ``--strength``."""
