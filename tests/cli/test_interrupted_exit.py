"""An interrupted command leaves at once with status 130 and says nothing after its own last line:
no "leaked semaphore objects" from multiprocessing's resource tracker about the worker pool's locks."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROGRAM = textwrap.dedent(
    """
    import multiprocessing

    from arena.cli import main

    locks = [multiprocessing.get_context("forkserver").Lock() for _ in range(3)]  # as a worker pool's

    @main.command("interrupted")
    def interrupted() -> None:
        print("Torneo interrumpido antes de empezar: no se guardó nada.")
        raise SystemExit(130)

    main(["interrupted"])
    """
)


def test_an_interrupted_command_exits_130_and_nothing_follows_its_last_line() -> None:
    # communicate() reads until every holder of the pipes is gone: the resource tracker included
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=60)
    assert done.returncode == 130, done.stderr
    assert done.stdout.strip().splitlines() == ["Torneo interrumpido antes de empezar: no se guardó nada."]
    assert "leaked" not in done.stderr
    assert done.stderr.strip() == ""
