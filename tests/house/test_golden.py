"""Golden tests: a change in how deals are derived, or in how a partido plays out, cannot pass unnoticed.

For every ruleset and table size (plus one case with every variant), a fixed explicit
seed gives a partido between deterministic sample players, played in this process; the
sha256 of its replay (measured times and the arena version left out) and that of its
deals alone are pinned. The seed's deal stream (:func:`arena.engine.deal_key`,
:func:`arena.engine.deal_order`) and mano 1's hands are pinned for an int seed and a key.

A failure says what changed: the deals (derivation, or the play changing who is still
dealt in) or only the play (moves, cantos, scoring, the replay's events). After a
*deliberate* change, and only then, paste the new values that the failure message
prints over the old ones below, and say why in the commit: every replay dealt from a
seed by an older version then deals differently.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from arena.cards import parse
from arena.engine import Partido, deal_key, deal_order
from arena.referee.players import load_player_class
from arena.referee.replay import read_replay
from arena.referee.table import play_partido
from arena.rules import MAX_PLAYERS, MIN_PLAYERS, RULESETS, VARIANTS, RuleSet
from arena.sdk import Player
from arena.seeds import Seed
from tests.paths import ROOT

SAMPLES = ROOT / "sample_players"
MIX = ("a_mas", "a_menos", "random_legal")
"""Seat ``i`` plays ``MIX[i % 3]``: all deterministic (``random_legal`` draws from its own fixed seed)."""

UNSTABLE = ("ms", "cpu_ms", "elapsed_ms", "arena_version")
"""Fields left out before hashing: measured times (as ``tests/torneos.py`` TIMES) and the version."""

DEAL_FIELDS = (
    "mano",
    "active",
    "sitting_out",
    "dealer",
    "mano_seat",
    "trump",
    "shown",
    "out_of_play",
    "leftover",
    "dealt",
    "swaps",
    "hands",
)
"""The fields of a ``mano_start`` event hashed as its deal."""

SIZES = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
SEEDS = {3: 46, 4: 17, 5: 91, 6: 109}
"""By table size: seeds whose partidos differ between the rulesets, with cantos (tute among
them at 3, 4 and 5), swaps and eliminations."""

ALL_VARIANTS = "rioplatense+variants"
GOLDEN_VARIANTS = ("rotating-trump", "mano-tiebreak", "tute-wins-partido")
"""The variants the golden replay was recorded with (hasta-un-ganador came later:
tests/games/cabrero/test_playoff.py)."""
assert set(GOLDEN_VARIANTS) < set(VARIANTS)
EXTRA: dict[tuple[str, int], tuple[RuleSet, int]] = {
    (ALL_VARIANTS, 5): (RuleSet("rioplatense", GOLDEN_VARIANTS), 17),  # rotating trump; a tute ends it
}
"""Cases beyond the plain rulesets: key -> (rules, seed)."""

GOLDEN_REPLAYS: dict[tuple[str, int], str] = {
    ("cabrero-2002", 3): "a796b1b0af02c995abb1fe027832a5698c922595566701d8c864f3edcaba787f",
    ("cabrero-2002", 4): "910966ee3d9357ff6b680dbee5963d078c9c8d2e74a6a98d31b5186b4e4cce52",
    ("cabrero-2002", 5): "7f1ff7031c4883c0f9eeabfa55df576fc7e121e3a38499c702a921a4b677e891",
    ("cabrero-2002", 6): "883dd44b8afa6557abf9e7a2fa1984f888cddeda16a85ca6272785e4b94ca2d1",
    ("rioplatense", 3): "342da6f39cfeef8a257dda30abfffa09b636d702c5e0f52d6f961aa07c8a3850",
    ("rioplatense", 4): "f33b4ea7b669a1a4605a9ca102fca92ed3408038950dde3ca75158fc3c5ffb8c",
    ("rioplatense", 5): "09a28abae2a467c7e83a5f3e39b136ae9d8c208af57f8c760eacde086b75cdc5",
    ("rioplatense", 6): "50803a575f262c193949173e6d26c680ee79cec2b3ca8a15c0dd87ee91ebe797",
    ("rioplatense+variants", 5): "2242270d64840817d80fc5fcb5f5a3afd81d176e6a1df18292b339ea407d3fd5",
}
"""sha256 of each case's canonical replay (see :func:`canonical`)."""

