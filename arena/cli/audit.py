"""``arena audit``: whether any entrant of a torneo chose as if it saw hidden cards (the peek test)."""

from __future__ import annotations

import csv
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from arena.cli.options import lang_option
from arena.i18n import N_, _

if TYPE_CHECKING:
    from arena.results.peek import Verdict
    from arena.results.tell import Tell


@click.command(
    "audit",
    help=N_(
        "Check a torneo's decisions for a peek: an entrant that chooses as if it saw hidden cards, "
        "through any channel. Resumable; writes DIR/audit.csv."
    ),
)
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--draws",
    default=8,
    show_default=True,
    type=click.IntRange(1, 200),
    help=N_("Deals of the hidden cards drawn per decision."),
)
@click.option(
    "--every",
    default=1,
    show_default=True,
    type=click.IntRange(1, 1000),
    help=N_("Audit one decision in this many (a sample, to bound the cost)."),
)
@click.option(
    "--workers",
    default=os.cpu_count() or 1,
    show_default=True,
    type=click.IntRange(1, 256),
    help=N_("Processes auditing in parallel."),
)
@lang_option
def audit(folder: Path, draws: int, every: int, workers: int) -> None:
    """``arena audit DIR``."""
    from arena.results import peek
    from arena.tournament.store import Store, StoreError

    try:
        with Store.open(folder, readonly=True) as store:
            entrants = [e.name for e in store.entrants()]
            partidos = peek.partidos_of(store)
            torneo_cpu = peek.players_cpu_seconds(store)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None

    def progress(done: int, total: int) -> None:
        if total and (done == total or done % max(1, total // 20) == 0):
            click.echo(_("Audit: {done}/{total} partidos").format(done=done, total=total), err=True)

    from arena.results.tell import tells

    found, timed, cpu = peek.run(folder, partidos, draws, every, workers, progress)
    rows = peek.verdicts(partidos, found, entrants)
    told = tells(peek.replies_by_entrant(partidos, timed), entrants)
    _write_csv(folder / "audit.csv", rows, told)
    head = [
        _("Player"),
        _("Partidos"),
        _("Decisions"),
        _("Excess per decision"),
        "z",
        _("Late in the mano"),
        _("p corrected"),
        _("Peek?"),
        _("Time tell (bits per reply)"),
        _("Tell?"),
    ]
    lines = [head]
    for r, t in zip(rows, told, strict=True):
        lines.append(
            [
                r.entrant,
                str(r.partidos),
                str(r.decisions),
                "—" if math.isnan(r.excess) else f"{r.excess:+.3f}",
                "—" if math.isnan(r.z) else f"{r.z:.1f}",
                "—" if math.isnan(r.late_excess) else f"{r.late_excess:+.3f}",
                "—" if math.isnan(r.p_corrected) else f"{r.p_corrected:.4f}",
                _("YES") if r.flagged else _("no"),
                "—" if math.isnan(t.bits) else f"{t.bits:.2f}",
                _("YES") if t.flagged else _("no"),
            ]
        )
    widths = [max(len(x) for x in col) for col in zip(*lines, strict=True)]
    for i, line in enumerate(lines):
        click.echo("  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip())
        if i == 0:
            click.echo("  ".join("-" * w for w in widths))
    flagged = [r.entrant for r in rows if r.flagged]
    click.echo()
    if flagged:
        click.echo(_("Peek: {players} chose as if they saw hidden cards.").format(players=", ".join(flagged)))
    else:
        click.echo(_("Peek: none beyond chance."))
    telling = [t.entrant for t in told if t.flagged]
    if telling:
        click.echo(
            _("Time tell: the reply times of {players} say what they hold.").format(
                players=", ".join(telling)
            )
        )
    else:
        click.echo(_("Time tell: none beyond chance."))
    if torneo_cpu > 0 and cpu > 0:
        click.echo(
            _("Audit CPU: {cpu:.1f} s this run, {share:.0%} of the players' CPU time in the torneo.").format(
                cpu=cpu, share=cpu / torneo_cpu
            )
        )
    click.echo(_("Audit: {path}").format(path=folder / "audit.csv"))


def _write_csv(path: Path, rows: list[Verdict], told: list[Tell]) -> None:
    head = ["entrant", "partidos", "decisions", "excess", "z", "p", "p_corrected", "flagged"]
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        tell = ["replies", "tell_bits", "tell_p", "tell_p_corrected", "tell_flagged"]
        out.writerow([*head, *tell, "late_excess", "late_z"])
        for r, t in zip(rows, told, strict=True):
            peeked = [r.entrant, r.partidos, r.decisions, r.excess, r.z, r.p, r.p_corrected, int(r.flagged)]
            out.writerow(
                [*peeked, t.replies, t.bits, t.p, t.p_corrected, int(t.flagged), r.late_excess, r.late_z]
            )
