"""The tournament side: many partidos, in parallel, durable and resumable.

The schedule (``schedule``), the SQLite store (``store``), the coordinator that
dispatches partidos and commits results (``coordinator``), the worker task
(``worker``), the execution backend (``backend``) and the log (``logchannel``),
the entrants (``entrants``); ``cluster`` holds the optional Dask backend (the
``distributed`` extra). It uses the referee side and never imports the results
side, pandas or openpyxl.
"""
