"""``arena tournament``: a round-robin torneo of player folders, in parallel, durable and resumable."""

from __future__ import annotations

import signal
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click
from click.core import ParameterSource

from arena import games
from arena.cli.options import (
    ContainmentChoice,
    LimitsChoice,
    RulesChoice,
    containment,
    containment_options,
    lang_option,
    limits_options,
    rules_options,
    seed_option,
)
from arena.i18n import N_, _, n_

if TYPE_CHECKING:
    from arena.games.gamespec import GameSpec
    from arena.referee.players import PlayerSpec
    from arena.tournament.coordinator import Config
    from arena.tournament.schedule import ScheduledPartido

RESULT_OPTIONS = (
    "game",
    "juegos",
    "table_size",
    "rounds",
    "seed",
    "duplicate",
    "partidos",
    "ruleset",
    "variants",
    "renuncio",
    "move_ms",
    "init_ms",
    "move_wall_ms",
    "init_wall_ms",
    "idle_ms",
    "init_idle_ms",
    "max_faults",
    "stop_on_broken",
    "until_separated",
    "budget",
    "sandbox",
)
"""Options that decide the results: stored at creation, never changed by --resume (but
:data:`PLAY_ON_OPTIONS`)."""
PLAY_ON_OPTIONS = ("until_separated", "budget")
"""What ``--resume DIR`` may add: play on until separated, at most ``--budget`` more partidos."""


