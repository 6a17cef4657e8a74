"""Imported first by the forkserver of the local workers (its preload: ``LocalBackend``): from here
on it ignores Ctrl-C, as its own loop would only once its other preloads are imported.

The coordinator starts the forkserver with SIGINT blocked (``backend.start_forkserver``), so that a
Ctrl-C in the second or two the forkserver takes to import the referee neither kills it with a
traceback on the terminal nor is lost by the coordinator (there it waits, and is handled once
unblocked). Here the forkserver ignores SIGINT and then unblocks it: its workers, forked from it,
start as they always did (SIGINT ignored, nothing blocked).
"""

import signal

signal.signal(signal.SIGINT, signal.SIG_IGN)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