GOLDEN_DEALS: dict[tuple[str, int], str] = {
    ("cabrero-2002", 3): "462e1197374df4164746937085e608fc649f7cfe7413fa21555154871fa50e90",
    ("cabrero-2002", 4): "f19895aace0312062052da3de9551428ad00bdabae81b7a7c91d282d477238a3",
    ("cabrero-2002", 5): "4f82c5c32051ff0b51a431b9741c1feb0264b78320d386c96c6ec45340403d4f",
    ("cabrero-2002", 6): "2f1c8c1d43c9f67f4881b99a7a9017d48dad8a7b190081cc75c0fd05f819b1e3",
    ("rioplatense", 3): "57dc411879363be7de22ba27ee88f2c5d3607ac98f4a4972ea2cd7e01d992a48",
    ("rioplatense", 4): "f19895aace0312062052da3de9551428ad00bdabae81b7a7c91d282d477238a3",
    ("rioplatense", 5): "732f9c67c7ce037bb784c13f6f9aeb4b5aee9b714a033db857b47b1e05738690",
    ("rioplatense", 6): "2f1c8c1d43c9f67f4881b99a7a9017d48dad8a7b190081cc75c0fd05f819b1e3",
    ("rioplatense+variants", 5): "e9d1a45870523d971ed56c9568e1e3de645e012919c500e0c19d5785e7691e66",
}
"""sha256 of each case's deals alone (:data:`DEAL_FIELDS` of every ``mano_start``)."""

KEY = "0f1e2d3c4b5a6978" * 4
"""A 64-hex-digit key (what torneos deal from), fixed for the pin."""

DEAL_ORDER: dict[Seed, dict[str, Any]] = {
    2002: {
        "deal_key": "34908f85fd008efbdc9866224b676a68202fe4645ce69f2218d6b806941fd58b",
        "start": 1,
        "deck": [
            [4, 8, 23, 38, 3, 7, 25, 36, 11, 33],
            [34, 32, 0, 16, 28, 10, 21, 13, 29, 20],
            [31, 6, 5, 35, 1, 37, 19, 12, 2, 17],
            [24, 9, 26, 22, 14, 18, 15, 30, 39, 27],
        ],
        "hands": [
            [9, 10, 12, 18, 20, 27, 32, 35, 36, 38],
            [0, 1, 2, 3, 4, 11, 15, 21, 26, 31],
            [6, 7, 8, 13, 16, 17, 22, 30, 33, 37],
            [5, 14, 19, 23, 24, 25, 28, 29, 34, 39],
        ],
    },
    KEY: {
        "deal_key": "e252896430ca408f0005f18ac721662fd0e098467894514c677ee43da297a0f4",
        "start": 0,
        "deck": [
            [12, 15, 32, 1, 21, 6, 28, 35, 2, 20],
            [5, 13, 7, 36, 33, 10, 17, 3, 18, 37],
            [31, 27, 38, 34, 25, 19, 9, 11, 26, 30],
            [16, 0, 22, 8, 14, 39, 4, 23, 29, 24],
        ],
        "hands": [
            [2, 4, 7, 12, 17, 21, 22, 25, 26, 31],
            [3, 6, 8, 15, 19, 20, 23, 27, 30, 36],
            [5, 9, 14, 16, 18, 28, 29, 32, 33, 38],
            [0, 1, 10, 11, 13, 24, 34, 35, 37, 39],
        ],
    },
}
"""For an int seed and a key: the deal key, mano 1's draw among four seats (the seat dealt
first and the deck in rows of ten), and mano 1's hands by seat as card ids."""


def cases() -> list[tuple[str, int]]:
    return [(rs, n) for rs in RULESETS for n in SIZES] + list(EXTRA)


def rules_and_seed(label: str, n: int) -> tuple[RuleSet, int]:
    return EXTRA.get((label, n)) or (RuleSet(label), SEEDS[n])


