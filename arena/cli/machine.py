"""``arena doctor``: whether this machine can contain players."""

from __future__ import annotations

import click

from arena.cli.options import lang_option
from arena.i18n import N_


@click.command(
    help=N_("Show which protections for player processes work on this machine (each tried for real).")
)
@click.option(
    "--sandbox",
    "mode",
    type=click.Choice(["auto", "bwrap", "rlimits", "none"]),
    default="auto",
    show_default=True,
    help=N_("The containment to examine."),
)
@lang_option
def doctor(mode: str) -> None:
    """``arena doctor``."""
    from arena.containment.doctor import report
    from arena.containment.sandbox import SandboxError

    try:
        for line in report(mode):
            click.echo(line)
    except (SandboxError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
