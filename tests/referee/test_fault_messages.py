"""Fault messages that name the fix, not only the fault (issue 51).

A line of debugging on stdout says where debugging belongs; a crash names the exception and the
student's own file and line (Python, Node, Java), never the SDK's or the sandbox's ``/player``; a
runtime that cannot start (the JVM, a thread, memory) names the limit and how to live with it; a
renuncio's report shows the request, the reply and the field at fault, once per torneo. The
parsers read untrusted text: whatever a player writes, one bounded line or nothing, never an error.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner, Result

from arena.check import checker
from arena.cli import main
from arena.i18n import _
from arena.referee import diagnose
from arena.referee.connection import HELLO_CRASH
from arena.tournament import coordinator as t
from arena.tournament.store import Store
from tests.paths import BOTS, ROOT
from tests.referee.test_referee import audit, play
from tests.torneos import execute

NODE = pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js) is not on PATH")
ROOTS = ["/player", "/tmp/stage/ana"]

PYTHON_TRACEBACK = """\
ana: thinking
Traceback (most recent call last):
  File "/opt/arena/arena/player/runner.py", line 102, in main
    serve(player, sys.stdin.buffer, protocol_out)
  File "/opt/arena/arena/games/cabrero/sdk.py", line 344, in handle_play
    move = self.play(PlayRequest.from_message(cast(wire.PlayRequest, msg), self.view))
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/player/player.py", line 16, in play
    return cheapest(list(request.legal()))
  File "/player/lib/helpers.py", line 7, in cheapest
    return min(cards, key=lambda card: POINTS[card])
  File "/usr/lib/python3.12/functools.py", line 40, in wrapper
    return f(*a)
KeyError: '4-oro'
"""

NODE_CRASH = """\
hello: I am ana
/player/bot.js:42
  return req.cards.map((c) => c)[0];
                   ^

TypeError: Cannot read properties of undefined (reading 'map')
    at chooseCard (/player/bot.js:42:20)
    at Interface.<anonymous> (/player/bot.js:80:5)
    at Interface.emit (node:events:517:28)
    at [_onLine] [as _onLine] (node:internal/readline/interface:416:12)

