"""The student's path (issue 16, point 4): ``arena new`` and ``arena check`` as a student meets them.

Run from any folder; names with accents and ñ; print() harmless and said so; a p95
never above the maximum; hints that say where things are; and a timeout's hint that
tells a spinner from a sleeper and says where the player's code was stuck.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from arena.check import checker as check
from arena.check.checker import Frame, Stuck, stuck_frames, timeout_hints
from arena.cli import main
from arena.new import check_name, class_name, shell_word
from arena.player.runner import PRINT_NOTE
from tests.paths import BOTS, ROOT

pytestmark = pytest.mark.usefixtures("run_token")

GUIDE = ROOT / "docs" / "student-guide.md"
FAST = ["--move-ms", "300", "--init-ms", "3000"]

SPINNER = '''"""Spins for ever in a helper on its first play."""

from arena.sdk import Player, PlayRequest


def think(hand):
    n = 0
    while True:  # the loop
        n += 1


class Spinner(Player):
    def play(self, request: PlayRequest) -> str:
        think(request.hand)  # the call
        return request.legal()[0]
'''

STUBBORN = '''"""Spins, and spins again when interrupted: the checker gets no traceback."""

from arena.sdk import Player, PlayRequest


class Stubborn(Player):
    def play(self, request: PlayRequest) -> str:
        while True:
            try:
                while True:
                    pass
            except BaseException:
                pass
'''


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def line_of(path: Path, marker: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if marker in line)


def bot(tmp_path: Path, name: str, source: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "player.py").write_text(source, encoding="utf-8")
    return folder


def spreads(output: str) -> list[tuple[float, float, float]]:
    found = re.findall(r"mediana ([\d.]+) ms, p95 ([\d.]+) ms, máximo ([\d.]+) ms", output)
    return [(float(a), float(b), float(c)) for a, b, c in found]


# ------------------------------------------------------------------ from any folder


def test_check_works_from_any_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # no sample_players/ here
    r = arena("check", ROOT / "sample_players" / "random_legal", "--partidos", "1")
    assert r.exit_code == 0, r.output
    assert "Resultado: LIMPIO" in r.output
    assert list((elsewhere / "results" / "check").glob("random_legal-*/partido-1.jsonl"))


def test_check_says_in_one_line_which_samples_are_missing(tmp_path: Path) -> None:
    partial = tmp_path / "partial"
    (partial / "a_mas").mkdir(parents=True)
    (partial / "a_mas" / "player.py").write_text("", encoding="utf-8")
    r = arena("check", ROOT / "sample_players" / "random_legal", "--samples", partial, "--out", tmp_path)
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and r.output.startswith("Error: no encuentro los jugadores de ejemplo")
    assert f"{partial}: faltan a_menos, random_legal" in r.output and "--samples" in r.output
    assert "Comprobando" not in r.output  # found before anything runs


def test_an_install_without_samples_names_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as an installed wheel that does not ship sample_players, run outside the project
    places = (tmp_path / "site-packages" / "sample_players", tmp_path / "arena" / "sample_players")
    monkeypatch.setattr(check, "sample_dirs", lambda game=None: places)
    r = arena("check", ROOT / "sample_players" / "random_legal", "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert all(f"{p}: no existe" in r.output for p in places), r.output
    assert not (tmp_path / "out").exists()


def test_check_samples_option_points_at_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(check, "sample_dirs", lambda game=None: (tmp_path / "nowhere",))
    r = arena(
        "check",
        ROOT / "sample_players" / "a_mas",
        "--samples",
        ROOT / "sample_players",
        "--partidos",
        "1",
        "--out",
        tmp_path / "out",
    )
    assert r.exit_code == 0, r.output


# ------------------------------------------------------------------ names


def test_new_with_n_tilde_and_accents_then_check_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    r = arena("new", "ñandú")
    assert r.exit_code == 0, r.output
    folder = Path("players") / "ñandú"
    assert r.output.splitlines() == [f"Creado {folder / 'player.py'}", f"Probalo con: arena check {folder}"]
    source = (folder / "player.py").read_text(encoding="utf-8")
    assert "class Ñandú(Player):" in source and 'name = "ñandú"' in source
    r = arena("check", folder, "--partidos", "1")
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Comprobando ñandú ")
    out = next((tmp_path / "results" / "check").glob("ñandú-*"))
    assert (out / "partido-1.jsonl.logs" / "ñandú.stderr.log").is_file()
    for median, p95, top in spreads(r.output):  # the figures of a real run, as shown
        assert median <= p95 <= top


def test_new_keeps_a_name_in_one_unicode_form(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "josé")  # as some keyboards and file systems give it
    assert arena("new", decomposed, "--dir", tmp_path).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == [unicodedata.normalize("NFC", "josé")]


@pytest.mark.parametrize(
    "name",
    ["a b", ".oculto", "a/b", "a\\b", "..", "a.b", "-x", "_x", "9vidas", "", "x" * 41, "ana\u202e", "ana;rm"],
)
def test_new_refuses_what_is_not_one_word(name: str, tmp_path: Path) -> None:
    r = arena("new", "--dir", tmp_path, "--", name)
    assert r.exit_code != 0
    assert "un nombre de jugador empieza con una letra" in r.output
    assert not list(tmp_path.iterdir())


def test_new_says_a_folder_is_there_in_spanish(tmp_path: Path) -> None:
    assert arena("new", "ana", "--dir", tmp_path).exit_code == 0
    again = arena("new", "ana", "--dir", tmp_path)
    assert again.exit_code != 0 and "ya existe; no se sobrescribió nada" in again.output


@pytest.mark.parametrize(
    ("name", "cls"),
    [
        ("ñandú", "Ñandú"),
        ("ñandú-veloz", "ÑandúVeloz"),
        ("müller_2", "Müller2"),
        ("none", "MyNone"),  # None is a keyword
        ("true", "MyTrue"),
        ("player", "MyPlayer"),
        ("πλάτων", "Πλάτων"),
    ],
)
def test_new_makes_a_class_that_compiles(name: str, cls: str, tmp_path: Path) -> None:
    assert check_name(name) == name and class_name(name) == cls
    r = arena("new", name, "--dir", tmp_path / "a folder")  # a space in the parent: quoted where shown
    assert r.exit_code == 0, r.output
    assert f"arena check '{tmp_path / 'a folder' / name}'" in r.output
    source = (tmp_path / "a folder" / name / "player.py").read_text(encoding="utf-8")
    compile(source, "player.py", "exec")
    assert f"class {cls}(Player):" in source


def test_shell_word_quotes_only_what_needs_it() -> None:
    assert shell_word("players/ñandú") == "players/ñandú"
    assert shell_word("my players/ana") == "'my players/ana'"
    assert shell_word("a$b") == "'a$b'"


# ------------------------------------------------------------------ print()


def test_printing_is_no_warning_and_the_check_says_where_it_went(tmp_path: Path) -> None:
    r = arena("check", BOTS / "printer", "--partidos", "1", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "Aviso" not in r.output
    said = re.search(r"^Salida estándar: .*print\(\) fue a su registro.*?: (\S+)", r.output, re.M)
    assert said, r.output
    assert PRINT_NOTE in Path(said.group(1)).read_text(encoding="utf-8", errors="replace")
    # the guide says the same: print freely, it goes to the log
    guide = GUIDE.read_text(encoding="utf-8")
    assert "**Print** freely" in guide and "stderr.log" in guide


# ------------------------------------------------------------------ p95 ≤ maximum


def test_p95_of_few_moves_with_an_outlier_stays_below_the_maximum() -> None:
    # The report's case: few moves, one slow. The default ("exclusive") quantile extrapolates
    # past the largest value; the checker's is inclusive, and clamped.
    moves = [0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 1.2]
    assert statistics.quantiles(moves, n=20)[-1] > max(moves)  # why "p95 1.7 ms, máximo 1.2 ms"
    median, p95, top = check._spread(moves)
    assert median <= p95 <= top == 1.2


@given(st.lists(st.floats(0, 1e5, allow_nan=False), min_size=1, max_size=60))
def test_median_p95_and_maximum_are_in_order(times: list[float]) -> None:
    median, p95, top = check._spread(times)
    assert median <= p95 <= top == max(times)
    shown = [float(f"{x:.1f}") for x in (median, p95, top)]  # as the report shows them, too
    assert shown == sorted(shown)


# ------------------------------------------------------------------ hints tell the truth


def test_the_crash_hint_points_down_to_the_incident(tmp_path: Path) -> None:
    r = arena("check", BOTS / "crash", "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    hint = next(i for i, line in enumerate(lines) if line.strip().startswith("pista:"))
    assert "aquí abajo" in lines[hint]
    tail = next(i for i, line in enumerate(lines) if line.strip() == "Final de la salida de error:")
    assert tail > hint and "crash bot: exiting with status 3" in "\n".join(lines[tail:])


def test_a_spinner_hears_it_was_computing_and_where(tmp_path: Path) -> None:
    folder = bot(tmp_path, "spinner", SPINNER)
    r = arena("check", folder, "--partidos", "1", "--out", tmp_path / "out", *FAST)
    assert r.exit_code == 1
    hints = r.output[r.output.index("pista:") : r.output.index("Incidente")]
    assert re.search(r"usó \d+ ms de CPU en \d+ ms de reloj \(límite 300 ms de CPU\)", hints), hints
    assert "calculando sin parar" in hints and "bucle que no termina" in hints
    loop, call = line_of(folder / "player.py", "# the loop"), line_of(folder / "player.py", "# the call")
    assert f"tu código estaba en player.py:{loop}, en think(): «while True:  # the loop»" in hints
    assert f"llamado desde player.py:{call}, en play()" in hints
    assert "flush" not in hints  # the old hint blamed buffering
    assert "Aviso" not in r.output  # no flush probe for a Python player that was computing
    assert "KeyboardInterrupt" in r.output  # the traceback, in the incident below


def test_a_sleeper_hears_it_was_waiting_and_where(tmp_path: Path) -> None:
    r = arena("check", BOTS / "slow", "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code == 1
    hints = r.output[r.output.index("pista:") : r.output.index("Incidente")]
    assert re.search(r"esperó \d+ ms de reloj usando solo \d+ ms de CPU: no calculaba, esperaba", hints)
    assert "time.sleep" in hints
    sleep = line_of(BOTS / "slow" / "player.py", "time.sleep(300)")
    assert f"tu código estaba en player.py:{sleep}, en play(): «time.sleep(300)»" in hints


def test_a_program_that_spins_gets_the_cpu_hint_without_a_stack(tmp_path: Path) -> None:
    r = arena("check", BOTS / "hostile_cpu", "--partidos", "1", "--out", tmp_path, *FAST)
    assert r.exit_code == 1
    hints = r.output[r.output.index("pista:") : r.output.index("Incidente")]
    assert "calculando sin parar" in hints and "tu código estaba" not in hints
    assert "Aviso" not in r.output


def test_a_player_that_will_not_be_interrupted_is_still_stopped(tmp_path: Path) -> None:
    folder = bot(tmp_path, "stubborn", STUBBORN)
    r = arena("check", folder, "--partidos", "1", "--out", tmp_path / "out", *FAST)
    assert r.exit_code == 1
    hints = r.output[r.output.index("pista:") : r.output.index("Incidente")]
    assert "calculando sin parar" in hints and "tu código estaba" not in hints


def test_stuck_frames_reads_the_players_frames_of_the_last_interrupt() -> None:
    tail = """an earlier traceback the player printed
