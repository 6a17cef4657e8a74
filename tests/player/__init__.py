"""The player's side of the pipe (``arena.player``): the runner."""
