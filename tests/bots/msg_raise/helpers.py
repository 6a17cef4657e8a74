"""The bot's own helper module: the bug is here, not in the SDK."""

POINTS = {1: 11, 3: 10, 12: 4, 11: 3, 10: 2}


def cheapest(cards: list[str]) -> str:
    return min(cards, key=lambda card: POINTS[card])  # the mistake: keyed by rank, looked up by card
