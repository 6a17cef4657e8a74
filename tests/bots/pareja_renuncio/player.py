"""A pair player that renuncia: it plays a card of its hand the rules forbid whenever it has one."""

from arena.parejas.sdk import ParejasPlayer, ParejasRequest
from arena.sdk import Move


class Renuncio(ParejasPlayer):
    def play(self, request: ParejasRequest) -> Move | str | None:
        if request.kind != "card":
            return None
        illegal = [c for c in request.hand if c not in request.legal]
        return illegal[0] if illegal else request.legal[0]
