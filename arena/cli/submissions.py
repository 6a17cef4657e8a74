"""``arena submissions import`` and ``arena submissions list``: a course's bots from its learning platform."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.options import lang_option
from arena.i18n import N_, _


@click.group(
    "submissions",
    help=N_("Students' submissions (Moodle's \"download all submissions\" zip) as player folders."),
)
def submissions() -> None:
    """``arena submissions``."""


@submissions.command(
    "import",
    help=N_(
        "Unpack every student's submission in FILE.zip into a player folder in DIR, safely.\n\n"
        "Each folder is named after the student (ana_maría_núñez; -ID on a collision) "
        "with player.py or player.toml at its top; a student's folder from an earlier "
        "import is replaced. Nothing is written outside DIR; paths leaving it, links, "
        "zip bombs and oversized submissions reject that student alone. Exit status 0 "
        "when at least one submission was imported."
    ),
)
@click.argument("archive", type=click.Path(exists=True, dir_okay=False, path_type=Path), metavar="FILE.zip")
@click.option(
    "--into",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("players"),
    show_default=True,
    help=N_("Where the player folders go (one per student; other folders are left alone)."),
)
@lang_option
def import_cmd(archive: Path, into: Path) -> None:
    """``arena submissions import``: every student's submission made a player folder."""
    from arena.intake.submissions import SubmissionError, import_archive, import_table

    try:
        outcomes = import_archive(archive, into)
    except SubmissionError as exc:
        raise click.ClickException(exc.text()) from None
    click.echo(import_table(outcomes, into))
    if any(o.imported for o in outcomes):
        nxt = _("Next: arena submissions list {folder}   ·   arena tournament {folder}")
        click.echo(nxt.format(folder=into))
    click.get_current_context().exit(0 if any(o.imported for o in outcomes) else 1)


@submissions.command(
    "list",
    help=N_(
        "What is in DIR (default players/): whose each folder is, and whether a torneo can take it.\n\n"
        "Exit status 0 when DIR holds at least one player and every player folder is valid."
    ),
)
@click.argument("folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path), default="players")
@lang_option
def list_cmd(folder: Path) -> None:
    """``arena submissions list``: the folders of DIR, and which a torneo takes."""
    from arena.intake.submissions import SubmissionError, survey, survey_table

    try:
        entries = survey(folder)
    except SubmissionError as exc:
        raise click.ClickException(exc.text()) from None
    click.echo(survey_table(entries))
    ok = any(e.valid for e in entries) and all(e.valid or not e.player for e in entries)
    click.get_current_context().exit(0 if ok else 1)
