"""Optional: one torneo over a Dask cluster (``pip install '.[distributed]'``).

The backend (``backend``), content-addressed player bundles (``bundles``) and the
partido task as a remote worker runs it (``remote``). Nothing else imports this
package unless ``--scheduler`` is given.
"""
