"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arena import games, i18n
from arena.game import game_name, make_rules
from arena.games.common.tute import RulesError
from arena.games.gamespec import choices
from arena.i18n import N_

DEFAULT_SAMPLES = ("random_legal", "a_mas", "a_menos")

F = TypeVar("F", bound=Callable[..., Any])
"""A click command function, as an option decorator takes and returns it."""


def game_rules(
    game: str, ruleset: str | None, variants: tuple[str, ...], renuncio: str, juegos: int | None
) -> tuple[str, Any]:
    """The game's full name and its rule set from ``rules_options``' values; UsageError when wrong."""
    try:
        full = game_name(game)
        return full, make_rules(full, ruleset, variants, renuncio, juegos)
    except (RulesError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


def sandbox_option(f: F) -> F:
    return click.option(
        "--sandbox",
        type=click.Choice(["auto", "bwrap", "rlimits", "none"]),
        default="auto",
        show_default=True,
        help=N_(
            "Containment of player processes: bubblewrap (auto refuses to run players without it), "
            "the weaker rlimits (root only, chosen explicitly), or none (debugging). See docs/security.md."
        ),
    )(f)


def cold_start_option(f: F) -> F:
    return click.option(
        "--cold-start",
        is_flag=True,
        help=N_(
            "Start every player process from scratch (sandbox, interpreter, imports) instead of "
            "forking it from a prepared one; slower, same results. See docs/security.md."
        ),
    )(f)


def containment(mode: str) -> str:
    """Resolve --sandbox to a mechanism, saying in one line what is not enforced."""
    from arena.containment.sandbox import SandboxError, preflight, resolve, warning

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


def seed_option(f: F) -> F:
    """``--seed N``: deals from an explicit int, for reproduction; without it, from a new secret key."""
    return click.option(
        "--seed",
        metavar="N",
        type=int,
        default=None,
        help=N_(
            "Deal from this explicit seed, to reproduce (predictable deals) [default: a new secret key]."
        ),
    )(f)


def deals_from(seed: int | None) -> int | str:
    """The seed to deal from: ``seed`` (saying in one line on stderr that the deals are predictable),
    or a new secret key (:func:`arena.seeds.new_key`) when none is given."""
    from arena.seeds import new_key, predictable_warning

    if seed is None:
        return new_key()
    click.echo(predictable_warning("--seed", seed), err=True)
    return seed


def limits_options(f: F) -> F:
    """``--move-ms``, ``--init-ms`` (CPU time) and their wall-clock backstops, with the referee's defaults."""
    from arena.referee.connection import Limits

    default = Limits()
    for name, value, what in (
        (
            "--move-wall-ms",
            None,
            N_("Wall-clock backstop per play [default: max(3 × move-ms, move-ms + 2000)]."),
        ),
        (
            "--init-wall-ms",
            None,
            N_("Wall-clock backstop for hello [default: max(3 × init-ms, init-ms + 2000)]."),
        ),
        (
            "--init-idle-ms",
            default.init_idle_ms,
            N_("Idle time allowed for hello: neither computing nor waiting for a CPU (protocol 1.2)."),
        ),
        (
            "--idle-ms",
            default.idle_ms,
            N_("Idle time allowed per reply: neither computing nor waiting for a CPU (protocol 1.2)."),
        ),
        ("--init-ms", default.init_ms, N_("CPU time for hello (the player's whole process tree).")),
        ("--move-ms", default.move_ms, N_("CPU time per play (the player's whole process tree).")),
    ):
        shown = value is not None
        f = click.option(
            name, metavar="MS", type=click.IntRange(1), default=value, show_default=shown, help=what
        )(f)
    return f


def _speak(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        i18n.use(value)
        translate(ctx.find_root().command)


def lang_option(f: F) -> F:
    """``--lang es|en`` (also ``ARENA_LANG``): the language of everything the command writes.

    Eager, so that ``--lang en --help`` is English; it sets the language of the
    process (:func:`arena.i18n.use`) instead of passing a value to the command."""
    return click.option(
        "--lang",
        type=click.Choice(i18n.LANGUAGES),
        default=None,
        envvar=i18n.ENV,
        is_eager=True,
        expose_value=False,
        callback=_speak,
        help=N_("Language of everything written: terminal, workbook, replays [default: es] (or ARENA_LANG)."),
    )(f)


def translate(command: click.Command) -> None:
    """Put the help of ``command``, its subcommands and their options in the language in use.

    Help texts are written ``help=N_("…")`` (English, marked for the catalog); the
    English text is kept on the object and translated again whenever the language changes."""
    if hasattr(command, "_help_option"):
        command._help_option = None  # click keeps its --help option, with its text, once made
    for obj in [command, *command.params]:
        if not hasattr(obj, "arena_help"):
            obj.arena_help = getattr(obj, "help", None)  # type: ignore[attr-defined]
        if obj.arena_help:  # type: ignore[attr-defined]
            obj.help = i18n._(obj.arena_help)  # type: ignore[attr-defined]
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            translate(sub)


def speak_click() -> None:
    """Click's own messages (Usage, Options, its errors) through arena's catalogs."""
    import importlib

    names = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils")
    for name in (*names, "_termui_impl", "shell_completion"):
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = i18n._  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.n_  # type: ignore[attr-defined]


def rules_options(f: F) -> F:
    """``--game``, ``--ruleset``, ``--variant``, ``--renuncio`` and ``--juegos`` (see :func:`game_rules`)."""
    f = click.option(
        "--juegos",
        metavar="N",
        type=click.IntRange(1),
        default=None,
        help=N_("The juegos that win a partido, in a game scored in juegos [default: the ruleset's]."),
    )(f)
    f = click.option(
        "--renuncio",
        type=click.Choice(choices(s.renuncio_policies for s in games.specs())),
        default="disqualify",
        show_default=True,
        help=N_("What a renuncio or false canto costs (accuse: Tute Cabrero's only, rule 25.4)."),
    )(f)
    f = click.option(
        "--variant",
        "variants",
        multiple=True,
        type=click.Choice(choices(s.variants for s in games.specs())),
        help=N_("A named variant of the game (repeatable)."),
    )(f)
    f = click.option(
        "--ruleset",
        type=click.Choice(choices(s.rulesets for s in games.specs())),
        default=None,
        help=N_("The game's ruleset [default: the game's first]."),
    )(f)
    f = click.option(
        "--game",
        type=click.Choice(choices([(s.short for s in games.specs()), games.names()])),
        default=games.default().short,
        show_default=True,
        help=N_("The game (docs/games.md); in a game of teams each entrant plays as a team of its own."),
    )(f)
    return f


speak_click()  # before any command is defined: some of click's texts are taken at definition
