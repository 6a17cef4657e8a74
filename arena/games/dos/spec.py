"""Tute de a dos as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.common.account import FAULT_HINTS, tute_seam
from arena.games.dos import account, rules
from arena.games.gamespec import GameSpec, lazy_engine, rules_reader
from arena.i18n import N_


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.DosRules:
    return rules.DosRules(ruleset or rules.DEFAULT_RULESET, juegos, renuncio)


TEMPLATE = N_(
    '''"""{name}: a Tute de a dos player.

Fill in `play`. Try it against the sample players with `arena check --game dos {folder}`.
The guide: docs/student-guide.md, section 10. print() goes to your log, not to the referee.
"""

from arena.dos.sdk import DosPlayer, DosRequest, Move


class {cls}(DosPlayer):
    name = "{name}"

    def play(self, request: DosRequest) -> Move | str | None:
        # request.kind: "card" (play one of request.legal) or "sing" (after a baza you
        # won: a canto or "cambio" of request.may_sing, or None to pass).
        if request.kind == "card":
            return request.legal[0]
        return Move(sing=request.may_sing[0]) if request.may_sing else None
'''
)
"""The new player's ``player.py`` (``arena new --game dos``)."""


SPEC = GameSpec(
    template=TEMPLATE,
    name="tute-dos",
    short="dos",
    title=N_("Tute de a dos"),
    table_sizes=(rules.PLAYERS,),
    rulesets=rules.RULESETS,
    renuncio_policies=rules.RENUNCIO_POLICIES,
    new_partido=lazy_engine("arena.games.dos.engine", "DosPartido"),
    rules_of=rules_reader(rules.DosRules),
    make_rules=_make_rules,
    narrate_start=account.narrate_start,
    **tute_seam(account.tally_mano, account.narrate_mano_end, account.narrate_other),
    player_hint="arena.dos.sdk.DosPlayer",
    default_player="arena.games.dos.sdk.SimplePlayer",
    sdk_modules=("arena.dos.sdk", "arena.games.dos.sdk"),
    samples="sample_dos",
    check_opponents=("random_legal", "basico"),
    check_tables=(rules.PLAYERS,),
    default_folders=("players_dos",),
    guide="docs/rules-dos.md",
    options=("juegos",),
    fault_hints={
        **FAULT_HINTS,
        "renuncio": N_(
            "while the monte has cards, any card; once it is empty, follow suit and beat the winning "
            "card if you can; without the suit, a triunfo; if you have none, any card"
        ),
    },
)
"""Tute de a dos (Tute habanero): two players, a monte to draw from (``docs/rules-dos.md``)."""
