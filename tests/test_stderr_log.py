"""A player's standard error as the referee keeps it: its tail is complete when an incident is written."""

from __future__ import annotations

import os
import threading

import pytest

from arena.referee.process import StderrLog


def test_catch_up_waits_for_what_was_written_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """The drain thread lags (a loaded machine): catch_up waits until the last words are kept."""
    go = threading.Event()
    real_read = os.read

    def slow_read(fd: int, n: int) -> bytes:
        go.wait(5)  # the drain cannot read before the test lets it
        return real_read(fd, n)

    monkeypatch.setattr("arena.referee.process.os.read", slow_read)
    r, w = os.pipe()
    log = StderrLog(r, None)
    os.write(w, b"bot: last words\n")
    threading.Timer(0.05, go.set).start()
    log.catch_up(2.0)
    assert "bot: last words" in log.tail()
    os.close(w)
    log.join(2.0)


def test_catch_up_returns_at_once_when_nothing_is_pending() -> None:
    r, w = os.pipe()
    log = StderrLog(r, None)
    log.catch_up(2.0)
    assert log.tail() == ""
    os.close(w)
    log.join(2.0)
    log.catch_up(2.0)  # after the end of the pipe too
