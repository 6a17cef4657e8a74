"""Covert channels between colluding players (issue 27): how many hidden hands leak; how fast timing talks.

For each channel (``--channels``; all by default) and each scenario it plays real partidos with
``arena play`` under the default sandbox (bubblewrap, a uid per player, cgroups), warm starts or
``--cold-start``, between copies of the colluding bot ``benchmarks/channel_bots/colluder``: every
mano each colluder publishes its hand through the channel and, at its first request, reads its
peer's; it writes what it decoded to its stderr log, and this script compares that with the true
hands in the replay. The bots always play a legal card, whatever the channel does.

Scenarios (``--scenarios``; the first four by default, ``all`` for six):

* ``cabrero-warm`` / ``cabrero-cold``: two Cabrero entrants at a table of four with
  ``random_legal`` and ``a_mas``, seats rotated from partido to partido;
* ``parejas-partners-warm`` / ``-cold``: one Tute por parejas entrant (its two processes,
  partners, which see one staged copy of its folder) against ``heuristica``;
* ``parejas-entrants-warm`` / ``-cold``: two parejas entrants, one process of each colluding
  with one of the other's (opponents).

Channels (``--channels``; each has *vias*, ways through, decoded independently):

* ``keyring``: a ``user`` key with open permissions; its description in /proc/keys carries the
  hand (``proc-keys``), or its id to read the payload (``keyctl-read``); a key in the session
  keyring, searched for (``session``);
* ``flock``, ``posix-lock``, ``ofd-lock``: a bit per file (flock) or per byte (record locks) on
  shared read-only files: /opt/arena (``opt``), /usr/lib/python3* (``usr``), the staged
  folder /player (``player``); tested by locking, or read from /proc/locks (``proc-locks``);
* ``inotify``: watches on those files; the sender opens the files of its 1 bits;
* ``sysv-ipc`` (shm, msg queue under a well-known key), ``posix-mq``, ``socket`` (abstract
  unix, loopback TCP), ``tmp-file`` (/tmp, /dev/shm, /var/tmp), ``atime`` (a read of a shared
  file);
* ``page-cache``: a file's first page cached or evicted (fadvise DONTNEED), seen by cachestat,
  preadv2 RWF_NOWAIT or a read's time;
* ``timing``: during its first move of the mano (the table waiting for its card) the sender
  spins (1) or sleeps (0) in 25 ms slots: 8 preamble + 30 data slots at four seats (0.95 s,
  within a move's CPU and idle allowances), one frame per direction and mano; the receiver,
  waiting, measures its own loop rate (``loop``) and the machine's busy ticks in /proc/stat
  (``procstat``) slot by slot, and decodes the frame when the sender's card arrives. Its figure
  is the capacity of a binary symmetric channel, C = 1 - H(p) per data slot with p the bit
  error rate measured over all the frames, times the data slots per mano and direction (the
  better receiver).

Each colluder logs what it decoded (and each refusal: EPERM, ENOSYS...) as ``CHANNEL {json}``
lines; the table gives, per channel and scenario, the hands decoded right out of those tried
(one per colluder and mano both are dealt in), the vias that leaked and, for the others, why
not. The last line is ``hands leaked between players: N of M; timing channel: B bits per mano``
(N and M over every channel but timing); the exit status is 1 when N > 0 or a partido failed.
``--commit REV`` measures the referee of another commit (extracted with ``git archive``), e.g.
the one before the syscall filter; ``--arena DIR`` the one in a checkout.

    python benchmarks/channels.py                     # 12 channels x 4 scenarios: 48 partidos, ~3-5 min
    python benchmarks/channels.py --quick             # smoke: 2 scenarios, short parejas partidos
    python benchmarks/channels.py --channels keyring,flock --scenarios all --commit a20c34c
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import math
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = Path(__file__).resolve().parent / "channel_bots" / "colluder"
LOCKFILES = 80  # in each colluder's folder: two senders' boards of pulses (38 each)


def load_covert():  # type: ignore[no-untyped-def]
    """The bots' own encoding (``covert.py``), to compare bits with the true hands."""
    spec = importlib.util.spec_from_file_location("channel_bots_covert", BOT / "covert.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


covert = load_covert()
CHANNELS = list(covert.CHANNELS)
TIMING = "timing"


@dataclass(frozen=True)
class Scenario:
    game: str  # cabrero | parejas
    cold: bool
    kind: str  # entrants | partners


SCENARIOS = {
    "cabrero-warm": Scenario("cabrero", False, "entrants"),
    "cabrero-cold": Scenario("cabrero", True, "entrants"),
    "parejas-partners-warm": Scenario("parejas", False, "partners"),
    "parejas-partners-cold": Scenario("parejas", True, "partners"),
    "parejas-entrants-warm": Scenario("parejas", False, "entrants"),
    "parejas-entrants-cold": Scenario("parejas", True, "entrants"),
}
DEFAULT_SCENARIOS = ("cabrero-warm", "cabrero-cold", "parejas-partners-warm", "parejas-partners-cold")
CABRERO_SEATS = [("A", "B", "r", "m"), ("A", "r", "B", "m"), ("r", "A", "m", "B"), ("B", "m", "A", "r")]
"""Cabrero seatings, cycled: the colluders side by side and across the table."""


@dataclass
class Tally:
    """One (channel, scenario): hands tried and leaked, by via; timing bits; what refused."""

    tried: int = 0
    leaked: int = 0
    manos: int = 0
    by_via: collections.Counter = field(default_factory=collections.Counter)
    bits: collections.Counter = field(default_factory=collections.Counter)  # via -> bits sent
    bit_errors: collections.Counter = field(default_factory=collections.Counter)  # via -> wrong
    refused: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    faults: list = field(default_factory=list)
    partidos: int = 0
    seconds: float = 0.0


def folders_for(
    scenario: Scenario, n: int, work: Path, channel: str
) -> tuple[list[str], list[list[int]], list[str]]:
    """The ``arena play`` folders in seat order, the colluding seats and the extra arguments."""
    nonce = secrets.token_hex(6)

    def colluder(name: str, links: list[list[int]]) -> str:
        dest = work / name
        shutil.copytree(BOT, dest, ignore=shutil.ignore_patterns("__pycache__", "channel.json", "lockfiles"))
        (dest / "lockfiles").mkdir()
        for i in range(LOCKFILES):
            (dest / "lockfiles" / f"{i:02d}").write_text(f"{i}\n")
        config = {"game": scenario.game, "channel": channel, "nonce": nonce, "links": links}
        (dest / "channel.json").write_text(json.dumps(config))
        return str(dest)

    if scenario.game == "cabrero":
        seats = CABRERO_SEATS[n % len(CABRERO_SEATS)]
        links = [[seats.index("A"), seats.index("B")]]
        fill = {
            "r": str(ROOT / "sample_players" / "random_legal"),
            "m": str(ROOT / "sample_players" / "a_mas"),
        }
        named = {"A": colluder("colluder_a", links), "B": colluder("colluder_b", links)}
        return [named.get(s) or fill[s] for s in seats], links, []
    if scenario.kind == "partners":
        first = n % 2 == 0  # the colluding pair at seats 0 and 2, or 1 and 3
        links = [[0, 2]] if first else [[1, 3]]
        mine, other = colluder("pareja_a", links), str(ROOT / "sample_pairs" / "heuristica")
        return ([mine, other] if first else [other, mine]), links, ["--game", "parejas"]
    links = [[[0, 1], [2, 3], [0, 3], [2, 1]][n % 4]]
    return [colluder("pareja_a", links), colluder("pareja_b", links)], links, ["--game", "parejas"]


def play(
    arena_root: Path, folders: list[str], replay: Path, extra: list[str], cold: bool
) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "arena", "play", *folders, "--replay", str(replay), "--quiet", *extra]
    if cold:
        argv.append("--cold-start")
    env = {**os.environ, "PYTHONPATH": str(arena_root), "ARENA_LANG": "en"}
    return subprocess.run(
        argv, cwd=arena_root, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def read_lines(path: Path, prefix: str = "") -> list[dict]:
    out = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return out
    for line in text.splitlines():
        if prefix and not line.startswith(prefix):
            continue
        try:
            out.append(json.loads(line[len(prefix) :]))
        except ValueError:
            continue
    return out


def tally_partido(tally: Tally, replay: Path, links: list[list[int]], channel: str) -> None:
    """Compare what each colluder decoded (its log) with the replay's true hands."""
    from arena.cards import parse

    events = read_lines(replay)
    hands = {e["mano"]: e["hands"] for e in events if e.get("type") == "mano_start"}
    players = next((e["players"] for e in events if e.get("type") == "partido_start"), [])
    for e in events:
        if e.get("type") == "disqualified":
            name = players[e["seat"]]["name"] if e["seat"] < len(players) else e["seat"]
            tally.faults.append(f"{name}: {e.get('reason')}: {e.get('detail')}")
    got: dict[tuple[int, int], dict] = {}
    for log in sorted(Path(f"{replay}.logs").glob("*.stderr.log")):
        for line in read_lines(log, "CHANNEL "):
            if line.get("kind") == "got":
                got[(line["seat"], line["mano"])] = line
            for via, why in (line.get("errors") or {}).items():
                tally.refused[via][why.split(":")[0]] += 1
    for mano, dealt in sorted(hands.items()):
        counted = False
        for link in links:
            for receiver, sender in ((link[0], link[1]), (link[1], link[0])):
                if not (dealt[receiver] and dealt[sender]):
                    continue
                counted = True
                truth = sorted(parse(c) for c in dealt[sender])
                line = got.get((receiver, mano), {})
                decoded = line.get("hands") or {}
                right = [via for via, h in decoded.items() if h and sorted(parse(c) for c in h) == truth]
                tally.tried += 1
                tally.leaked += bool(right)
                tally.by_via.update(right)
                if channel == TIMING:
                    sent = covert.hand_bits(truth)
                    for via in covert.TimingChannel.vias:
                        bits = (line.get("bits") or {}).get(via)
                        tally.bits[via] += len(sent)
                        if bits is None or len(bits) != len(sent):
                            tally.bit_errors[via] += len(sent) / 2  # nothing received: a coin toss per bit
                        else:
                            tally.bit_errors[via] += sum(int(b) != s for b, s in zip(bits, sent, strict=True))
        tally.manos += counted


def entropy(p: float) -> float:
    return 0.0 if p <= 0 or p >= 1 else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def capacity(tally: Tally, via: str) -> tuple[float, float, float]:
    """(bit error rate, capacity per slot 1 - H(p), bits per mano per direction)."""
    bits = tally.bits[via]
    if not bits:
        return 0.5, 0.0, 0.0
    p = tally.bit_errors[via] / bits
    per_bit = 1 - entropy(p)
    return p, per_bit, per_bit * bits / max(tally.tried, 1)


def refused_note(tally: Tally, channel: str) -> str:
    """The vias that leaked nothing, and why: the commonest error each got, or that nothing was read."""
    by_reason: dict[str, list[str]] = collections.defaultdict(list)
    for via in covert.CHANNELS[channel].vias:
        if tally.by_via[via]:
            continue
        errors = tally.refused.get(via)
        by_reason[errors.most_common(1)[0][0] if errors else "nothing read"].append(via)
    return "; ".join(f"{','.join(vias)}: {why}" for why, vias in sorted(by_reason.items()))


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--partidos", type=int, default=1, help="partidos per channel and scenario (default 1)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: two scenarios, short parejas partidos"
    )
    parser.add_argument("--channels", default=",".join(CHANNELS), help="comma-separated (default: all)")
    parser.add_argument(
        "--scenarios",
        default=None,
        help="comma-separated, or all (default: the cabrero and parejas-partners four)",
    )
    parser.add_argument(
        "--commit", default=None, help="measure this commit's referee (git archive into a temp folder)"
    )
    parser.add_argument(
        "--arena", type=Path, default=None, help="measure the referee in this checkout (default: this one)"
    )
    parser.add_argument("--keep", type=Path, default=None, help="work in this new folder and keep it")
    args = parser.parse_args(argv)
    channels = [c.strip() for c in args.channels.split(",") if c.strip()]
    unknown = [c for c in channels if c not in CHANNELS]
    if unknown:
        parser.error(f"unknown channel(s) {', '.join(unknown)}; known: {', '.join(CHANNELS)}")
    default = "cabrero-warm,parejas-partners-cold" if args.quick else ",".join(DEFAULT_SCENARIOS)
    chosen = ",".join(SCENARIOS) if args.scenarios == "all" else args.scenarios or default
    scenarios = [s.strip() for s in chosen.split(",") if s.strip()]
    unknown = [s for s in scenarios if s not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario(s) {', '.join(unknown)}; known: {', '.join(SCENARIOS)}")

    work = args.keep or Path(tempfile.mkdtemp(prefix="tute-channels-"))
    work.mkdir(parents=True, exist_ok=True)
    arena_root = (args.arena or ROOT).resolve()
    if args.commit:
        arena_root = work / "arena-checkout"
        arena_root.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.commit], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(arena_root)], input=archive.stdout, check=True)
    label = str(arena_root)
    if args.commit:
        rev = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", args.commit], capture_output=True
        )
        label = f"commit {rev.stdout.decode().strip() or args.commit}"
    print(
        f"referee: {label}; channels: {', '.join(channels)}; scenarios: {', '.join(scenarios)}; "
        f"{args.partidos} partido(s) each; load average {load()}",
        flush=True,
    )
    began = time.monotonic()
    tallies: dict[tuple[str, str], Tally] = {}
    count = 0
    failed = 0
    for channel in channels:
        for name in scenarios:
            scenario = SCENARIOS[name]
            tally = tallies[(channel, name)] = Tally()
            for n in range(args.partidos):
                folder = work / f"p{count:03d}-{channel}-{name}"
                folder.mkdir(mode=0o700)
                folders, links, extra = folders_for(scenario, n + CHANNELS.index(channel), folder, channel)
                if args.quick and scenario.game == "parejas":
                    extra += ["--juegos", "2"]
                replay = folder / "replay.jsonl"
                start = time.monotonic()
                done = play(arena_root, folders, replay, extra, scenario.cold)
                tally.seconds += time.monotonic() - start
                count += 1
                if done.returncode != 0 or not replay.exists():
                    failed += 1
                    print(
                        f"  {channel} {name}: arena play exited {done.returncode}: "
                        f"{(done.stderr or done.stdout).strip().splitlines()[-1:]}",
                        flush=True,
                    )
                    continue
                tally.partidos += 1
                tally_partido(tally, replay, links, channel)
            print(
                f"  {channel:<11} {name:<22} {tally.leaked:>3} of {tally.tried:<3} hands "
                f"({tally.partidos} partido(s), {tally.seconds:.1f} s)",
                flush=True,
            )

    print()
    head = f"{'channel':<11} {'scenario':<22} {'leaked':>6} {'tried':>5} {'manos':>5}"
    if any(c != TIMING for c in channels):
        print(f"{head}  {'leaked by via':<34} no leak through (why)")
    for (channel, name), t in tallies.items():
        if channel == TIMING:
            continue
        vias = ", ".join(f"{v} {c}" for v, c in sorted(t.by_via.items())) or "-"
        row = f"{channel:<11} {name:<22} {t.leaked:>6} {t.tried:>5} {t.manos:>5}"
        print(f"{row}  {vias:<34} {refused_note(t, channel)}")
    per_channel: dict[str, list[int]] = {}
    for (channel, _), t in tallies.items():
        if channel != TIMING:
            per_channel.setdefault(channel, [0, 0])
            per_channel[channel][0] += t.leaked
            per_channel[channel][1] += t.tried
    if per_channel:
        print("by channel: " + ", ".join(f"{c} {n}/{m}" for c, (n, m) in per_channel.items()))
    timing = [(name, t) for (channel, name), t in tallies.items() if channel == TIMING]
    best = 0.0
    if timing:
        slots = len(covert.PREAMBLE) + covert.data_bits(10)
        print()
        print(
            f"timing: {covert.SLOT_S * 1000:.0f} ms slots; per mano and direction one frame of "
            f"{len(covert.PREAMBLE)} preamble + {covert.data_bits(10)} data slots ({slots} slots, "
            f"{slots * covert.SLOT_S:.2f} s) at four seats ({covert.data_bits(13)} data slots at three); "
            "C = 1 - H(BER) per data slot"
        )
        print(
            f"{'receiver':<9} {'scenario':<22} {'frames':>6} {'bits':>6} {'errors':>7} {'BER':>6} "
            f"{'C/slot':>7} {'bits/mano':>9} {'hands whole':>11}"
        )
        pooled = Tally()
        for _name, t in timing:
            pooled.tried += t.tried
            pooled.bits.update(t.bits)
            pooled.bit_errors.update(t.bit_errors)
            pooled.by_via.update(t.by_via)
        for name, t in [*timing, ("all (pooled)", pooled)]:
            for via in covert.TimingChannel.vias:
                p, per_bit, per_mano = capacity(t, via)
                print(
                    f"{via:<9} {name:<22} {t.tried:>6} {t.bits[via]:>6} {t.bit_errors[via]:>7.0f} {p:>6.3f} "
                    f"{per_bit:>7.3f} {per_mano:>9.1f} {t.by_via[via]:>11}"
                )
        # The figure: the better receiver, over every frame of every scenario (a scenario's few
        # hundred bits alone would make noise look like a channel).
        best = max(capacity(pooled, via)[2] for via in covert.TimingChannel.vias)
    faults = [(c, s, f) for (c, s), t in tallies.items() for f in t.faults]
    for channel, name, fault in faults:
        print(f"fault ({channel}, {name}): {fault}")
    total_leaked = sum(t.leaked for (c, _), t in tallies.items() if c != TIMING)
    total_tried = sum(t.tried for (c, _), t in tallies.items() if c != TIMING)
    print(
        f"{count} partidos ({failed} failed), {len(faults)} faults, {time.monotonic() - began:.0f} s, "
        f"load average {load()}; referee: {label}"
    )
    if args.keep is None:
        shutil.rmtree(work, ignore_errors=True)
    leaked = f"hands leaked between players: {total_leaked} of {total_tried}"
    print(f"{leaked}; timing channel: {best:.1f} bits per mano")
    return 1 if total_leaked or failed else 0


if __name__ == "__main__":
    sys.exit(main())
