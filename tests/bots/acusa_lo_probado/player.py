"""Honest; accuses (with a play or in the review) exactly the seats the public play proves renunciaron."""

from arena.sdk import Move, Player, PlayRequest, ReviewRequest


class AcusaLoProbado(Player):
    def play(self, request: PlayRequest) -> Move | str:
        proven = [s for s in request.may_accuse if s in self.view.proven_renuncios()]
        return Move(accuse=proven[0]) if proven else request.legal()[0]

    def review(self, request: ReviewRequest) -> int | None:
        proven = request.proven()
        return proven[0] if proven else None
