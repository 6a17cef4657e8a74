"""On a Dask cluster each partido plays holding its deal's lease (issue 48): two partidos of one deal
never run at once there, even when a coordinator stopped since left one running.

An in-process cluster (threads, no player process): the remote task's play is replaced by a pause
that records when it ran. Skipped where the ``distributed`` extra is not installed.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from arena.referee.connection import Limits
from arena.tournament.cluster import backend, remote
from arena.tournament.worker import PartidoTask

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None, reason="the distributed extra is not installed"
)

PLAY_S = 0.4


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=1, threads_per_worker=4, processes=False, dashboard_address=None) as cluster,
        Client(cluster) as c,
    ):
        yield c


def task(partido: str, seed: str) -> PartidoTask:
    return PartidoTask(partido, seed, (), {}, Limits(), "/nowhere")


def test_the_lease_name_never_shows_the_seed() -> None:
    seed = "ab" * 32
    name = backend.deal_lease(seed)
    assert name.startswith(backend.LEASE_PREFIX) and seed not in name and "ab" * 4 not in name
    assert name == backend.deal_lease(seed) != backend.deal_lease("cd" * 32)


def test_two_partidos_of_one_deal_never_run_at_once_on_the_cluster(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    spans: dict[str, tuple[float, float]] = {}
    lock = threading.Lock()

    def play(
        t: PartidoTask, digests: Sequence[str], bundles: Mapping[str, bytes], lang: str | None = None
    ) -> dict[str, Any]:
        start = time.monotonic()
        time.sleep(PLAY_S)
        with lock:
            spans[t.id] = (start, time.monotonic())
        return {"id": t.id}

    monkeypatch.setattr(remote, "play_remote", play)  # the cluster's threads share this process
    deals = {"p1": "a" * 64, "p2": "a" * 64, "p3": "b" * 64, "p4": "b" * 64}
    futures = [
        client.submit(backend.play_alone, task(pid, seed), [], {}, key=f"{pid}-lease", pure=False)
        for pid, seed in deals.items()
    ]
    assert [f.result(timeout=30)["id"] for f in futures] == list(deals)

    def apart(a: str, b: str) -> bool:
        return spans[a][1] <= spans[b][0] or spans[b][1] <= spans[a][0]

    assert apart("p1", "p2") and apart("p3", "p4"), spans
    assert not apart("p1", "p3") or not apart("p1", "p4"), "other deals play meanwhile"
