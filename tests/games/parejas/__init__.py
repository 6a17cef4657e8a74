"""Tute por parejas (``arena.games.parejas``): rules, engine, properties, SDK, golden, torneos of pairs."""
