"""Smoke test of ``benchmarks/channels.py``'s probes (issue 48): the decoder's figures, and the
probe processes in two real sandboxes (socket families, refused counters, a few slots), in seconds."""

from __future__ import annotations

import importlib.util
import os
import random
import sys
from pathlib import Path

import pytest

from arena.containment import sandbox, seal

ROOT = Path(__file__).resolve().parent.parent


def load_benchmark():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("channels_benchmark", ROOT / "benchmarks" / "channels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # for its dataclasses
    spec.loader.exec_module(module)
    return module


channels = load_benchmark()


def test_decoding_finds_a_clean_channel_and_not_noise() -> None:
    rng = random.Random(48)
    bits = [rng.getrandbits(1) for _ in range(400)]
    clean = [b * 10.0 + rng.random() for b in bits]
    noise = [rng.random() for _ in bits]
    assert channels.decode_capacity(clean, bits)["c_slot"] == pytest.approx(1.0)
    assert channels.decode_capacity(noise, bits)["c_slot"] == 0.0
    assert channels.mann_whitney([5, 6, 7, 8, 9] * 2, [0, 1, 2, 3, 4] * 2) < 0.01
    assert channels.mann_whitney([1, 2, 3], [1, 2, 3]) > 0.5
    assert channels.spans([0, 2, 3, 4, 7]) == "0, 2-4, 7"


@pytest.mark.skipif(
    not (sandbox.is_root() and sandbox.bwrap_works() and seal.problem() is None),
    reason="needs a root referee, bubblewrap and the syscall filter",
)
def test_probes_run_in_two_sandboxes(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)
    prober = channels.Prober(["a", "b"], tmp_path)
    try:
        made = prober.ask("a", op="families", nonce="00abcd")
        seen = prober.ask("b", op="families_probe", made=made, nonce="00abcd")
        created = {r["family"] for r in made if r["create"] == "ok"}
        assert created <= {1}  # only AF_UNIX
        vsock = [r for r in made if r["family"] == 40]
        assert vsock and all(r["create"] == "EAFNOSUPPORT" for r in vsock)
        assert not any(r.get("visible") for r in seen)
        refused = prober.ask("b", op="refusals")
        assert refused["pidfd_open"] == "EPERM" and refused["clone_pidfd"] == "EPERM"
        assert all(state == "EPERM" for state in refused["statvfs"].values())
        bits = [1, 0, 1, 0]
        got = channels.run_slots(prober, bits, 0.1, ["/proc/self/stat"], full=False, noise=False)
        assert len(got["samples"]) == len(bits) + 1 and len(got["spins"]) == len(bits)
        features = channels.slot_features(got["samples"])
        assert all(len(v) == len(bits) for v in features.values())
        assert "pipe-inode" in features and "/proc/self/stat#0" in features
    finally:
        prober.close()
