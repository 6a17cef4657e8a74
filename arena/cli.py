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
@click.option("--seed", type=int, default=2002, show_default=True, help="The partido's seed (deals).")
@rules_options
@click.option("--replay", type=click.Path(dir_okay=False, path_type=Path), help="Where to write the replay.")
@click.option("--quiet", is_flag=True, help="Only the summary.")
def play(
    players: tuple[Path, ...],
    seed: int,
    ruleset: str,
    variants: tuple[str, ...],
    renuncio: str,
    replay: Path | None,
    quiet: bool,
) -> None:
    """Play one partido of 3-6 Python PLAYERS (folders) in this process."""
    from arena.narrate import narrate
    from arena.players import PlayerLoadError, load_player_class
    from arena.referee import play_partido

    rules = _ruleset(ruleset, variants, renuncio)
    if not 3 <= len(players) <= 6:
        raise click.UsageError(f"a partido needs 3 to 6 players, got {len(players)}")
    try:
        objects = [load_player_class(p)() for p in players]
    except PlayerLoadError as exc:
        raise click.ClickException(str(exc)) from None
    names = [p.resolve().name for p in players]
    events: list[dict] = []
    result = play_partido(
        objects, seed, rules, names=names, replay=str(replay) if replay else None, sinks=[events.append]
    )
    lines = list(narrate(events))
    for line in lines[-2:] if quiet else lines:
        click.echo(line)
    if replay:
        click.echo(f"Replay: {replay}")
    sys.exit(0 if result.winners is not None else 1)


@main.command()
@click.option("--seed", type=int, default=2002, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: a new dated folder under results/).",
)
def demo(seed: int, out: Path | None) -> None:
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
    play_partido(objects, seed, names=list(DEFAULT_SAMPLES), replay=str(replay), sinks=[events.append])
    for line in narrate(events):
        click.echo(line)
    click.echo(f"Replay: {replay}")
