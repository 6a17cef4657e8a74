"""Where partidos run: the execution backend interface and its local implementation.

The runner needs four things of a backend: ``submit`` a picklable function with
picklable arguments, ``wait`` for some of the submitted tasks, ``close`` when
done, ``stop`` at once (Ctrl-C). :class:`LocalBackend` runs tasks in a pool of
worker processes on this machine; :class:`arena.dask_backend.DaskBackend` runs
them on a Dask cluster (the ``distributed`` extra), its handles having ``done()``
and ``result()`` too.

Logging: :class:`LogSink` is the one writer of ``DIR/torneo.log``; workers send
their records to it through a multiprocessing queue (the standard library's
``QueueHandler``/``QueueListener``), which works under every start method.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import logging.handlers
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Collection
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, Protocol, TypeVar

from arena.inert import printable

T = TypeVar("T")

LOG_FORMAT = "%(asctime)s %(processName)s[%(process)d] %(levelname)s %(name)s: %(message)s"


class InertFormatter(logging.Formatter):
    """Log lines with control characters escaped: names and load errors come from players."""

    def format(self, record: logging.LogRecord) -> str:
        return printable(super().format(record), multiline=True)


class BackendError(Exception):
    """The backend cannot run the torneo's tasks (one line for the user)."""


class Handle(Protocol[T]):
    """A submitted task: a ``concurrent.futures.Future`` or anything shaped like one."""

    def done(self) -> bool: ...

    def result(self, timeout: float | None = None) -> T: ...


class Backend(Protocol):
    """Runs partido tasks somewhere; the runner keeps about ``slots`` of them in flight."""

    slots: int

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


class LocalBackend:
    """``workers`` processes of this machine (``concurrent.futures.ProcessPoolExecutor``).

    Each worker runs :func:`arena.worker.init_worker`: its log records go to
    ``log_queue``, it ignores SIGINT, and it stops (killing its players) on
    SIGTERM or when this process is gone. When a worker dies, the tasks of the
    pool fail (``BrokenProcessPool``) and the next ``submit`` starts a new pool.
    """

    def __init__(self, workers: int, log_queue: Any = None, context: Any = None) -> None:
        self.slots = workers
        self.log_queue = log_queue
        self.context = context or multiprocessing.get_context(default_context())
        if self.context.get_start_method() == "forkserver":
            self.context.set_forkserver_preload(["arena.worker", "arena.referee"])
        self.executor = self._pool()
        self._pools: dict[cf.Future[Any], cf.ProcessPoolExecutor] = {}
        """The pool of each task not yet seen done."""

    def _pool(self) -> cf.ProcessPoolExecutor:
        from arena import worker

        return cf.ProcessPoolExecutor(
            self.slots,
            mp_context=self.context,
            initializer=worker.init_worker,
            initargs=(self.log_queue, os.getpid()),
        )

    def submit(self, fn: Callable[..., T], *args: Any) -> cf.Future[T]:
        try:
            future = self.executor.submit(fn, *args)
        except BrokenProcessPool:  # a worker died (killed, out of memory): the rest go to a new pool
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = self._pool()
            future = self.executor.submit(fn, *args)
        self._pools[future] = self.executor
        return future

    def wait(self, handles: Collection[Handle[Any]], timeout: float) -> set[Handle[Any]]:
        done, _ = cf.wait(handles, timeout, return_when=cf.FIRST_COMPLETED)  # type: ignore[arg-type]
        for f in done:
            pool = self._pools.pop(f, None)  # type: ignore[call-overload]
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


LOG_CLOSE_S = 10.0
"""How long closing the log waits for queued records."""


class LogSink:
    """The one writer of the torneo's log file, fed by a queue every process can use.

    ``queue`` goes to the workers; this process's own records under ``arena``
    go through it too, so lines are never interleaved.
    """

    def __init__(self, context: Any = None, level: int = logging.INFO) -> None:
        context = context or multiprocessing.get_context(default_context())
        self.queue = context.Queue()
        self.local = logging.handlers.QueueHandler(self.queue)
        self.logger = logging.getLogger("arena")
        self.old_level = self.logger.level
        self.logger.addHandler(self.local)
        self.logger.setLevel(level)
        self.handler: logging.Handler | None = None
        self.listener: logging.handlers.QueueListener | None = None

    def start(self, path: Path) -> None:
        """Start writing to ``path`` (appending, mode 0600); records queued before are written first."""
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
        os.chmod(path, 0o600)  # also a log begun by an older version
        self.handler = logging.FileHandler(path, encoding="utf-8")
        self.handler.setFormatter(InertFormatter(LOG_FORMAT))
        self.listener = logging.handlers.QueueListener(self.queue, self.handler, respect_handler_level=False)
        self.listener.start()

    def close(self) -> None:
        """Write out every record queued so far and close the file (records are dropped if never started)."""
        self.logger.removeHandler(self.local)
        self.logger.setLevel(self.old_level)
        drained = self.listener is not None and self._stop_listener()
        if self.handler is not None:
            self.handler.close()
        if not drained:  # nobody reads the queue (any more): do not wait on it
            self.queue.cancel_join_thread()
        self.queue.close()
        self.queue.join_thread()

    def _stop_listener(self, timeout: float = LOG_CLOSE_S) -> bool:
        """Stop the listener once it has written what was queued; False if it did not within ``timeout``.

        A worker killed while writing to the queue can leave its lock taken for good:
        the log then loses its last lines, but the torneo never hangs on it.
        """
        assert self.listener is not None
        self.listener.enqueue_sentinel()
        thread: threading.Thread | None = getattr(self.listener, "_thread", None)
        if thread is not None:
            thread.join(timeout)
            if thread.is_alive():
                return False
        self.listener._thread = None  # type: ignore[attr-defined]
        return True
