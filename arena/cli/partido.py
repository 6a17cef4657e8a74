"""``arena play``, ``arena replay``, ``arena demo``: one partido, and reading its replay."""

from __future__ import annotations

import datetime as dt
import itertools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from arena import games
from arena.cli.options import (
    DEFAULT_SAMPLES,
    ContainmentChoice,
    LimitsChoice,
    RulesChoice,
    containment_options,
    deals_from,
    lang_option,
    limits_options,
    rules_options,
    seed_option,
)
from arena.games.gamespec import seat_sides
from arena.i18n import N_, _


@click.command(
    help=N_(
        "Play one partido of PLAYERS (folders), each in its own process: as many as the game seats "
        "(Tute Cabrero: 3-6; docs/games.md).\n\n"
        "In a game of teams (--game parejas): the PLAYERS of every seat in seat order (seats 0 and 2 "
        "are partners), or one folder per team, each playing as a team of processes of its own folder."
    )
)
@click.argument("players", nargs=-1, type=click.Path(file_okay=False, path_type=Path))
@seed_option
@rules_options
@limits_options
@click.option(
    "--replay",
    type=click.Path(dir_okay=False, path_type=Path),
    help=N_("Where to write the replay (replacing that file). Default: a new file under results/partidos/."),
)
@click.option("--quiet", is_flag=True, help=N_("Only the summary."))
@click.option("--in-process", is_flag=True, help=N_("Run Python players in this process (for debugging)."))
@containment_options()
@lang_option
def play(
    players: tuple[Path, ...],
    seed: int | None,
    rules_choice: RulesChoice,
    limits_choice: LimitsChoice,
    replay: Path | None,
    quiet: bool,
    in_process: bool,
    containment_choice: ContainmentChoice,
) -> None:
    """``arena play`` (its help: the command's ``help``)."""
    from arena.containment.sandbox import SandboxFailure
    from arena.inert import printable
    from arena.referee.narrate import narrate
    from arena.referee.players import PlayerLoadError, find_player, load_player_class, unique_names
    from arena.referee.table import play_folders, play_partido
    from arena.seeds import short

    game, rules = rules_choice.resolve()
    spec = games.spec(game)
    sides = spec.teams
    if sides is not None and len(players) == len(sides):
        players = tuple(players[side] for side in seat_sides(sides))
    elif sides is not None and len(players) != len(seat_sides(sides)):
        raise click.UsageError(
            _(
                "{game} is played by {seats} players in seat order, "
                "or {pairs} folders playing as pairs; got {n}"
            ).format(game=game, seats=len(seat_sides(sides)), pairs=len(sides), n=len(players))
        )
    elif sides is None and len(players) not in spec.table_sizes:
        raise click.UsageError(
            _("a partido needs {min} to {max} players, got {n}").format(
                min=min(spec.table_sizes), max=max(spec.table_sizes), n=len(players)
            )
        )
    deals = deals_from(seed)
    made = None  # the replay file this command named and made (an explicit --replay is replaced)
    if replay is None:
        replay = made = _new_replay(Path("results") / "partidos", f"seed{short(deals)}")
    events: list[dict] = []
    sink = events.append if not quiet else _summary_sink(events)
    try:
        specs = unique_names([find_player(p) for p in players])
        names = [s.name for s in specs]
        if in_process:
            if any(s.kind != "python" for s in specs):
                raise click.UsageError(_("--in-process runs Python players (player.py) only"))
            objects = [load_player_class(s.folder)() for s in specs]
            play_partido(
                objects, deals, ruleset=rules, names=names, replay=str(replay), sinks=[sink], game=game
            )
        else:
            mechanism = containment_choice.mechanism()
            _result, incidents = play_folders(
                specs,
                deals,
                ruleset=rules,
                limits=limits_choice.limits(),
                replay=replay,
                sinks=[sink],
                mechanism=mechanism,
                warm=not containment_choice.cold_start,
                game=game,
            )
            for seat, path in sorted(incidents.items()):
                click.echo(
                    _("Incident of asiento {seat}: {path}").format(seat=seat, path=printable(str(path))),
                    err=True,
                )
    except (PlayerLoadError, SandboxFailure) as exc:
        _drop_if_empty(made)
        raise click.ClickException(printable(str(exc))) from None
    except BaseException:
        _drop_if_empty(made)
        raise
    lines = list(narrate(events))
    for line in lines[-2:] if quiet else lines:
        click.echo(line)
    click.echo(f"Replay: {replay}")


