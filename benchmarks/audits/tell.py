"""The reply-time tell of ``arena audit`` against a real timing sender (issue 50's channel).

Each torneo is played and audited through the real CLI, as a user would: ``arena tournament``
(bubblewrap, the default sandbox; tables of 4; ``--partidos`` partidos, ``--seed``) then
``arena audit DIR``, whose ``DIR/audit.csv`` gives each entrant's tell figures. The entrants:

* ``channel_bots/timing_sender``: plays as a_mas and sleeps ``10 + 24·v`` ms before each reply,
  ``v`` three bits of its hand (``--encodings``, cycled over the torneos; its README.md):
  ``suit`` (the suit and half of the k-th card of its dealt hand at its k-th reply of the mano),
  ``fixed`` (whether it holds each of three fixed cards now: the same bits every reply, the case of
  the tell's synthetic test) or ``rank`` (three bits a reply of its dealt hand's combinatorial rank);
* ``channel_bots/timing_receiver``: plays as a_mas and reads the sender's values from the moments
  the events reach it (its decoding accuracy is printed: how real the channel is);
* the sample players ``a_mas``, ``a_menos``, ``random_legal``, ``fuerte`` and ``maestro`` (the last two
  search, thinking longer with more choices).

Per torneo, each entrant's replies, tell bits per reply, p and corrected p, and flag; then the line

    timing senders flagged: k of K; honest entrants flagged by the tell: f of F

(``K``: torneos, one sender each; ``F``: every other entrant of every torneo, the receiver
included: its own times carry nothing). Exit status 1 when ``k < K`` or ``f > 0``.

    python benchmarks/audits/tell.py                          # 3 torneos of 12 partidos: suit, fixed, rank
    python benchmarks/audits/tell.py --torneos 2 --encodings suit --keep /tmp/tell

Measured (a default run, ``python benchmarks/audits/tell.py``, 2 cores otherwise idle, 532 s): the
channel works — the receiver read right 87.6% (suit), 79.6% (fixed), 92.7% (rank) of the values of
whole manos, the misses where a search player's long reply shares the gap — yet the tell flagged
only the ``fixed`` sender::

    torneo  encoding  sender replies  bits   p corrected  flagged
    1       suit      467             0.099  7e-14        no
    2       fixed     489             0.341  7e-110       YES
    3       rank      461             0.000  0.87         no
    honest entrants (6 a torneo): bits 0.008–0.074, corrected p down to 3e-9 (a_menos): only
    MIN_BITS (0.25) keeps them unflagged
    timing senders flagged: 1 of 3; honest entrants flagged by the tell: 0 of 18

Under load (two busy loops on the 2 cores, ``--torneos 2 --encodings fixed,suit --seed 11``, 475 s):
the receiver read 41.7% (fixed) and 68.3% (suit) right; fixed 0.278 bits (flagged), suit 0.141
(not); honest entrants 0.087 bits at most, none flagged: ``1 of 2; 0 of 12``.

Why: the tell regresses the times (ranked within strata) on the 40 cards held, one coefficient a
card for every reply of the mano, so it sees only a time that is the same linear function of the
hand at every reply. A sender cycling through its hand (``suit``: another card each reply) averages
out to 0.1 bits of the 3 it sends; one sending a hash of the hand (``rank``) to nothing. And the
bits shrink with fewer replies (strata of one reply count nothing): the ``fixed`` sender measured
0.13 bits on the 219 replies of a small torneo with times computed from its code (3 ms of noise),
0.32 on 489.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "channel_bots"
SENDER, RECEIVER = "timing_sender", "timing_receiver"
SAMPLES = ("a_mas", "a_menos", "random_legal", "fuerte", "maestro")
ENCODINGS = ("suit", "fixed", "rank")


def arena() -> list[str]:
    """The ``arena`` command of this interpreter's environment."""
    found = Path(sys.executable).parent / "arena"
    return [str(found)] if found.exists() else [sys.executable, "-m", "arena"]