Node.js v18.19.1
"""

JAVA_CRASH = """\
Exception in thread "main" java.lang.NullPointerException: Cannot invoke "String.length()" because "c" is null
\tat java.base/java.lang.String.valueOf(String.java:4465)
\tat Bot.strength(Bot.java:42)
\tat Bot.main(Bot.java:120)
"""


# ---------------------------------------------------------------- the parsers, on text


def test_python_names_the_exception_and_the_last_frame_in_the_students_files() -> None:
    said = diagnose.exception_summary(PYTHON_TRACEBACK, ROOTS, "players/ana")
    assert said == "KeyError: '4-oro' en players/ana/lib/helpers.py:7"
    assert diagnose.exception_summary(PYTHON_TRACEBACK, ROOTS) == "KeyError: '4-oro' en lib/helpers.py:7"


def test_python_without_a_frame_of_the_student_names_the_exception_alone() -> None:
    tail = PYTHON_TRACEBACK.replace("/player/", "/opt/arena/")
    assert diagnose.exception_summary(tail, ROOTS, "players/ana") == "KeyError: '4-oro'"


def test_python_the_last_of_chained_tracebacks() -> None:
    chained = PYTHON_TRACEBACK + "\nDuring handling of the above exception, another exception occurred:\n\n"
    chained += 'Traceback (most recent call last):\n  File "/player/player.py", line 20, in play\n'
    chained += "    raise ValueError('no card')\nValueError: no card\n"
    assert diagnose.exception_summary(chained, ROOTS, "ana") == "ValueError: no card en ana/player.py:20"


def test_node_names_the_error_and_the_innermost_frame_of_the_student() -> None:
    said = diagnose.exception_summary(NODE_CRASH, ROOTS, "players/ana")
    assert said == "TypeError: Cannot read properties of undefined (reading 'map') en players/ana/bot.js:42"
    head_only = "\n".join(line for line in NODE_CRASH.splitlines() if "    at " not in line)
    assert diagnose.exception_summary(head_only, ROOTS, "ana") == (
        "TypeError: Cannot read properties of undefined (reading 'map') en ana/bot.js:42"
    )


def test_java_names_the_exception_and_the_first_frame_outside_the_jdk() -> None:
    said = diagnose.exception_summary(JAVA_CRASH, ROOTS, "players/ana")
    assert said == (
        'java.lang.NullPointerException: Cannot invoke "String.length()" because "c" is null en Bot.java:42'
    )


def test_no_exception_no_summary() -> None:
    for tail in ("", "ana: exiting with status 3\n", "Segmentation fault\n", "Error\n"):
        assert diagnose.exception_summary(tail, ROOTS, "ana") in (None, "Error"), tail


def test_hostile_stderr_gives_one_bounded_line_or_nothing() -> None:
    rng = random.Random(51)
    pieces = [
        "Traceback (most recent call last):\n",
        '  File "/player/x.py", line 99999999999999999999, in f\n',
        '  File "/player/' + "a" * 5000 + '.py", line 1, in f\n',
        "ValueError: " + "\x1b[2J\u202e" * 300 + "\n",
        'Exception in thread "main" java.lang.Error: \r\x00\n',
        "\tat Bot.x(Bot.java:1)\n",
        "TypeError: " + "é" * 10_000 + "\n",
        "    at f (/player/bot.js:1:1)\n",
        "/player/bot.js:12\n",
        "\ud800 \n",
        "KeyError\n",
        "\n",
        "x" * 70_000,
        "    at " + " (" * 40_000 + "\n",  # no pattern may take more than linear time
        'Exception in thread "m" x\n\tat ' + "a(" * 30_000 + "\n",
    ]
    for _round in range(400):
        tail = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        said = diagnose.exception_summary(tail, ROOTS, "ana")
        assert said is None or ("\n" not in said and "\x1b" not in said and len(said) <= 320), said
        diagnose.runtime_failure(tail)


# ---------------------------------------------------------------- runtimes that cannot start


@pytest.mark.parametrize(
    ("tail", "kind"),
    [
        ("Error: Could not create the Java Virtual Machine.\n", diagnose.MEMORY),
        ("Could not reserve enough space for 2097152KB object heap\n", diagnose.MEMORY),
        ("[warning][os,thread] Failed to start thread - pthread_create failed (EAGAIN)\n", diagnose.THREADS),
        (
            "java.lang.OutOfMemoryError: unable to create native thread: possibly out of memory\n",
            diagnose.THREADS,
        ),
        (
            "FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n",
            diagnose.MEMORY,
        ),
        ("Traceback (most recent call last):\nMemoryError\n", diagnose.MEMORY),
        ("bash: fork: Cannot allocate memory\n", diagnose.MEMORY),
        ("bash: fork: Resource temporarily unavailable\n", diagnose.THREADS),
        ("TypeError: x is undefined\n", None),
    ],
)
def test_a_runtime_that_cannot_start_is_recognised(tail: str, kind: str | None) -> None:
    assert diagnose.runtime_failure(tail) == kind


def test_the_advice_names_the_limit_and_the_fix() -> None:
    memory = diagnose.runtime_advice(diagnose.MEMORY, True, 1024, 256)
    assert "1024 MiB" in memory and "memory.max" in memory and "java -Xmx256m" in memory
    assert "node --max-old-space-size=256" in memory and "player.toml" in memory
    fallback = diagnose.runtime_advice(diagnose.MEMORY, False, 1024, 256)
    assert "RLIMIT_AS" in fallback and "-XX:MaxMetaspaceSize=64m" in fallback
    threads = diagnose.runtime_advice(diagnose.THREADS, True, 1024, 256)
    assert "256 procesos e hilos" in threads and "pids.max" in threads and "ActiveProcessorCount=1" in threads


# ---------------------------------------------------------------- debugging lines and the same fault


@pytest.mark.parametrize(
    ("line", "debugging"),
    [
        (b"my hand ['1-oro']", True),
        (b"debug", True),
        (b"[ '1-oro', '3-copa' ]", True),
        (b"42", True),
        (b"", True),
        (b'{"type":"play","id":1,"card":"1-oro"', False),
        (b'  {"type":"note"}', False),
        (None, False),
    ],
)
def test_a_line_that_is_no_object_looks_like_debugging(line: bytes | None, debugging: bool) -> None:
    assert diagnose.looks_like_debugging(line) is debugging


def test_the_same_fault_rule_faults_by_reason_program_faults_by_detail() -> None:
    key = diagnose.fault_key
    assert key("renuncio", "3-oro es renuncio: …") == key("renuncio", "1-copa es renuncio: …")
    a, b = "KeyError: '4-oro' en ana/x.py:7 — …", "KeyError: '1-copa' en ana/x.py:7 — …"
    assert key("crash", a) == key("crash", b)
    assert key("crash", a) != key("crash", a.replace(":7", ":9"))
    assert key("crash", a) != key("timeout", a)


# ---------------------------------------------------------------- real bot processes


def _shown(name: str) -> str:
    """A bot's folder as a fault names it: relative to the current folder when inside it."""
    folder = BOTS / name
    try:
        return str(folder.relative_to(Path.cwd()))
    except ValueError:
        return str(folder)


