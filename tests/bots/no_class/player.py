"""Defines no subclass of arena.sdk.Player: the folder cannot be loaded."""


def play(hand: list[str]) -> str:
    return hand[0]
