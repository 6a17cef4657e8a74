"""The ``arena`` command line: parses options and calls the layers below."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

import click

from arena import __version__
from arena.rules import RENUNCIO_POLICIES, RULESETS, VARIANTS, RulesError, RuleSet

DEFAULT_SAMPLES = ("random_legal", "a_mas", "a_menos")


def _ruleset(ruleset: str, variants: tuple[str, ...], renuncio: str) -> RuleSet:
    try:
        return RuleSet(ruleset, frozenset(variants), renuncio)
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None


def sandbox_option(f):  # type: ignore[no-untyped-def]
    return click.option(
        "--sandbox",
        type=click.Choice(["auto", "bwrap", "rlimits", "none"]),
        default="auto",
        show_default=True,
        help="Containment of player processes: bubblewrap (auto refuses to run players without it), "
        "the weaker rlimits (root only, chosen explicitly), or none (debugging). See docs/security.md.",
    )(f)


def containment(mode: str) -> str:
    """Resolve --sandbox to a mechanism, saying in one line what is not enforced."""
    from arena.sandbox import SandboxError, preflight, resolve, warning

    try:
        mechanism = resolve(mode)
    except SandboxError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        preflight(mechanism)
    except SandboxError as exc:
        raise click.ClickException(str(exc)) from None
    note = warning(mechanism)
    if note:
        click.echo(note, err=True)
    return mechanism


def seed_option(f):  # type: ignore[no-untyped-def]
    """``--seed N``: deals from an explicit int, for reproduction; without it, from a new secret key."""
    return click.option(
        "--seed",
        metavar="N",
        type=int,
        default=None,
        help="Deal from this explicit seed, to reproduce (predictable deals) [default: a new secret key].",
    )(f)


def deals_from(seed: int | None) -> int | str:
    """The seed to deal from: ``seed`` (saying in one line on stderr that the deals are predictable),
    or a new secret key (:func:`arena.seeds.new_key`) when none is given."""
    from arena.seeds import new_key, predictable_warning

    if seed is None:
        return new_key()
    click.echo(predictable_warning("--seed", seed), err=True)
    return seed


def limits_options(f):  # type: ignore[no-untyped-def]
    """``--move-ms``, ``--init-ms`` (CPU time) and their wall-clock backstops, with the referee's defaults."""
    from arena.connection import Limits

    default = Limits()
    backstop = "Wall-clock backstop {} [default: max(3 × {}, {} + 2000)]."
    for name, value, what in (
        ("--move-wall-ms", None, backstop.format("per play", "move-ms", "move-ms")),
        ("--init-wall-ms", None, backstop.format("for hello", "init-ms", "init-ms")),
        ("--init-ms", default.init_ms, "CPU time for hello (the player's whole process tree)."),
        ("--move-ms", default.move_ms, "CPU time per play (the player's whole process tree)."),
    ):
        shown = value is not None
        f = click.option(
            name, metavar="MS", type=click.IntRange(1), default=value, show_default=shown, help=what
        )(f)
    return f


def lang_option(f):  # type: ignore[no-untyped-def]
    return click.option(
        "--lang",
        type=click.Choice(["es", "en"]),
        default="es",
        show_default=True,
        help="Language of the standings' headers.",
    )(f)


def rules_options(f):  # type: ignore[no-untyped-def]
    f = click.option(
        "--renuncio",
        type=click.Choice(RENUNCIO_POLICIES),
        default="disqualify",
        show_default=True,
        help="What a renuncio or false canto costs.",
    )(f)
    f = click.option(
        "--variant",
        "variants",
        multiple=True,
        type=click.Choice(VARIANTS),
        help="A named variant (repeatable).",
    )(f)
    f = click.option("--ruleset", type=click.Choice(RULESETS), default="cabrero-2002", show_default=True)(f)
    return f


@click.group()
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """tute-arena: referee and tournaments for Tute Cabrero bots."""


