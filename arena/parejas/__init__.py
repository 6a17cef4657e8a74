"""The old name of :mod:`arena.games.parejas`, kept for the players and scripts that import
``arena.parejas.sdk`` (and its rules and engine): each submodule is the same module as the new one."""
