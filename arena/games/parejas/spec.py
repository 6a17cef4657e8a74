"""Tute por parejas as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.games.gamespec import GameSpec
from arena.games.parejas import account, rules
from arena.i18n import N_
from arena.seeds import Seed


def _new_partido(n: int, seed: Seed, rule_set: Any = None, *, deal: bool = True) -> Any:
    from arena.games.parejas.engine import ParejasPartido

    return ParejasPartido(n, seed, rule_set, deal=deal)


def _rules_of(value: Any) -> rules.ParejasRules:
    return value if isinstance(value, rules.ParejasRules) else rules.ParejasRules.from_dict(value or {})


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.ParejasRules:
    return rules.ParejasRules(ruleset or rules.DEFAULT_RULESET, juegos, renuncio)


SPEC = GameSpec(
    name="tute-parejas",
    short="parejas",
    title=N_("Tute por parejas"),
    table_sizes=(rules.PLAYERS,),
    teams=rules.PAIRS,
    rulesets=rules.RULESETS,
    renuncio_policies=rules.RENUNCIO_POLICIES,
    new_partido=_new_partido,
    rules_of=_rules_of,
    make_rules=_make_rules,
    tally_mano=account.tally_mano,
    narrate_start=account.narrate_start,
    narrate_mano_end=account.narrate_mano_end,
    player_hint="arena.parejas.sdk.ParejasPlayer",
    sdk_modules=("arena.parejas.sdk", "arena.games.parejas.sdk"),
    samples="sample_pairs",
    check_opponents=("random_legal", "heuristica"),
    check_tables=(rules.PLAYERS,),
    default_folders=("pairs",),
    guide="docs/student-guide.md#tute-por-parejas",
    options=("juegos",),
)