@main.command()
@click.argument("players", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@seed_option
@rules_options
@limits_options
@click.option("--replay", type=click.Path(dir_okay=False, path_type=Path), help="Where to write the replay.")
@click.option("--quiet", is_flag=True, help="Only the summary.")
@click.option("--in-process", is_flag=True, help="Run Python players in this process (for debugging).")
@sandbox_option
def play(
    players: tuple[Path, ...],
    seed: int | None,
    ruleset: str,
    variants: tuple[str, ...],
    renuncio: str,
    move_ms: int,
    init_ms: int,
    move_wall_ms: int | None,
    init_wall_ms: int | None,
    replay: Path | None,
    quiet: bool,
    in_process: bool,
    sandbox: str,
) -> None:
    """Play one partido of 3-6 PLAYERS (folders), each in its own process."""
    from arena.connection import Limits
    from arena.inert import printable
    from arena.narrate import narrate
    from arena.players import PlayerLoadError, find_player, load_player_class, unique_names
    from arena.referee import play_folders, play_partido
    from arena.sandbox import SandboxFailure
    from arena.seeds import short

    rules = _ruleset(ruleset, variants, renuncio)
    if not 3 <= len(players) <= 6:
        raise click.UsageError(f"a partido needs 3 to 6 players, got {len(players)}")
    deals = deals_from(seed)
    stamp = f"{dt.datetime.now():%Y%m%d-%H%M%S}-seed{short(deals)}"
    replay = replay or Path("results") / "partidos" / f"{stamp}.jsonl"
    events: list[dict] = []
    sink = events.append if not quiet else _summary_sink(events)
    try:
        specs = unique_names([find_player(p) for p in players])
        names = [s.name for s in specs]
        if in_process:
            if any(s.kind != "python" for s in specs):
                raise click.UsageError("--in-process runs Python players (player.py) only")
            objects = [load_player_class(s.folder)() for s in specs]
            play_partido(objects, deals, rules, names=names, replay=str(replay), sinks=[sink])
        else:
            mechanism = containment(sandbox)
            _, incidents = play_folders(
                specs,
                deals,
                rules,
                Limits(init_ms, move_ms, init_wall_ms, move_wall_ms),
                replay,
                sinks=[sink],
                mechanism=mechanism,
            )
            for seat, path in sorted(incidents.items()):
                click.echo(f"Incidente del asiento {seat}: {printable(str(path))}", err=True)
    except (PlayerLoadError, SandboxFailure) as exc:
        raise click.ClickException(printable(str(exc))) from None
    lines = list(narrate(events))
    for line in lines[-2:] if quiet else lines:
        click.echo(line)
    click.echo(f"Replay: {replay}")


def _summary_sink(events: list[dict]):  # type: ignore[no-untyped-def]
    def keep(event: dict) -> None:
        if event["type"] in ("partido_start", "partido_end"):
            events.append(event)

    return keep


@main.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--mano", type=click.IntRange(1), default=None, help="Show only this mano.")
def replay_cmd(file: Path, mano: int | None) -> None:
    """Show a replay FILE readably, every hand included."""
    from arena.narrate import narrate
    from arena.replay import ReplayError, read_replay

    try:
        events = read_replay(file)
    except ReplayError as exc:
        raise click.ClickException(str(exc)) from None
    if mano is not None and not any(e["type"] == "mano_start" and e["mano"] == mano for e in events):
        raise click.ClickException(f"{file}: no mano {mano} in this replay")
    for line in narrate(events, hands=True, only_mano=mano):
        click.echo(line)
    if events[-1]["type"] != "partido_end":
        click.echo("(partido cortado: no tiene partido_end y no cuenta)")


@main.command()
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: a new dated folder under results/).",
)
def demo(seed: int | None, out: Path | None) -> None:
    """Play a demo partido of the sample players and write its replay under results/."""
    from arena.narrate import narrate
    from arena.players import load_player_class
    from arena.referee import play_partido

    root = Path("sample_players")
    if not root.is_dir():
        raise click.ClickException("sample_players/: not found; run the demo from the project's folder")
    out = out or Path("results") / f"demo-{dt.datetime.now():%Y%m%d-%H%M%S}"
    folders = [root / name for name in DEFAULT_SAMPLES]
    objects = [load_player_class(f)() for f in folders]
    events: list[dict] = []
    replay = out / "partido-1.jsonl"
    deals = deals_from(seed)
    play_partido(objects, deals, names=list(DEFAULT_SAMPLES), replay=str(replay), sinks=[events.append])
    for line in narrate(events):
        click.echo(line)
    click.echo(f"Replay: {replay}")


