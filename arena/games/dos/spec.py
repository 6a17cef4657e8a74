"""Tute de a dos as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.dos import account, rules
from arena.games.gamespec import GameSpec, lazy_engine, rules_reader
from arena.i18n import N_


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.DosRules:
    return rules.DosRules(ruleset or rules.DEFAULT_RULESET, juegos, renuncio)


SPEC = GameSpec(
    name="tute-dos",
    short="dos",
    title=N_("Tute de a dos"),
    table_sizes=(rules.PLAYERS,),
    rulesets=rules.RULESETS,
    renuncio_policies=rules.RENUNCIO_POLICIES,
    new_partido=lazy_engine("arena.games.dos.engine", "DosPartido"),
    rules_of=rules_reader(rules.DosRules),
    make_rules=_make_rules,
    tally_mano=account.tally_mano,
    narrate_start=account.narrate_start,
    narrate_mano_end=account.narrate_mano_end,
    narrate_other=account.narrate_other,
    player_hint="arena.games.dos.sdk.DosPlayer",
    default_player="arena.games.dos.sdk.SimplePlayer",
    sdk_modules=("arena.games.dos.sdk",),
    samples="sample_dos",
    check_opponents=("random_legal", "basico"),
    check_tables=(rules.PLAYERS,),
    default_folders=("players_dos",),
    guide="docs/rules-dos.md",
    options=("juegos",),
)
"""Tute de a dos (Tute habanero): two players, a monte to draw from (``docs/rules-dos.md``)."""
