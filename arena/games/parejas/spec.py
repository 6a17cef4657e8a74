"""Tute por parejas as the house sees it: its :class:`~arena.games.gamespec.GameSpec`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.games.common.account import FAULT_HINTS, tute_seam
from arena.games.gamespec import GameSpec, lazy_engine, rules_reader
from arena.games.parejas import account, rules
from arena.i18n import N_


def _audit(events: Sequence[dict[str, Any]], draws: int, every: int) -> Iterator[tuple[int, float, bool]]:
    """The peek test (:mod:`arena.games.parejas.audit`), each decision given to its **pair**: 0 or 1,
    the pair's first seat, which is also its index among a torneo's sides (a torneo's entrant is a
    pair: its store's players are by side)."""
    from arena.games.parejas.audit import decisions  # the engine, only when auditing

    return ((rules.pair_of(d.seat), d.excess, d.late) for d in decisions(events, draws, every))


def _tell(events: Sequence[dict[str, Any]]) -> Iterator[tuple[int, float, int, int]]:
    """The reply-time tell's replies, each given to its pair as :func:`_audit` does."""
    from arena.games.parejas.audit import replies

    return ((seat % 2, ms, hand, stratum) for seat, ms, hand, stratum in replies(events))


def _make_rules(
    ruleset: str | None, variants: Sequence[str], renuncio: str, juegos: int | None
) -> rules.ParejasRules:
    return rules.ParejasRules(ruleset or rules.DEFAULT_RULESET, juegos, renuncio)


TEMPLATE = N_(
    '''"""{name}: a Tute por parejas player (it plays as a pair: two processes of this folder).

Fill in `play`. Try it against the sample pairs with `arena check --game parejas {folder}`.
The guide: docs/student-guide.md, section 9. print() goes to your log, not to the referee.
"""

from arena.parejas.sdk import Move, ParejasPlayer, ParejasRequest


class {cls}(ParejasPlayer):
    name = "{name}"

    def play(self, request: ParejasRequest) -> Move | str | None:
        # request.kind: "card" (play one of request.legal), "sing" (a canto of
        # request.may_sing, or None to pass) or "tirar" (Move(sing="tirar") gives up).
        if request.kind == "card":
            return request.legal[0]
        if request.kind == "sing":
            return Move(sing=request.may_sing[0])
        return None
'''
)
"""The new player's ``player.py`` (``arena new --game parejas``)."""


SPEC = GameSpec(
    template=TEMPLATE,
    name="tute-parejas",
    short="parejas",
    title=N_("Tute por parejas"),
    table_sizes=(rules.PLAYERS,),
    teams=rules.PAIRS,
    rulesets=rules.RULESETS,
    renuncio_policies=rules.RENUNCIO_POLICIES,
    new_partido=lazy_engine("arena.games.parejas.engine", "ParejasPartido"),
    rules_of=rules_reader(rules.ParejasRules),
    make_rules=_make_rules,
    narrate_start=account.narrate_start,
    **tute_seam(account.tally_mano, account.narrate_mano_end),
    audit=_audit,
    tell=_tell,
    player_hint="arena.parejas.sdk.ParejasPlayer",
    sdk_modules=("arena.parejas.sdk", "arena.games.parejas.sdk"),
    samples="sample_pairs",
    check_opponents=("random_legal", "heuristica"),
    check_tables=(rules.PLAYERS,),
    default_folders=("pairs",),
    guide="docs/student-guide.md#tute-por-parejas",
    options=("juegos",),
    team_counts=("porotos_perdidos",),
    fault_hints={
        **FAULT_HINTS,
        "renuncio": N_(
            "follow suit and beat the winning card if you can, even your partner's; without the suit, "
            "a triunfo that beats it; if none beats it, any card (espanol: any triunfo you hold)"
        ),
        "false_canto": N_(
            "sing only right after your pair won a baza, with both cards in your hand, a suit not sung yet"
        ),
    },
)
