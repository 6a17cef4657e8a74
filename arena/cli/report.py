"""``arena report``: a torneo's results as a self-contained web site (``DIR/web/``)."""

from __future__ import annotations

import time
from pathlib import Path

import click

from arena.cli.options import lang_option
from arena.i18n import N_, _


@click.command(
    "report",
    help=N_(
        "Write a torneo's results site in FOLDER/web/ from its store: the standings, the head to head, "
        "the faults and a replay viewer for every partido; it opens from the disk, offline."
    ),
)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--html", "html", is_flag=True, help=N_("Write the web site (FOLDER/web/index.html)."))
@lang_option
def report_cmd(folder: Path, html: bool) -> None:
    """``arena report`` (its help: the command's ``help``)."""
    from arena.results import web
    from arena.tournament.store import StoreError

    if not html:
        raise click.UsageError(_("Say what to write: --html (the web site)."))
    started = time.perf_counter()
    try:
        written = web.build_site(folder)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(web.summary_line(written, folder / web.WEB_DIR))
    click.echo(_("Built in {seconds} s.").format(seconds=f"{time.perf_counter() - started:.1f}"))
