"""``arena check`` warns of the exceptions a player caught itself: the Java and Node samples' net logs
the trace and plays legal[0], so the bug is no fault and shows only in the player's stderr (trial)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena import i18n
from arena.cli import main
from arena.referee.diagnose import exception_traces
from tests.paths import BOTS, ROOT

pytestmark = pytest.mark.usefixtures("run_token")  # its tests start player processes

FAST = ["--move-ms", "300", "--init-ms", "3000"]
CAUGHT = re.compile(
    r"^Aviso: la salida de error de tu jugador tiene (\d+) trazas? de excepción \(la primera: (.*)\);", re.M
)


def arena(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_a_python_player_that_catches_its_bug_is_clean_with_a_warning(tmp_path: Path) -> None:
    r = arena("check", BOTS / "trial_caught_python", "--partidos", "1", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "Resultado: LIMPIO ✓" in r.output
    m = CAUGHT.search(r.output)
    assert m is not None, r.output
    assert int(m[1]) > 1
    assert m[2].startswith("ZeroDivisionError: ") and m[2].endswith("trial_caught_python/player.py:19")
    assert "trial_caught_python.stderr.log" in r.output


@pytest.mark.skipif(shutil.which("node") is None, reason="node (Node.js) is not on PATH")
def test_a_node_player_that_catches_its_bug_is_warned_of(tmp_path: Path) -> None:
    r = arena("check", BOTS / "trial_caught_node", "--partidos", "1", "--out", tmp_path)
    assert "Resultado: LIMPIO ✓" in r.output, r.output
    m = CAUGHT.search(r.output)
    assert m is not None, r.output
    assert m[2].startswith("TypeError: Cannot read properties of undefined (reading 'card') en ")
    assert m[2].endswith("trial_caught_node/bot.js:7")


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac (a JDK) is not on PATH")
def test_the_java_sample_with_a_bug_in_choose_card_is_warned_of(tmp_path: Path) -> None:
    bot = tmp_path / "java_bug"
    bot.mkdir()
    shutil.copy(ROOT / "sample_languages" / "java_basico" / "player.toml", bot)
    source = (ROOT / "sample_languages" / "java_basico" / "Bot.java").read_text(encoding="utf-8")
    head = "static String chooseCard(List<String> legal, List<String> table, String trump) {\n"
    assert head in source
    (bot / "Bot.java").write_text(
        source.replace(head, head + "        if (legal != null) { String s = null; s.length(); }\n")
    )
    subprocess.run(["javac", "Bot.java"], cwd=bot, check=True)
    line = source[: source.index(head)].count("\n") + 2
    r = arena("check", bot, "--partidos", "1", "--out", tmp_path / "out")
    assert "Resultado: LIMPIO ✓" in r.output, r.output  # the net: no fault at all
    m = CAUGHT.search(r.output)
    assert m is not None, r.output
    assert m[2].startswith("java.lang.NullPointerException") and m[2].endswith(f"Bot.java:{line}")


def test_a_crash_is_the_fault_not_a_caught_exception_too(tmp_path: Path) -> None:
    r = arena("check", BOTS / "msg_raise", "--partidos", "1", "--out", tmp_path, *FAST)
    assert "descalificado: se cayó — KeyError" in r.output
    assert not CAUGHT.search(r.output)


def test_each_trace_is_counted_once_and_the_checkers_interrupt_not_at_all() -> None:
    log = "\n".join(
        [
            "hello: I am x",
            'java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null',
            "\tat Bot.chooseCard(Bot.java:255)",
            "\tat Bot.onPlay(Bot.java:360)",
            'Exception in thread "main" java.lang.IllegalStateException: boom',
            "\tat java.base/java.util.X.y(X.java:1)",
            "\tat Bot.main(Bot.java:12)",
            "Caused by: java.lang.RuntimeException: inner",
            "\tat Bot.f(Bot.java:3)",
            "\t... 2 more",
            'error on {"type":"play"}: TypeError: x is undefined',
            "    at chooseCard (/player/bot.js:42:10)",
            "    at node:events:517:28",
            "Traceback (most recent call last):",
            '  File "/player/player.py", line 10, in play',
            "ZeroDivisionError: division by zero",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            '  File "/player/player.py", line 12, in play',
            "ValueError: v",
            "Traceback (most recent call last):",
            '  File "/usr/lib/python3/selectors.py", line 1, in select',
            "KeyboardInterrupt",
            "a line that says Error, then nothing",
        ]
    )
    with i18n.speaking("en"):
        found = exception_traces(log, ["/player"], "ana")
    assert found == [
        'java.lang.NullPointerException: Cannot invoke "String.length()" because "s" is null at Bot.java:255',
        "java.lang.IllegalStateException: boom at Bot.java:12",
        "TypeError: x is undefined at ana/bot.js:42",
        "ValueError: v at ana/player.py:12",
    ]
    assert exception_traces("\x00\x1b[2J" * 1000, ["/player"]) == []
