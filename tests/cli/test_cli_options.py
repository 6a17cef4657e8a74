"""The rules, limits and containment options, declared once in ``arena.cli.options``: every command
that takes them has the same names, defaults and help as before they were shared, and each group
reaches the command function as one object."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from arena import i18n
from arena.cli import main
from arena.cli.options import (
    ContainmentChoice,
    LimitsChoice,
    RulesChoice,
    containment_options,
    game_option,
    limits_options,
    rules_options,
)
from arena.referee.connection import Limits, wall_backstop

RULES: dict[str, Any] = {
    "game": "cabrero",
    "ruleset": None,
    "variants": (),
    "renuncio": "disqualify",
    "juegos": None,
}
LIMITS: dict[str, Any] = {
    "move_ms": 1000,
    "init_ms": 10000,
    "idle_ms": 1000,
    "init_idle_ms": 10000,
    "init_wall_ms": None,
    "move_wall_ms": None,
}
RULES_OPTS = ["--game", "--ruleset", "--variant", "--renuncio", "--juegos"]
LIMITS_OPTS = ["--move-ms", "--init-ms", "--idle-ms", "--init-idle-ms", "--init-wall-ms", "--move-wall-ms"]
LAST = ["--sandbox", "--cold-start", "--lang"]

COMMANDS: dict[str, tuple[list[str], dict[str, Any]]] = {
    # command: (its parameters in help order, the value of each when not given)
    "play": (
        ["players", "--seed", *RULES_OPTS, *LIMITS_OPTS, "--replay", "--quiet", "--in-process", *LAST],
        {"players": (), "seed": None, **RULES, **LIMITS, "replay": None, "quiet": False}
        | {"in_process": False, "sandbox": "auto", "cold_start": False},
    ),
    "check": (
        [
            *("player", "--partidos", "--strength", "--table-size", "--seed", *RULES_OPTS, *LIMITS_OPTS),
            *("--out", "--samples", "--sandbox", "--lang"),
        ],
        {"player": None, "partidos": None, "strength": False, "table_size": 4, "seed": None, **RULES}
        | {**LIMITS, "out": None, "samples": None, "sandbox": "auto"},
    ),
    "tournament": (
        [
            *("paths", "--out", "--table-size", "--rounds", "--seed", "--workers", "--scheduler"),
            *("--duplicate", "--partidos", *RULES_OPTS, *LIMITS_OPTS, "--max-faults", "--until-separated"),
            *("--budget", "--stop-on-broken", "--with-samples", "--resume", *LAST),
        ],
        {"paths": (), "out": None, "table_size": None, "rounds": 1, "seed": None, "workers": None}
        | {"scheduler": None, "duplicate": False, "partidos": None, **RULES, **LIMITS, "max_faults": None}
        | {"until_separated": False, "budget": None, "stop_on_broken": False, "with_samples": False}
        | {"resume": False, "sandbox": "auto", "cold_start": False},
    ),
    "new": (
        ["name", "--dir", "--game", "--lang"],
        {"name": None, "parent": Path("players"), "game": "cabrero"},
    ),
    "demo": (["--seed", "--out", "--lang"], {"seed": None, "out": None}),
    "doctor": (["--sandbox", "--lang"], {"mode": "auto"}),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_command_keeps_its_option_names_order_and_defaults(name: str) -> None:
    command = main.commands[name]
    names, defaults = COMMANDS[name]
    assert [p.opts[0] for p in command.params] == names
    assert command.make_context(name, [], resilient_parsing=True).params == defaults


SHARED = ["--seed", *RULES_OPTS, *LIMITS_OPTS, "--sandbox", "--cold-start"]


def _option_lines(help_text: str, opt: str) -> list[str]:
    """The lines of ``opt`` in a command's --help: its own line and the indented ones that follow."""
    lines = help_text.splitlines()
    options = max(i for i, line in enumerate(lines) if line.endswith(":") and not line.startswith(" "))
    start = next(i for i in range(options, len(lines)) if lines[i].startswith(f"  {opt} "))
    end = next(i for i in range(start + 1, len(lines)) if lines[i].startswith("  -"))
    return lines[start:end]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_a_shared_option_reads_the_same_in_every_command_that_takes_it(lang: str) -> None:
    helps = {
        cmd: CliRunner().invoke(main, [cmd, "--help", "--lang", lang]).output
        for cmd in ("play", "check", "tournament")
    }
    for opt in SHARED:
        shown = {cmd: _option_lines(text, opt) for cmd, text in helps.items() if f"\n  {opt} " in text}
        assert len(shown) == (2 if opt == "--cold-start" else 3), opt  # check: no --cold-start
        assert len({tuple(lines) for lines in shown.values()}) == 1, opt


