"""The benchmark scripts run as scripts (``benchmarks/``: the tests import nothing from there)."""