@click.command(
    help=N_(
        "Play a torneo between player folders: every table of K, in parallel, resumable.\n\n"
        "A PATH that is a player folder is one player; any other folder gives every player folder "
        "in it (default: players/, or sample_players/). Results, replays and the log go to DIR "
        "(default: a new folder under results/). With --scheduler the partidos run on a Dask "
        "cluster's workers; this process alone writes DIR.\n\n"
        "In a game of teams (--game parejas) each entrant plays as a team of processes of its "
        "own folder, and every two entrants meet --rounds times (default folders: the game's, "
        "docs/games.md)."
    )
)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path), metavar="[PATH]...")
@click.option(
    "--out", metavar="DIR", type=click.Path(file_okay=False, path_type=Path), help=N_("Torneo folder.")
)
@click.option(
    "--table-size",
    metavar="K",
    type=click.IntRange(
        min(min(s.entrants_per_partido) for s in games.specs()),
        max(max(s.entrants_per_partido) for s in games.specs()),
    ),
    default=None,
    help=N_("Players per partido, as the game allows [default: 4, or the game's only size]."),
)
@click.option(
    "--rounds",
    metavar="R",
    type=click.IntRange(1),
    default=1,
    show_default=True,
    help=N_("Partidos per set of K players."),
)
@seed_option
@click.option("--workers", metavar="W", type=click.IntRange(1), help=N_("Partidos at once [default: cores]."))
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help=N_("Play the partidos on this Dask cluster (needs the distributed extra)."),
)
@click.option("--duplicate", is_flag=True, help=N_("Play each deal under every seat rotation."))
@click.option("--partidos", metavar="M", type=click.IntRange(1), help=N_("A balanced subset of M partidos."))
@rules_options
@limits_options
@click.option(
    "--max-faults",
    metavar="F",
    type=click.IntRange(1),
    help=N_("Withdraw a player disqualified in F partidos."),
)
@click.option(
    "--until-separated",
    is_flag=True,
    help=N_("After the schedule, play more partidos until consecutive places are separated at 95%."),
)
@click.option(
    "--budget",
    metavar="M",
    type=click.IntRange(1),
    help=N_(
        "With --until-separated: at most M more partidos [default: chosen from the standings when the "
        "schedule ends]."
    ),
)
@click.option(
    "--stop-on-broken",
    is_flag=True,
    help=N_("Refuse to start when a submission cannot start, instead of leaving it out."),
)
@click.option(
    "--with-samples",
    is_flag=True,
    help=N_("Fill a field smaller than a table with the sample players."),
)
@click.option("--resume", is_flag=True, help=N_("Finish the torneo in DIR (--resume DIR, or --out DIR)."))
@containment_options()
@lang_option
def tournament(
    paths: tuple[Path, ...],
    out: Path | None,
    table_size: int | None,
    rounds: int,
    seed: int | None,
    workers: int | None,
    scheduler: str | None,
    duplicate: bool,
    partidos: int | None,
    rules_choice: RulesChoice,
    limits_choice: LimitsChoice,
    max_faults: int | None,
    until_separated: bool,
    budget: int | None,
    stop_on_broken: bool,
    with_samples: bool,
    resume: bool,
    containment_choice: ContainmentChoice,
) -> None:
    """``arena tournament`` (its help: the command's ``help``)."""
    folder: Path | None = None
    main = threading.current_thread() is threading.main_thread()  # where Python runs signal handlers
    old_term = signal.signal(signal.SIGTERM, _interrupt) if main else None  # SIGTERM is Ctrl-C, at any moment
    try:
        from arena import games
        from arena.inert import printable
        from arena.referee.players import PlayerLoadError
        from arena.seeds import new_key, predictable_warning
        from arena.tournament import coordinator as t
        from arena.tournament.entrants import collect_intake, default_folders
        from arena.tournament.entrants import with_samples as fill_with_samples
        from arena.tournament.store import NOT_A_PLAYER

        ctx = click.get_current_context()
        if scheduler is not None:
            _check_scheduler(workers)
        workers = workers or t.default_workers()
        left_out: list[tuple[str, str, str]] = []  # folders that are no player (a new torneo records them)
        if resume:
            folder = _resume_folder(ctx, paths, out)
            if not folder.exists():  # Ctrl-C before the store was made removes the folder
                raise t.TournamentError(
                    _(
                        "{folder}: no such folder; a torneo interrupted before it began saved nothing: "
                        "run the command that started it again, without --resume"
                    ).format(folder=folder)
                )
            store, config, specs, warnings = t.open_for_resume(folder)
            for w in warnings:
                click.echo(_("Warning: {warning}").format(warning=w), err=True)
            _same_containment(config.sandbox, here=scheduler is None)
            if config.seed is not None:
                click.echo(predictable_warning("--seed", config.seed), err=True)
            if until_separated:  # play on: after the schedule, or after the extras already played
                config = t.play_on(store, budget)
            schedule_size, committed, withdrawn = store.counts()
            store.close()
            click.echo(
                _(
                    "Resuming the torneo in {folder}: {settled} of {total} partidos already saved, "
                    "{left} to go."
                ).format(
                    folder=folder,
                    settled=committed + withdrawn,
                    total=schedule_size,
                    left=schedule_size - committed - withdrawn,
                )
            )
        else:
            game, rules = rules_choice.resolve()
            spec = games.spec(game)
            sides = spec.teams
            table_size = _table_size(spec, table_size)
            if budget is not None and not until_separated:
                raise click.UsageError(_("--budget goes with --until-separated"))
            if partidos is not None and ctx.get_parameter_source("rounds") is ParameterSource.COMMANDLINE:
                raise click.UsageError(_("give either --rounds or --partidos, not both"))
            folder = out or t.default_out()
            if t.check_empty(folder):
                click.echo(
                    _(
                        "{folder} was left half-made by an interrupted start (no partido was played): "
                        "it is made anew."
                    ).format(folder=folder)
                )
            defaults = default_folders(game)
            specs, skipped = collect_intake(paths, defaults)
            for s in skipped:
                click.echo(
                    _("Not a player: {folder} — {reason}").format(
                        folder=printable(str(s.folder)), reason=printable(s.reason)
                    )
                )
            left_out = [(str(s.folder), NOT_A_PLAYER, s.reason) for s in skipped]
            if not paths and ctx.get_parameter_source("move_ms") is ParameterSource.DEFAULT:
                demo_ms = _demo_move_ms(specs, defaults[1], limits_choice.move_ms)
                limits_choice = replace(limits_choice, move_ms=demo_ms)
            if with_samples and len(specs) < table_size:
                before = {s.folder for s in specs}
                specs = fill_with_samples(specs, table_size, kind=Path(spec.samples))
                added = [s.name for s in specs if s.folder not in before]
                if added:
                    click.echo(_("Filled with sample players: {players}.").format(players=", ".join(added)))
            if seed is not None:
                click.echo(predictable_warning("--seed", seed), err=True)
            limits = limits_choice.limits()  # the backstops not given: the spec's, of the limits played
            config = t.Config(
                table_size=table_size,
                rounds=rounds,
                seed=seed,
                duplicate=duplicate,
                partidos=partidos,
                rules=rules.to_dict(),
                init_ms=limits.init_ms,
                move_ms=limits.move_ms,
                init_wall_ms=limits.init_wall,
                move_wall_ms=limits.move_wall,
                idle_ms=limits.idle_ms,
                init_idle_ms=limits.init_idle_ms,
                max_faults=max_faults,
                stop_on_broken=stop_on_broken,
                until_separated=until_separated,
                budget=budget,
                paths=tuple(str(p) for p in paths),
                sandbox=_mechanism(containment_choice.sandbox, scheduler),
                key=None if seed is not None else new_key(),
                game=game,
            )
            schedule = t.plan(config, len(specs))
            if sides is not None:
                click.echo(
                    _("{game} ({rules}): each entrant plays as a team of its own.").format(
                        game=_(spec.title), rules=_rules_line(rules.to_dict())
                    )
                )
            click.echo(_announce(len(specs), table_size, len(schedule), duplicate, seed, sides is not None))
        planned = None if resume else schedule
        warm = not containment_choice.cold_start
        _play(folder, config, specs, workers, planned, scheduler, left_out, warm=warm)
    except KeyboardInterrupt:  # Ctrl-C at any moment: loading, before the folder exists, setting it up
        _interrupted(folder, scheduler)
    except (t.TournamentError, PlayerLoadError) as exc:
        raise click.ClickException(printable(str(exc), multiline=True)) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, old_term)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _interrupted(folder: Path | None, scheduler: str | None) -> NoReturn:
    """Ctrl-C (or SIGTERM) outside the partidos: what was saved and how to go on, one or two lines;
    exit status 130."""
    from arena.tournament import coordinator as t
    from arena.tournament.store import DB_NAME, Store, StoreError

    click.echo()
    saved = None
    if folder is not None and (folder / DB_NAME).is_file():
        try:
            with Store.open(folder, readonly=True) as store:
                saved = store.counts()
        except StoreError:
            saved = None
    if saved is None:
        click.echo(_("Torneo interrupted before it began: nothing was saved."))
    else:
        total, committed, withdrawn = saved
        click.echo(
            _("Torneo interrupted: {committed} of {total} partidos saved.").format(
                committed=committed + withdrawn, total=total
            )
        )
        assert folder is not None
        click.echo(t.resume_hint(folder, scheduler))
    click.get_current_context().exit(130)


