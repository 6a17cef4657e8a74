"""``--until-separated`` without ``--budget``: the budget chosen from the standings when the schedule
ends (said in one line, kept in the store), and the line that ends the torneo."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
from click.testing import CliRunner

from arena.cli import separation
from arena.cli.torneo import tournament
from arena.results import ranking
from arena.tournament import coordinator as t
from arena.tournament.store import Store
from tests.torneos import OPTIONS, resume


def _posiciones(n: int, verdicts: dict[tuple[int, int], tuple[float, float, float]]) -> pd.DataFrame:
    """Standings of ``n`` entrants (10 partidos each), every pair separated but those in ``verdicts``:
    (i, j) → (low, high, partidos needed or NaN) of θ_i − θ_j."""
    stronger, low, high, needed = (np.full((n, n), np.nan) for _k in range(4))
    apart = np.ones((n, n))
    for i, j in itertools.permutations(range(n), 2):
        a, b = min(i, j), max(i, j)
        lo, hi, more = verdicts.get((a, b), (0.5, 2.0, math.nan))
        low[i, j], high[i, j] = (lo, hi) if i < j else (-hi, -lo)
        stronger[i, j] = 0.99 if i < j else 0.01
        needed[i, j] = more
        if (a, b) in verdicts:
            apart[i, j] = 0.0
    df = pd.DataFrame(
        {
            "entrant": [f"e{i}" for i in range(n)],
            "grupo": ["a"] * n,
            "partidos": [10] * n,
            "retiradas": [0] * n,
        }
    )
    df.attrs["pairs"] = {"stronger": stronger, "low": low, "high": high, "needed": needed, "apart": apart}
    return df


def test_the_open_neighbours_and_what_each_needs() -> None:
    df = _posiciones(
        5,
        {
            (0, 1): (-0.5, 1.5, 30.0),  # open: the standings' own estimate
            (1, 2): (-0.1, 0.1, math.nan),  # shown equal
            (2, 3): (-0.6, 0.6, math.nan),  # open, centred on 0: shown equal after 10 × (3² − 1)
            (0, 2): (-1.0, 1.0, math.nan),  # open, but not neighbours
        },
    )
    still, equal = separation.open_neighbours(df)
    assert [(n.upper, n.lower, n.needed) for n in still] == [(1, 2, 30), (3, 4, 80)]
    assert [(n.upper, n.lower) for n in equal] == [(2, 3)]
    assert separation.estimate(still) == 110


def test_the_budget_rule() -> None:
    near = [separation.Neighbours(3, 4, 12), separation.Neighbours(5, 6, 7)]
    budget, line = separation.choose(near, 8, 4, 3)
    assert budget == 19  # their estimates, summed
    assert line == (
        "Hasta separar: hasta 19 partidos más, más o menos lo que necesitan los vecinos abiertos "
        "3.º/4.º, 5.º/6.º para quedar separados o mostrados iguales (sin --budget; a lo sumo 32)."
    )
    assert separation.choose(near, 8, 4, 3, group=6)[0] == 24  # whole duplicate groups
    far = [separation.Neighbours(1, 2, 500)]
    budget, line = separation.choose(far, 8, 4, 3)
    assert budget == separation.CAP_TIMES * 8 == 32 and "necesitarían unos 500" in line
    assert separation.cap(1, 4, 4) == 4 * math.ceil(4 * ranking.SEPARATE_FROM / 4)  # a table of 4: 24
    unknown = [separation.Neighbours(1, 2, None)]
    assert separation.choose(unknown, 8, 4, 3)[0] == 32
    # one neighbour too new to estimate: the most allowed, not the others' sum, naming the one unknown
    budget, line = separation.choose([*near, separation.Neighbours(1, 2, None)], 8, 4, 3)
    assert budget == 32 and "1.º/2.º" in line and "3.º/4.º" not in line
    budget, line = separation.choose([], 8, 4, 3)
    assert budget == 0 and "no hacen falta más partidos" in line


def test_the_last_line() -> None:
    assert separation.final_line(_posiciones(3, {})) == "Cada par de puestos vecinos está separado al 95%."
    equal = _posiciones(3, {(1, 2): (-0.1, 0.1, math.nan)})
    assert separation.final_line(equal) == (
        "Cada par de puestos vecinos está separado al 95% o mostrado igual (2.º/3.º)."
    )
    still = _posiciones(3, {(0, 1): (-0.5, 1.5, 30.0), (1, 2): (-0.6, 0.6, math.nan)})
    assert separation.final_line(still) == (
        "Todavía sin separar: 1.º/2.º (unos 30), 2.º/3.º (unos 80); unos 110 partidos más en total los "
        "resolverían (separados o mostrados iguales)."
    )
    many = _posiciones(7, {(i, i + 1): (-0.5, 1.5, 5.0) for i in range(6)})
    assert "4.º/5.º (unos 5) y 2 más; unos 30 partidos más en total" in separation.final_line(many)
    unknown = [separation.Neighbours(1, 2, None), separation.Neighbours(2, 3, 4)]
    assert separation.named(unknown, needs=True) == "1.º/2.º (sin estimación), 2.º/3.º (unos 4)"


def test_without_budget_it_chooses_one_says_it_and_ends_with_the_open_pairs(
    players: Path, tmp_path: Path, run_token: str
) -> None:
    out = tmp_path / "torneo"
    result = CliRunner().invoke(tournament, [str(players), "--out", str(out), *OPTIONS, "--until-separated"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = next(line for line in lines if line.startswith("Hasta separar:"))
    with Store.open(out) as store:
        budget = store.config()["budget"]
        assert t.budget_chosen(store)
        extra = [p for p in store.scheduled() if p.round < 0]
    assert 0 < budget <= separation.cap(8, 4, 3) and len(extra) <= budget
    assert start.startswith(f"Hasta separar: hasta {budget} partidos más")
    assert lines[-1].startswith(("Todavía sin separar: ", "Cada par de puestos vecinos")), result.output
    again = resume(out)  # finished: the budget it chose, said again
    assert f"Hasta separar: hasta {budget} partidos más (elegidos al terminar el fixture)" in again
    assert again.splitlines()[-1] == lines[-1]


def test_a_given_budget_is_said_as_given(players: Path, tmp_path: Path, run_token: str) -> None:
    out = tmp_path / "torneo"
    args = [str(players), "--out", str(out), *OPTIONS, "--until-separated", "--budget", "3"]
    result = CliRunner().invoke(tournament, args)
    assert result.exit_code == 0, result.output
    assert "Hasta separar: hasta 3 partidos más (--budget)." in result.output
    assert result.output.splitlines()[-1].startswith(("Todavía sin separar: ", "Cada par de puestos"))
    with Store.open(out) as store:
        assert not t.budget_chosen(store) and len([p for p in store.scheduled() if p.round < 0]) <= 3
