"""Where partidos run: the execution backend interface and its local implementation.

The runner needs four things of a backend: ``submit`` a picklable function with
picklable arguments, ``wait`` for some of the submitted tasks, ``close`` when
done, ``stop`` at once (Ctrl-C). :class:`LocalBackend` runs tasks in a pool of
worker processes on this machine; :class:`arena.tournament.cluster.backend.DaskBackend` runs
them on a Dask cluster (the ``distributed`` extra), its handles having ``done()``
and ``result()`` too.

Logging: each worker sends its records to the coordinator's
:class:`arena.tournament.logchannel.LogSink` through the pipe end it is given (``log_channel``).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Collection, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol, TypeVar

from arena import i18n
from arena.errors import ArenaError

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class BackendError(ArenaError):
    """The backend cannot run the torneo's tasks (one line for the user)."""


class Handle(Protocol[T_co]):
    """A submitted task: a ``concurrent.futures.Future`` or anything shaped like one."""

    def done(self) -> bool: ...

    def result(self, timeout: float | None = None) -> T_co: ...


class Backend(Protocol):
    """Runs partido tasks somewhere; the runner keeps about ``slots`` of them in flight."""

    @property
    def slots(self) -> int:
        """About how many tasks to keep in flight."""

    def submit(self, fn: Callable[..., T], *args: Any) -> Handle[T]:
        """Start ``fn(*args)`` (both picklable) and return its handle."""

    def wait(self, handles: Collection[Handle[Any]], timeout: float) -> set[Handle[Any]]:
        """The handles done within ``timeout`` seconds (returns as soon as one is)."""

    def close(self) -> None:
        """Wait for the tasks submitted and release the workers."""

    def stop(self) -> None:
        """Stop now: drop the queued tasks, end the running ones (their players killed)."""


def default_context() -> str:
    """The start method: forkserver where there is one (no fork of a threaded process), else spawn."""
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


@contextlib.contextmanager
def interrupts_after() -> Iterator[None]:
    """Ctrl-C (or SIGTERM) inside the block is handled when it ends: starting a process is never
    cut in two (a process started and not yet recorded would be left out of :meth:`LocalBackend.stop`).

    Only in the main thread, where Python runs its signal handlers; a handler that is not Python's
    own (ignored, default) is left as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    held: dict[int, Callable[[int, Any], Any]] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        handler = signal.getsignal(signum)
        if callable(handler):
            held[signum] = handler
            signal.signal(signum, lambda n, _frame: caught.append(n))
    try:
        yield
    finally:
        for number, kept in held.items():
            signal.signal(number, kept)
        for first in caught[:1]:
            held[first](first, None)  # raises KeyboardInterrupt, as it would have


def start_forkserver() -> None:
    """Start the forkserver now (if not running), with SIGINT blocked: it is born unable to die of a
    Ctrl-C, and ignores it once its first preload (:mod:`arena.tournament.nointerrupt`) is imported.
    A Ctrl-C meanwhile is handled when this returns."""
    from multiprocessing import forkserver

    with interrupts_after():
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            forkserver.ensure_running()
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


class LocalBackend:
    """``workers`` processes of this machine (``concurrent.futures.ProcessPoolExecutor``).

    Each worker runs :func:`arena.tournament.worker.init_worker`: its log records go to
    ``log_channel``, it ignores SIGINT, and it stops (killing its players) on
    SIGTERM or when this process is gone. When a worker dies, the tasks of the
    pool fail (``BrokenProcessPool``) and the next ``submit`` starts a new pool.
    """

    def __init__(self, workers: int, log_channel: Any = None, context: Any = None) -> None:
        self.slots = workers
        self.log_channel = log_channel
        self.context = context or multiprocessing.get_context(default_context())
        if self.context.get_start_method() == "forkserver":
            self.context.set_forkserver_preload(
                ["arena.tournament.nointerrupt", "arena.tournament.worker", "arena.referee.table"]
            )
            start_forkserver()
        self.executor = self._pool()
        self._pools: dict[cf.Future[Any], cf.ProcessPoolExecutor] = {}
        """The pool of each task not yet seen done."""

    def _pool(self) -> cf.ProcessPoolExecutor:
        from arena.tournament import worker

        return cf.ProcessPoolExecutor(
            self.slots,
            mp_context=self.context,
            initializer=worker.init_worker,
            initargs=(self.log_channel, os.getpid(), i18n.language()),
        )

    def submit(self, fn: Callable[..., T], *args: Any) -> cf.Future[T]:
        with interrupts_after():  # the pool may start its workers here: each is recorded, then Ctrl-C
            try:
                future = self.executor.submit(fn, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): the rest go to a new pool
                # wait=True: once shut down, the pool cannot be waited for (see wait()), and its other
                # workers may still be writing the replays of partidos reported failed
                self.executor.shutdown(wait=True, cancel_futures=True)
                self.executor = self._pool()
                future = self.executor.submit(fn, *args)
            self._pools[future] = self.executor
        return future

    def wait(self, handles: Collection[Handle[Any]], timeout: float) -> set[Handle[Any]]:
        done, _ = cf.wait(handles, timeout, return_when=cf.FIRST_COMPLETED)  # type: ignore[arg-type]
        for f in done:
            pool = self._pools.pop(f, None)
            if pool is not None and not f.cancelled() and isinstance(f.exception(), BrokenProcessPool):
                # A worker died: its pool fails every task at once, and only then stops its other
                # workers. Wait for them to be gone, so that nothing they write lands after the
                # runner has cleaned up the partidos it is told failed.
                pool.shutdown(wait=True)
        return set(done)

    def close(self) -> None:
        self.executor.shutdown(wait=True)

    def stop(self) -> None:
        terminate = getattr(self.executor, "terminate_workers", None)  # Python 3.14+
        if terminate is not None:
            terminate()  # SIGTERM to every worker
        else:  # the pool forgets its processes on shutdown: take them first
            processes = list((getattr(self.executor, "_processes", None) or {}).values())
            self.executor.shutdown(wait=False, cancel_futures=True)
            for p in processes:
                if p.is_alive() and p.pid is not None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(p.pid, signal.SIGTERM)
            for p in processes:
                p.join(10)
        self.executor.shutdown(wait=True, cancel_futures=True)
