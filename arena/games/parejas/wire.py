"""Tute por parejas' wire messages (``docs/protocol.md``, "Tute por parejas", "Requests"): built by
:meth:`arena.games.parejas.engine.ParejasPartido.request`, read by :mod:`arena.games.parejas.sdk`."""

from typing import Literal, NotRequired, TypedDict

from arena.games.common.wire import TableCard

DOC_SECTION = "### Requests"
"""Where ``docs/protocol.md`` gives these requests' fields (the heading; a game's own section first)."""
DOC_WORDS: tuple[str, ...] = ()
"""Words the section writes as code that are no field (a policy's name)."""


class PlayRequest(TypedDict):
    """A decision for the seat to move: a card (``legal`` not empty), a canto or a pass, or tirar."""

    type: Literal["play"]
    id: NotRequired[int]
    mano: int
    baza: int
    hand: list[str]
    table: list[TableCard]
    trump: str
    legal: list[str]
    may_sing: list[str]
    may_concede: bool
    partner: int
    tantos: list[int]
    juegos: list[int]
