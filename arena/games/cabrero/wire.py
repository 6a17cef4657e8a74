"""Tute Cabrero's wire messages (``docs/protocol.md``, "Requests"): built by
:meth:`arena.games.cabrero.engine.Partido.request`, read by :mod:`arena.games.cabrero.sdk`."""

from typing import Literal, NotRequired, TypedDict

from arena.games.common.wire import TableCard

DOC_SECTION = "## Requests (answer each, same `id`)"  # not shown
"""Where ``docs/protocol.md`` gives these requests' fields (the heading; a game's own section first)."""
DOC_WORDS: tuple[str, ...] = ("accuse",)
"""Words the section writes as code that are no field (a policy's name)."""


class PlayRequest(TypedDict):
    """A card (and, when ``may_sing``, a canto) for the seat to move; ``id`` is the connection's."""

    type: Literal["play"]
    id: NotRequired[int]
    mano: int
    trick: int  # the wire keeps its name (docs/glossary.md): the baza's number
    hand: list[str]
    table: list[TableCard]
    legal: list[str]
    """The cards of ``hand`` the rules allow now, in card order (protocol revision 1.3); under
    ``accuse`` a held card outside it is accepted too, and is a renuncio."""
    may_sing: bool
    may_accuse: NotRequired[list[int]]
    """Under the ``accuse`` policy only."""


class ReviewRequest(TypedDict):
    """Under the ``accuse`` policy, after a mano's last baza: accuse one of ``may_accuse``, or not."""

    type: Literal["review"]
    id: NotRequired[int]
    may_accuse: list[int]


class AccuseReply(TypedDict):
    """Under ``accuse``: the reply to ``play`` that accuses ``seat`` instead of playing."""

    type: Literal["accuse"]
    id: int
    seat: int


class ReviewReply(TypedDict):
    """The reply to ``review``: a seat of ``may_accuse``, or null."""

    type: Literal["review"]
    id: int
    accuse: int | None
