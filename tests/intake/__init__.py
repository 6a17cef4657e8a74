"""A course's submissions coming in (``arena.intake``): Moodle archives made player folders."""
