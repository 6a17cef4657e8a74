"""The torneo's log pipe: whole lines, no lock, and no process can silence the others."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import time
from pathlib import Path
from typing import Any

from arena.tournament.logchannel import CUT, MESSAGE_MAX, LogSink, PipeHandler, message


def _chatter(channel: Any, name: str) -> None:
    """Log long lines as fast as possible until killed."""
    log = logging.getLogger(f"chatter.{name}")
    log.propagate = False
    log.addHandler(PipeHandler(channel))
    log.setLevel(logging.INFO)
    n = 0
    while True:
        log.info("%s %d %s", name, n, "x" * 3000)
        n += 1


def test_a_long_line_is_cut_with_a_mark_to_one_atomic_write() -> None:
    data = message("ñ" * 5000)
    assert len(data) <= MESSAGE_MAX and data.endswith(CUT.encode())
    assert data.decode("utf-8")  # never cut inside a character
    assert message("corta") == b"corta"


def test_writers_killed_mid_line_leave_every_line_whole_and_the_log_writable(tmp_path: Path) -> None:
    context = multiprocessing.get_context("fork")
    sink = LogSink(context)
    path = tmp_path / "torneo.log"
    logging.getLogger("arena.test").info("antes del fichero")
    sink.start(path)
    try:
        for round_ in range(6):
            names = [f"w{round_}{i}" for i in range(3)]
            writers = [context.Process(target=_chatter, args=(sink.channel, n)) for n in names]
            for w in writers:
                w.start()
            time.sleep(0.15)
            for w in writers:  # killed wherever they are, likely inside a write
                os.kill(w.pid or 0, signal.SIGKILL)
            for w in writers:
                w.join()
        logging.getLogger("arena.test").info("después de las muertes")
    finally:
        sink.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert "antes del fichero" in lines[0]
    assert "después de las muertes" in lines[-1]
    chatter = [line for line in lines if " chatter." in line]
    assert len(chatter) > 18, len(chatter)  # every writer got lines in
    assert all(line.endswith("x" * 3000) for line in chatter)  # none cut or interleaved
    assert oct(path.stat().st_mode & 0o777) == oct(0o600)