def field(folder: Path, encoding: str, scale: float) -> Path:
    """The entrants' folders: the pair (``timing.json``: the encoding, the scale) and the samples."""
    players = folder / "players"
    players.mkdir(parents=True)
    config = json.dumps({"encoding": encoding, "scale": scale})
    for bot in (SENDER, RECEIVER):
        shutil.copytree(BOTS / bot, players / bot, ignore=shutil.ignore_patterns("__pycache__"))
        (players / bot / "timing.json").write_text(config)
    for name in SAMPLES:
        if (ROOT / "sample_players" / name).is_dir():
            shutil.copytree(
                ROOT / "sample_players" / name, players / name, ignore=shutil.ignore_patterns("__pycache__")
            )
    return players


def decoded(out: Path) -> tuple[int, int]:
    """The receiver's values read right, of those it could check (whole manos), over the torneo."""
    right = total = 0
    for log in out.glob(f"replays/*.logs/{RECEIVER}.stderr.log"):
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("TIMING "):
                got = json.loads(line[len("TIMING ") :])
                right += sum(a == b for a, b in zip(got["sent"], got["read"], strict=True))
                total += len(got["sent"])
    return right, total


def torneo(folder: Path, encoding: str, partidos: int, seed: int, scale: float) -> list[dict[str, str]]:
    """Play and audit one torneo with the CLI; its ``audit.csv`` rows."""
    players = field(folder, encoding, scale)
    out = folder / "torneo"
    cmd = [*arena(), "tournament", str(players), "--out", str(out), "--table-size", "4"]
    cmd += ["--partidos", str(partidos), "--seed", str(seed), "--lang", "en"]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    subprocess.run(
        [*arena(), "audit", str(out), "--lang", "en"], check=True, stdout=subprocess.DEVNULL, cwd=ROOT
    )
    with (out / "audit.csv").open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--torneos", type=int, default=3)
    ap.add_argument(
        "--partidos", type=int, default=12, help="partidos per torneo (tables of 4 of 7 entrants)"
    )
    ap.add_argument("--seed", type=int, default=1, help="torneo i is dealt from seed + i")
    ap.add_argument("--encodings", default=",".join(ENCODINGS), help="the sender's, cycled over the torneos")
    ap.add_argument("--scale", type=float, default=1.0, help="the sender's sleeps: scale × (10 + 24·v) ms")
    ap.add_argument("--keep", type=Path, help="keep the torneos here (else a temporary folder)")
    args = ap.parse_args(argv)
    encodings = [e.strip() for e in args.encodings.split(",") if e.strip()]
    if not encodings or set(encodings) - set(ENCODINGS):
        ap.error(f"--encodings: some of {', '.join(ENCODINGS)}")
    base = args.keep or Path(tempfile.mkdtemp(prefix="tell-"))
    base.mkdir(parents=True, exist_ok=True)
    senders = caught = honest = false = 0
    start = time.monotonic()
    try:
        for i in range(args.torneos):
            encoding = encodings[i % len(encodings)]
            t0 = time.monotonic()
            rows = torneo(base / f"t{i + 1}-{encoding}", encoding, args.partidos, args.seed + i, args.scale)
            right, total = decoded(base / f"t{i + 1}-{encoding}" / "torneo")
            print(
                f"torneo {i + 1}: encoding {encoding}, seed {args.seed + i}, {time.monotonic() - t0:.0f} s; "
                f"receiver read {right} of {total} values right ({right / max(total, 1):.1%})"
            )
            print(f"  {'entrant':16} {'replies':>7} {'bits':>6} {'p':>9} {'p corr.':>9}  tell?")
            for r in rows:
                flagged = r["tell_flagged"] == "1"
                p, pc = float(r["tell_p"]), float(r["tell_p_corrected"])
                print(
                    f"  {r['entrant']:16} {r['replies']:>7} {float(r['tell_bits']):6.3f} "
                    f"{p:9.2g} {pc:9.2g}  {'YES' if flagged else 'no'}"
                )
                if r["entrant"] == SENDER:
                    senders += 1
                    caught += flagged
                else:
                    honest += 1
                    false += flagged
            sys.stdout.flush()
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)
    print(f"({time.monotonic() - start:.0f} s)")
    told = f"timing senders flagged: {caught} of {senders}"
    print(f"{told}; honest entrants flagged by the tell: {false} of {honest}")
    return 0 if caught == senders and false == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