def _fault(tmp_path: Path, bot: str) -> dict:
    game = play(tmp_path, [bot, "a_mas", "a_menos"])
    faults = audit(game.events)
    assert [f["seat"] for f in faults] == [0], faults
    return faults[0]


@pytest.mark.usefixtures("run_token")
def test_debugging_on_stdout_says_where_debugging_belongs(tmp_path: Path) -> None:
    line = _fault(tmp_path, "msg_debug_stdout")
    assert line["reason"] == "protocol" and line["line"].startswith("my hand [")
    assert line["detail"].startswith("la respuesta no es JSON válido; parece salida de depuración: ")
    for how in (
        "escribí la depuración en stderr",
        "console.error",
        "System.err.println",
        "fprintf(stderr",
        "file=sys.stderr",
    ):
        assert how in line["detail"], how


@NODE
@pytest.mark.usefixtures("run_token")
def test_console_log_in_node_says_console_error(tmp_path: Path) -> None:
    line = _fault(tmp_path, "msg_node_debug")
    assert line["reason"] == "protocol" and "Node console.error(…)" in line["detail"]


@pytest.mark.usefixtures("run_token")
def test_a_python_crash_names_the_exception_and_the_students_helper_module(tmp_path: Path) -> None:
    line = _fault(tmp_path, "msg_raise")
    assert (line["reason"], line["exit"]) == ("crash", 1)
    detail = line["detail"]
    assert detail.startswith("KeyError: '"), detail
    assert (
        f"' en {_shown('msg_raise')}/helpers.py:7 — cerró su salida antes de responder: terminó con estado 1"
        in (detail)
    )
    assert "/opt/arena" not in detail and "/player" not in detail and "runner.py" not in detail
    game_dir = tmp_path / "p.jsonl.logs"
    assert "Traceback (most recent call last)" in (game_dir / "msg_raise.stderr.log").read_text(), "log kept"
    incident = (tmp_path / "p.incident-0-msg_raise.txt").read_text(encoding="utf-8")
    assert "Final de la salida de error:" in incident and "KeyError" in incident.split("Final de la")[1]


@NODE
@pytest.mark.usefixtures("run_token")
def test_a_node_crash_names_the_error_and_bot_js_line(tmp_path: Path) -> None:
    line = _fault(tmp_path, "msg_node_crash")
    assert line["detail"] == (
        "TypeError: Cannot read properties of undefined (reading 'map') "
        f"en {_shown('msg_node_crash')}/bot.js:6"
        " — cerró su salida antes de responder: terminó con estado 1"
    )


@pytest.mark.usefixtures("run_token")
def test_a_jvm_that_cannot_start_names_the_memory_limit_and_the_fix(tmp_path: Path) -> None:
    line = _fault(tmp_path, "msg_jvm")
    assert (line["reason"], line["exit"]) == ("crash", 1)
    detail = line["detail"]
    assert detail.startswith(f"su runtime se quedó sin memoria o no pudo reservarla — {_(HELLO_CRASH)}; ")
    assert "1024 MiB" in detail and "java -Xmx256m" in detail and "player.toml" in detail
    assert "\n" not in detail


# ---------------------------------------------------------------- the renuncio's report, once per torneo


@pytest.mark.usefixtures("run_token")
def test_a_renuncio_report_shows_request_reply_and_legal(tmp_path: Path) -> None:
    game = play(tmp_path, ["renuncio", "a_mas", "a_menos"])
    (line,) = [f for f in audit(game.events) if f["reason"] == "renuncio"]
    assert set(line) == {"type", "seat", "reason", "detail", "card"}, "the replay's fields as docs/replay.md"
    text = game.incidents[line["seat"]].read_text(encoding="utf-8")
    request = text.split("La solicitud:\n", 1)[1]
    assert request.startswith('  → {"type":"play"') and "\n  hand: " in request and "\n  table: " in request
    legal = request.split("\n  legal: ", 1)[1].split("\n", 1)[0]
    assert line["card"] not in legal.split(", ")
    assert 'La respuesta:\n  ← {"type":"play"' in text
    assert f'respondió `{{"card":"{line["card"]}"}}`; el campo card debe ser uno de legal: {legal}\n' in text
    assert "Últimas líneas del protocolo" not in text and len(text.splitlines()) < 20


