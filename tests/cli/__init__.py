"""The command line (``arena.cli``): shared options, the demo, what the commands leave behind."""
