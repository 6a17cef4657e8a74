"""The torneo's partidos as tasks on a Dask distributed cluster (``arena tournament --scheduler``).

Implements the :class:`~arena.tournament.backend.Backend` protocol with
``distributed.Client``; the runner, its schedule, seeds, store and resume are
the local ones. Dask is imported here only, when a backend is made.

- Entrants travel as bundles (:mod:`arena.tournament.cluster.bundles`): packed once per folder,
  scattered once to every worker (``broadcast=True``; a worker that joins later
  fetches them from a peer), scattered again if every copy was lost.
- A partido runs :func:`arena.tournament.cluster.remote.play_remote` on a worker; its handle's
  ``result()`` writes the files it returns into ``DIR/replays`` (the coordinator
  alone writes the folder) and gives the runner what a local worker would.
- A worker lost mid-partido: Dask runs the task again elsewhere; when Dask gives
  up (``KilledWorker``) or cancels it, the handle submits it again, up to
  :data:`RESUBMITS` times. A handle yields one result, so a partido is committed once.
- Never two partidos of one deal at once: the coordinator submits none while another of its
  deal is in flight (:mod:`arena.tournament.dispatch`), and on the worker each partido plays
  holding its deal's lease on the scheduler (:func:`play_alone`), so that one still running from
  an earlier run of the coordinator (Dask cannot interrupt a running task) ends first.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import logging
import threading
import time
import uuid
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena import i18n
from arena.i18n import N_, _
from arena.referee.players import PlayerSpec
from arena.seeds import Seed
from arena.tournament import worker
from arena.tournament.backend import BackendError
from arena.tournament.cluster import bundles, remote

log = logging.getLogger("arena.dask")

EXTRA = N_("--scheduler needs the distributed extra: pip install 'tute-arena[distributed]'")
CONNECT_S = 10.0
"""How long to try reaching the scheduler."""
WORKERS_S = 60.0
"""How long to wait for a worker when there is none."""
RESUBMITS = 3
"""Times a partido is submitted again after Dask gave up on it (workers lost under it)."""
SLOTS_S = 2.0
"""How often the cluster's thread count is asked again."""


def require() -> Any:
    """The ``distributed`` module; BackendError (:data:`EXTRA`) when the extra is not installed."""
    try:
        import distributed
    except ImportError:
        raise BackendError(_(EXTRA)) from None
    return distributed


LEASE_PREFIX = "tute-arena-deal-"  # not shown: a name on the scheduler
"""The start of a deal's lease name on the scheduler (:func:`deal_lease`)."""


def deal_lease(seed: Seed) -> str:
    """The name of the lease of the deal dealt from ``seed``: a digest, which never shows the seed."""
    digest = hashlib.sha256(f"tute-arena/deal-lease/{seed}".encode()).hexdigest()  # not shown
    return LEASE_PREFIX + digest[:32]


def play_alone(
    task: worker.PartidoTask, digests: Sequence[str], bundles: Mapping[str, bytes], lang: str | None = None
) -> dict[str, Any]:
    """On a worker: :func:`remote.play_remote` holding the lease of ``task``'s deal on the scheduler.

    A partido of the deal in play anywhere on the cluster, even one left running by a coordinator
    stopped since (Ctrl-C, ``kill -9``), ends before this one starts. A lease whose worker died is
    given up after ``distributed.scheduler.locks.lease-timeout`` (30 s by default).
    """
    distributed = require()
    lease = distributed.Semaphore(max_leases=1, name=deal_lease(task.seed))
    try:
        with lease:
            return remote.play_remote(task, digests, bundles, lang=lang)
    finally:
        refresh = getattr(lease, "refresh_callback", None)  # one per partido: none left refreshing
        if refresh is not None:
            refresh.stop()


class DaskHandle:
    """A task on the cluster: ``done()`` and ``result()``, submitted again when its workers were lost."""

    def __init__(
        self, backend: DaskBackend, label: str, submit: Callable[[], Any], finish: Callable[[Any], Any]
    ) -> None:
        self.backend = backend
        self.label = label
        self._submit = submit
        self._finish = finish
        self.resubmits = 0
        self._value: Any = None
        self._finished = False
        self._failed: BaseException | None = None
        self.future: Any = None
        self._start()

    def _start(self) -> bool:
        """Submit the task; False (the handle then fails) when the cluster cannot take it."""
        try:
            self.future = self._submit()
        except BackendError as exc:
            self._failed = exc
            return False
        except Exception as exc:  # no worker for the bundles in time, or the scheduler is gone
            self._failed = BackendError(
                _("the Dask cluster at {address} cannot take the task: {error}").format(
                    address=self.backend.address, error=repr(exc)
                )
            )
            return False
        self.future.add_done_callback(lambda _future: self.backend.wake.set())
        return True

    def _retry(self, exc: BaseException) -> bool:
        """Submit again if ``exc`` says the task was lost with its workers and the bound allows."""
        if not isinstance(exc, self.backend.lost_errors) or self.resubmits >= RESUBMITS:
            return False
        self.resubmits += 1
        log.warning(
            _("{task} submitted again ({n}): {error}").format(
                task=self.label, n=self.resubmits, error=repr(exc)
            )
        )
        return self._start()

    def done(self) -> bool:
        if self._failed is not None:
            return True
        if not self.future.done():
            return False
        if self.future.status in ("error", "cancelled"):
            try:
                exc = self.future.exception()
            except Exception as raised:  # cancelled, or the scheduler cannot be asked
                exc = raised
            return not self._retry(exc)
        return True

    def result(self, timeout: float | None = None) -> Any:
        if self._failed is not None:
            raise self._failed
        if not self._finished:
            while True:
                try:
                    value = self.future.result(timeout)
                except self.backend.lost_errors as exc:
                    if self._retry(exc):
                        continue
                    raise self._failed or exc from None
                break
            self.future.release()
            self.backend.live.discard(self)
            self._value, self._finished = self._finish(value), True
        return self._value