def _new_replay(folder: Path, tag: str) -> Path:
    """A new, empty replay file of this partido in ``folder``, made 0600 (the folder 0700 if new).

    Named ``<date>-<time>-<tag>.jsonl``; when that name is taken (a partido started in the
    same second with the same seed), ``<date>-<time>-2-<tag>.jsonl``, then ``-3``... The file
    is made exclusively (``O_EXCL``), so two ``arena play`` at once never get the same name,
    and a name whose stderr logs or incident files are still there is skipped too.
    """
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = f"{dt.datetime.now():%Y%m%d-%H%M%S}"
    for name in _numbered(stamp, f"-{tag}.jsonl"):
        path = folder / name
        if Path(f"{path}.logs").exists() or any(folder.glob(f"{path.stem}.incident-*")):
            continue
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            continue
        return path
    raise AssertionError("unreachable: _numbered never ends")  # not shown


def _numbered(stamp: str, rest: str) -> Iterator[str]:
    """``<stamp><rest>``, then ``<stamp>-2<rest>``, ``<stamp>-3<rest>``..."""
    yield f"{stamp}{rest}"
    for n in itertools.count(2):
        yield f"{stamp}-{n}{rest}"


def _new_folder(parent: Path, prefix: str) -> Path:
    """A new folder ``<parent>/<prefix>-<date>-<time>`` (``-2``, ``-3``... when taken), made 0700."""
    parent.mkdir(parents=True, exist_ok=True)
    for name in _numbered(f"{prefix}-{dt.datetime.now():%Y%m%d-%H%M%S}", ""):
        try:
            (parent / name).mkdir(mode=0o700)
        except FileExistsError:
            continue
        return parent / name
    raise AssertionError("unreachable: _numbered never ends")  # not shown


def _drop_if_empty(path: Path | None) -> None:
    """Remove the replay file made for a partido that never began (nothing written to it)."""
    if path is not None:
        try:
            if path.stat().st_size == 0:
                path.unlink()
        except OSError:
            pass


def _summary_sink(events: list[dict]) -> Callable[[dict], None]:
    def keep(event: dict) -> None:
        if event["type"] in ("partido_start", "partido_end"):
            events.append(event)

    return keep


@click.command("replay", help=N_("Show a replay FILE readably, every hand included."))
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--mano", type=click.IntRange(1), default=None, help=N_("Show only this mano."))
@lang_option
def replay_cmd(file: Path, mano: int | None) -> None:
    """``arena replay`` (its help: the command's ``help``)."""
    from arena.referee.narrate import narrate
    from arena.referee.replay import ReplayError, read_replay

    try:
        events = read_replay(file)
    except ReplayError as exc:
        raise click.ClickException(str(exc)) from None
    if mano is not None and not any(e["type"] == "mano_start" and e["mano"] == mano for e in events):
        raise click.ClickException(_("{file}: no mano {mano} in this replay").format(file=file, mano=mano))
    for line in narrate(events, hands=True, only_mano=mano):
        click.echo(line)
    if events[-1]["type"] != "partido_end":
        click.echo(_("(partido cut short: it has no partido_end and does not count)"))


@click.command(help=N_("Play a demo partido of the sample players and write its replay under results/."))
@seed_option
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=N_("Output folder (default: a new dated folder under results/)."),
)
@lang_option
def demo(seed: int | None, out: Path | None) -> None:
    """``arena demo`` (its help: the command's ``help``)."""
    from arena.referee.narrate import narrate
    from arena.referee.players import load_player_class
    from arena.referee.table import play_partido
    from arena.tournament.entrants import sample_folder

    root = sample_folder("sample_players")  # here, else the project's, else the installed package's
    if not root.is_dir():
        raise click.ClickException(_("sample_players/: not found; run the demo from the project's folder"))
    out = out or _new_folder(Path("results"), "demo")  # never the folder of another demo
    folders = [root / name for name in DEFAULT_SAMPLES]
    objects = [load_player_class(f)() for f in folders]
    events: list[dict] = []
    replay = out / "partido-1.jsonl"
    deals = deals_from(seed)
    play_partido(objects, deals, names=list(DEFAULT_SAMPLES), replay=str(replay), sinks=[events.append])
    for line in narrate(events):
        click.echo(line)
    click.echo(f"Replay: {replay}")
