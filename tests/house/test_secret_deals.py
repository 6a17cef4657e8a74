"""Secret deals (``shared/spec/protocol.md``, "Secrecy of the deal"), and private files.

* the engine deals from an int or a key, deterministically, through a keyed
  BLAKE2b stream; the same seed deals the same, different keys differ;
* a torneo without ``--seed`` keeps a 256-bit key in its store, derives every
  partido's seed from it, keeps it on resume, and shows it (workbook, ``arena
  standings``) only once complete;
* ``--seed N`` still reproduces, with one warning line on stderr; without it,
  ``play``, ``demo``, ``check`` and ``tournament`` draw a key;
* a hostile bot that knows the code and brute-forces the seed predicts nothing
  (and everything, as a control, under an explicit small seed);
* the store, log, replays, incident files and stderr logs are 0600, folders 0700.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli import main
from arena.engine import Partido, deal_key, deal_order
from arena.games.cabrero import engine  # patched below: the module a Partido deals through
from arena.games.common import deal
from arena.games.common.replies import view
from arena.i18n import _
from arena.player.loader import load_player_class
from arena.referee.players import find_player
from arena.referee.replay import read_replay
from arena.referee.table import play_folders
from arena.results import report
from arena.rules import RuleSet
from arena.seeds import derive, is_key, new_key, predictable_warning
from arena.tournament import coordinator as t
from arena.tournament import schedule
from arena.tournament.entrants import collect_entrants
from arena.tournament.schedule import make_schedule
from arena.tournament.store import Entrant, Store
from tests.paths import ROOT

SAMPLES = ("a_mas", "a_menos", "random_legal")
HOSTILE = ROOT / "tests" / "bots" / "hostile_predict"
WARNING = "los repartos son predecibles"

pytestmark = pytest.mark.usefixtures("run_token")


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


@pytest.fixture
def loose_umask() -> Iterator[None]:
    """A permissive umask, so that private modes come from the code and not from the environment."""
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


# ---------------------------------------------------------------- the engine


def test_the_same_seed_or_key_deals_the_same() -> None:
    key = new_key()
    for seed in (key, 777):
        first, again = Partido(4, seed), Partido(4, seed)
        assert first.events == again.events
        assert deal_order(deal_key(seed), 5, [0, 1, 3]) == deal_order(deal_key(seed), 5, [0, 1, 3])


def test_different_keys_deal_differently() -> None:
    deals = {json.dumps(Partido(4, new_key()).events[0]["dealt"]) for _ in range(50)}
    assert len(deals) == 50
    key = new_key()
    assert deal_order(deal_key(key), 1, [0, 1, 2, 3]) != deal_order(deal_key(key), 2, [0, 1, 2, 3])
    assert deal_key(5) != deal_key("05" * 16)  # an int and a key never share a stream


def test_an_explicit_int_seed_reproduces_the_same_deal_in_every_version() -> None:
    """Pinned: replays dealt from a seed (or a revealed key) can be re-checked by later versions."""
    start, deck = deal_order(deal_key(777), 1, [0, 1, 2, 3])
    assert start == 1
    assert deck[:20] == [1, 22, 16, 39, 33, 8, 17, 35, 32, 28, 7, 11, 10, 2, 25, 37, 15, 21, 19, 18]
    assert deck[20:] == [4, 34, 14, 29, 31, 27, 3, 13, 12, 38, 9, 24, 0, 5, 30, 20, 6, 23, 36, 26]
    assert deal_order(deal_key("00" * 32), 1, [0, 1, 2, 3])[1][:8] == [13, 35, 6, 2, 4, 36, 22, 0]
    assert Partido(4, 777).events[0]["dealt"][0][:3] == ["4-copa", "6-copa", "3-copa"]


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(
        st.integers(min_value=0, max_value=2**80), st.binary(min_size=16, max_size=32).map(bytes.hex)
    ),
    mano=st.integers(min_value=1, max_value=10_000),
    seats=st.lists(st.integers(min_value=0, max_value=5), min_size=3, max_size=6, unique=True).map(sorted),
)
def test_the_quick_deal_is_its_definition_word_by_word(seed: int | str, mano: int, seats: list[int]) -> None:
    """``deal_order`` hashes the 40 words it needs at once: the same draw as ``_exact_order``, its
    definition (Lemire's method over the counter-mode stream, word by word)."""
    key = deal_key(seed)
    assert deal_order(key, mano, seats) == deal._exact_order(key, mano, seats)


@pytest.mark.parametrize("bad", ["2002", "abc", "AB" * 16, "ab" * 15, 1.5, None, True, b"\x00" * 32])
def test_a_seed_is_an_int_or_a_key_of_128_bits_at_least(bad: Any) -> None:
    with pytest.raises(ValueError, match="una semilla es un entero o una clave de al menos 128 bits"):
        Partido(4, bad)


def test_deals_are_uniform() -> None:
    """Where the 1 of oros lands, and who is dealt first, over many keys: chi-square at p ~ 1e-6."""
    where: Counter[int] = Counter()
    first: Counter[int] = Counter()
    draws = 4000
    for i in range(draws):
        start, deck = deal_order(deal_key(f"{i:032x}"), 1, [0, 1, 2, 3, 4])
        where[deck.index(0)] += 1
        first[start] += 1
    chi = sum((where[p] - draws / 40) ** 2 / (draws / 40) for p in range(40))
    assert chi < 90, chi  # 39 degrees of freedom
    chi = sum((first[s] - draws / 5) ** 2 / (draws / 5) for s in range(5))
    assert chi < 33, chi  # 4 degrees of freedom


def test_new_keys_are_256_random_bits() -> None:
    keys = {new_key() for _ in range(100)}
    assert len(keys) == 100 and all(is_key(k) and len(k) == 64 for k in keys)


# ---------------------------------------------------------------- the schedule and the store


def test_a_torneos_partido_seeds_come_from_its_key_and_reveal_nothing_else() -> None:
    key, other = new_key(), new_key()
    mine, theirs = make_schedule(6, 4, 1, key), make_schedule(6, 4, 1, other)
    assert all(is_key(p.seed) for p in mine)
    assert {p.seed for p in mine}.isdisjoint({p.seed for p in theirs}), "same entrants, other deals"
    assert len({p.seed for p in mine}) == len(mine)
    for p in mine:
        assert p.seed == derive(key, f"tute-arena/torneo/deal/{p.deal}") != key
    dup = make_schedule(4, 4, 1, key, duplicate=True)
    assert len({p.seed for p in dup}) == 1 and len(dup) == 4, "duplicate rotations share their deal"
    assert make_schedule(6, 4, 1, 5) == make_schedule(6, 4, 1, 5)
    assert all(isinstance(p.seed, int) for p in make_schedule(6, 4, 1, 5)), "--seed N: as before"


def test_the_store_keeps_text_seeds_exactly(tmp_path: Path) -> None:
    """An all-digit key would become an INTEGER (or a REAL) under the old column's affinity."""
    digits = "1234567890" * 6 + "1234"
    plan = [
        schedule.ScheduledPartido(0, "p1", digits, (0, 1, 2), 0, 0),
        schedule.ScheduledPartido(1, "p2", "00" * 32, (0, 1, 2), 1, 0),
        schedule.ScheduledPartido(2, "p3", 2**52 + 1, (0, 1, 2), 2, 0),
    ]
    entrants = [Entrant(i, f"e{i}", f"/e{i}", "python", None, (), "x") for i in range(3)]
    with Store.create(tmp_path / "t", {"seed": None}, entrants, plan, key=digits) as store:
        assert [p.seed for p in store.scheduled()] == [digits, "00" * 32, 2**52 + 1]
        assert store.deal_key() == digits
        assert "deal_key" not in store.config() and digits not in json.dumps(store.config())
    with Store.create(tmp_path / "u", {"seed": 5}, entrants, plan[2:]) as store:
        assert store.deal_key() is None


# ---------------------------------------------------------------- a torneo with a hostile bot


def guesses(folder: Path) -> list[dict[str, Any]]:
    """The hostile bot's guesses: the GUESS lines of every ``hostile_predict.stderr.log`` under folder."""
    out = []
    for log in sorted(folder.rglob("hostile_predict.stderr.log")):
        for line in log.read_text(encoding="utf-8").splitlines():
            if line.startswith("GUESS "):
                out.append({**json.loads(line[6:]), "replay": str(log.parent)[: -len(".logs")]})
    return out


def hits(found: list[dict[str, Any]]) -> tuple[int, int]:
    """(other hands guessed, guessed right): right means equal to a hand as dealt or after swaps."""
    starts: dict[tuple[str, int], dict[str, Any]] = {}
    total = right = 0
    for g in found:
        if (g["replay"], g["mano"]) not in starts:
            for e in read_replay(g["replay"]):
                if e["type"] == "mano_start":
                    starts[g["replay"], e["mano"]] = e
        start = starts[g["replay"], g["mano"]]
        for seat, hand in g["hands"].items():
            truth = [sorted(h) for h in (start["dealt"][int(seat)], start["hands"][int(seat)]) if h]
            total += 1
            right += sorted(hand) in truth
    return total, right


@pytest.fixture(scope="module")
def entrants(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("entrants")
    for name in SAMPLES:
        shutil.copytree(ROOT / "sample_players" / name, root / name)
    shutil.copytree(HOSTILE, root / "hostile_predict")
    return root


class StopAfterOne(t.Progress):
    """Ctrl-C as soon as the first partido is settled."""

    def advance(self, n: int = 1) -> None:
        raise KeyboardInterrupt


def workbook_text(folder: Path) -> str:
    wb = openpyxl.load_workbook(folder / report.WORKBOOK)
    cells = [str(c) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for c in row]
    csvs = [p.read_text(encoding="utf-8") for p in sorted((folder / report.CSV_DIR).glob("*.csv"))]
    return "\n".join(cells + csvs)


def key_row(folder: Path) -> str:
    rows = openpyxl.load_workbook(folder / report.WORKBOOK)["Configuración"].iter_rows(
        min_row=2, values_only=True
    )
    return {r[0]: r[1] for r in rows}[_(report.KEY_ROW)]


def test_a_torneo_keeps_its_key_secret_until_complete_and_the_hostile_bot_predicts_nothing(
    entrants: Path, tmp_path: Path, loose_umask: None
) -> None:
    folder = tmp_path / "torneo"
    specs = collect_entrants([entrants])
    config = t.Config(table_size=4, rounds=2, move_ms=3000, key=new_key())
    plan = t.plan(config, len(specs))
    assert len(plan) == 2
    with pytest.raises(t.Interrupted):
        t.execute(folder, specs, config, 1, StopAfterOne(), plan)

    with Store.open(folder, readonly=True) as store:
        key = store.deal_key()
        scheduled = store.scheduled()
        assert store.counts()[1] == 1 and store.config()["seed"] is None
    assert key == config.key and is_key(key) and len(key) * 4 >= 128
    assert [p.seed for p in scheduled] == [p.seed for p in plan]
    assert all(p.seed == derive(key, f"tute-arena/torneo/deal/{p.deal}") for p in scheduled)
    assert "key=" not in repr(config), "the key stays out of reprs (and so of logs)"

    # incomplete: the key is nowhere to be seen, and the standings say it is secret
    shown = CliRunner().invoke(main, ["standings", str(folder), "--csv"], catch_exceptions=False)
    assert shown.exit_code == 0, shown.output
    assert _(report.KEY_SECRET) in shown.output and key not in shown.output
    assert key_row(folder) == _(report.KEY_SECRET)
    assert key not in workbook_text(folder)
    log = (folder / t.LOG_NAME).read_text(encoding="utf-8")
    assert key not in log and not any(str(p.seed) in log for p in scheduled), "seeds stay out of the log"

    # resume: same key, same seeds; complete: the key is revealed
    resumed = CliRunner().invoke(main, ["tournament", "--resume", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0, resumed.output
    assert f"Clave de los repartos: {key}" in resumed.output
    with Store.open(folder, readonly=True) as store:
        assert store.deal_key() == key and store.scheduled() == scheduled
        records = store.results()
    assert len(records) == 2
    shown = CliRunner().invoke(main, ["standings", str(folder)], catch_exceptions=False)
    assert f"Clave de los repartos: {key}" in shown.output
    assert key_row(folder) == key

    # anyone can re-check the replays with the key: every deal follows from it
    for rec in records:
        events = read_replay(folder / rec.replay)
        seed = derive(key, f"tute-arena/torneo/deal/{scheduled[rec.pos].deal}")
        assert events[0]["seed"] == seed == rec.seed
        assert Partido(4, seed).events[0]["dealt"] == events[1]["dealt"]

    # the hostile bot guessed every other hand of every mano, and got none right
    found = guesses(folder / "replays")
    total, right = hits(found)
    assert total >= 3 * 2 and right == 0, (total, right)
    assert all(g["overlap"] < g["size"] for g in found), "no candidate seed dealt its own hand"

    # the torneo's files are the referee's alone
    assert mode(folder) == 0o700 and mode(folder / "replays") == 0o700
    for name in ("torneo.sqlite", "torneo.sqlite-wal", "torneo.sqlite-shm", t.LOG_NAME, "torneo.lock"):
        if (folder / name).exists():
            assert mode(folder / name) == 0o600, name
    for path in (folder / "replays").rglob("*"):
        assert mode(path) == (0o700 if path.is_dir() else 0o600), path


def test_the_hostile_bot_predicts_every_hand_of_an_explicit_small_seed(tmp_path: Path) -> None:
    """The control: the attack works, so its failure above means something."""
    specs = [find_player(HOSTILE), *(find_player(ROOT / "sample_players" / n) for n in SAMPLES)]
    play_folders(specs, 777, replay=tmp_path / "p.jsonl")
    found = guesses(tmp_path)
    total, right = hits(found)
    assert found and total == right >= 2 * len(found)  # every other hand dealt in, in every mano
    assert {g["seed"] for g in found} == {777}


def test_the_hostile_bot_breaks_the_old_mersenne_twister_dealing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The attack of issue 12, against the dealing of earlier versions (and the old default 2002)."""

    def old_order(key: Any, mano: int, seats: Any) -> tuple[int, list[int]]:
        rng = random.Random(f"tute-arena/{key}/{mano}")
        start = rng.choice(seats)
        deck = list(range(40))
        rng.shuffle(deck)
        return start, deck

    with monkeypatch.context() as m:
        m.setattr(engine, "deal_key", lambda seed: seed)
        m.setattr(engine, "deal_order", old_order)
        start = Partido(4, 2002).events[0]
    bot = load_player_class(HOSTILE)()
    rules = RuleSet().to_dict()
    bot.handle_event(
        {"type": "partido_start", "partido": "x", "seat": 2, "players": list("abcd"), "rules": rules}
    )
    bot.handle_event(view(start, 2))
    guess = json.loads(capsys.readouterr().err.splitlines()[-1][6:])
    assert (guess["seed"], guess["scheme"]) == (2002, "mt")
    assert all(sorted(h) == sorted(start["dealt"][int(s)]) for s, h in guess["hands"].items())


# ---------------------------------------------------------------- the command line


def invoke(*args: Any) -> Any:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_arena_play_draws_a_key_and_warns_only_under_an_explicit_seed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, loose_umask: None
) -> None:
    monkeypatch.chdir(tmp_path)
    players = [ROOT / "sample_players" / n for n in SAMPLES]
    secret = invoke("play", *players, "--in-process", "--quiet")
    assert secret.exit_code == 0, secret.output
    assert WARNING not in secret.stderr
    (replay,) = (tmp_path / "results" / "partidos").iterdir()
    seed = read_replay(replay)[0]["seed"]
    assert is_key(seed) and len(seed) == 64
    assert replay.name.endswith(f"-seed{seed[:12]}.jsonl") and len(replay.name) < 40
    assert mode(replay) == 0o600 and mode(replay.parent) == 0o700

    out = tmp_path / "777.jsonl"
    shown = invoke("play", *players, "--in-process", "--quiet", "--seed", 777, "--replay", out)
    assert shown.exit_code == 0
    assert shown.stderr.splitlines() == [predictable_warning("--seed", 777)]
    assert predictable_warning("--seed", 777) == (
        "aviso: --seed 777: los repartos son predecibles: "
        "quien conozca la semilla puede calcular todas las manos"
    )
    again = tmp_path / "again.jsonl"
    invoke("play", *players, "--in-process", "--quiet", "--seed", 777, "--replay", again)
    assert read_replay(out)[0]["seed"] == 777
    assert _without_times(out) == _without_times(again)


def _without_times(replay: Path) -> list[dict[str, Any]]:
    events = read_replay(replay)
    for e in events:
        e.pop("ms", None)
        e.pop("cpu_ms", None)
    events[0].pop("arena_version", None)
    return events


def test_arena_demo_draws_a_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    done = invoke("demo", "--out", tmp_path / "a")
    assert done.exit_code == 0 and WARNING not in done.stderr
    assert is_key(read_replay(tmp_path / "a" / "partido-1.jsonl")[0]["seed"])
    done = invoke("demo", "--out", tmp_path / "b", "--seed", 3)
    assert WARNING in done.stderr and read_replay(tmp_path / "b" / "partido-1.jsonl")[0]["seed"] == 3


def test_arena_check_draws_keys_and_takes_a_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    player = ROOT / "sample_players" / "a_mas"
    done = invoke("check", player, "--partidos", 2, "--out", tmp_path / "k")
    assert done.exit_code == 0, done.output
    assert WARNING not in done.stderr
    seeds = [read_replay(tmp_path / "k" / f"partido-{i}.jsonl")[0]["seed"] for i in (1, 2)]
    assert all(is_key(s) for s in seeds) and seeds[0] != seeds[1]
    assert f"semilla {seeds[0][:12]}," in done.stdout
    done = invoke("check", player, "--partidos", 2, "--seed", 40, "--out", tmp_path / "s")
    assert done.exit_code == 0, done.output
    assert done.stderr.splitlines()[0] == predictable_warning("--seed", 40)
    assert [read_replay(tmp_path / "s" / f"partido-{i}.jsonl")[0]["seed"] for i in (1, 2)] == [40, 41]


@pytest.mark.parametrize("seed", [None, 5])
def test_arena_tournament_warns_only_under_an_explicit_seed(tmp_path: Path, seed: int | None) -> None:
    players = tmp_path / "players"
    for name in SAMPLES:
        shutil.copytree(ROOT / "sample_players" / name, players / name)
    out = tmp_path / "torneo"
    extra = [] if seed is None else ["--seed", seed]
    done = invoke("tournament", players, "--out", out, "--table-size", 3, "--workers", 1, *extra)
    assert done.exit_code == 0, done.output
    with Store.open(out, readonly=True) as store:
        key = store.deal_key()
        (rec,) = store.results()
    if seed is None:
        assert WARNING not in done.stderr and is_key(key) and is_key(rec.seed)
        assert "clave secreta" in done.stdout and f"Clave de los repartos: {key}" in done.stdout
    else:
        assert done.stderr.splitlines()[0] == predictable_warning("--seed", 5)
        assert key is None and rec.seed == schedule.deal_seed(5, 0)
        assert "Clave de los repartos: ninguna" in done.stdout


# ---------------------------------------------------------------- private files


def test_replays_incidents_and_logs_are_private(tmp_path: Path, loose_umask: None) -> None:
    specs = [
        find_player(ROOT / "tests" / "bots" / "crash"),
        *(find_player(ROOT / "sample_players" / n) for n in SAMPLES),
    ]
    replay = tmp_path / "new" / "p.jsonl"
    _, incidents = play_folders(specs, new_key(), replay=replay)
    assert incidents, "the crash bot left an incident file"
    files = [replay, *incidents.values(), *Path(f"{replay}.logs").iterdir()]
    assert all(mode(p) == 0o600 for p in files), {p.name: oct(mode(p)) for p in files}
    assert mode(replay.parent) == 0o700 and mode(Path(f"{replay}.logs")) == 0o700


def test_resuming_an_old_torneo_makes_its_files_private(tmp_path: Path, loose_umask: None) -> None:
    entrants = [Entrant(i, f"e{i}", f"/e{i}", "python", None, (), "x") for i in range(3)]
    plan = make_schedule(3, 3, 1, new_key())
    Store.create(tmp_path / "t", {}, entrants, plan).close()
    for path in (tmp_path / "t", tmp_path / "t" / "replays"):
        path.chmod(0o755)
    (tmp_path / "t" / "torneo.sqlite").chmod(0o644)
    with Store.open(tmp_path / "t") as store:
        store.begin_run(1)  # a write: the WAL and its index exist now
        for name in ("torneo.sqlite", "torneo.sqlite-wal", "torneo.sqlite-shm"):
            assert mode(tmp_path / "t" / name) == 0o600, name
    assert mode(tmp_path / "t") == mode(tmp_path / "t" / "replays") == 0o700
    db = sqlite3.connect(tmp_path / "t" / "torneo.sqlite")
    assert db.execute("SELECT typeof(seed) FROM schedule").fetchall() == [("text",)]
    db.close()
