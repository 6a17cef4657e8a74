"""What the warm-start server imports once for every Python player's process: the runtime (the
runner, the loader, every game's SDK, the standard library's usual modules), never a player's code.
Named here, on the player's side, so that the containment that starts the server names no game."""

from __future__ import annotations

from arena import games

MODULES: tuple[str, ...] = (
    "arena.player.runner",
    "arena.player.loader",
    *(module for game in games.specs() for module in game.sdk_modules),
    "arena.cards",
    "arena.i18n",
    "json",
    "random",
    "resource",
    "traceback",
    "importlib.util",
    "collections",
    "dataclasses",
    "itertools",
    "functools",
    "math",
    "typing",
)
