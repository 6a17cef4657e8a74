"""Covert channels between colluding players (issue 27): how many hidden hands leak; how fast timing talks.

For each channel (``--channels``; all by default) and each scenario it plays real partidos with
``arena play`` under the default sandbox (bubblewrap, a uid per player, cgroups), warm starts or
``--cold-start``, between copies of the colluding bot ``benchmarks/audits/channel_bots/colluder``: every
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

    python benchmarks/audits/channels.py              # 12 channels x 4 scenarios: 48 partidos, ~3-5 min
    python benchmarks/audits/channels.py --quick      # smoke: 2 scenarios, short parejas partidos
    python benchmarks/audits/channels.py --channels keyring,flock --scenarios all --commit a20c34c
    python benchmarks/audits/channels.py --check      # the instrument itself, in seconds

``--check`` checks the instrument instead (tests/benchmarks/test_channels_benchmark.py runs it): the decoder's
figures on a clean channel and on noise, then, under a root referee with bubblewrap and the syscall
filter, the probe processes in two real sandboxes (socket families, refused counters, a few slots).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.util
import itertools
import json
import math
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]  # the checkout: benchmarks/<kind>/<script>.py
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


# ---------------------------------------------------------------- probes (issue 48)

PROBE_DIR = Path(__file__).resolve().parent / "probe_bots"
PROBE_SLOT_S = 0.05
"""The probes' slot: a sender busy (1) or idle (0) for it; at 1 s of sender time a mano, 20 slots."""
MANO_S = 1.0
"""What a sender has per mano to signal in: its move time (the CPU allowance), about 1 s."""
SIGNIFICANCE = 1e-4
"""A receiver's bit error rate counts as below 0.5 when a fair coin would do as well this seldom."""
CONTENTION = (
    "spin.",
    "sched.",
    "schedstat.",
    "getrusage.",
    "stat.",
    "status.",
    "getcpu",
    "clock.process_cputime",
    "clock.thread_cputime",
    "/proc/self/",
    "/proc/thread-self/",
)
"""Observables that are the receiver's own CPU time and scheduling: CPU contention, the timing
channel the named ``timing`` channel measures (narrowed, not closed), reported apart."""


class Prober:
    """Contained probe processes (``probe_bots/probe.py``), each a player of its own: uid, cgroup,
    namespaces, the syscall filter; one JSON command a line in, one reply a line out."""

    def __init__(self, roles: list[str], work: Path) -> None:
        from arena.containment import sandbox

        self.boxes: dict[str, object] = {}
        self.procs: dict[str, subprocess.Popen] = {}
        for role in roles:
            folder = work / f"probe-{role}"
            folder.mkdir(mode=0o755)
            shutil.copy(PROBE_DIR / "probe.py", folder / "probe.py")
            box = sandbox.contain([sys.executable, "/player/probe.py"], folder, "bwrap")
            self.boxes[role] = box
            self.procs[role] = box.popen(
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )

    def send(self, role: str, **cmd: object) -> None:
        stdin = self.procs[role].stdin
        assert stdin is not None
        stdin.write(json.dumps(cmd) + "\n")
        stdin.flush()

    def answer(self, role: str, timeout: float = 120.0) -> object:
        import selectors

        proc = self.procs[role]
        assert proc.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            if not sel.select(timeout):
                raise RuntimeError(f"probe {role}: no answer in {timeout:.0f} s")
        line = proc.stdout.readline()
        if not line:
            status = proc.wait(timeout=10)
            box = self.boxes[role]
            hit = box.limit_hit()  # type: ignore[attr-defined]
            raise RuntimeError(f"probe {role} died (status {status}{'; ' + hit if hit else ''})")
        said = json.loads(line)
        if "error" in said:
            raise RuntimeError(f"probe {role}: {said['error']}")
        return said["ok"]

    def ask(self, role: str, **cmd: object) -> object:
        self.send(role, **cmd)
        return self.answer(role)

    def close(self) -> None:
        for role, proc in self.procs.items():
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                proc.kill()
                proc.wait(timeout=10)
            self.boxes[role].release()  # type: ignore[attr-defined]


