"""``arena play``, ``arena replay``, ``arena demo``: one partido, and reading its replay."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path

import click

from arena.cli.options import (
    DEFAULT_SAMPLES,
    _ruleset,
    containment,
    deals_from,
    limits_options,
    rules_options,
    sandbox_option,
    seed_option,
)
from arena.rules import MAX_PLAYERS, MIN_PLAYERS


@click.command()
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
    from arena.inert import printable
    from arena.referee.connection import Limits
    from arena.referee.narrate import narrate
    from arena.referee.players import PlayerLoadError, find_player, load_player_class, unique_names
    from arena.referee.sandbox import SandboxFailure
    from arena.referee.table import play_folders, play_partido
    from arena.seeds import short

    rules = _ruleset(ruleset, variants, renuncio)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise click.UsageError(f"a partido needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(players)}")
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
            play_partido(objects, deals, ruleset=rules, names=names, replay=str(replay), sinks=[sink])
        else:
            mechanism = containment(sandbox)
            _, incidents = play_folders(
                specs,
                deals,
                ruleset=rules,
                limits=Limits(init_ms, move_ms, init_wall_ms, move_wall_ms),
                replay=replay,
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


def _summary_sink(events: list[dict]) -> Callable[[dict], None]:
    def keep(event: dict) -> None:
        if event["type"] in ("partido_start", "partido_end"):
            events.append(event)

    return keep


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--mano", type=click.IntRange(1), default=None, help="Show only this mano.")
def replay_cmd(file: Path, mano: int | None) -> None:
    """Show a replay FILE readably, every hand included."""
    from arena.referee.narrate import narrate
    from arena.referee.replay import ReplayError, read_replay

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


@click.command()
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: a new dated folder under results/).",
)
def demo(seed: int | None, out: Path | None) -> None:
    """Play a demo partido of the sample players and write its replay under results/."""
    from arena.referee.narrate import narrate
    from arena.referee.players import load_player_class
    from arena.referee.table import play_partido

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
