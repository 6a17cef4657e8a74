"""The peek audit of Tute por parejas (``arena audit``; :mod:`arena.games.parejas.audit`): a pair that
chooses by the true deal gets a positive excess, honest sample pairs none beyond the draws' bias, the
drawn deals are uniform among those the player's view allows, and a real torneo of pairs is audited
with a row per entrant (a pair).

Also a measurement (not a test)::

    python -m tests.games.parejas.test_audit --partidos 40 --draws 8

plays N partidos of each field (:data:`KINDS`): a pair that sees every hand against ``heuristica``,
a pair that sees its partner's hand only against ``heuristica``, and ``heuristica`` against
``random_legal``; audits them, and prints each pair's mean excess, z and the audit's time per partido.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena import games
from arena.cli import main as cli
from arena.games.common.cards import FULL_DECK, SUITS, cards_of, parse, parse_mask
from arena.games.parejas import audit
from arena.games.parejas import rules as pr
from arena.games.parejas.rules import ParejasRules
from arena.parejas.sdk import Move, ParejasPlayer, ParejasRequest
from arena.player.loader import load_player_class
from arena.referee.table import play_partido
from arena.results import peek
from tests.paths import ROOT

GAME = "tute-parejas"
Heuristica = load_player_class(ROOT / "sample_pairs" / "heuristica")
RandomPair = load_player_class(ROOT / "sample_pairs" / "random_legal")


class Truth:
    """A referee event sink that keeps the true state of the mano (what a peeker reads through some
    channel: a partner process, a kernel counter, reply times)."""

    def __init__(self) -> None:
        self.rules = ParejasRules()
        self.mano_start([[]] * 4, 0)

    def mano_start(self, hands: list[list[str]], trump: int, start: dict[str, Any] | None = None) -> None:
        self.start = start or {}
        self.played: list[tuple[int, int]] = []
        self.sung: list[tuple[int, str]] = []
        self.hands = [parse_mask(h) for h in hands]
        self.trump = trump
        self.table: list[tuple[int, int]] = []
        self.baza = 1
        self.points = [0, 0]
        self.cantos = [0, 0]
        self.sung_suits = 0
        self.has_sung = [False] * 4
        self.last = -1

    def __call__(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        if kind == "partido_start":
            self.rules = ParejasRules.from_dict(e["rules"])
        elif kind == "mano_start":
            self.mano_start(e["hands"], SUITS.index(e["trump"]), e)
        elif kind == "played":
            c = parse(e["card"])
            self.played.append((e["seat"], c))
            self.hands[e["seat"]] &= ~(1 << c)
            self.table.append((e["seat"], c))
        elif kind == "trick_end":
            pair = pr.pair_of(e["winner"])
            self.points[pair] += e["points"]
            self.last, self.table = pair, []
            self.baza += 1
        elif kind == "sang":
            self.sung.append((e["seat"], e["canto"]))
            self.has_sung[e["seat"]] = True
            if e["canto"] != "tute":
                self.sung_suits |= 1 << pr.canto_suit(e["canto"], self.trump)
                self.cantos[pr.pair_of(e["seat"])] += e["points"]

    def sim(self, seat: int) -> audit.Sim:
        return audit.Sim(
            self.hands, self.table, self.trump, seat, self.baza, self.points, self.cantos,
            self.sung_suits, self.has_sung, self.last, self.rules,
        )  # fmt: skip

    def seen(self) -> audit.Seen:
        """The mano's public record, as every seat saw it."""
        e = self.start
        shown = -1 if not e.get("shown") else parse(e["shown"])
        return audit.Seen(
            e["mano"], e["mano_seat"], e["dealer"], self.trump, shown, tuple(self.played), tuple(self.sung),
            self.rules,
        )  # fmt: skip