def _table_size(spec: GameSpec, given: int | None) -> int:
    """The entrants per partido: the game's only size, else ``given`` (default 4) if the game seats it."""
    sizes = spec.entrants_per_partido
    if spec.teams is not None:
        if given is not None:
            raise click.UsageError(
                _("{game} is played by {n} teams: drop --table-size").format(game=_(spec.title), n=sizes[0])
            )
        return sizes[0]
    if given is None:
        return 4 if 4 in sizes else sizes[0]
    if given not in sizes:
        raise click.UsageError(
            _("{game} seats {sizes} players a partido, not {k}").format(
                game=_(spec.title), sizes=", ".join(map(str, sizes)), k=given
            )
        )
    return given


def _rules_line(rules: dict[str, object]) -> str:
    """A rule set's values in one line (``ruleset ludoteka, juegos 4, renuncio disqualify``)."""
    return ", ".join(
        f"{key} {', '.join(map(str, value)) if isinstance(value, list) else value}"
        for key, value in rules.items()
        if value not in ([], None)
    )


DEMO_MOVE_MS = 100
"""The CPU time per move of the demo torneo (the sample players alone, no --move-ms): the search
samples think 30% of it (30 ms) instead of their 300 ms, so a newcomer's first torneo takes about
a minute."""


def _demo_move_ms(specs: list[Any], samples: Path, move_ms: int) -> int:
    """The demo's limit per move when every entrant is a sample player (said on screen), else ``move_ms``."""
    home = samples.resolve()
    if not specs or not all(Path(s.folder).resolve().is_relative_to(home) for s in specs):
        return move_ms
    click.echo(
        _(
            "Demo torneo of the sample players: {ms} ms of CPU per move, so the search players think "
            "{think} ms a move instead of 300; --move-ms 1000 plays them at full strength."
        ).format(ms=DEMO_MOVE_MS, think=int(0.3 * DEMO_MOVE_MS))
    )
    return DEMO_MOVE_MS


