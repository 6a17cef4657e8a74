"""The reply-time tell of ``arena audit`` against real timing senders (``benchmarks/audits/channel_bots``).

One small torneo through the CLI, in the sandbox: two timing senders (``timing_sender`` with two
encodings, ``timing.json``), ``a_mas`` and ``random_legal`` at one table of four, six times; then
``arena audit``. Each sender sleeps ``scale × (10 + 24·v)`` ms before each reply, ``v`` three bits of
its hand, at half the benchmark's scale (the tell ranks times: a smaller sleep is as clear):

* ``fixed``: whether it holds each of three fixed cards now — the tell must flag it;
* ``suit``: the suit and half of the k-th card of its dealt hand at its k-th reply (cycling through
  the hand, as issue 50's red team did) — the tell should flag it and does not (xfail: its one linear
  fit of the 40 cards for every reply of the mano averages a cycling code out; measured 0.09–0.13
  bits a reply of the 3 sent, below ``MIN_BITS``; ``benchmarks/audits/tell.py``).

The honest sample players must not be flagged. Six partidos, about 500 replies each: the tell's
bits shrink with fewer replies (its strata of one reply count nothing), and the fixed sender needs
about that many to pass 0.25. Measured: fixed 0.35 bits (flagged), suit 0.13, a_mas 0.07,
random_legal 0.04. ``slow``: it plays sandboxed players (about 50 s).
"""

from __future__ import annotations

import csv
import json
import shutil

import pytest
from click.testing import CliRunner

from arena import i18n
from arena.cli import main
from arena.results.tell import MIN_REPLIES
from tests.paths import ROOT

BOTS = ROOT / "benchmarks" / "audits" / "channel_bots"
SCALE = 0.5
HONEST = ("a_mas", "random_legal")
ROUNDS = 6

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def told(tmp_path_factory: pytest.TempPathFactory, player_processes: None) -> dict[str, dict[str, str]]:
    """The torneo played and audited: ``audit.csv``'s rows by entrant."""
    base = tmp_path_factory.mktemp("tell")
    players = base / "players"
    for encoding in ("fixed", "suit"):
        folder = players / f"sender_{encoding}"
        shutil.copytree(BOTS / "timing_sender", folder, ignore=shutil.ignore_patterns("__pycache__"))
        (folder / "timing.json").write_text(json.dumps({"encoding": encoding, "scale": SCALE}))
    for name in HONEST:
        shutil.copytree(ROOT / "sample_players" / name, players / name)
    out = base / "torneo"
    runner = CliRunner()
    args = ["tournament", str(players), "--out", str(out), "--table-size", "4", "--rounds", str(ROUNDS)]
    with i18n.speaking(i18n.DEFAULT):  # --lang en in process: not beyond this module
        played = runner.invoke(main, [*args, "--seed", "5", "--workers", "2", "--lang", "en"])
        assert played.exit_code == 0, played.output
        audited = runner.invoke(main, ["audit", str(out), "--every", "50", "--lang", "en"])
        assert audited.exit_code == 0, audited.output
    with (out / "audit.csv").open(newline="", encoding="utf-8") as f:
        return {r["entrant"]: r for r in csv.DictReader(f)}


def test_the_tell_flags_a_real_sender_of_fixed_cards_and_not_the_honest_players(
    told: dict[str, dict[str, str]],
) -> None:
    assert all(int(r["replies"]) >= MIN_REPLIES for r in told.values())
    sender = told["sender_fixed"]
    assert sender["tell_flagged"] == "1", sender
    for name in HONEST:
        assert told[name]["tell_flagged"] == "0", told[name]


@pytest.mark.xfail(
    strict=True,
    reason="the tell fits the 40 cards once for every reply of a mano: a sender cycling through its "
    "hand averages out (0.09–0.13 bits a reply measured, MIN_BITS 0.25); see benchmarks/audits/tell.py",
)
def test_the_tell_flags_a_real_sender_cycling_through_its_hand(told: dict[str, dict[str, str]]) -> None:
    sender = told["sender_suit"]
    assert sender["tell_flagged"] == "1", sender
