"""Hostile under the accuse policy: accuses a seat that does not exist instead of playing."""

from typing import Any

from arena.sdk import Player


class HostileAccuse(Player):
    def handle_play(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg.get("may_accuse") is not None:
            return {"type": "accuse", "id": msg["id"], "seat": 99}
        return super().handle_play(msg)

    def play(self, request: Any) -> str:
        return request.legal()[0]
