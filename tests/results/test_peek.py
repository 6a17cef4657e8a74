"""The peek audit (``arena audit``, issue 50): a player that chooses by the true deal is flagged, players
that see only what they may are not, and the verdicts' statistics behave as documented."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.games.cabrero import audit, engine
from arena.games.cabrero.rules import RuleSet
from arena.games.common.cards import parse, parse_mask
from arena.referee.table import play_partido
from arena.results import peek
from arena.sdk import Move, Player, PlayRequest
from tests.paths import ROOT


class Random(Player):
    """Sees only its view: a random legal card."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(seed)

    def play(self, request: PlayRequest) -> Move:
        return Move(card=self.rng.choice(request.legal()))


class Truth:
    """An event sink that keeps every true hand (what a peeker reads through some channel)."""

    def __init__(self) -> None:
        self.hands: list[int] = []
        self.mano: engine.Mano | None = None

    def __call__(self, event: dict[str, Any]) -> None:
        if event["type"] == "mano_start":
            self.hands = [parse_mask(h) if h else 0 for h in event["hands"]]
        elif event["type"] == "played" and self.hands:
            self.hands[event["seat"]] &= ~(1 << parse(event["card"]))


class Peeker(Player):
    """Chooses the card that does best on the true deal (its value as the audit measures it)."""

    def __init__(self, truth: Truth) -> None:
        super().__init__()
        self.truth = truth
        self.rng = random.Random(9)

    def play(self, request: PlayRequest) -> Move:
        legal = request.legal()
        if len(legal) == 1:
            return Move(card=legal[0])
        me = self.view.seat
        hidden = {s: h for s, h in enumerate(self.truth.hands) if s != me and s in self.view.order}
        m = request.simulation(hidden_hands=hidden)
        rules = RuleSet.from_dict({})
        best = max(legal, key=lambda c: audit._value(m, parse(c), rules, self.rng))
        return Move(card=best)


def _field(
    partidos: int, peeker: bool
) -> tuple[list[tuple[str, str, list[str]]], dict[str, list[list[float]]]]:
    truth = Truth()
    names = ["peeker" if peeker else "honesto", "azar1", "azar2", "azar3"]
    records, found = [], {}
    for i in range(partidos):
        players = [Peeker(truth) if peeker else Random(100 + i), Random(i), Random(2 * i), Random(3 * i)]
        order = list(range(4))
        random.Random(i).shuffle(order)
        events: list[dict[str, Any]] = []
        play_partido(
            [players[s] for s in order],
            1000 + i,
            names=[names[s] for s in order],
            sinks=[truth, events.append],
        )
        found[f"p{i}"] = [[d.seat, d.excess] for d in audit.decisions(events, draws=6)]
        records.append((f"p{i}", "", [names[s] for s in order]))
    return records, found


@pytest.mark.slow  # plays and audits 2 × 25 partidos in this process (about a minute)
def test_a_player_that_reads_the_true_deal_is_flagged_and_random_players_are_not() -> None:
    records, found = _field(25, peeker=True)
    verdicts = {v.entrant: v for v in peek.verdicts(records, found, ["peeker", "azar1", "azar2", "azar3"])}
    assert verdicts["peeker"].flagged and verdicts["peeker"].excess > 2 * peek.MIN_EXCESS, verdicts["peeker"]
    assert not any(verdicts[n].flagged for n in ("azar1", "azar2", "azar3")), verdicts
    records, found = _field(25, peeker=False)
    honest = peek.verdicts(records, found, ["honesto", "azar1", "azar2", "azar3"])
    assert not any(v.flagged for v in honest), honest


def test_an_honest_random_choice_has_no_excess_on_average() -> None:
    """A card drawn uniformly from the legal ones: its excess averages 0 over the draws and the deal."""
    rng = random.Random(5)
    p = engine.Partido(4, 77, RuleSet.from_dict({}))
    events: list[dict[str, Any]] = []
    total, count = 0.0, 0
    while not p.over and count < 60:
        m = p.mano
        assert m is not None
        legal = [c for c in range(40) if m.legal() >> c & 1]
        p.play(rng.choice(legal))
        count += 1
    events = [
        {
            "type": "partido_start",
            "partido": "x",
            "seed": 77,
            "rules": {},
            "players": [{"name": str(s)} for s in range(4)],
        },
        *p.events,
    ]
    if not p.over:
        events.append({"type": "partido_end", "winners": [], "ranking": []})
    for d in audit.decisions(events, draws=6):
        total += d.excess
        count += 1
    assert count > 10 and abs(total / count) < 0.2


def test_the_verdicts_test_the_mean_excess_with_the_partido_as_unit() -> None:
    names = ["a", "b", "c"]
    records = [(f"p{i}", "", names) for i in range(40)]
    rng = random.Random(1)
    found = {
        f"p{i}": [[0, 0.15 + rng.gauss(0, 0.2)] for _d in range(10)]
        + [[1, rng.gauss(0, 0.2)] for _d in range(10)]
        + [[2, rng.gauss(0, 0.2)] for _d in range(3)]
        for i in range(40)
    }
    a, b, c = peek.verdicts(records, found, names)
    assert a.flagged and a.partidos == 40 and a.decisions == 400 and a.z > 5
    assert not b.flagged and not c.flagged and abs(b.excess) < peek.MIN_EXCESS
    few = peek.verdicts(records[: peek.MIN_PARTIDOS - 1], found, names)
    assert all(math.isnan(v.p) and not v.flagged for v in few)  # too few partidos: no verdict
    small = {k: [[0, peek.MIN_EXCESS / 2 + rng.gauss(0, 0.001)] for _d in range(50)] for k in found}
    tiny = peek.verdicts(records, small, names)[0]
    assert tiny.p_corrected < peek.ALPHA and not tiny.flagged  # significant, but below the minimum excess


