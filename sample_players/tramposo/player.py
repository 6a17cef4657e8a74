"""'Tramposo': renuncia on purpose when it pays and it thinks nobody is looking.

An experiment for the ``accuse`` renuncio policy (rule 25.4), where the referee accepts a
card its player holds but may not play and leaves catching it to the other players.
Under every other policy a renuncio disqualifies, so there it plays honestly, always.

Play: the same honest heuristic as ``vigilante`` (the 'a más' idea: sing, win bazas with
the cheapest winning card, else throw the lowest-points card, lead the strongest
non-trump). It also accuses, like ``vigilante``, every renuncio the public play proves.

When it cheats. A player who takes no baza never loses a mano by points (rule 9). So
while it has taken no baza in the mano, when the rules force it to take this one (every
legal card beats the winning card: it must follow and beat, or trump) and it holds a card
that would lose the baza, it plays that card instead (the one worth fewest points, the
strongest of those): it stays out of the bazas, and safe. Once it has renunciado in a mano,
more renuncios in it cost nothing more (one accusation, two porotos, whatever their number),
so it goes on ducking for the rest of the mano. It cheats only while its estimate of being
caught is at most ``RISK``. (Its honest play is left exactly as the twin's, even where it
could duck legally, so that ``benchmarks/accuse.py`` measures the renuncios alone.)

The estimate of being caught. Could a renuncio stay hidden by choosing it well? No: a
renuncio is proven as soon as its player later plays a card that the rules would have
forced instead (``TableView.proven_renuncios``), and that card is still in hand and
will be played before the mano ends (only a tute or an accusation ends a mano early).
So whether it is caught depends not on the cards but on the others: does anyone look?
It learns that during the partido (a new table, a new estimate):

* ``caught``: accusations seen that were made by another player (against itself, or
  against anyone: someone at this table accuses);
* ``missed``: manos where it renunció, the mano was played out (so the proof was on the
  table at the reviews) and nobody accused;

and estimates ``(caught + 1) / (caught + missed + 4)``, a prior of one chance in four
before any evidence (most bots never accuse). So it tries once; caught, the estimate
rises to 2/5 and it stops (unless it had got away with it at least three times before);
not caught, it falls and it goes on.
"""

from typing import Any

from arena.cards import POINTS, parse
from arena.rules import beats
from arena.sdk import Move, Player, PlayRequest, ReviewRequest

RISK = 0.25
"""The highest estimate of being caught at which it still renuncia."""


def strength(card: str) -> int:
    return parse(card) % 10


class Tramposo(Player):
    name = "Tramposo"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self) -> None:
        self.caught = 0
        self.missed = 0
        self.cheated = False  # renunció in the mano in progress

    def risk(self) -> float:
        """The estimated chance that a renuncio of its own is accused."""
        return (self.caught + 1) / (self.caught + self.missed + 4)

    # ---- watching the table
    def on_partido_start(self, event: dict[str, Any]) -> None:
        self.reset()

    def on_mano_start(self, event: dict[str, Any]) -> None:
        self.cheated = False

    def on_accused(self, event: dict[str, Any]) -> None:
        if event["by"] != self.view.seat:
            self.caught += 1

    def on_mano_end(self, event: dict[str, Any]) -> None:
        if self.cheated and event["outcome"] in ("points", "capote"):
            self.missed += 1

    # ---- deciding
    def proven(self, may_accuse: tuple[int, ...]) -> int | None:
        """A seat of ``may_accuse`` the public play proves renunció in this mano, or None."""
        shown = self.view.proven_renuncios()
        return next((s for s in may_accuse if s in shown), None)

    def review(self, request: ReviewRequest) -> int | None:
        return self.proven(request.may_accuse)

    def play(self, request: PlayRequest) -> Move:
        accused = self.proven(request.may_accuse)
        if accused is not None:
            return Move(accuse=accused)
        cantos = request.cantos()
        if "tute" in cantos:
            return Move(sing="tute")
        sing = "cuarenta" if "cuarenta" in cantos else (cantos[0] if cantos else None)
        legal = request.legal()
        trump = self.view.trump_suit
        if not request.table:
            plain = [c for c in legal if parse(c) // 10 != trump] or legal
            return Move(card=max(plain, key=strength), sing=sing)
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        winners = [c for c in legal if beats(parse(c), winning, trump)]
        honest = min(winners or legal, key=lambda c: (POINTS[parse(c)], strength(c)))
        cheat = self.renuncio(request)
        if cheat is not None:
            self.cheated = True
            return Move(card=cheat)
        return Move(card=honest)

    def renuncio(self, request: PlayRequest) -> str | None:
        """The illegal card to play instead of the honest one, or None to play honestly."""
        view = self.view
        if view.ruleset.renuncio != "accuse" or self.risk() > RISK or view.bazas[view.seat] > 0:
            return None
        trump = view.trump_suit
        winning = parse(request.winning()[1])  # type: ignore[index]  # someone has played
        legal = request.legal()
        if not all(beats(parse(c), winning, trump) for c in legal):
            return None  # it may lose this baza honestly
        losers = [c for c in request.hand if c not in legal and not beats(parse(c), winning, trump)]
        if not losers:
            return None
        return min(losers, key=lambda c: (POINTS[parse(c)], -strength(c)))