@pytest.mark.usefixtures("run_token")
def test_a_torneo_reports_the_same_renuncio_in_full_once(tmp_path: Path) -> None:
    field = tmp_path / "field"
    shutil.copytree(BOTS / "renuncio", field / "renuncio")
    for sample in ("a_mas", "a_menos"):
        shutil.copytree(ROOT / "sample_players" / sample, field / sample)
    out = tmp_path / "torneo"
    config = t.Config(table_size=3, rounds=3, seed=5, move_ms=1000, init_ms=3000)
    stats = execute(out, field, config, 1)
    assert stats.total == stats.committed
    with Store.open(out) as store:
        faults = [(r.id, f) for r in store.results() for f in r.faults if f.reason == "renuncio"]
    assert len(faults) >= 2, "the bot renuncia in several partidos"
    (first, fault), rest = faults[0], faults[1:]
    assert fault.incident and "La solicitud:" in (out / fault.incident).read_text(encoding="utf-8")
    for _partido, f in rest:
        assert f.incident
        text = (out / f.incident).read_text(encoding="utf-8")
        lines = text.splitlines()
        assert len(lines) == 3 and "renuncio (renuncio): " in lines[0], text
        assert (
            lines[2]
            == f"La misma falta que en el partido {first}: su informe completo está en {fault.incident}"
        )


# ---------------------------------------------------------------- arena check's hints


def _hints(reason: str, hello: bool = False, **conn: object) -> list[str]:
    fake = SimpleNamespace(game="tute-cabrero", stuck=[], spec=SimpleNamespace(kind="command"), **conn)
    return checker._hints(reason, "", fake, hello=hello)  # type: ignore[arg-type]


def test_the_hello_hint_speaks_of_ready_not_of_play() -> None:
    (hint,) = _hints("protocol", hello=True, fault_line=b'{"type":"play","id":1,"card":"1-oro"}')
    ready = '{"type":"ready","id":<id>,"name":"…"}'
    assert hint == f"hello espera una línea, exactamente {ready}, con flush"
    (later,) = _hints("protocol", fault_line=b'{"type":"ready","id":1}')
    assert '"type":"play"' in later and "ready" not in later


def test_the_debugging_hint_quotes_the_line_and_names_stderr_in_each_language() -> None:
    for hello in (True, False):
        first, why, how = _hints("protocol", hello=hello, fault_line=b'System.out.println("debug")\n')
        assert first == "algo que no es una respuesta llegó a stdout: 'System.out.println(\"debug\")'"
        assert (
            why.strip() == "escribí tu depuración en stderr: stdout es solo para las respuestas del protocolo"
        )
        for name in ("console.error(…)", "System.err.println(…)", "fprintf(stderr, …)", "file=sys.stderr"):
            assert name in how


def test_the_crash_hint_of_a_runtime_repeats_the_advice() -> None:
    advice = diagnose.runtime_advice(diagnose.MEMORY, True, 1024, 256)
    first, again = _hints("crash", hello=True, runtime=(diagnose.MEMORY, advice))
    assert first.startswith("el runtime no pudo arrancar: chocó con un límite del sandbox")
    assert again.strip() == advice
    assert _hints("crash", runtime=None) == [_(checker.HINTS["crash"])]


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.usefixtures("run_token")
def test_check_of_a_jvm_that_cannot_start(tmp_path: Path) -> None:
    r = arena("check", BOTS / "msg_jvm", "--partidos", "1", "--out", tmp_path)
    assert r.exit_code == 1, r.output
    assert "  ✗ hello: su runtime se quedó sin memoria o no pudo reservarla — " in r.output
    assert "pista: el runtime no pudo arrancar: chocó con un límite del sandbox" in r.output
    assert "java -Xmx256m" in r.output and "1024 MiB" in r.output
    assert '"type":"play"' not in r.output.split("Partido 1")[0], "the hello hint speaks of ready"
    assert r.output.count("pista: el runtime no pudo arrancar") == 2, "at start-up and in partido 1"
    assert "la misma falta que en el arranque, informada arriba" in r.output.split("Partido 1")[1]
    assert r.output.count("Últimas líneas del protocolo") == 1, "the incident in full once"


@pytest.mark.usefixtures("run_token")
def test_check_reports_the_same_renuncio_in_full_once(tmp_path: Path) -> None:
    r = arena("check", BOTS / "renuncio", "--partidos", "3", "--seed", "3", "--out", tmp_path)
    assert r.exit_code == 1, r.output
    assert r.output.count("descalificado: renuncio") == 3
    assert r.output.count("La solicitud:") == 1
    assert r.output.count("la misma falta que en el partido 1, informada arriba") == 2
