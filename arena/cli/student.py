"""``arena check`` and ``arena new``: a student's tools for a player."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from arena import games
from arena.cli.options import (
    ContainmentChoice,
    LimitsChoice,
    RulesChoice,
    containment_options,
    deals_from,
    game_option,
    lang_option,
    limits_options,
    rules_options,
    seed_option,
)
from arena.i18n import N_, _


@click.command(
    help=N_(
        "Check a PLAYER folder against the sample players (with --game parejas: as a pair of its own, "
        "against the sample pairs).\n\n"
        "Exit status: 0 when clean, 1 with faults, 2 when it cannot check (the folder "
        "cannot be used, or the sample players are not found)."
    )
)
@click.argument("player", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--partidos",
    type=click.IntRange(1, 400),
    default=None,
    help=N_(
        "Partidos to play (3, 4 and 5 players in turn) [default: 3, at most 50; with --strength: 20, "
        "whole deals]."
    ),
)
@click.option(
    "--strength",
    is_flag=True,
    help=N_(
        "Measure the player's strength: duplicate partidos against a_mas, a_menos and random_legal "
        "(every deal in every seat), manos lost per 100 and partidos won, beside the samples' "
        "figures on the same deals."
    ),
)
@click.option(
    "--table-size",
    type=click.IntRange(3, 6),
    default=4,
    show_default=True,
    help=N_("Players per partido with --strength."),
)
@seed_option
@rules_options
@limits_options
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=N_("Where replays and logs go (default: results/check/<player>-<time>)."),
)
@click.option(
    "--samples",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=N_(
        "The folder of the sample opponents (default: the project's sample_players, found from any folder)."
    ),
)
@containment_options(cold_start=False)
@lang_option
def check(
    player: Path,
    partidos: int | None,
    strength: bool,
    table_size: int,
    seed: int | None,
    rules_choice: RulesChoice,
    limits_choice: LimitsChoice,
    out: Path | None,
    samples: Path | None,
    containment_choice: ContainmentChoice,
) -> None:
    """``arena check PLAYER``: exit status 0 when clean, 1 with faults, 2 when it cannot check."""
    from arena.check.checker import SamplesNotFound, check_player
    from arena.containment.sandbox import SandboxFailure
    from arena.inert import printable
    from arena.referee.players import PlayerLoadError

    game, rules = rules_choice.resolve()
    if strength:
        mechanism = containment_choice.mechanism()
        _strength(player, partidos or 20, table_size, samples, mechanism, limits_choice.limits())
        return
    if partidos is None:
        partidos = 3
    elif partidos > 50:
        raise click.BadParameter(_("at most 50 without --strength"), param_hint="'--partidos'")
    if seed is not None:
        deals_from(seed)  # the warning: each partido deals from seed + i
    try:
        mechanism = containment_choice.mechanism()
        report = check_player(
            player,
            partidos=partidos,
            limits=limits_choice.limits(),
            ruleset=rules,
            out=out,
            say=click.echo,
            samples=samples,
            mechanism=mechanism,
            seed=seed,
            game=game,
        )
    except SamplesNotFound as exc:  # the machine's setup, not the player: no verdict
        click.echo(_("Error: {message}").format(message=printable(str(exc))), err=True)
        sys.exit(2)
    except (PlayerLoadError, FileNotFoundError) as exc:
        click.echo(_("Result: cannot be used — {reason}").format(reason=printable(str(exc))), err=True)
        sys.exit(2)
    except SandboxFailure as exc:  # the machine's failure, not the student's: no verdict
        raise click.ClickException(printable(str(exc))) from None
    sys.exit(0 if report.clean else 1)


def _strength(
    player: Path, partidos: int, size: int, samples: Path | None, mechanism: str, limits: Any
) -> None:
    """``arena check PLAYER --strength``: the player's figures and the samples', on the same deals."""
    from arena.check import strength as sc
    from arena.check.checker import SamplesNotFound
    from arena.cli.progress import progress_for
    from arena.containment.sandbox import SandboxFailure
    from arena.inert import printable
    from arena.referee.players import PlayerLoadError
    from arena.results.strength import reference_field

    try:
        root = sc.samples_root(samples)
        games = sc.schedule(partidos, size)
        names = sc.references(root)
        click.echo(
            _(
                "Strength of {player}: {n} partidos of {size} (each deal in every seat) against {field}; "
                "then {samples} in its seat, on the same deals"
            ).format(
                player=printable(player.resolve().name),
                n=len(games),
                size=size,
                field=", ".join(reference_field(size)),
                samples=", ".join(names),
            )
        )
        progress = progress_for()
        progress.start(len(games) * (1 + len(names)), 0)
        try:
            mine = sc.measure_player(
                player, root, games, size, mechanism=mechanism, limits=limits, progress=progress
            )
            others = [sc.measure_sample(name, root, games, size, progress=progress) for name in names]
        finally:
            progress.finish()
    except SamplesNotFound as exc:
        click.echo(_("Error: {message}").format(message=printable(str(exc))), err=True)
        sys.exit(2)
    except (PlayerLoadError, FileNotFoundError) as exc:
        click.echo(_("Result: cannot be used — {reason}").format(reason=printable(str(exc))), err=True)
        sys.exit(2)
    except SandboxFailure as exc:
        raise click.ClickException(printable(str(exc))) from None
    for line in sc.report(mine, others, sc.REFERENCE_MS):
        click.echo(printable(line))


@click.command(
    help=N_(
        "Create a working player skeleton NAME (a player.py to fill in).\n\n"
        "NAME: letters of any alphabet (ñ, á, ü...), digits, - and _, starting with a letter."
    )
)
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("players"),
    show_default=True,
    help=N_("Where to create the player's folder."),
)
@game_option(N_("The game the player plays (docs/games.md)."))
@lang_option
def new(name: str, parent: Path, game: str) -> None:
    """``arena new NAME``: a player skeleton, ``players/NAME/player.py`` by default."""
    from arena.new import NewPlayerError, new_player, shell_word

    try:
        folder = new_player(name, parent, games.spec(game).name)
    except NewPlayerError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(_("Created {file}").format(file=folder / "player.py"))
    shown = shell_word(str(folder))
    if games.spec(game) is games.default():
        click.echo(_("Try it with: arena check {folder}").format(folder=shown))
    else:
        click.echo(_("Try it with: arena check --game {game} {folder}").format(game=game, folder=shown))
