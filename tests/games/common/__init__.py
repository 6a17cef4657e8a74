"""What the games share (``arena.games.common``; ``arena.cards``): the deck."""
