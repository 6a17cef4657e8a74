"""Smoke test of ``benchmarks/audits/channels.py``'s probes (issue 48), run as a script (tests import
nothing from benchmarks/): its ``--check`` checks the decoder's figures, and the probe processes in
two real sandboxes (socket families, refused counters, a few slots), in seconds."""

from __future__ import annotations

import pytest

from arena.containment import sandbox, seal
from tests.benchmark_scripts import benchmark_lines


@pytest.fixture(scope="module")
def checked(player_processes: None) -> list[str]:
    """The script's check, run once: its probes are processes in two real sandboxes."""
    return benchmark_lines("audits/channels.py", "--check")


def test_decoding_finds_a_clean_channel_and_not_noise(checked: list[str]) -> None:
    assert checked[0] == "check: the decoder finds a clean channel and not noise", checked


@pytest.mark.skipif(
    not (sandbox.is_root() and sandbox.bwrap_works() and seal.problem() is None),
    reason="needs a root referee, bubblewrap and the syscall filter",
)
def test_probes_run_in_two_sandboxes(checked: list[str]) -> None:
    assert checked[1:] == [
        "check: probes in two sandboxes: only AF_UNIX sockets, none seen across, counters refused, slots read"
    ], checked
