"""The wire messages every game shares: the pieces its requests are made of, and the replies.

Each game's ``wire`` module defines its requests with these; its engine builds them and its
SDK reads them, and ``tests/house/test_wire.py`` holds every definition against the tables of
``docs/protocol.md``. Types only: nothing here runs. (No ``from __future__ import annotations``:
``NotRequired`` must be seen when the class is made, for ``__required_keys__``.)
"""

from typing import Literal, NotRequired, TypedDict


class TableCard(TypedDict):
    """One card of the baza in progress: who played it and which."""

    seat: int
    card: str


class PlayReply(TypedDict):
    """The reply to a ``play`` request: a card, a canto, both, or neither (a pass), as the request allows."""

    type: Literal["play"]
    id: int
    card: NotRequired[str]
    sing: NotRequired[str]


class ReadyReply(TypedDict):
    """The reply to ``hello``."""

    type: Literal["ready"]
    id: int
    name: str
