"""The ``arena`` command line: parses options and calls the layers below.

One module per command group — ``partido`` (play, replay, demo), ``student``
(check, new), ``machine`` (doctor), ``torneo`` (tournament, standings),
``submissions`` (import, list) — over
``options`` (what they share); this module only assembles the group.
"""

from __future__ import annotations

import click

from arena import __version__
from arena.cli import machine, partido, student, submissions, torneo
from arena.errors import ArenaError
from arena.inert import printable


class _Arena(click.Group):
    """The group: any ArenaError a command lets through is its one-line message, status 1."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            raise click.ClickException(printable(str(exc), multiline=True)) from None


@click.group(cls=_Arena)
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """tute-arena: referee and tournaments for Tute Cabrero bots."""


for command in (
    partido.play,
    partido.replay_cmd,
    partido.demo,
    student.check,
    student.new,
    machine.doctor,
    torneo.tournament,
    torneo.standings_cmd,
):
    main.add_command(command)
main.add_command(submissions.submissions)