def _announce(
    players: int, table_size: int, partidos: int, duplicate: bool, seed: int | None, pairs: bool = False
) -> str:
    """The line that announces a new torneo: its field, tables (or pairs), partidos and deals."""
    if pairs:
        line = n_(
            "Torneo of {players} entrants, each playing as a pair: {n} partido{duplicate}, {deals}.",
            "Torneo of {players} entrants, each playing as a pair: {n} partidos{duplicate}, {deals}.",
            partidos,
        )
        deals = (
            _("seed {seed}").format(seed=seed) if seed is not None else _("secret key (revealed at the end)")
        )
        return line.format(
            players=players, n=partidos, duplicate=_(" (duplicate)") if duplicate else "", deals=deals
        )
    if seed is not None and duplicate:
        line = n_(
            "Torneo of {players} players, tables of {k}: {n} partido (duplicate), seed {seed}.",
            "Torneo of {players} players, tables of {k}: {n} partidos (duplicate), seed {seed}.",
            partidos,
        )
    elif seed is not None:
        line = n_(
            "Torneo of {players} players, tables of {k}: {n} partido, seed {seed}.",
            "Torneo of {players} players, tables of {k}: {n} partidos, seed {seed}.",
            partidos,
        )
    elif duplicate:
        line = n_(
            "Torneo of {players} players, tables of {k}: {n} partido (duplicate), "
            "secret key (revealed at the end).",
            "Torneo of {players} players, tables of {k}: {n} partidos (duplicate), "
            "secret key (revealed at the end).",
            partidos,
        )
    else:
        line = n_(
            "Torneo of {players} players, tables of {k}: {n} partido, secret key (revealed at the end).",
            "Torneo of {players} players, tables of {k}: {n} partidos, secret key (revealed at the end).",
            partidos,
        )
    return line.format(players=players, k=table_size, n=partidos, seed=seed)


def _check_scheduler(workers: int | None) -> None:
    """--scheduler: the extra is installed (else one line saying what to install), no --workers."""
    from arena.tournament.backend import BackendError
    from arena.tournament.cluster.backend import require

    if workers is not None:
        raise click.UsageError(
            _("--workers is for this machine; with --scheduler the cluster's workers play")
        )
    try:
        require()
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None


def _mechanism(mode: str, scheduler: str | None) -> str:
    """The containment to record: resolved here, but ``bwrap`` on a cluster is the workers' to provide."""
    if scheduler is not None and mode == "bwrap":
        return "bwrap"  # each worker checks it works there before playing
    return containment(mode)