def test_a_reader_that_learns_the_hand_late_in_the_mano_is_flagged_by_the_late_test() -> None:
    """A channel that passes the hand a few cards at a time (reply timing) lets its reader see it only
    late in each mano: over all its decisions the excess is diluted below the minimum, over the late
    ones it stands out; an honest player's late decisions do not. Decisions kept by an audit from
    before the late test (``[seat, excess]``) are read, for the test over all decisions."""
    names = ["lector", "honesto"]
    records = [(f"p{i}", "", names) for i in range(60)]
    rng = random.Random(2)
    found = {
        f"p{i}": [[0, rng.gauss(-0.004, 0.05), 0] for _d in range(12)]
        + [[0, rng.gauss(0.025, 0.05), 1] for _d in range(8)]
        + [[1, rng.gauss(0.0, 0.05), int(d >= 12)] for d in range(20)]
        for i in range(60)
    }
    reader, honest = peek.verdicts(records, found, names)
    assert reader.excess < peek.MIN_EXCESS <= reader.late_excess
    assert reader.flagged and reader.late_z > 5 and reader.p_corrected < peek.ALPHA
    assert not honest.flagged and abs(honest.late_excess) < peek.MIN_EXCESS
    old = {pid: [[seat, x] for seat, x, _late in rows] for pid, rows in found.items()}
    before = peek.verdicts(records, old, names)
    assert [v.decisions for v in before] == [1200, 1200] and not before[0].flagged
    assert all(math.isnan(v.late_excess) for v in before)


def test_arena_audit_writes_its_csv_and_resumes(tmp_path: Path) -> None:
    from arena.tournament.store import Store

    folder = tmp_path / "torneo"
    runner = CliRunner()
    args = [
        "tournament",
        str(ROOT / "sample_players" / "a_mas"),
        str(ROOT / "sample_players" / "a_menos"),
        str(ROOT / "sample_players" / "random_legal"),
        "--table-size",
        "3",
        "--rounds",
        "2",
        "--seed",
        "3",
        "--sandbox",
        "none",
        "--out",
        str(folder),
    ]
    result = runner.invoke(main, args)
    assert result.exit_code == 0, result.output
    first = runner.invoke(main, ["audit", str(folder), "--workers", "1", "--lang", "en"])
    assert first.exit_code == 0, first.output
    assert "Peek: none beyond chance." in first.output
    rows = (folder / "audit.csv").read_text().splitlines()
    assert rows[0].startswith("entrant,partidos,decisions") and len(rows) == 4
    with Store.open(folder, readonly=True) as store:
        ids = [r.id for r in store.results(figures=False)]
    kept = {p.stem for p in (folder / "audit").glob("*.json")}
    assert kept == set(ids)
    (folder / "audit" / f"{ids[0]}.json").write_text(json.dumps({"decisions": [[0, 1.0]]}))  # a kept result
    again = runner.invoke(main, ["audit", str(folder), "--workers", "1", "--lang", "en"])
    assert again.exit_code == 0 and "Audit CPU" not in again.output  # nothing left to audit: resumed
    assert (folder / "audit.csv").read_text() != "\n".join(rows)  # and the kept result counted


def test_the_time_tell_flags_times_that_carry_the_hand_and_not_times_that_follow_the_choices() -> None:
    """A sender waiting 10 + 24·v ms for two bits v of its hand is told; a search player thinking
    longer with more legal cards and more cards held, and a random one, are not."""
    from arena.results.tell import tells

    rng = random.Random(1)
    sender, honest, search = [], [], []
    for _i in range(600):
        legal, size = rng.randint(1, 6), rng.randint(1, 10)
        hand = sum(1 << c for c in rng.sample(range(40), size))
        v = ((hand >> 3) & 1) * 2 + ((hand >> 17) & 1)
        stratum = legal * 16 + size
        sender.append((10 + 24 * v + rng.random() * 5, hand, stratum))
        honest.append((rng.random() * 20, hand, stratum))
        search.append((legal * 30 + size * 5 + rng.random() * 20, hand, stratum))
    told = {t.entrant: t for t in tells({"s": sender, "h": honest, "b": search}, ["s", "h", "b"])}
    assert told["s"].flagged and told["s"].bits > 0.2
    assert not told["h"].flagged and not told["b"].flagged
    assert math.isnan(tells({"x": sender[:50]}, ["x"])[0].bits)  # too few replies: no verdict


def test_every_timed_card_of_a_partido_is_a_reply_of_the_tell() -> None:
    events: list[dict[str, Any]] = []
    play_partido([Random(s) for s in range(4)], 31, sinks=[events.append])
    played = [e for e in events if e["type"] == "played"]
    replies = list(audit.replies(events))
    assert len(replies) == len(played) and all(ms >= 0 for _s, ms, _h, _k in replies)
    for (seat, _ms, hand, stratum), e in zip(replies, played, strict=True):
        assert seat == e["seat"] and hand >> parse(e["card"]) & 1  # the hand before the card left it
        assert stratum % 16 == hand.bit_count() and 1 <= (stratum // 16) % 16 <= hand.bit_count()
