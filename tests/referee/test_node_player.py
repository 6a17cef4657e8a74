"""The Node.js sample player (``sample_players/node_basico``) and the language-agnostic path.

It is a ``player.toml`` + ``bot.js`` folder speaking the raw protocol, so these
tests prove that a non-Python program plays whole partidos through the
subprocess referee without a single fault, sings cantos the referee accepts,
and is never penalized under either renuncio policy. A last test feeds it
random positions directly and checks every answer against ``arena.rules``.
Skipped where ``node`` is not installed.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arena import cards, rules
from arena.referee.connection import Limits
from arena.referee.players import find_player
from arena.referee.replay import read_replay
from arena.referee.table import PartidoResult, play_folders
from arena.rules import RuleSet
from tests.paths import ROOT
from tests.torneos import evidence

NODE = shutil.which("node")
pytestmark = [
    pytest.mark.skipif(
        NODE is None, reason="`node` (Node.js) is not on PATH, so the Node.js sample player cannot run"
    ),
    pytest.mark.usefixtures("run_token"),  # its tests start player processes
]

SAMPLES = ROOT / "sample_players"
BOT = "node_basico"
LIMITS = Limits(10000, 2000)
TABLES = {
    3: (BOT, "a_mas", "a_menos"),
    4: ("a_mas", BOT, "a_menos", "random_legal"),
    5: ("a_menos", "random_legal", BOT, "a_mas", "random_legal"),
}
SEEDS = (1, 4, 5)
"""Seeds where the Node.js player sings at each table size (checked below)."""


def play(names: tuple[str, ...], seed: int, tmp_path: Path, ruleset: RuleSet | None = None):
    replay = tmp_path / f"p-{len(names)}-{seed}.jsonl"
    specs = [find_player(SAMPLES / n) for n in names]
    result, incidents = play_folders(specs, seed, ruleset=ruleset, limits=LIMITS, replay=replay)
    return result, incidents, read_replay(replay)


def assert_clean(result: PartidoResult, incidents: dict[int, Path], events: list[dict[str, Any]]) -> None:
    folders = {path.parent for path in incidents.values()}
    assert result.faults == [], f"{result.faults}\n{evidence(*folders)}"
    assert incidents == {}, evidence(*folders)
    assert not [e for e in events if e["type"] in ("disqualified", "penalized")]
    assert not [e for e in events if e["type"] == "mano_end" and e["outcome"] == "penalty"]
    assert events[-1]["type"] == "partido_end"


@pytest.mark.parametrize("size", sorted(TABLES))
def test_plays_whole_partidos_and_sings(size: int, tmp_path: Path) -> None:
    names = TABLES[size]
    seat = names.index(BOT)
    sung: list[str] = []
    for seed in SEEDS:
        result, incidents, events = play(names, seed, tmp_path)
        assert_clean(result, incidents, events)
        assert result.manos >= 1
        assert any(e["type"] == "played" and e["seat"] == seat for e in events)
        sung += [e["canto"] for e in events if e["type"] == "sang" and e["seat"] == seat]
    # Every canto it sang was accepted by the referee (no false_canto above).
    assert sung, f"the Node.js player never sang at {size} players with seeds {SEEDS}"


@pytest.mark.parametrize("renuncio", ["disqualify", "penalize"])
def test_never_penalized(renuncio: str, tmp_path: Path) -> None:
    ruleset = RuleSet(renuncio=renuncio)
    for names, seed in ((TABLES[4], 2), (TABLES[3], 7), (TABLES[5], 3)):
        result, incidents, events = play(names, seed, tmp_path, ruleset)
        assert result.rules["renuncio"] == renuncio
        assert_clean(result, incidents, events)
        assert not [f for f in result.faults if f.penalized]


# ---------------------------------------------------------------- direct positions

KINGS = [f"12-{s}" for s in cards.SUITS]
KNIGHTS = [f"11-{s}" for s in cards.SUITS]


def random_position(rng: random.Random) -> dict[str, Any]:
    """A play request with a random hand, table, trump and cantos already sung."""
    deck = list(cards.NAMES)
    rng.shuffle(deck)
    if rng.random() < 0.1:  # now and then a tute in hand
        four = rng.choice((KINGS, KNIGHTS))
        deck = four + [c for c in deck if c not in four]
    if rng.random() < 0.3:  # often a king-knight pair
        s = rng.choice(cards.SUITS)
        deck = [f"12-{s}", f"11-{s}"] + [c for c in deck if c not in (f"12-{s}", f"11-{s}")]
    n = rng.randint(1, 13)
    hand, rest = deck[:n], deck[n:]
    leading = rng.random() < 0.35
    table = [] if leading else [{"seat": i + 1, "card": c} for i, c in enumerate(rest[: rng.randint(1, 5)])]
    trump = rng.choice(cards.SUITS)
    # The cantos sung earlier in the mano (by anyone); the trump pair is only ever "cuarenta".
    cantos = ["cuarenta", *(f"veinte-{s}" for s in cards.SUITS if s != trump)]
    sung = [c for c in cantos if rng.random() < 0.2]
    return {
        "trump": trump,
        "hand": hand,
        "table": table,
        "may_sing": leading and rng.random() < 0.7,
        "sung": sung,
    }


def legal_of(p: dict[str, Any]) -> tuple[list[str], int]:
    """The position's legal cards by ``arena.rules`` (the request's ``legal``), and the winning card."""
    trump = cards.SUITS.index(p["trump"])
    table = [cards.parse(t["card"]) for t in p["table"]]
    lead = table[0] // 10 if table else -1
    winning = table[0] if table else -1
    for c in table[1:]:
        if rules.beats(c, winning, trump):
            winning = c
    return cards.names_of(rules.legal_mask(cards.parse_mask(p["hand"]), lead, winning, trump)), winning


def test_answers_match_the_rules() -> None:
    """Many positions in one process: legal cards, valid cantos, the 'a más' choices.

    Each request carries ``legal`` as the referee sends it (protocol revision 1.3), computed here
    by ``arena.rules``; the bot chooses among those cards."""
    rng = random.Random(2024)
    positions = [random_position(rng) for _ in range(1500)]
    lines = [{"type": "hello", "id": 1, "protocol": 1, "name": BOT, "limits": LIMITS.to_dict()}]
    for i, p in enumerate(positions):
        lines.append({"type": "mano_start", "mano": i + 1, "trump": p["trump"], "hand": p["hand"]})
        lines += [{"type": "sang", "seat": 3, "canto": c} for c in p["sung"]]
        req = {"type": "play", "id": i + 2, "mano": i + 1, "trick": 2, "hand": p["hand"]}
        lines.append({**req, "table": p["table"], "legal": legal_of(p)[0], "may_sing": p["may_sing"]})
    lines.append({"type": "bye"})
    proc = subprocess.run(
        [NODE, "bot.js"],
        cwd=SAMPLES / BOT,
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert proc.returncode == 0, proc.stderr
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert replies[0] == {"type": "ready", "id": 1, "name": "Básico (Node.js)"}
    assert len(replies) == len(positions) + 1
    for i, (p, r) in enumerate(zip(positions, replies[1:], strict=True)):
        trump = cards.SUITS.index(p["trump"])
        hand = cards.parse_mask(p["hand"])
        sung_suits = 0
        for c in p["sung"]:
            sung_suits |= 1 << rules.canto_suit(c, trump)
        assert r["type"] == "play" and r["id"] == i + 2, r
        valid = rules.valid_cantos(hand, trump, sung_suits) if p["may_sing"] else []
        if "tute" in valid:
            assert r == {"type": "play", "id": i + 2, "sing": "tute"}, (p, r)
            continue
        if valid:  # it sings whenever it can, the cuarenta before any veinte
            assert r.get("sing") in valid, (p, r)
            assert "cuarenta" not in valid or r["sing"] == "cuarenta", (p, r)
        else:
            assert "sing" not in r, (p, r)
        table = p["table"]
        legal, winning = legal_of(p)
        assert r["card"] in legal, (p, r)
        played = cards.parse(r["card"])
        if not table:  # leading: its strongest non-trump card (strongest trump without one)
            plain = [c for c in map(cards.parse, legal) if c // 10 != trump] or list(map(cards.parse, legal))
            assert played in plain and played % 10 == max(c % 10 for c in plain), (p, r)
        else:  # following: the cheapest card that wins the baza, else the cheapest card
            pool = [c for c in map(cards.parse, legal) if rules.beats(c, winning, trump)]
            pool = pool or list(map(cards.parse, legal))
            key = lambda c: (cards.POINTS[c], c % 10)  # noqa: E731
            assert played in pool and key(played) == min(map(key, pool)), (p, r)
