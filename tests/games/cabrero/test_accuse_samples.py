"""The ``accuse``-policy sample players: ``vigilante`` accuses exactly the proven renuncios,
``tramposo`` renuncia only under ``accuse``; and ``benchmarks/experiments/accuse.py`` runs (as a
script: tests import nothing from benchmarks/)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena import cards, rules
from arena.player.loader import load_player_class
from arena.referee.table import play_partido
from arena.rules import RuleSet
from arena.sdk import Move, Player, PlayRequest
from tests.benchmark_scripts import benchmark_lines
from tests.paths import ROOT

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

SAMPLES = ROOT / "sample_players"
Vigilante = load_player_class(SAMPLES / "vigilante")
Tramposo = load_player_class(SAMPLES / "tramposo")
AMas = load_player_class(SAMPLES / "a_mas")
AMenos = load_player_class(SAMPLES / "a_menos")
ACCUSE = RuleSet(renuncio="accuse")


class Chapucero(Player):
    """Test-only: under ``accuse`` plays a random card it may not play, now and then."""

    name = "Chapucero"

    def __init__(self, seed: int = 0, rate: float = 0.3) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.rate = rate

    def play(self, request: PlayRequest) -> Move:
        legal = request.legal()
        illegal = [c for c in request.hand if c not in legal]
        if illegal and self.view.ruleset.renuncio == "accuse" and self.rng.random() < self.rate:
            return Move(card=self.rng.choice(illegal))
        return Move(card=self.rng.choice(legal))


def play(players: list[Player], seed: int, ruleset: RuleSet = ACCUSE) -> tuple[Any, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    result = play_partido(players, seed, ruleset=ruleset, sinks=[events.append])
    return result, events


def check_vigilance(events: list[dict[str, Any]], watchers: set[int]) -> int:
    """Assert that the ``watchers`` accuse every renuncio as soon as the public play proves it, and
    nothing else; returns the number of renuncios that became proven."""
    proofs = 0
    trump = 0
    bazas: list[list[tuple[int, int]]] = []
    pending = False  # a renuncio is proven and no accusation has ended the mano yet
    for e in events:
        kind = e["type"]
        if kind == "mano_start":
            trump = cards.SUITS.index(e["trump"])
            bazas = [[]]
            pending = False
        elif kind == "trick_end":
            bazas.append([])
        elif kind == "accused":
            if e["by"] in watchers:
                assert e["proven"] is True, e
            pending = False
        elif kind == "played":
            # a watcher whose turn comes while a proof is on the table accuses instead of playing
            assert not (pending and e["seat"] in watchers), e
            bazas[-1].append((e["seat"], cards.parse(e["card"])))
            if not pending and rules.proven_renuncios(bazas, trump):
                pending = True
                proofs += 1
        elif kind == "mano_end":
            # proven at the last card: a watcher's review accuses (a tute may end a mano first)
            assert not pending or e["outcome"] in ("accused", "tute"), e
    return proofs


def test_vigilante_accuses_every_proven_renuncio_and_nothing_else() -> None:
    proofs = 0
    for seed in range(16):
        cheat = seed % 4
        players: list[Player] = [Vigilante() for _ in range(4)]
        players[cheat] = Chapucero(seed)
        result, events = play(players, seed)
        assert not result.faults
        proofs += check_vigilance(events, set(range(4)) - {cheat})
    assert proofs >= 10  # the check was exercised


def test_vigilante_never_accuses_honest_players() -> None:
    for seed in range(8):
        players = [Vigilante(), AMas(), Vigilante(), AMenos()]
        result, events = play(players, seed)
        assert not result.faults
        assert not [e for e in events if e["type"] == "accused"]


def test_tramposo_plays_honestly_unless_the_policy_is_accuse() -> None:
    for ruleset in (RuleSet(), RuleSet(renuncio="penalize")):
        for seed in range(10):
            result, events = play([Tramposo(), AMas(), AMenos(), Vigilante()], seed, ruleset)
            assert not result.faults, (ruleset, seed)
            assert not [e for e in events if e["type"] in ("penalized", "disqualified", "accused")]


def test_tramposo_renuncia_under_accuse_and_stops_once_caught() -> None:
    renuncios = 0
    for seed in range(6):
        _result, events = play([AMas(), Tramposo(), AMenos(), AMas()], seed)
        renuncios += sum(e["type"] == "played" and e.get("renuncio") is True for e in events)
    assert renuncios > 0
    for seed in range(6):
        result, events = play([Vigilante(), Vigilante(), Tramposo(), Vigilante()], seed)
        assert not result.faults
        accused = [e for e in events if e["type"] == "accused"]
        assert len(accused) <= 1  # caught once, its estimate rises and it stops
        assert all(e["seat"] == 2 and e["proven"] for e in accused)
        check_vigilance(events, {0, 1, 3})


def test_benchmark_runs_on_a_tiny_size() -> None:
    out = benchmark_lines("experiments/accuse.py", "--partidos", "1", "--seed", "5", "--workers", "1")
    assert out[0].startswith("accuse policy: 1 deals x 4 rotations per table, seed 5; 16 partidos in "), out
    table = out[1:-1]
    assert table[0].split()[:4] == ["field", "subject", "partidos", "manos"], out
    assert len({len(line) for line in table}) == 1  # aligned columns
    rows = {(r[1], r[0]): r[2:] for r in (line.split() for line in table[1:])}
    assert set(rows) == {(s, f) for s in ("tramposo", "vigilante") for f in ("naive", "vigilant")}, out
    for (subject, _field), row in rows.items():
        partidos, manos, renuncios, faults = row[0], row[1], row[-5], row[-1]
        assert partidos == "4" and int(manos) > 0 and faults == "0"
        if subject == "vigilante":
            assert renuncios == "0"
    assert rows["tramposo", "naive"][-4] == "0"  # caught: nobody there accuses
    assert out[-1].startswith("lost/100, porotos/100: "), out
