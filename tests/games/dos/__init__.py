"""Tute de a dos (``arena.games.dos``): rules, engine, SDK, and play end to end."""
