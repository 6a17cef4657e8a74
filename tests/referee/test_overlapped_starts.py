"""A partido starts every seat's process before greeting any, and says bye to all before stopping any.

The start-ups (interpreter, imports, sandbox) and the exits then overlap instead of adding up;
each player's hello is still judged on its own CPU time before mano 1.
"""

from __future__ import annotations

import pytest

from arena.referee import connection, table
from arena.referee.players import find_player
from tests.paths import ROOT

SAMPLE = ROOT / "sample_players" / "random_legal"


@pytest.mark.usefixtures("run_token")
def test_every_process_starts_before_the_first_hello_and_hears_bye_before_any_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[tuple[str, str]] = []
    real = connection.SubprocessConnection

    class Recorded(real):  # type: ignore[valid-type, misc]
        def __init__(self, spec, *args, greet=True, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(("start", spec.name))
            super().__init__(spec, *args, greet=greet, **kwargs)

        def greet(self) -> None:
            calls.append(("greet", self.name))
            super().greet()

        def say_bye(self) -> None:
            if not self._said_bye:
                calls.append(("bye", self.name))
            super().say_bye()

        def close(self) -> None:
            if not self.closed:
                calls.append(("close", self.name))
            super().close()

    monkeypatch.setattr(connection, "SubprocessConnection", Recorded)
    spec = find_player(SAMPLE)
    result, _incidents = table.play_folders([spec] * 4, 7)
    assert result.manos > 0 and not result.faults
    kinds = [kind for kind, _name in calls]
    assert kinds == ["start"] * 4 + ["greet"] * 4 + ["bye"] * 4 + ["close"] * 4
    assert [name for _kind, name in calls[:4]] == [name for _kind, name in calls[4:8]]
