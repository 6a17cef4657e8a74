"""Under the accuse policy, renuncia at its first chance in every mano (a card it holds but may not play)."""

from arena.sdk import Player, PlayRequest


class RenunciaSiPuede(Player):
    def play(self, request: PlayRequest) -> str:
        bad = [c for c in request.hand if c not in request.legal()]
        if (
            self.view.ruleset.renuncio == "accuse"
            and bad
            and getattr(self, "cheated_in", 0) != self.view.mano
        ):
            self.cheated_in = self.view.mano
            return bad[0]
        return request.legal()[0]
