"""The tests, in folders shaped like the code (``arena/<package>`` -> ``tests/<package>``); the shared
fixtures and helpers stay here (``conftest.py``, ``helpers.py``, ``procs.py``, ``torneos.py``,
``paths.py``)."""