def binomial_tail(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2**n


def mann_whitney(xs: list[float], ys: list[float]) -> float:
    """Two-sided p-value (normal approximation, ties averaged) that xs and ys share a distribution."""
    pooled = sorted((v, g) for g, vals in ((0, xs), (1, ys)) for v in vals)
    ranks: list[float] = [0.0] * len(pooled)
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    n1, n2 = len(xs), len(ys)
    if not n1 or not n2:
        return 1.0
    r1 = sum(r for r, (_, g) in zip(ranks, pooled, strict=True) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    if sd == 0:
        return 1.0
    z = abs(u - n1 * n2 / 2) / sd
    return math.erfc(z / math.sqrt(2))


def decode_capacity(values: list[float], bits: list[int]) -> dict:
    """Threshold decoding: a threshold and polarity chosen on the even slots, the bit error rate
    measured on the odd ones; capacity 1 - H(BER) per slot when that rate is significantly below
    1/2 (a fair coin that good less often than :data:`SIGNIFICANCE`), else 0."""
    train = [(v, b) for i, (v, b) in enumerate(zip(values, bits, strict=True)) if i % 2 == 0]
    test = [(v, b) for i, (v, b) in enumerate(zip(values, bits, strict=True)) if i % 2 == 1]
    cuts = sorted({v for v, _ in train})
    best = (len(train) + 1, 0.0, 1)
    for lo, hi in zip([cuts[0] - 1, *cuts], [*cuts, cuts[-1] + 1], strict=True):
        cut = (lo + hi) / 2
        for sign in (1, -1):
            wrong = sum((sign * (v - cut) > 0) != bool(b) for v, b in train)
            best = min(best, (wrong, cut, sign))
    _, cut, sign = best
    errors = sum((sign * (v - cut) > 0) != bool(b) for v, b in test)
    ber = errors / len(test)
    p = binomial_tail(errors, len(test))
    per_slot = 1 - entropy(ber) if p < SIGNIFICANCE and ber < 0.5 else 0.0
    return {"ber": ber, "p": p, "c_slot": per_slot, "n": len(test)}


def slot_features(samples: list[dict]) -> dict[str, list[float]]:
    """Per observable, its change over each slot (sample i+1 less sample i); per number of a file."""
    out: dict[str, list[float]] = collections.defaultdict(list)
    names = set(samples[0]["counters"])
    for s in samples:
        names &= set(s["counters"])
    for a, b in itertools.pairwise(samples):
        for name in names:
            out[name].append(b["counters"][name] - a["counters"][name])
        for path, numbers in b["files"].items():
            old = a["files"].get(path)
            if old is None or len(old) != len(numbers):
                continue
            for k, (x, y) in enumerate(zip(old, numbers, strict=True)):
                out[f"{path}#{k}"].append(y - x)
    n = len(samples) - 1
    return {name: vals for name, vals in out.items() if len(vals) == n}


def is_contention(name: str) -> bool:
    return name.startswith(CONTENTION)


def run_slots(
    prober: Prober, bits: list[int], slot: float, paths: list[str], full: bool, noise: bool
) -> dict:
    """A sends ``bits`` (busy or idle slots) while B samples; with ``noise``, another table meanwhile."""
    t0 = float(prober.ask("b", op="now")) + 0.5  # type: ignore[arg-type]
    span = len(bits) * slot + 1.0
    if noise:
        prober.send("n", op="noise", seconds=span)
    prober.send("b", op="recv", t0=t0, slot=slot, n=len(bits), paths=paths, full=full)
    prober.send("a", op="send", t0=t0, slot=slot, bits=bits)
    got = prober.answer("b", timeout=span + 120)
    prober.answer("a", timeout=span + 120)
    if noise:
        prober.answer("n", timeout=span + 120)
    return got  # type: ignore[return-value]


def screen(prober: Prober, paths: list[str], slots: int, rng: random.Random) -> dict:
    """Every readable file, read at each slot's end while A is busy or idle in random slots:
    static (never changed), noisy (changes, not in step with A) or a candidate."""
    bits = [1] * (slots // 2) + [0] * (slots - slots // 2)
    rng.shuffle(bits)
    got = run_slots(prober, bits, 0.4, paths, full=True, noise=False)
    samples = got["samples"][1:]
    changed: dict[str, list[list[float]]] = {}
    for i, s in enumerate(samples):
        for path, feat in s["files"].items():
            changed.setdefault(path, [[0.0, 0.0] for _ in bits])[i] = feat
    rows = []
    for path, feats in sorted(changed.items()):
        ones = [f for f, b in zip(feats, bits, strict=True) if b]
        zeros = [f for f, b in zip(feats, bits, strict=True) if not b]
        p = min(mann_whitney([f[k] for f in ones], [f[k] for f in zeros]) for k in (0, 1))
        moved1 = sum(f[0] > 0 for f in ones)
        moved0 = sum(f[0] > 0 for f in zeros)
        candidate = p < 0.01 or (moved1 >= 2 and moved0 == 0)
        rows.append({"path": path, "p": p, "busy": moved1, "idle": moved0, "candidate": candidate})
    return {"bits": len(bits), "changed": rows, "late": got["late"]}


def probe(slots: int, screen_slots: int, settings: list[str], work: Path) -> dict:
    """Every probe, between two players (A acts, B looks) and a third as another table."""
    rng = random.Random()
    out: dict = {"slot_s": PROBE_SLOT_S, "slots": slots, "mano_s": MANO_S}
    prober = Prober(["a", "b", "n"], work)
    try:
        nonce = f"{rng.getrandbits(24):06x}"
        made = prober.ask("a", op="families", nonce=nonce)
        seen = prober.ask("b", op="families_probe", made=made, nonce=nonce)
        out["families"] = {"made": made, "seen": seen}
        out["refusals"] = prober.ask("b", op="refusals")
        listing = prober.ask("b", op="files")
        out["files"] = {k: v for k, v in listing.items() if k != "paths"}  # type: ignore[union-attr]
        paths = listing["paths"]  # type: ignore[index]
        out["files"]["readable"] = len(paths)
        out["files"]["proc_sys"] = sum(p.startswith("/proc/sys/") for p in paths)
        out["files"]["proc_net"] = sum(p.startswith("/proc/net/") for p in paths)
        out["files"]["sys"] = sum(p.startswith("/sys/") for p in paths)
        out["screen"] = screen(prober, paths, screen_slots, rng)
        candidates = [r["path"] for r in out["screen"]["changed"] if r["candidate"]]
        out["runs"] = {}
        for setting in settings:
            bits = [rng.getrandbits(1) for _ in range(slots)]
            got = run_slots(prober, bits, PROBE_SLOT_S, candidates, full=False, noise=setting == "busy")
            features = slot_features(got["samples"])
            for name in got["spins"][0]:
                features[name] = [s[name] for s in got["spins"]]
            results = {name: decode_capacity(vals, bits) for name, vals in features.items()}
            out["runs"][setting] = {"late": got["late"], "results": results}
    finally:
        prober.close()
    return out


def probe_worker(argv: list[str]) -> int:
    """``--probe-worker OUT SLOTS SCREEN SETTINGS``: run :func:`probe` (with the referee on
    PYTHONPATH) and write its findings to OUT as JSON."""
    out, slots, screen_slots, settings = Path(argv[0]), int(argv[1]), int(argv[2]), argv[3].split(",")
    with tempfile.TemporaryDirectory(prefix="tute-probes-") as tmp:
        os.chmod(tmp, 0o755)
        found = probe(slots, screen_slots, settings, Path(tmp))
    out.write_text(json.dumps(found))
    return 0


FAMILY_NAMES = {1: "AF_UNIX", 2: "AF_INET", 10: "AF_INET6", 16: "AF_NETLINK", 17: "AF_PACKET", 40: "AF_VSOCK"}
WHOLE_HAND = float(covert.MAX_BITS)
"""The figure for a channel that carries any number of bits at once (a socket seen, a call allowed)."""


def spans(numbers: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5"."""
    out: list[str] = []
    for n in sorted(numbers):
        if out and out[-1].split("-")[-1] == str(n - 1):
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def render_probes(found: dict) -> tuple[list[tuple[str, float]], list[tuple[str, float]]]:
    """Print the probes' tables; (channels found, contention observables), each (name, bits per mano)."""
    channels: list[tuple[str, float]] = []
    contention: list[tuple[str, float]] = []
    per_mano = found["mano_s"] / found["slot_s"]
    print()
    print(
        "probes: socket families 0-45 (STREAM, DGRAM, RAW, SEQPACKET), made and bound in sandbox A, "
        "sought from B"
    )
    by_outcome: dict[str, list[int]] = collections.defaultdict(list)
    seen = {(r["family"], r["type"]): r for r in found["families"]["seen"]}
    for family in range(46):
        rows = [r for r in found["families"]["made"] if r["family"] == family]
        refused = {r["create"] for r in rows if r["create"] != "ok"}
        made = [r for r in rows if r["create"] == "ok"]
        if not made:
            by_outcome[f"refused at create ({', '.join(sorted(refused))})"].append(family)
            continue
        parts = []
        for r in made:
            s = seen.get((family, r["type"]), {})
            if s.get("visible"):
                channels.append((f"socket {FAMILY_NAMES.get(family, family)} {r['type']}", WHOLE_HAND))
                state = "VISIBLE from B: a channel"
            elif s.get("visible") is None:
                state = f"bind {r.get('bind')}; not sought"
            else:
                state = f"bound; B: bind {s.get('bind')}, connect {s.get('connect', '-')}: not visible"
            parts.append(f"{r['type']} {state}")
        name = FAMILY_NAMES.get(family, str(family))
        by_outcome[f"{name}: " + "; ".join(parts)].append(family)
    for outcome, fams in by_outcome.items():
        print(f"  families {spans(fams)}: {outcome}")

    ref = found["refusals"]
    print("probes: counters behind a call")
    for call in ("pidfd_open", "clone_pidfd", "sysinfo"):
        state = ref[call]
        if state.startswith("ok"):
            channels.append((call, WHOLE_HAND))
        verdict = f"OPEN: {state}" if state.startswith("ok") else f"refused ({state}): closed"
        print(f"  {call:<14} {verdict}")
    statvfs = ref["statvfs"]
    opened = {m: s for m, s in statvfs.items() if s.startswith("ok")}
    errors = sorted({s for s in statvfs.values() if not s.startswith("ok")})
    print(
        f"  {'statvfs':<14} {len(statvfs)} mounts: {len(statvfs) - len(opened)} refused ({', '.join(errors)})"
        + (f"; answered: {', '.join(opened)}" if opened else ": closed")
    )
    print(
        f"  {'/sys':<14} {'mounted' if ref['sys_mounted'] else 'not mounted'}; cgroup files "
        f"{'visible' if ref['cgroup_fs'] else 'not visible (no cgroup file system)'}"
    )

    files = found["files"]
    scr = found["screen"]
    changed = scr["changed"]
    candidates = [r for r in changed if r["candidate"]]
    unreadable = ", ".join(f"{k} {v}" for k, v in sorted(files["unreadable"].items()))
    print(
        f"probes: files: {files['readable']} readable under /proc ({files['proc_sys']} in /proc/sys, "
        f"{files['proc_net']} in /proc/net) and /sys ({files['sys']}); unreadable: {unreadable or 'none'}"
    )
    print(
        f"  screened over {scr['bits']} slots of 0.4 s (A busy in half, idle in half, at random): "
        f"{files['readable'] - len(changed)} static, {len(changed) - len(candidates)} changing but not in "
        f"step with A (noisy or B's own), {len(candidates)} candidates (Mann-Whitney p < 0.01, or moved "
        "only while A was busy)"
    )
    runs = found["runs"]
    settings = list(runs)
    print(
        f"probes: capacity: A busy or idle in {found['slot_s'] * 1000:.0f} ms slots at random, "
        f"{found['slots']} slots per setting ({', '.join(settings)}: busy = a third sandbox bursting at "
        f"random, as another table); B decodes by a threshold set on the even slots, BER on the odd; "
        f"C = 1 - H(BER) when p < {SIGNIFICANCE:g}; bits per mano = C x {per_mano:.0f} slots "
        f"({found['mano_s']:.0f} s of the sender's move time)"
    )
    floor_n = max((r["n"] for run in runs.values() for r in run["results"].values()), default=0)
    floor = 0.0
    if floor_n:
        k = max(k for k in range(floor_n) if binomial_tail(k, floor_n) < SIGNIFICANCE)
        floor = (1 - entropy((k + 1) / floor_n)) * per_mano
    groups: dict[str, dict[str, dict]] = collections.defaultdict(dict)
    for setting, run in runs.items():
        for name, r in run["results"].items():
            group = re.sub(r"\.cpu\d+$", "", name.split("#")[0])  # a file's numbers, a CPU's batch
            if (
                group not in groups
                or setting not in groups[group]
                or r["c_slot"] > groups[group][setting]["c_slot"]
            ):
                groups[group][setting] = {**r, "name": name}
    head = f"  {'observable':<40} " + " ".join(f"{s + ' BER':>10} {s + ' bits/mano':>15}" for s in settings)
    print(head)
    for group in sorted(groups, key=lambda g: (is_contention(g), g)):
        cells = []
        best = 0.0
        for s in settings:
            r = groups[group].get(s)
            if r is None:
                cells.append(f"{'-':>10} {'-':>15}")
                continue
            bits = r["c_slot"] * per_mano
            best = max(best, bits)
            cells.append(f"{r['ber']:>10.3f} {bits:>15.2f}")
        kind = " (contention)" if is_contention(group) else ""
        print(f"  {group + kind:<40} " + " ".join(cells))
        if best > 0:
            (contention if is_contention(group) else channels).append((group, best))
    print(
        f"  (detection floor: {floor:.2f} bits per mano; candidates: "
        f"{', '.join(r['path'] for r in candidates) or 'none'})"
    )
    return channels, contention


def run_probes(arena_root: Path, work: Path, quick: bool) -> tuple[dict | None, str]:
    """The probes in a process of their own, with the measured referee on PYTHONPATH: (findings, error)."""
    out = work / "probes.json"
    slots, screen_slots, settings = (200, 16, "quiet,busy") if quick else (600, 24, "quiet,busy")
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--probe-worker",
        str(out),
        str(slots),
        str(screen_slots),
        settings,
    ]
    env = {**os.environ, "PYTHONPATH": str(arena_root), "ARENA_LANG": "en"}
    done = subprocess.run(
        argv, cwd=arena_root, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    if done.returncode != 0 or not out.exists():
        return None, ((done.stderr or done.stdout).strip().splitlines() or [f"exit {done.returncode}"])[-1]
    return json.loads(out.read_text()), ""


def expect(ok: bool, what: str) -> None:
    """One claim of ``--check``: stop with ``what`` when it does not hold."""
    if not ok:
        raise SystemExit(f"check failed: {what}")


def check() -> int:
    """The ``--check`` mode (see the module's docstring)."""
    rng = random.Random(48)
    bits = [rng.getrandbits(1) for _ in range(400)]
    clean = [b * 10.0 + rng.random() for b in bits]
    noise = [rng.random() for _ in bits]
    expect(abs(decode_capacity(clean, bits)["c_slot"] - 1.0) < 1e-6, "a clean channel carries a bit a slot")
    expect(decode_capacity(noise, bits)["c_slot"] == 0.0, "noise carries nothing")
    expect(mann_whitney([5, 6, 7, 8, 9] * 2, [0, 1, 2, 3, 4] * 2) < 0.01, "Mann-Whitney: apart")
    expect(mann_whitney([1, 2, 3], [1, 2, 3]) > 0.5, "Mann-Whitney: alike")
    expect(spans([0, 2, 3, 4, 7]) == "0, 2-4, 7", "spans")
    print("check: the decoder finds a clean channel and not noise")
    from arena.containment import sandbox, seal

    if not (sandbox.is_root() and sandbox.bwrap_works() and seal.problem() is None):
        print("check: probes skipped: they need a root referee, bubblewrap and the syscall filter")
        return 0
    with tempfile.TemporaryDirectory(prefix="tute-channels-check-") as tmp:
        work = Path(tmp)
        os.chmod(work, 0o755)
        prober = Prober(["a", "b"], work)
        try:
            made: Any = prober.ask("a", op="families", nonce="00abcd")
            seen: Any = prober.ask("b", op="families_probe", made=made, nonce="00abcd")
            created = {r["family"] for r in made if r["create"] == "ok"}
            expect(created <= {1}, f"only AF_UNIX sockets are made: {created}")
            vsock = [r for r in made if r["family"] == 40]
            expect(bool(vsock) and all(r["create"] == "EAFNOSUPPORT" for r in vsock), "no vsock")
            expect(not any(r.get("visible") for r in seen), "a socket seen from the other sandbox")
            refused: Any = prober.ask("b", op="refusals")
            expect(refused["pidfd_open"] == "EPERM" and refused["clone_pidfd"] == "EPERM", "pidfds refused")
            expect(all(state == "EPERM" for state in refused["statvfs"].values()), "statvfs refused")
            sent = [1, 0, 1, 0]
            got = run_slots(prober, sent, 0.1, ["/proc/self/stat"], full=False, noise=False)
            expect(len(got["samples"]) == len(sent) + 1 and len(got["spins"]) == len(sent), "a sample a slot")
            features = slot_features(got["samples"])
            expect(all(len(v) == len(sent) for v in features.values()), "a feature value a slot")
            expect("pipe-inode" in features and "/proc/self/stat#0" in features, "the features sampled")
        finally:
            prober.close()
    print(
        "check: probes in two sandboxes: only AF_UNIX sockets, none seen across, counters refused, slots read"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--check"]:
        return check()
    if argv[:1] == ["--probe-worker"]:
        return probe_worker(argv[1:])
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
    parser.add_argument("--no-probes", action="store_true", help="the named channels only")
    parser.add_argument("--probes-only", action="store_true", help="the probes only (no partidos)")
    parser.add_argument(
        "--check", action="store_true", help="check the instrument (alone; see the docstring)"
    )
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
    if args.probes_only:
        channels = []
    print(
        f"referee: {label}; channels: {', '.join(channels) or 'none'}; scenarios: {', '.join(scenarios)}; "
        f"{args.partidos} partido(s) each; load average {load()}",
        flush=True,
    )
    began = time.monotonic()
    tallies: dict[tuple[str, str], Tally] = {}
    count = 0
    failed = 0
    for channel in [] if args.probes_only else channels:
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
    found_channels: list[tuple[str, float]] = []
    probe_line = ""
    if not args.no_probes:
        start = time.monotonic()
        found, why = run_probes(arena_root, work, args.quick)
        if found is None:
            failed += 1
            probe_line = f"probes: failed: {why}"
        else:
            found_channels, contention = render_probes(found)
            worst = max(found_channels, key=lambda c: c[1], default=("none", 0.0))
            busiest = max(contention, key=lambda c: c[1], default=("none", 0.0))
            probe_line = (
                f"probes: {len(found_channels)} channels found, "
                f"worst {worst[1]:.1f} bits per mano ({worst[0]}); "
                f"contention (timing): {busiest[1]:.1f} bits per mano ({busiest[0]}); "
                f"{time.monotonic() - start:.0f} s"
            )
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
    if probe_line:
        print(probe_line)
    leaked = f"hands leaked between players: {total_leaked} of {total_tried}"
    print(f"{leaked}; timing channel: {best:.1f} bits per mano")
    return 1 if total_leaked or failed or found_channels else 0


if __name__ == "__main__":
    sys.exit(main())