class Cheater(ParejasPlayer):
    """Plays, among its legal cards, the one best on the TRUE deal by the audit's own value; sings the
    best canto offered, never gives up. ``partner_only``: it sees its partner's hand only (a channel
    between the pair's two processes), and plays the card best on average over deals of the
    opponents' cards drawn given its own, its partner's and the play (:data:`PARTNER_DEALS` of them)."""

    name = "Tramposo"

    def __init__(self, truth: Truth, seed: int = 9, rollouts: int = 8, partner_only: bool = False) -> None:
        super().__init__()
        self.truth = truth
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.partner_only = partner_only

    def play(self, request: ParejasRequest) -> Move | str | None:
        if request.kind == "sing":
            return Move(sing=request.may_sing[0])
        if request.kind == "tirar":
            return None
        if len(request.legal) == 1:
            return request.legal[0]
        me = self.view.seat
        sim = self.truth.sim(me)
        assert sim.hands[me] == parse_mask(request.hand), "the truth is out of step"
        if not self.partner_only:
            return max(request.legal, key=lambda c: audit.card_value(sim, parse(c), self.rng, self.rollouts))
        know = audit.infer(self.truth.seen(), me, sim.hands[me])
        partner = pr.partner(me)
        known = {**know.known, **{c: partner for c in cards_of(sim.hands[partner])}}
        dealer = audit.Dealer(know._replace(known=known))
        totals = dict.fromkeys(request.legal, 0.0)
        for _d in range(PARTNER_DEALS):
            drawn = sim.clone()
            for s, h in dealer.deal(self.rng).items():
                drawn.hands[s] = h
            for c in request.legal:
                totals[c] += audit.card_value(drawn, parse(c), self.rng, self.rollouts // 2)
        return max(request.legal, key=lambda c: totals[c])


PARTNER_DEALS = 6
"""Deals of the opponents' cards a partner-only peeker weighs its cards over."""
KINDS = {
    "omniscient": ("tramposo", "heuristica2"),
    "partner": ("socio", "heuristica2"),
    "honest": ("heuristica", "azar"),
}
"""The fields: the first entrant (the cheater, or an honest pair) and its opponents."""


def _field(
    partidos: int, kind: str, draws: int, every: int = 1, seed: int = 0
) -> tuple[list[tuple[str, str, list[str]]], dict[str, list[list[float]]], float]:
    """``partidos`` partidos of a pair (:data:`KINDS`: a cheater that sees every hand, one that sees its
    partner's, or ``heuristica``) against ``heuristica`` (against ``random_legal`` for the honest
    field), the pairs swapping sides each partido; their audits as ``arena audit`` keeps them (by
    pair: the entrant), and the audit's CPU seconds."""
    names = KINDS[kind]
    records, found = [], {}
    spent = 0.0
    for i in range(partidos):
        truth = Truth()
        if kind == "honest":
            pairs = [(Heuristica(), Heuristica()), (RandomPair(), RandomPair())]
        else:
            only = kind == "partner"
            cheaters = (
                Cheater(truth, seed + i, partner_only=only),
                Cheater(truth, seed + i + 1000, partner_only=only),
            )
            pairs = [cheaters, (Heuristica(), Heuristica())]
        side = i % 2  # the side the first entrant sits on
        order = [pairs[side], pairs[1 - side]]
        players = [order[0][0], order[1][0], order[0][1], order[1][1]]
        entrants = [names[side], names[1 - side]]
        events: list[dict[str, Any]] = []
        play_partido(
            players,
            10_000 * seed + i,
            names=[entrants[s % 2] + ("#2" if s > 1 else "") for s in range(4)],
            sinks=[truth, events.append],
            partido_id=f"p{i}",
            game=GAME,
        )
        t0 = time.process_time()
        spec = games.spec(GAME)
        assert spec.audit is not None
        found[f"p{i}"] = [[s, x, int(late)] for s, x, late in spec.audit(events, draws, every)]
        spent += time.process_time() - t0
        records.append((f"p{i}", "", list(entrants)))
    return records, found, spent


def _mean(found: dict[str, list[list[float]]], records: list[tuple[str, str, list[str]]], name: str) -> float:
    values = [x for pid, _r, players in records for s, x, *_late in found[pid] if players[int(s)] == name]
    return sum(values) / len(values)


# ---------------------------------------------------------------- (a) a cheater, honest pairs


def test_a_pair_that_plays_by_the_true_deal_has_a_clearly_positive_excess() -> None:
    records, found, _cpu = _field(6, "omniscient", draws=4, every=2)
    assert _mean(found, records, "tramposo") > 0.03
    assert abs(_mean(found, records, "heuristica2")) < 0.03


@pytest.mark.slow  # plays and audits 2 × 20 partidos (about a minute)
def test_the_peek_test_flags_the_cheating_pair_and_no_honest_pair() -> None:
    records, found, _cpu = _field(20, "omniscient", draws=6)
    verdicts = {v.entrant: v for v in peek.verdicts(records, found, ["tramposo", "heuristica2"])}
    assert verdicts["tramposo"].flagged and verdicts["tramposo"].excess > 3 * peek.MIN_EXCESS, verdicts
    assert not verdicts["heuristica2"].flagged, verdicts
    records, found, _cpu = _field(20, "honest", draws=6)
    honest = peek.verdicts(records, found, ["heuristica", "azar"])
    assert not any(v.flagged for v in honest), honest


def test_an_honest_random_choice_has_no_excess_on_average() -> None:
    events: list[dict[str, Any]] = []
    play_partido([RandomPair() for _s in range(4)], 77, sinks=[events.append], game=GAME)
    excesses = [d.excess for d in audit.decisions(events, draws=4, every=3)]
    assert len(excesses) > 15 and abs(sum(excesses) / len(excesses)) < 0.05


# ---------------------------------------------------------------- (b) deterministic


def test_the_audit_is_deterministic_for_a_fixed_seed() -> None:
    events: list[dict[str, Any]] = []
    play_partido(
        [Heuristica(), RandomPair(), Heuristica(), RandomPair()], 5, sinks=[events.append], game=GAME
    )
    first = list(audit.decisions(events, draws=3, every=4))
    assert first and first == list(audit.decisions(events, draws=3, every=4))
    assert first != list(audit.decisions(events, draws=3, every=4, seed=1))  # the seed draws other deals
    played = [e for e in events if e["type"] == "played"]
    assert len(list(audit._walk(events))) == len(played)  # it follows the whole partido


# ---------------------------------------------------------------- what the player could see


def _partidos(ruleset: str) -> list[list[dict[str, Any]]]:
    out = []
    for seed in range(3):
        events: list[dict[str, Any]] = []
        players = [Heuristica(), RandomPair(), RandomPair(), Heuristica()]
        play_partido(players, seed, ruleset={"ruleset": ruleset}, sinks=[events.append], game=GAME)
        out.append(events)
    return out


@pytest.mark.parametrize("ruleset", ["ludoteka", "espanol"])
def test_the_true_deal_is_always_one_the_player_could_be_facing(ruleset: str) -> None:
    """What :func:`audit.infer` says the play proves holds of the true hands, at every card played,
    under both rulesets' P13 (the partner's hand as hidden as the opponents')."""
    checked = 0
    for events in _partidos(ruleset):
        played = [e for e in events if e["type"] == "played"]
        assert len(list(audit._walk(events))) == len(played)  # the passes and tirar inferred, all followed
        for p, public, e in audit._walk(events):
            m = p.mano
            assert m is not None
            me = e["seat"]
            know = audit.infer(public.seen(), me, m.hands[me])
            others = [s for s in range(4) if s != me]
            assert sorted(know.counts) == others and pr.partner(me) in know.counts
            held = 0
            for s in others:
                assert m.hands[s].bit_count() == know.counts[s]
                assert not m.hands[s] & know.forbidden[s], (ruleset, s, e)
                held |= m.hands[s]
            assert held == know.unseen
            assert all(m.hands[s] >> c & 1 for c, s in know.known.items())
            checked += 1
    assert checked > 300


def test_the_deals_drawn_are_uniform_among_the_consistent_ones() -> None:
    """Six unseen cards to three seats, two each, with voids: every consistent deal is drawn, and
    equally often (a chi-square well below its 0.1% point)."""
    unseen = parse_mask(["1-oro", "3-oro", "1-copa", "3-copa", "1-espada", "1-basto"])
    cards = cards_of(unseen)
    forbidden = {1: parse_mask(["1-oro", "3-oro"]), 2: parse_mask(["1-copa"]), 3: 0}
    know = audit.Knowledge(0, {1: 2, 2: 2, 3: 2}, unseen, {parse("1-basto"): 3}, forbidden)
    consistent = set()
    for seats in itertools.product((1, 2, 3), repeat=len(cards)):
        hands = {s: sum(1 << c for c, t in zip(cards, seats, strict=True) if t == s) for s in (1, 2, 3)}
        if all(h.bit_count() == 2 and not h & forbidden[s] for s, h in hands.items()) and (
            hands[3] >> parse("1-basto") & 1
        ):
            consistent.add(tuple(sorted(hands.items())))
    dealer = audit.Dealer(know)
    assert dealer._count(0, dealer.cap) == len(consistent)
    rng = random.Random(3)
    n = 400 * len(consistent)
    seen: dict[tuple[tuple[int, int], ...], int] = {}
    for _i in range(n):
        deal = tuple(sorted(dealer.deal(rng).items()))
        seen[deal] = seen.get(deal, 0) + 1
    assert set(seen) == consistent
    expected = n / len(consistent)
    chi2 = sum((k - expected) ** 2 / expected for k in seen.values())
    df = len(consistent) - 1
    assert chi2 < df + 3.1 * math.sqrt(2 * df) + 10, (chi2, df)


def test_contradictory_voids_fall_back_to_the_counts() -> None:
    unseen = FULL_DECK & ~((1 << 34) - 1)  # six bastos
    know = audit.Knowledge(0, {1: 2, 2: 2, 3: 2}, unseen, {}, {1: unseen, 2: unseen, 3: 0})
    hands = audit.Dealer(know).deal(random.Random(1))
    assert all(h.bit_count() == 2 for h in hands.values()) and sum(hands.values()) == unseen


def test_every_timed_card_of_a_partido_is_a_reply_of_the_tell() -> None:
    events: list[dict[str, Any]] = []
    play_partido(
        [Heuristica(), RandomPair(), Heuristica(), RandomPair()], 8, sinks=[events.append], game=GAME
    )
    played = [e for e in events if e["type"] == "played"]
    replies = list(audit.replies(events))
    assert len(replies) == len(played) and all(ms >= 0 for _s, ms, _h, _k in replies)
    for (seat, _ms, hand, stratum), e in zip(replies, played, strict=True):
        assert seat == e["seat"] and hand >> parse(e["card"]) & 1  # the hand before the card left it
        assert stratum % 16 == hand.bit_count() and 1 <= (stratum // 16) % 16 <= hand.bit_count()
    spec = games.spec(GAME)
    assert spec.tell is not None
    assert [s for s, _ms, _h, _k in spec.tell(events)] == [e["seat"] % 2 for e in played]  # by pair


# ---------------------------------------------------------------- (c) arena audit on a torneo of pairs


def test_arena_audit_of_a_torneo_of_pairs_writes_a_row_per_pair(tmp_path: Path) -> None:
    folder = tmp_path / "torneo"
    runner = CliRunner()
    pairs = ROOT / "sample_pairs"
    args = ["tournament", "--game", "parejas", str(pairs / "heuristica"), str(pairs / "random_legal")]
    args += ["--rounds", "2", "--seed", "3", "--sandbox", "none", "--out", str(folder)]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    audited = runner.invoke(
        cli, ["audit", str(folder), "--workers", "1", "--draws", "2", "--every", "6", "--lang", "en"]
    )
    assert audited.exit_code == 0, audited.output
    rows = (folder / "audit.csv").read_text().splitlines()
    assert rows[0].startswith("entrant,partidos,decisions") and len(rows) == 3
    assert {r.split(",")[0] for r in rows[1:]} == {"heuristica", "random_legal"}
    assert all(int(r.split(",")[2]) > 0 for r in rows[1:])  # decisions of both seats of each pair


# ---------------------------------------------------------------- the measurement


def measure() -> None:
    parser = argparse.ArgumentParser(description="The peek audit of Tute por parejas: cheater and honest.")
    parser.add_argument("--partidos", type=int, default=40)
    parser.add_argument("--draws", type=int, default=audit.DRAWS)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", nargs="+", default=list(KINDS), choices=list(KINDS))
    args = parser.parse_args()
    for kind in args.kinds:
        records, found, cpu = _field(args.partidos, kind, args.draws, args.every, args.seed)
        print(f"{kind}:")
        for v in peek.verdicts(records, found, KINDS[kind]):
            print(
                f"{v.entrant:12} partidos {v.partidos} decisions {v.decisions} excess {v.excess:+.4f} "
                f"z {v.z:.1f} p_corr {v.p_corrected:.2g} flagged {v.flagged}"
            )
        print(f"audit CPU per partido: {cpu / args.partidos:.2f} s (draws {args.draws}, every {args.every})")


if __name__ == "__main__":
    measure()