@main.command()
@click.argument("player", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--partidos",
    type=click.IntRange(1, 50),
    default=3,
    show_default=True,
    help="Partidos to play (3, 4 and 5 players in turn).",
)
@seed_option
@rules_options
@limits_options
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where replays and logs go (default: results/check/<player>-<time>).",
)
@sandbox_option
def check(
    player: Path,
    partidos: int,
    seed: int | None,
    ruleset: str,
    variants: tuple[str, ...],
    renuncio: str,
    move_ms: int,
    init_ms: int,
    move_wall_ms: int | None,
    init_wall_ms: int | None,
    out: Path | None,
    sandbox: str,
) -> None:
    """Check a PLAYER folder against the sample players; exit status 0 only when clean."""
    from arena.check import check_player
    from arena.connection import Limits
    from arena.inert import printable
    from arena.players import PlayerLoadError
    from arena.sandbox import SandboxFailure

    rules = _ruleset(ruleset, variants, renuncio)
    if seed is not None:
        deals_from(seed)  # the warning: each partido deals from seed + i
    try:
        mechanism = containment(sandbox)
        limits = Limits(init_ms, move_ms, init_wall_ms, move_wall_ms)
        report = check_player(
            player, partidos, limits, rules, out, click.echo, mechanism=mechanism, seed=seed
        )
    except (PlayerLoadError, FileNotFoundError) as exc:
        click.echo(f"Resultado: no se puede usar — {printable(str(exc))}", err=True)
        sys.exit(2)
    except SandboxFailure as exc:  # the machine's failure, not the student's: no verdict
        raise click.ClickException(printable(str(exc))) from None
    sys.exit(0 if report.clean else 1)


@main.command()
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("players"),
    show_default=True,
    help="Where to create the player's folder.",
)
def new(name: str, parent: Path) -> None:
    """Create a working player skeleton NAME (a player.py to fill in)."""
    from arena.new import NewPlayerError, new_player

    try:
        folder = new_player(name, parent)
    except NewPlayerError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Creado {folder / 'player.py'}")
    click.echo(f"Probalo con: arena check {folder}")


@main.command()
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
    from arena.doctor import report
    from arena.sandbox import SandboxError

    try:
        for line in report(mode):
            click.echo(line)
    except (SandboxError, RuntimeError) as exc:
        raise click.ClickException(str(exc)) from None


@main.command("standings")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@lang_option
@click.option("--csv", "csv", is_flag=True, help="Also write one CSV per sheet (in FOLDER/csv/).")
@click.option("--xls", is_flag=True, help="Also convert to the legacy .xls (needs LibreOffice).")
def standings_cmd(folder: Path, lang: str, csv: bool, xls: bool) -> None:
    """Print a torneo's standings and (re)write FOLDER/standings.xlsx from its store."""
    from arena import report
    from arena.export import to_xls
    from arena.store import Store, StoreError

    try:
        store = Store.open(folder, readonly=True)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    with store:
        rep = report.build(store, lang)
        key = report.deal_key_shown(store)
    click.echo(report.progress_line(rep, lang))
    click.echo(f"{report.KEY_ROW.capitalize()}: {key}")
    click.echo(report.terminal_table(rep, lang))
    for path in report.write(rep, folder, lang, csv):
        click.echo(f"Escrito: {path}" if lang == "es" else f"Written: {path}")
    if xls:
        _, message = to_xls(folder / report.workbook_name(lang))
        click.echo(message)


import arena.cli_tournament  # noqa: E402, F401  (last: defines and registers `arena tournament`)
