"""Torneos (``arena.tournament``): schedule, store, coordinator, workers, Dask, intake of folders,
``--until-separated``, deals never overlapping."""