def _same_containment(mechanism: str | None, here: bool = True) -> None:
    """A resumed torneo runs under the containment it began with (one warning line if weak).

    ``here``: the players run on this machine (not on a cluster's workers, which check for themselves).
    """
    from arena.containment.sandbox import bwrap_works, rlimits_problem, warning

    if here and mechanism == "bwrap" and not bwrap_works():
        raise click.ClickException(
            _("this torneo runs its players under bwrap, which does not work here now")
        )
    problem = rlimits_problem() if here and mechanism == "rlimits" else None
    if problem:
        raise click.ClickException(
            _("this torneo runs its players under rlimits: {problem}").format(problem=problem)
        )
    note = warning(mechanism) if mechanism else None
    if note:
        click.echo(note, err=True)


def _resume_folder(ctx: click.Context, paths: tuple[Path, ...], out: Path | None) -> Path:
    given = [
        p.opts[0]
        for p in ctx.command.params
        if p.name in RESULT_OPTIONS
        and p.name not in PLAY_ON_OPTIONS
        and ctx.get_parameter_source(p.name) is ParameterSource.COMMANDLINE
    ]
    typed = {p for p in PLAY_ON_OPTIONS if ctx.get_parameter_source(p) is ParameterSource.COMMANDLINE}
    if typed == {"budget"}:
        raise click.UsageError(_("--budget goes with --until-separated"))
    if given:
        raise click.UsageError(
            _("--resume takes the torneo's options from its folder; drop {options}").format(
                options=", ".join(given)
            )
        )
    folders = {*paths, *([out] if out else [])}
    if len(folders) != 1:
        raise click.UsageError(_("--resume needs the torneo folder: arena tournament --resume DIR"))
    return folders.pop()


def _play(
    folder: Path,
    config: Config,
    specs: list[PlayerSpec],
    workers: int,
    schedule: list[ScheduledPartido] | None,
    scheduler: str | None = None,
    left_out: list[tuple[str, str, str]] | None = None,
    warm: bool = True,
) -> None:
    """Run the torneo (new when ``schedule`` is given) and print the outcome."""
    from arena.cli import separation
    from arena.cli.progress import progress_for
    from arena.inert import printable
    from arena.results import report, web
    from arena.tournament import coordinator as t
    from arena.tournament.store import DB_NAME, Store

    def started() -> None:
        if scheduler:
            where = _("Results in {folder}, partidos on the Dask cluster {scheduler}.")
        else:
            where = n_("Results in {folder}, {n} process.", "Results in {folder}, {n} processes.", workers)
        click.echo(where.format(folder=folder, scheduler=scheduler, n=workers))

    def excluded(broken: list[tuple[PlayerSpec, str]], partidos: int) -> None:
        for spec, why in broken:
            click.echo(
                _("Left out of the torneo: {player} — cannot start: {reason}").format(
                    player=printable(spec.name), reason=printable(why)
                )
            )
        left = n_(
            "Played among the {players} left: {n} partido.",
            "Played among the {players} left: {n} partidos.",
            partidos,
        )
        click.echo(left.format(players=len(specs) - len(broken), n=partidos))

    try:
        more = separation.more(click.echo) if config.until_separated else None
        stats = t.execute(
            folder,
            specs,
            config,
            workers,
            progress_for(),
            schedule,
            started=started,
            scheduler=scheduler,
            more=more,
            left_out=left_out or [],
            excluded=excluded,
            warm=warm,
        )
    except t.Interrupted as exc:
        click.echo()
        click.echo(
            _("Torneo interrupted: {committed} of {total} partidos saved.").format(
                committed=exc.committed, total=exc.total
            )
        )
        click.echo(t.resume_hint(folder, scheduler))
        click.get_current_context().exit(130)
    except t.TournamentError as exc:
        if (folder / DB_NAME).exists():
            raise t.TournamentError(f"{exc}\n{t.resume_hint(folder, scheduler)}") from None
        raise
    rate = stats.committed / stats.seconds if stats.seconds else 0.0
    if stats.withdrawn:
        finished = n_(
            "Torneo finished: {n} partido played in {seconds} s ({rate} per second), "
            "{withdrawn} not played because of withdrawals.",
            "Torneo finished: {n} partidos played in {seconds} s ({rate} per second), "
            "{withdrawn} not played because of withdrawals.",
            stats.committed,
        )
    else:
        finished = n_(
            "Torneo finished: {n} partido played in {seconds} s ({rate} per second).",
            "Torneo finished: {n} partidos played in {seconds} s ({rate} per second).",
            stats.committed,
        )
    click.echo(
        finished.format(
            n=stats.committed, seconds=f"{stats.seconds:.1f}", rate=f"{rate:.2f}", withdrawn=stats.withdrawn
        )
    )
    click.echo()
    with Store.open(folder, readonly=True) as store:
        rep = report.build(store)
        withdrawals = report.withdrawal_lines(store)
        key = report.deal_key_shown(store)
    click.echo(report.terminal_table(rep))
    for line in withdrawals:
        click.echo(line)
    click.echo(f"\n{_(report.KEY_ROW).capitalize()}: {key}")
    written = report.write(rep, folder)
    site = web.build_site(folder, rep=rep)
    click.echo()
    click.echo(_("Workbook: {path}").format(path=written[0]))
    click.echo(web.summary_line(site, folder / web.WEB_DIR))
    click.echo(_("Results: {folder} (torneo.sqlite, replays/, torneo.log, csv/)").format(folder=folder))
    if config.until_separated:
        click.echo(separation.final_line(rep.posiciones))


