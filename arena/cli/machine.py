"""``arena doctor``: whether this machine can contain players."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--sandbox",
    "mode",
    type=click.Choice(["auto", "bwrap", "rlimits", "none"]),
    default="auto",
    show_default=True,
    help="The containment to examine.",
)
def doctor(mode: str) -> None:
    """Show which protections for player processes work on this machine (each tried for real)."""
    from arena.referee.doctor import report
    from arena.referee.sandbox import SandboxError

    try:
        for line in report(mode):
            click.echo(line)
    except (SandboxError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None
