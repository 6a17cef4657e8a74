"""Tute Cabrero as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.games.cabrero import account, rules
from arena.games.common.account import FAULT_HINTS, tute_seam
from arena.games.gamespec import GameSpec, lazy_engine, rules_reader
from arena.i18n import N_


def _audit(events: Sequence[dict[str, Any]], draws: int, every: int) -> Iterator[tuple[int, float, bool]]:
    from arena.games.cabrero.audit import decisions  # the engine, only when auditing

    return ((d.seat, d.excess, d.late) for d in decisions(events, draws, every))


def _tell(events: Sequence[dict[str, Any]]) -> Iterator[tuple[int, float, int, int]]:
    from arena.games.cabrero.audit import replies

    return replies(events)


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.RuleSet:
    return rules.RuleSet(ruleset or rules.DEFAULT_RULESET, frozenset(variants), renuncio)


TEMPLATE = N_(
    '''"""{name}: a Tute Cabrero player.

Fill in `play`. Try it against the sample players with `arena check {folder}`,
and watch a partido with `arena play {folder} sample_players/a_mas sample_players/a_menos`.
The guide: docs/student-guide.md. print() goes to your log, not to the referee: print whatever you like.
"""

from arena.sdk import Move, Player, PlayRequest


class {cls}(Player):
    name = "{name}"

    def play(self, request: PlayRequest) -> Move | str:
        # What you know: request.hand, request.table (this baza), self.view
        # (triunfo, cards played, cantos, bazas, points, porotos...).
        # Helpers: request.legal(), request.cantos(), request.winning().
        cantos = request.cantos()  # empty except right after winning a baza
        if "tute" in cantos:
            return Move(sing="tute")  # the mano ends: all the others lose it
        legal = request.legal()
        return Move(card=legal[0], sing=cantos[0] if cantos else None)
'''
)
"""The new player's ``player.py`` (``arena new``; translated where it is written: its docstring and
comments speak the student's language)."""


SPEC = GameSpec(
    name="tute-cabrero",
    short="cabrero",
    title=N_("Tute Cabrero"),
    table_sizes=tuple(range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)),
    rulesets=rules.RULESETS,
    variants=rules.VARIANTS,
    renuncio_policies=rules.RENUNCIO_POLICIES,
    rule_faults=rules.RULE_FAULTS,
    new_partido=lazy_engine("arena.games.cabrero.engine", "Partido"),
    rules_of=rules_reader(rules.RuleSet),
    make_rules=_make_rules,
    narrate_start=account.narrate_start,
    **tute_seam(account.tally_mano, account.narrate_mano_end),
    audit=_audit,
    tell=_tell,
    player_hint="arena.sdk.Player",
    sdk_modules=("arena.sdk", "arena.games.cabrero.sdk"),
    samples="sample_players",
    check_opponents=("a_mas", "a_menos", "random_legal", "a_mas", "a_menos"),
    check_tables=(3, 4, 5),
    default_folders=("players",),
    guide="docs/student-guide.md",
    template=TEMPLATE,
    fault_hints={
        **FAULT_HINTS,
        "renuncio": N_(
            "follow suit (play the suit led) and beat the winning card if you can; if not, follow suit; "
            "without the suit, play a triunfo and beat if you can; if not, any card"
        ),
        "false_canto": N_(
            "sing only right after winning a baza, with both cards in your hand, once per suit"
        ),
    },
)
