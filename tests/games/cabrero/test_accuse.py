"""The ``accuse`` renuncio policy (rule 25.4; rules.md "accuse", protocol.md and replay.md "The accuse
policy"): renuncios accepted and marked, accusations with a play or in the review, the first ends the
mano, proven -> the accused gives up two porotos, not proven -> the accuser one.

Partidos are driven here straight on the engine (``Partido.play``), by small scripted deciders, so
each case is exact; the referee's and the protocol's part is tested at the end.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import protocol
from arena.cards import NAMES, parse
from arena.engine import IllegalMove, Partido
from arena.games.common import replies
from arena.protocol import ProtocolError
from arena.referee.stats import partido_stats
from arena.referee.table import play_partido
from arena.rules import STARTING_POROTOS, RulesError, RuleSet, legal_mask, proven_renuncios
from arena.sdk import Player, PlayRequest
from tests.paths import BOTS, ROOT

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

ACCUSE = RuleSet(renuncio="accuse")
Decide = Callable[[Partido, int, dict[str, Any]], tuple[str | None, int | None]]
"""A scripted seat: (partido, seat, request) -> (card, accused seat)."""


def honest(p: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
    if request["type"] == "review":
        return None, None
    m = p.mano
    assert m is not None
    return NAMES[
        (
            legal_mask(m.hands[seat], m.lead, m.winning, m.trump)
            & -legal_mask(m.hands[seat], m.lead, m.winning, m.trump)
        ).bit_length()
        - 1
    ], None


def illegal_card(p: Partido, seat: int) -> str | None:
    """A card ``seat`` holds but may not play now, or None."""
    m = p.mano
    assert m is not None
    bad = m.hands[seat] & ~legal_mask(m.hands[seat], m.lead, m.winning, m.trump)
    return NAMES[(bad & -bad).bit_length() - 1] if bad else None


def cheat_once(p: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
    """Renuncia at its first chance in each mano."""
    if request["type"] == "play" and seat not in p.renuncios:
        card = illegal_card(p, seat)
        if card is not None:
            return card, None
    return honest(p, seat, request)


def accuse_first(target: int | None = None, when: str = "play", caught: bool = False) -> Decide:
    """Accuses ``target`` (None: anyone) at its first chance of kind ``when`` (``play`` or ``review``);
    ``caught``: only once it renunció (the script peeks at the engine)."""

    def decide(p: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
        may = [
            s
            for s in request.get("may_accuse", [])
            if (target is None or s == target) and (not caught or s in p.renuncios)
        ]
        if request["type"] == when and may:
            return None, may[0]
        return honest(p, seat, request)

    return decide


def drive(p: Partido, seats: dict[int, Decide], until: Callable[[Partido], bool] | None = None) -> None:
    """Play ``p`` with a decider per seat (honest where none) until it is over, or ``until`` holds."""
    while not p.over and not (until and until(p)):
        seat = p.to_move
        assert seat is not None
        request = p.request()
        card, accused = seats.get(seat, honest)(p, seat, request)
        p.play(card, None, accused)


def one_mano(p: Partido) -> Callable[[Partido], bool]:
    return lambda q: q.mano_number > 1


def mano_end(p: Partido, mano: int = 1) -> dict[str, Any]:
    return next(e for e in p.events if e["type"] == "mano_end" and e["mano"] == mano)


# ---------------------------------------------------------------- the policy's lines


def test_a_renuncio_is_accepted_marked_and_not_shown_to_players() -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {0: cheat_once}, until=lambda q: bool(q.renuncios))
    marked = [e for e in p.events if e["type"] == "played" and e.get("renuncio")]
    assert len(marked) == 1 and marked[0]["seat"] == 0
    assert all(
        p.view(e, s) == {"type": "played", "seat": 0, "card": marked[0]["card"]}
        for s in range(4)
        for e in marked
    )
    assert not p.disqualified


def test_only_under_accuse_is_a_renuncio_played() -> None:
    p = Partido(4, 3)
    drive(p, {}, until=lambda q: illegal_card(q, q.to_move) is not None)  # type: ignore[arg-type]
    seat = p.to_move
    with pytest.raises(IllegalMove) as exc:
        p.play(illegal_card(p, seat))  # type: ignore[arg-type]
    assert exc.value.reason == "renuncio"
    with pytest.raises(IllegalMove, match="accuse"):
        p.play(None, None, 1)
    assert "may_accuse" not in p.request()


@pytest.mark.parametrize("when", ["play", "review"])
def test_a_proven_accusation_costs_the_accused_the_mano_and_two_porotos(when: str) -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {0: cheat_once, 1: accuse_first(0, when, caught=True)}, until=one_mano(p))
    accused = next(e for e in p.events if e["type"] == "accused")
    assert accused == {"type": "accused", "by": 1, "seat": 0, "proven": True}
    end = mano_end(p)
    assert end["outcome"] == "accused" and end["scores"] is None and end["losers"] == [0]
    assert end["porotos"] == [STARTING_POROTOS - 2, STARTING_POROTOS, STARTING_POROTOS, STARTING_POROTOS]
    assert p.events[p.events.index(accused) + 1] is end  # the accusation ends the mano at once


def test_accusing_a_player_who_never_renuncio_costs_the_accuser_one() -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {2: accuse_first(0)}, until=one_mano(p))
    end = mano_end(p)
    assert next(e for e in p.events if e["type"] == "accused")["proven"] is False
    assert end["outcome"] == "accused" and end["losers"] == [2]
    assert end["porotos"][2] == STARTING_POROTOS - 1 and sum(end["porotos"]) == 4 * STARTING_POROTOS - 1


def test_an_accusation_on_the_last_baza() -> None:
    p = Partido(4, 3, ACCUSE)

    def last_baza(q: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
        m = q.mano
        assert m is not None
        if request["type"] == "play" and m.baza == m.nbazas and request["may_accuse"]:
            return None, 0 if 0 in request["may_accuse"] else request["may_accuse"][0]
        return honest(q, seat, request)

    drive(p, {0: cheat_once, 1: last_baza, 2: last_baza, 3: last_baza}, until=one_mano(p))
    bazas = [e for e in p.events if e["type"] == "trick_end"]
    accused = next(e for e in p.events if e["type"] == "accused")
    assert [t["trick"] for t in bazas] == list(range(1, 10))  # the tenth never ended: it was cut short
    if bazas[-1]["winner"] != 0:  # its leader spoke first
        assert accused["by"] == bazas[-1]["winner"]
    assert accused["proven"] is (accused["seat"] in {e["seat"] for e in p.events if e.get("renuncio")})
    assert mano_end(p)["outcome"] == "accused"


def test_every_dealt_in_player_reviews_in_turn_from_the_mano_then_the_mano_is_scored() -> None:
    p = Partido(4, 3, ACCUSE)
    reviewed: list[int] = []

    def quiet(q: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
        if request["type"] == "review":
            reviewed.append(seat)
            assert request["may_accuse"] == [s for s in q.mano.order if s != seat]  # type: ignore[union-attr]
        return honest(q, seat, request)

    drive(p, dict.fromkeys(range(4), quiet), until=one_mano(p))
    m_start = next(e for e in p.events if e["type"] == "mano_start")
    order = [(m_start["mano_seat"] + i) % 4 for i in range(4)]
    assert reviewed == order
    assert mano_end(p)["outcome"] in ("points", "capote")  # a renuncio nobody accuses stands


def test_a_renuncio_nobody_accuses_stands() -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {0: cheat_once}, until=one_mano(p))
    assert any(e.get("renuncio") for e in p.events) and mano_end(p)["outcome"] in ("points", "capote")
    assert "accused" not in [e["type"] for e in p.events]


def test_two_players_accusing_only_the_first_counts() -> None:
    p = Partido(4, 3, ACCUSE)
    everyone = accuse_first(None, "review")
    drive(p, {0: cheat_once, 1: everyone, 2: everyone, 3: everyone}, until=one_mano(p))
    accusations = [e for e in p.events if e["type"] == "accused"]
    start = next(e for e in p.events if e["type"] == "mano_start")
    order = [(start["mano_seat"] + i) % 4 for i in range(4)]  # the reviews go in turn from the mano
    first = next(s for s in order if s != 0)  # seat 0 reviews quietly; the next accuses
    assert len(accusations) == 1 and accusations[0]["by"] == first
    assert mano_end(p)["outcome"] == "accused" and not p.reviews and p.mano_number == 2


def test_only_a_seat_that_played_may_be_accused_and_never_oneself() -> None:
    p = Partido(4, 3, ACCUSE)
    assert p.request()["may_accuse"] == []
    with pytest.raises(IllegalMove, match="no puede acusar"):
        p.play(None, None, 1)
    seat = p.to_move
    p.play(*honest(p, seat, p.request()))  # type: ignore[arg-type]
    nxt = p.to_move
    assert p.request()["may_accuse"] == [seat]
    with pytest.raises(IllegalMove, match="no puede acusar"):
        p.play(None, None, nxt)
    with pytest.raises(IllegalMove, match="no lleva carta"):
        p.play("1-oro", None, seat)


def test_renuncios_of_an_earlier_mano_can_no_longer_be_accused() -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {0: cheat_once}, until=one_mano(p))
    assert p.mano_number == 2 and p.renuncios == [] and p.request()["may_accuse"] == []


def test_a_card_not_in_hand_and_a_false_canto_still_disqualify() -> None:
    p = Partido(4, 3, ACCUSE)
    seat = p.to_move
    held = p.mano.hands[seat]  # type: ignore[union-attr]
    absent = next(NAMES[c] for c in range(40) if not held >> c & 1)
    with pytest.raises(IllegalMove) as exc:
        p.play(absent)
    assert exc.value.reason == "not_in_hand"
    assert p.fault(seat, "not_in_hand", "x") and seat in p.disqualified  # type: ignore[arg-type]
    q = Partido(4, 3, ACCUSE)
    drive(q, {}, until=lambda r: bool(r.mano and r.mano.may_sing))  # a baza's leader, who may sing
    singer = q.to_move
    false = next(
        c
        for c in ("cuarenta", "veinte-oro", "veinte-copa", "veinte-espada", "veinte-basto")
        if c not in q.mano.cantos()
    )  # type: ignore[union-attr]
    with pytest.raises(IllegalMove) as sung:
        q.play(honest(q, singer, q.request())[0], false)  # type: ignore[arg-type]
    assert sung.value.reason == "false_canto"
    assert q.fault(singer, "false_canto", "x") and singer in q.disqualified  # type: ignore[arg-type]
    assert [e["type"] for e in q.events[-3:-1]] == ["disqualified", "mano_end"]


def test_a_fault_during_the_review_voids_the_unscored_mano() -> None:
    p = Partido(4, 3, ACCUSE)
    drive(p, {}, until=lambda q: bool(q.reviews))
    reviewer = p.to_move
    assert p.fault(reviewer, "timeout", "too slow")  # type: ignore[arg-type]
    assert mano_end(p)["outcome"] == "void" and not p.reviews


@pytest.mark.parametrize("n", [3, 6])
def test_accuse_with_three_and_six_players(n: int) -> None:
    for seed in range(1, 30):
        p = Partido(n, seed, ACCUSE)
        drive(p, {0: cheat_once, 1: accuse_first(0, "review")}, until=one_mano(p))
        start = next(e for e in p.events if e["type"] == "mano_start")
        assert (start["sitting_out"] is not None) is (n == 6)  # six: the dealer sits out
        if any(e.get("renuncio") and e["seat"] == 0 for e in p.events) and start["sitting_out"] not in (0, 1):
            end = mano_end(p)
            assert (
                end["outcome"] == "accused"
                and end["losers"] == [0]
                and end["porotos"][0] == STARTING_POROTOS - 2
            )
            return
    pytest.fail("no seed made seat 0 renunciar")


def test_the_six_player_dealer_takes_no_part_in_the_review() -> None:
    for seed in range(1, 10):
        p = Partido(6, seed, ACCUSE)
        asked: list[int] = []

        def quiet(
            q: Partido, seat: int, request: dict[str, Any], asked: list[int] = asked
        ) -> tuple[str | None, int | None]:
            if request["type"] == "review":
                asked.append(seat)
            return honest(q, seat, request)

        drive(p, dict.fromkeys(range(6), quiet), until=one_mano(p))
        out = next(e for e in p.events if e["type"] == "mano_start")["sitting_out"]
        assert out not in asked and len(asked) == 5


# ---------------------------------------------------------------- every verdict re-derived (property)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), cheat=st.floats(0, 1), nose=st.floats(0, 0.2))
def test_every_verdict_follows_from_the_marked_cards(seed: int, n: int, cheat: float, nose: float) -> None:
    import random

    rng = random.Random(seed)

    def wild(p: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
        if request.get("may_accuse") and rng.random() < nose:
            return None, rng.choice(request["may_accuse"])
        if request["type"] == "play" and rng.random() < cheat and illegal_card(p, seat):
            return illegal_card(p, seat), None
        return honest(p, seat, request)

    p = Partido(n, seed, ACCUSE)
    drive(p, dict.fromkeys(range(n), wild))
    porotos = [STARTING_POROTOS] * n
    marked: set[int] = set()
    for e in p.events:
        if e["type"] == "mano_start":
            marked = set()
            assert e["porotos"] == porotos
        elif e["type"] == "played" and e.get("renuncio"):
            marked.add(e["seat"])
        elif e["type"] == "accused":
            assert e["proven"] is (e["seat"] in marked) and e["by"] != e["seat"]
            verdict = e
        elif e["type"] == "mano_end":
            if e["outcome"] == "accused":
                loser = verdict["seat"] if verdict["proven"] else verdict["by"]
                assert e["losers"] == [loser] and e["scores"] is None
                porotos[loser] -= 2 if verdict["proven"] else 1
            else:
                for s in e["losers"]:
                    porotos[s] -= 1
            assert e["porotos"] == porotos
    stats = partido_stats(
        [{"type": "partido_start", "players": list(range(n)), "rules": ACCUSE.to_dict()}, *p.events]
    )
    assert sum(s["porotos_perdidos"] for s in stats) == n * STARTING_POROTOS - sum(porotos)
    assert sum(s["renuncios"] for s in stats) == sum(1 for e in p.events if e.get("renuncio"))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 6), cheat=st.floats(0, 1))
def test_what_the_public_play_proves_is_always_a_renuncio(seed: int, n: int, cheat: float) -> None:
    """Soundness of :func:`arena.rules.proven_renuncios` (the SDK's ``proven_renuncios``)."""
    import random

    rng = random.Random(seed)

    def wild(p: Partido, seat: int, request: dict[str, Any]) -> tuple[str | None, int | None]:
        if request["type"] == "play" and rng.random() < cheat and illegal_card(p, seat):
            return illegal_card(p, seat), None
        return honest(p, seat, request)

    p = Partido(n, seed, ACCUSE)
    drive(p, dict.fromkeys(range(n), wild), until=one_mano(p))
    bazas = [
        [(c["seat"], parse(c["card"])) for c in e["cards"]] for e in p.events if e["type"] == "trick_end"
    ]
    trump = ["oro", "copa", "espada", "basto"].index(
        next(e for e in p.events if e["type"] == "mano_start")["trump"]
    )
    marked = {(e["seat"], parse(e["card"])) for e in p.events if e["type"] == "played" and e.get("renuncio")}
    for seat, found in proven_renuncios(bazas, trump).items():
        assert all((seat, c) in marked for c in found)


def test_a_renuncio_later_shown_is_proven() -> None:
    # trump oro; baza 1: seat 1 does not follow copa; baza 2: it plays a copa -> proven.
    t = [
        [(0, parse("1-copa")), (1, parse("2-espada")), (2, parse("4-copa"))],
        [(1, parse("3-copa")), (2, parse("5-copa"))],
    ]
    assert proven_renuncios(t, 0) == {1: [parse("2-espada")]}
    assert proven_renuncios(t[:1], 0) == {}  # not yet shown


# ---------------------------------------------------------------- protocol, SDK and referee


PLAY = {"type": "play", "id": 3, "may_sing": False, "may_accuse": [0, 2]}
REVIEW = {"type": "review", "id": 4, "may_accuse": [0, 2]}


def test_accusation_replies_are_read_strictly() -> None:
    assert replies.decision_of({"type": "accuse", "id": 3, "seat": 2}, PLAY) == (None, None, 2)
    assert replies.decision_of({"type": "play", "id": 3, "card": "1-oro"}, PLAY) == ("1-oro", None, None)
    assert replies.decision_of({"type": "review", "id": 4, "accuse": None}, REVIEW) == (None, None, None)
    assert replies.decision_of({"type": "review", "id": 4, "accuse": 0}, REVIEW) == (None, None, 0)
    for reply, request in (
        ({"type": "accuse", "id": 3, "seat": 1}, PLAY),  # not in may_accuse
        ({"type": "accuse", "id": 3, "seat": True}, {**PLAY, "may_accuse": [1]}),
        ({"type": "accuse", "id": 3}, PLAY),
        ({"type": "accuse", "id": 3, "seat": 0}, {"type": "play", "id": 3, "may_sing": False}),  # not accuse
        ({"type": "review", "id": 4}, REVIEW),
        ({"type": "review", "id": 4, "accuse": 3}, REVIEW),
        ({"type": "review", "id": 4, "accuse": None, "card": "1-oro"}, REVIEW),
        ({"type": "play", "id": 4, "card": "1-oro"}, REVIEW),
    ):
        with pytest.raises(ProtocolError):
            replies.decision_of(reply, request)


def test_the_policy_is_tute_cabreros_only() -> None:
    from arena.parejas.rules import ParejasRules

    with pytest.raises(RulesError, match="accuse"):
        ParejasRules(renuncio="accuse")
    assert RuleSet(renuncio="accuse").to_dict()["renuncio"] == "accuse"


class _Cheat(Player):
    def play(self, request: PlayRequest) -> str:
        bad = [c for c in request.hand if c not in request.legal()]
        return bad[0] if bad and not self.view.sung else request.legal()[0]


def _vigil() -> Player:
    """The ``acusa_lo_probado`` test bot, noting the ``accused`` events it is told."""
    from arena.player.loader import load_player_class

    class Vigil(load_player_class(BOTS / "acusa_lo_probado")):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.told: list[dict[str, Any]] = []

        def on_accused(self, event: dict[str, Any]) -> None:
            self.told.append(event)

    return Vigil()


def test_sdk_players_accuse_through_the_referee_and_stats_count_it(tmp_path: Path) -> None:
    replay = tmp_path / "r.jsonl"
    vigils: list[Any] = [_vigil(), _vigil()]
    result = play_partido([_Cheat(), vigils[0], _Cheat(), vigils[1]], 7, ruleset=ACCUSE, replay=str(replay))
    events = [json.loads(line) for line in replay.read_text().splitlines()]
    accused = [e for e in events if e["type"] == "accused"]
    assert accused and all(e["proven"] and e["by"] in (1, 3) for e in accused)
    assert vigils[0].told == vigils[1].told == accused  # every player is told, as the replay has it
    assert not result.faults
    stats = partido_stats(events)
    assert stats[1]["acusaciones_bien"] + stats[3]["acusaciones_bien"] == len(accused)
    assert stats[0]["renuncios_cazados"] + stats[2]["renuncios_cazados"] == len(accused)
    assert stats[0]["renuncios"] + stats[2]["renuncios"] >= len(accused)


# ---------------------------------------------------------------- processes, torneo, workbook


def test_a_torneo_under_accuse_counts_renuncios_and_accusations(tmp_path: Path) -> None:
    import shutil
    import sqlite3

    import openpyxl
    from click.testing import CliRunner

    from arena.cli.torneo import tournament
    from arena.tournament.store import Store

    players = tmp_path / "players"
    shutil.copytree(BOTS / "renuncia_si_puede", players / "tramposa")
    shutil.copytree(BOTS / "acusa_lo_probado", players / "vigila")
    shutil.copytree(ROOT / "sample_players" / "a_mas", players / "a_mas")
    shutil.copytree(ROOT / "sample_players" / "a_menos", players / "a_menos")
    out = tmp_path / "t"
    args = [str(players), "--renuncio", "accuse", "--rounds", "2", "--seed", "9", "--out", str(out)]
    run = CliRunner().invoke(tournament, [*args, "--workers", "2"])
    assert run.exit_code == 0, run.output
    with Store.open(out) as store:
        totals = store.accusation_totals()
        names = [e.name for e in store.entrants()]
        replays = [out / r.replay for r in store.results()]
        assert not any(r.faults for r in store.results())  # renuncios are no faults under accuse
    made = caught = right = wrong = 0
    for path in replays:
        stats = partido_stats([json.loads(line) for line in path.read_text().splitlines()])
        made += sum(s["renuncios"] for s in stats)
        caught += sum(s["renuncios_cazados"] for s in stats)
        right += sum(s["acusaciones_bien"] for s in stats)
        wrong += sum(s["acusaciones_mal"] for s in stats)
    cheat, vigil = names.index("tramposa"), names.index("vigila")
    assert totals[cheat]["renuncios"] == made > 0 and wrong == 0
    assert totals[cheat]["renuncios_cazados"] == caught == right == totals[vigil]["acusaciones_bien"] > 0
    sheet = list(openpyxl.load_workbook(out / "standings.xlsx")["Posiciones"].iter_rows(values_only=True))
    at = next(i for i, r in enumerate(sheet) if "Jugador" in r)  # the table's header, below the notes
    header = list(sheet[at])
    rows = {r[header.index("Jugador")]: r for r in sheet[at + 1 :] if r[header.index("Jugador")]}
    assert rows["tramposa"][header.index("Renuncios hechos")] == made
    assert rows["vigila"][header.index("Acusaciones acertadas")] == right
    db = sqlite3.connect(out / "torneo.sqlite")
    assert db.execute("SELECT COUNT(*) FROM accusations").fetchone()[0] > 0
    db.close()


def test_a_cabrero_workbook_has_no_accusation_columns(tmp_path: Path) -> None:
    from arena.results.standings import standings

    recs = [
        {
            "partido": "p1",
            "seed": 1,
            "players": ["a", "b", "c"],
            "winners": [0, 1],
            "ranking": [[0, 1], [2]],
            "manos": 1,
            "faults": [],
            "replay": "",
            "stats": [
                {
                    "manos": 1,
                    "manos_perdidas": 0,
                    "porotos_perdidos": 0,
                    "capotes": 0,
                    "tutes": 0,
                    "cantos": 0,
                    "faults": [],
                    "reply_ms": [1.0],
                    "won": True,
                    "place": 1.5,
                }
            ]
            * 3,
        }
    ]
    assert "renuncios" not in standings(recs, ["a", "b", "c"], [], 20).columns


def test_check_under_accuse_plays_reviews_over_the_protocol(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from arena.cli.student import check

    run = CliRunner().invoke(
        check,
        [
            str(BOTS / "acusa_lo_probado"),
            "--renuncio",
            "accuse",
            "--partidos",
            "3",
            "--seed",
            "5",
            "--out",
            str(tmp_path / "c"),
        ],
    )
    assert run.exit_code == 0, run.output
    replays = sorted((tmp_path / "c").glob("partido-*.jsonl"))
    heads = [json.loads(p.read_text().splitlines()[0]) for p in replays]
    assert all(h["rules"]["renuncio"] == "accuse" for h in heads)


# ---------------------------------------------------------------- hostile replies to the new requests

_SCALARS = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
_REQUESTS = [
    {"type": "play", "id": 5, "may_sing": True, "may_accuse": [0, 2]},  # Cabrero under accuse
    {"type": "review", "id": 5, "may_accuse": [1, 3]},
    {"type": "play", "id": 5, "legal": ["1-oro"], "may_sing": [], "may_concede": False},  # parejas: a card
    {"type": "play", "id": 5, "legal": [], "may_sing": ["cuarenta"], "may_concede": False},  # a canto
    {"type": "play", "id": 5, "legal": [], "may_sing": [], "may_concede": True},  # tirar
]


@settings(max_examples=600, deadline=None)
@given(
    which=st.integers(0, len(_REQUESTS) - 1),
    kind=st.sampled_from(["play", "accuse", "review", "ready", 7, None]),
    rid=st.sampled_from([5, 6, "5", True, None]),
    extra=st.dictionaries(st.sampled_from(["card", "sing", "seat", "accuse", "x"]), _VALUES, max_size=3),
)
def test_any_reply_to_the_new_requests_is_judged(
    which: int, kind: Any, rid: Any, extra: dict[str, Any]
) -> None:
    """Whatever a player sends to an accuse, review or pair request: a decision, or a ProtocolError with
    the line — never another exception (the referee's one path from bytes to a fault)."""
    request = _REQUESTS[which]
    obj = {"type": kind, "id": rid, **extra}
    try:
        line = json.dumps(obj, allow_nan=True).encode()
    except (ValueError, OverflowError):
        return
    try:
        protocol.judge_reply(line, request, replies.decision_of)
    except ProtocolError as exc:
        assert exc.detail and exc.line is not None


def test_a_bot_accusing_a_seat_that_does_not_exist_is_disqualified_and_the_partido_goes_on(
    tmp_path: Path,
) -> None:
    from arena.referee.players import find_player
    from arena.referee.table import play_folders

    specs = [
        find_player(BOTS / "hostile_accuse"),
        *(find_player(ROOT / "sample_players" / n) for n in ("a_mas", "a_menos", "random_legal")),
    ]
    result, incidents = play_folders(specs, 4, ruleset=ACCUSE, replay=tmp_path / "r.jsonl")
    assert [(f.seat, f.reason, f.penalized) for f in result.faults] == [(0, "protocol", False)]
    assert 0 not in result.winners and result.ranking[-1] == [0] and set(incidents) == {0}
    end = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[-1])
    assert end["type"] == "partido_end"