Traceback (most recent call last):
  File "/player/old.py", line 1, in old
ValueError: not this one
Traceback (most recent call last):
  File "<frozen runpy>", line 198, in _run_module_as_main
  File "/opt/arena/arena/player/runner.py", line 89, in main
    serve(player, sys.stdin.buffer, protocol_out)
  File "/player/player.py", line 14, in play
    think(request.hand)
    ^^^^^^^^^^^^^^^^^^^
  File "/player/lib/search.py", line 8, in think
    while True:
  File "/usr/lib/python3.11/random.py", line 3, in choice
    x = 1
KeyboardInterrupt
"""
    assert stuck_frames(tail, ["/player", "/home/ana/ana"]) == [
        Frame("player.py", 14, "play", "think(request.hand)"),
        Frame("lib/search.py", 8, "think", "while True:"),
    ]
    assert stuck_frames(tail.replace("KeyboardInterrupt", "RuntimeError: x"), ["/player"]) == []
    assert str(Frame("player.py", 3, "<module>")) == "player.py:3, en el nivel del módulo"


@pytest.mark.parametrize(
    ("stuck", "says"),
    [
        (Stuck(301.0, 320.0, 300), "calculando sin parar"),
        (Stuck(301.0, 900.0, 300), "calculando sin parar"),  # a loaded machine: still its CPU limit
        (Stuck(4.0, 2300.0, 300), "no calculaba, esperaba"),
        (Stuck(200.0, 1000.0, 1000), "calculaba a ratos"),
        (Stuck(None, 2300.0, 300), "no se pudo medir"),
        (None, "no respondió a tiempo"),
    ],
)
def test_timeout_hints_tell_computing_from_waiting(stuck: Stuck | None, says: str) -> None:
    assert says in timeout_hints(stuck)[0]


@pytest.mark.parametrize(("game", "base"), [("parejas", "ParejasPlayer"), ("dos", "DosPlayer")])
def test_new_writes_a_skeleton_of_each_game_that_plays_it(game: str, base: str, tmp_path: Path) -> None:
    from arena import games
    from arena.referee.players import load_player_class
    from arena.referee.table import play_partido

    r = arena("new", "zorro", "--game", game, "--dir", tmp_path)
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[-1] == f"Probalo con: arena check --game {game} {tmp_path / 'zorro'}"
    source = (tmp_path / "zorro" / "player.py").read_text(encoding="utf-8")
    assert f"class Zorro({base}):" in source and "Completá `play`" in source  # the student's language
    cls = load_player_class(tmp_path / "zorro")
    spec = games.spec(game)
    n = spec.table_sizes[0]
    result = play_partido([cls() for _seat in range(n)], 3, game=spec.name)
    assert not result.faults and games.spec(spec.name).new_partido(n, 3).n == n
