"""Tute de a dos as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.dos import account, rules
from arena.games.gamespec import GameSpec
from arena.i18n import N_
from arena.seeds import Seed


def _new_partido(n: int, seed: Seed, rule_set: Any = None, *, deal: bool = True) -> Any:
    from arena.games.dos.engine import DosPartido

    return DosPartido(n, seed, rule_set, deal=deal)


def _rules_of(value: Any) -> rules.DosRules:
    return value if isinstance(value, rules.DosRules) else rules.DosRules.from_dict(value or {})


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
    new_partido=_new_partido,
    rules_of=_rules_of,
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
