"""A colluding bot (issue 27): plays the first legal card, and meanwhile swaps hands with its peer.

Which channel, which seats collude and the partido's nonce come from ``channel.json`` beside
this file (written by ``benchmarks/audits/channels.py``; see ``covert.py``). The same folder plays
Tute Cabrero or Tute por parejas, as ``channel.json`` says (``"game"``). Whatever a channel
does or fails to do, every reply is legal: a card from the legal ones, never a canto.
"""

import covert

from arena.parejas.sdk import ParejasPlayer, ParejasRequest
from arena.sdk import Move, Player, PlayRequest


class _Covert:
    """What both games' colluders do around their moves (the channel's work, in ``covert``)."""

    name = "Colluder"

    def __init__(self) -> None:
        super().__init__()
        self.covert = covert.Covert()

    def setup(self, name: str, limits: dict[str, int]) -> None:
        self.covert.hello()

    def on_partido_start(self, event: dict) -> None:
        self.covert.partido_start(int(event["seat"]))

    def on_mano_start(self, event: dict) -> None:
        self.covert.mano_start(event)

    def on_played(self, event: dict) -> None:
        self.covert.played(event)

    def on_partido_end(self, event: dict) -> None:
        self.covert.partido_end()


class Colluder(_Covert, Player):
    def play(self, request: PlayRequest) -> Move | str:
        self.covert.before_move()
        return request.legal()[0]


class ParejaColluder(_Covert, ParejasPlayer):
    def play(self, request: ParejasRequest) -> Move | str | None:
        self.covert.before_move()
        if request.kind == "card":
            return request.legal[0]
        return None  # pass the canto; never give up the mano


player_class = ParejaColluder if covert.CONFIG.get("game") == "parejas" else Colluder
