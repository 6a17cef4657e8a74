"""``benchmarks/audits/collusion.py --check``, run as a script: issue 50's case. A servant that searches
for its master's good, 6 entrants at tables of 4, 750 partidos: the pair is flagged, and only it; the
same torneo with the servant honest flags nobody."""

from __future__ import annotations

import pytest

from tests.benchmark_scripts import benchmark_lines


@pytest.mark.slow
def test_the_searching_servant_is_flagged_at_750_partidos_and_the_honest_field_is_not() -> None:
    assert benchmark_lines("audits/collusion.py", "--check") == [
        "check: colluding 6x4 torneo of 750 partidos: flagged escudero for maestro",
        "check: honest 6x4 torneo of 750 partidos: flagged none",
    ]
