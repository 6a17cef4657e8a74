"""Tute Cabrero as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.cabrero import account, rules
from arena.games.gamespec import GameSpec, lazy_engine, rules_reader
from arena.i18n import N_


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.RuleSet:
    return rules.RuleSet(ruleset or rules.DEFAULT_RULESET, frozenset(variants), renuncio)


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
    tally_mano=account.tally_mano,
    narrate_start=account.narrate_start,
    narrate_mano_end=account.narrate_mano_end,
    player_hint="arena.sdk.Player",
    sdk_modules=("arena.sdk", "arena.games.cabrero.sdk"),
    samples="sample_players",
    check_opponents=("a_mas", "a_menos", "random_legal", "a_mas", "a_menos"),
    check_tables=(3, 4, 5),
    default_folders=("players",),
    guide="docs/student-guide.md",
)