@click.command(
    "standings",
    help=N_(
        "Print a torneo's standings and (re)write its workbook in FOLDER (standings.xlsx) from its store."
    ),
)
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@lang_option
@click.option("--csv", "csv", is_flag=True, help=N_("Also write one CSV per sheet (in FOLDER/csv/)."))
@click.option("--xls", is_flag=True, help=N_("Also convert to the legacy .xls (needs LibreOffice)."))
@click.option(
    "--grades",
    "grades_file",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help=N_("Also write the students' grades to FILE, as Moodle's offline grading worksheet (CSV)."),
)
@click.option(
    "--scale",
    metavar="SCALE",
    help=N_("With --grades: places to grades, best/worst (default 10/1) or place=grade (1=10, 2=9)."),
)
def standings_cmd(folder: Path, csv: bool, xls: bool, grades_file: Path | None, scale: str | None) -> None:
    """``arena standings`` (its help: the command's ``help``)."""
    from arena.results import grades, report
    from arena.results.export import to_xls
    from arena.tournament.store import Store, StoreError

    if scale is not None and grades_file is None:
        raise click.UsageError(_("--scale goes with --grades"))
    try:
        grades.scale(scale or "")
    except grades.ScaleError as exc:
        raise click.BadParameter(str(exc), param_hint="--scale") from None
    try:
        store = Store.open(folder, readonly=True)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    with store:
        rep = report.build(store)
        key = report.deal_key_shown(store)
        seating = report.seating_design(store)
    click.echo(report.progress_line(rep))
    click.echo(f"{_(report.KEY_ROW).capitalize()}: {key}")
    click.echo(f"{_(report.SEATING_ROW).capitalize()}: {seating}")
    click.echo(report.terminal_table(rep))
    for path in report.write(rep, folder, csv):
        click.echo(_("Written: {path}").format(path=path))
    if xls:
        _xls, message = to_xls(folder / report.workbook_name())
        click.echo(message)
    if grades_file is not None:
        try:
            lines = grades.write_grades(rep, grades_file, scale or "", folder)
        except OSError as exc:
            message = _("{path}: cannot be created ({detail})")
            raise click.ClickException(message.format(path=grades_file, detail=exc.strerror or exc)) from None
        click.echo("\n".join(lines))
