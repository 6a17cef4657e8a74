"""A pair player that breaks the protocol: asked for a card, it sings las cuarenta instead."""

from typing import Any

from arena.parejas.sdk import ParejasPlayer


class SingsAnyway(ParejasPlayer):
    def handle_play(self, msg: dict[str, Any]) -> dict[str, Any]:
        return {"type": "play", "id": msg["id"], "sing": "cuarenta"}
