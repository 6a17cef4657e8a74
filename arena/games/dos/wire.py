"""Tute de a dos' wire messages (``docs/protocol.md``, "Tute de a dos", "Requests"): built by
:meth:`arena.games.dos.engine.DosPartido.request`, read by :mod:`arena.games.dos.sdk`."""

from typing import Literal, NotRequired, TypedDict

from arena.games.common.wire import TableCard

DOC_SECTION = "### Requests"  # not shown
"""Where ``docs/protocol.md`` gives these requests' fields (the heading; a game's own section first)."""
DOC_WORDS: tuple[str, ...] = ()
"""Words the section writes as code that are no field (a policy's name)."""


class PlayRequest(TypedDict):
    """A decision for the seat to move: a card (``legal`` not empty), or at the moment after a baza
    won a canto, the cambio or a pass (``legal`` empty, ``may_sing`` not empty) (D15)."""

    type: Literal["play"]
    id: NotRequired[int]
    mano: int
    baza: int
    hand: list[str]
    table: list[TableCard]
    trump: str
    shown: str | None
    monte: int
    legal: list[str]
    may_sing: list[str]
    tantos: list[int]
    juegos: list[int]