def test_the_help_is_spanish_by_default_and_english_on_request() -> None:
    es = CliRunner().invoke(main, ["tournament", "--help"]).output
    en = CliRunner().invoke(main, ["tournament", "--help", "--lang", "en"]).output
    assert "CPU time per play (the player's whole" in en and "CPU time per play" not in es


def _capture(decorate: Any, args: list[str]) -> dict[str, Any]:
    """The keyword arguments a command decorated with ``decorate`` (then ``--other``) receives."""
    seen: dict[str, Any] = {}

    @click.command()
    @click.option("--before")
    @decorate
    @click.option("--after")
    def command(**kwargs: Any) -> None:
        seen.update(kwargs)

    result = CliRunner().invoke(command, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return seen


def test_rules_options_gather_into_one_rules_choice() -> None:
    seen = _capture(rules_options, ["--before", "b", "--after", "a"])
    assert seen == {"before": "b", "after": "a", "rules_choice": RulesChoice(**RULES)}
    args = ["--game", "parejas", "--ruleset", "espanol", "--renuncio", "penalize", "--juegos", "3"]
    choice = _capture(rules_options, args)["rules_choice"]
    assert choice == RulesChoice("parejas", "espanol", (), "penalize", 3)
    two = _capture(rules_options, ["--variant", "rotating-trump", "--variant", "mano-tiebreak"])
    assert two["rules_choice"].variants == ("rotating-trump", "mano-tiebreak")


def test_a_rules_choice_resolves_to_the_game_and_its_rule_set() -> None:
    game, rules = RulesChoice("parejas", "espanol", (), "disqualify", None).resolve()
    assert game == "tute-parejas" and rules.to_dict()["ruleset"] == "espanol"
    with pytest.raises(click.UsageError):
        RulesChoice("cabrero", "espanol", (), "disqualify", None).resolve()  # a parejas ruleset


def test_limits_options_gather_into_one_limits_choice() -> None:
    seen = _capture(limits_options, [])
    assert set(seen) == {"before", "after", "limits_choice"}
    assert seen["limits_choice"] == LimitsChoice(**LIMITS)
    args = ["--move-ms", "300", "--init-ms", "5000", "--move-wall-ms", "700", "--idle-ms", "50"]
    args += ["--init-idle-ms", "60", "--init-wall-ms", "9000"]
    choice = _capture(limits_options, args)["limits_choice"]
    assert choice == LimitsChoice(300, 5000, 700, 9000, 50, 60)
    assert choice.limits() == Limits(5000, 300, 9000, 700, 50, 60)


def test_a_limits_choice_gives_the_referees_limits_with_its_backstops() -> None:
    limits = LimitsChoice(**LIMITS).limits()
    assert limits == Limits()
    assert (limits.init_wall, limits.move_wall) == (wall_backstop(10000), wall_backstop(1000))


@pytest.mark.parametrize("cold_start", [True, False])
def test_containment_options_gather_into_one_containment_choice(cold_start: bool) -> None:
    decorate = containment_options(cold_start=cold_start)
    seen = _capture(decorate, [])
    assert set(seen) == {"before", "after", "containment_choice"}
    assert seen["containment_choice"] == ContainmentChoice("auto", False)
    assert _capture(decorate, ["--sandbox", "none"])["containment_choice"].sandbox == "none"
    if cold_start:
        assert _capture(decorate, ["--cold-start"])["containment_choice"] == ContainmentChoice("auto", True)
    else:
        result = CliRunner().invoke(click.command()(decorate(lambda **_: None)), ["--cold-start"])
        assert result.exit_code == 2 and "--cold-start" in result.output


def test_game_option_takes_the_commands_help() -> None:
    command = click.command()(game_option("Which one.")(lambda game: None))
    (option,) = command.params
    assert (option.name, option.default, option.help) == ("game", "cabrero", "Which one.")
