"""Tute Cabrero (``arena.games.cabrero``; ``arena.sdk``, ``arena.rules``, ``arena.engine``): rules,
engine, properties, SDK, the playoff, the accuse policy and the strong sample players."""