def players(n: int) -> list[Player]:
    return [load_player_class(SAMPLES / MIX[i % len(MIX)])() for i in range(n)]


def canonical(events: Iterable[dict[str, Any]]) -> str:
    """Events as sorted-key compact JSON lines, without :data:`UNSTABLE` fields."""
    lines = []
    for e in events:
        stable = {k: v for k, v in e.items() if k not in UNSTABLE}
        lines.append(json.dumps(stable, sort_keys=True, separators=(",", ":")))
    return "\n".join(lines)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def digests(events: list[dict[str, Any]]) -> tuple[str, str]:
    """(deals digest, replay digest) of a replay's events."""
    deals = [{k: e[k] for k in DEAL_FIELDS} for e in events if e["type"] == "mano_start"]
    return sha256(canonical(deals)), sha256(canonical(events))


@pytest.mark.parametrize(("label", "n"), cases())
def test_golden_replay(label: str, n: int, tmp_path: Path) -> None:
    rules, seed = rules_and_seed(label, n)
    names = [f"{MIX[i % len(MIX)]}-{i}" for i in range(n)]
    replay = tmp_path / "partido.jsonl"
    result = play_partido(
        players(n), seed, ruleset=rules, names=names, replay=str(replay), partido_id="golden"
    )
    events = read_replay(replay)
    assert result.faults == [], result.faults
    deals, whole = digests(events)
    key = (label, n)
    if (GOLDEN_DEALS.get(key), GOLDEN_REPLAYS.get(key)) == (deals, whole):
        return
    if key not in GOLDEN_DEALS or key not in GOLDEN_REPLAYS:
        what = "no golden digests are pinned for this case yet"
    elif GOLDEN_DEALS[key] != deals:
        what = (
            "the DEALS changed: if test_deal_derivation fails too, how a seed becomes a deal changed; "
            "otherwise the play changed who is dealt in after mano 1"
        )
    else:
        what = "the deals are the same; the PLAY changed (moves, cantos, scoring, or the replay's events)"
    pytest.fail(
        f"golden partido {key} (seed {seed}, {rules!r}): {what}.\n"
        f"It now lasts {result.manos} manos, winners {result.winners}, {len(events)} events.\n"
        "Only if the change is deliberate, paste the new digests into tests/house/test_golden.py:\n"
        f'GOLDEN_DEALS:\n    ("{label}", {n}): "{deals}",\n'
        f'GOLDEN_REPLAYS:\n    ("{label}", {n}): "{whole}",',
        pytrace=False,
    )


def test_every_ruleset_and_size_is_pinned() -> None:
    missing = sorted(set(cases()) - (set(GOLDEN_REPLAYS) & set(GOLDEN_DEALS)))
    assert not missing, f"no golden digests for {missing}: run this module and paste what it prints"
    stale = sorted((set(GOLDEN_REPLAYS) | set(GOLDEN_DEALS)) - set(cases()))
    assert not stale, f"golden digests of cases no longer played: {stale}"


def deal_of(seed: Seed) -> dict[str, Any]:
    """What :data:`DEAL_ORDER` pins for ``seed``."""
    key = deal_key(seed)
    start, deck = deal_order(key, 1, [0, 1, 2, 3])
    dealt = Partido(4, seed).events[0]["dealt"]
    return {
        "deal_key": key.hex(),
        "start": start,
        "deck": [deck[i : i + 10] for i in range(0, 40, 10)],
        "hands": [[parse(c) for c in hand] for hand in dealt],
    }


@pytest.mark.parametrize("seed", [2002, KEY], ids=["int", "key"])
def test_deal_derivation(seed: Seed) -> None:
    now = deal_of(seed)
    assert DEAL_ORDER.get(seed) == now, (
        f"how seed {seed!r} becomes a deal changed (arena.engine.deal_key / deal_order / Partido._deal): "
        "every replay dealt from a seed by an older version now deals differently.\n"
        "Only if deliberate, paste into DEAL_ORDER in tests/house/test_golden.py:\n"
        f"{json.dumps(seed)}: {json.dumps(now)},"
    )