class DaskBackend:
    """The partidos of a torneo on the Dask cluster whose scheduler is at ``address``."""

    def __init__(self, address: str) -> None:
        distributed = require()
        self.address = address
        self.lost_errors: tuple[type[BaseException], ...] = (distributed.KilledWorker, cf.CancelledError)
        try:
            self.client = distributed.Client(address, timeout=CONNECT_S, set_as_default=False)
        except Exception as exc:
            raise BackendError(
                _("cannot reach the Dask scheduler at {address}: {error}").format(address=address, error=exc)
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=WORKERS_S)
        except Exception:
            self.client.close()
            raise BackendError(
                _("no Dask worker joined {address} in {seconds} s").format(
                    address=address, seconds=f"{WORKERS_S:.0f}"
                )
            ) from None
        self.wake = threading.Event()
        self.live: set[DaskHandle] = set()
        self._packed: dict[Path, tuple[str, bytes]] = {}
        self._scattered: dict[str, Any] = {}
        self._slots, self._slots_at = 1, -SLOTS_S
        self._closed = False

    @property
    def slots(self) -> int:
        """Threads of the cluster's workers now (at least 1: the runner keeps twice that in flight)."""
        if time.monotonic() - self._slots_at >= SLOTS_S:
            try:
                threads = sum(self.client.nthreads().values())
            except Exception:  # the scheduler is unreachable: the tasks will say so
                threads = self._slots
            if not threads and self._slots:
                log.warning(_("the cluster {address} has no workers: waiting").format(address=self.address))
            self._slots, self._slots_at = threads, time.monotonic()
        return max(1, self._slots)

    def _ship(self, specs: Sequence[PlayerSpec]) -> tuple[tuple[str, ...], dict[str, Any]]:
        """The bundle digest of each spec, and digest -> the scattered bundle (scattered if needed)."""
        digests, futures = [], {}
        for spec in specs:
            folder = Path(spec.folder)
            if folder not in self._packed:
                try:
                    self._packed[folder] = bundles.pack(folder)
                except OSError as exc:
                    raise BackendError(
                        _("{folder}: cannot be bundled for the workers: {error}").format(
                            folder=folder, error=exc
                        )
                    ) from None
            digest, data = self._packed[folder]
            future = self._scattered.get(digest)
            if future is None or future.status != "finished":
                key = f"bundle-{digest}"
                future = self.client.scatter({key: data}, broadcast=True, timeout=WORKERS_S)[key]
                self._scattered[digest] = future
            digests.append(digest)
            futures[digest] = future
        return tuple(digests), futures

    def _handle(self, label: str, submit: Callable[[], Any], finish: Callable[[Any], Any]) -> DaskHandle:
        handle = DaskHandle(self, label, submit, finish)
        self.live.add(handle)
        return handle

    def submit(self, fn: Callable[..., Any], *args: Any) -> DaskHandle:
        """Run ``worker.play_task`` or ``worker.check_entrant`` on the cluster."""
        if fn is worker.play_task:
            (task,) = args

            def play() -> Any:
                digests, futures = self._ship(task.specs)
                key = f"{task.id}-{uuid.uuid4().hex[:8]}"
                return self.client.submit(
                    play_alone, task, digests, futures, lang=i18n.language(), key=key, pure=False
                )

            return self._handle(task.id, play, lambda out: remote.materialize(out, Path(task.replays)))
        if fn is worker.check_entrant:
            spec, *rest = args

            def check() -> Any:
                (digest,), futures = self._ship([spec])
                key = f"check-{spec.name}-{uuid.uuid4().hex[:8]}"
                return self.client.submit(
                    remote.check_remote,
                    spec,
                    digest,
                    futures[digest],
                    *rest,
                    lang=i18n.language(),
                    key=key,
                    pure=False,
                )

            label = _("check of {player}").format(player=spec.name)
            return self._handle(label, check, lambda out: remote.accept(out)["error"])
        raise TypeError(f"the Dask backend runs play_task and check_entrant, not {fn!r}")  # not shown

    def wait(self, handles: Collection[Any], timeout: float) -> set[Any]:
        deadline = time.monotonic() + timeout
        while True:
            self.wake.clear()
            done = {h for h in handles if h.done()}
            left = deadline - time.monotonic()
            if done or left <= 0:
                return done
            self.wake.wait(left)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.client.close()

    def stop(self) -> None:
        """Cancel every task not finished (one running on a worker plays to its end there, unused)."""
        if not self._closed:
            try:
                self.client.cancel([h.future for h in self.live if h.future is not None], force=True)
            except Exception as exc:  # the scheduler may be gone already
                log.warning(_("the tasks could not be cancelled: {error}").format(error=repr(exc)))
            self.close()
