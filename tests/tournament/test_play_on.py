"""``arena tournament --resume DIR --until-separated [--budget M]``: a torneo played without
``--until-separated`` (or whose budget is spent) plays on where its places are not separated — what
``arena standings --grades`` and the standings' lines tell an instructor to run."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from arena.cli.torneo import tournament
from arena.tournament import coordinator as t
from arena.tournament.store import Store
from tests.torneos import OPTIONS, resume


def _extra(out: Path) -> tuple[int, dict]:
    with Store.open(out) as store:
        return len([p for p in store.scheduled() if p.round < 0]), store.config()


def _play_on(out: Path, *more: str) -> str:
    args = ["--resume", str(out), "--workers", "2", "--until-separated", *more]
    result = CliRunner().invoke(tournament, args)
    assert result.exit_code == 0, result.output
    return result.output


def test_a_finished_torneo_plays_on_until_separated(players: Path, tmp_path: Path, run_token: str) -> None:
    out = tmp_path / "torneo"
    first = CliRunner().invoke(tournament, [str(players), "--out", str(out), *OPTIONS])
    assert first.exit_code == 0, first.output
    assert _extra(out)[0] == 0 and not _extra(out)[1]["until_separated"]

    given = _play_on(out, "--budget", "3")  # at most 3 more, said as given
    assert "Hasta separar: hasta 3 partidos más (--budget)." in given
    played, config = _extra(out)
    assert 0 < played <= 3 and config["until_separated"] and config["budget"] == 3
    assert given.splitlines()[-1].startswith(("Todavía sin separar: ", "Cada par de puestos vecinos"))

    chosen = _play_on(out)  # no --budget: chosen anew from the standings, after the 3 played
    line = next(x for x in chosen.splitlines() if x.startswith("Hasta separar:"))
    after, config = _extra(out)
    with Store.open(out) as store:
        assert t.budget_chosen(store)
    assert config["budget"] >= played and after - played <= config["budget"] - played
    assert "(--budget)" not in line

    again = resume(out)  # a plain resume keeps what was chosen
    assert "(elegidos al terminar el fixture)" in again
    assert _extra(out)[0] == after


def test_budget_alone_on_resume_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(tournament, ["--resume", str(tmp_path), "--budget", "3"])
    assert result.exit_code == 2
    assert "--budget va con --until-separated" in result.output
