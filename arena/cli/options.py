"""Options and helpers shared by the commands: each group of options is declared once, here.

Three groups are gathered into one frozen object each, passed to the command function as one
parameter instead of an argument per option:

- :func:`rules_options` → ``rules_choice: RulesChoice`` (``--game``, ``--ruleset``, ``--variant``,
  ``--renuncio``, ``--juegos``), used by ``arena play``, ``arena check`` and ``arena tournament``;
- :func:`limits_options` → ``limits_choice: LimitsChoice`` (``--move-ms``, ``--init-ms``,
  ``--idle-ms``, ``--init-idle-ms``, ``--init-wall-ms``, ``--move-wall-ms``), the same three;
- :func:`containment_options` → ``containment_choice: ContainmentChoice`` (``--sandbox``,
  ``--cold-start``), the same three. It is a group of its own because in every command's help
  it comes last (before ``--lang``), apart from the limits.

``--seed`` (:func:`seed_option`, a value of its own) is declared here too, for ``arena play``,
``arena check``, ``arena tournament`` and ``arena demo``.

Option names, defaults and help texts are the same in every command. Where commands differ,
on purpose:

- ``arena check`` has no ``--cold-start`` (``containment_options(cold_start=False)``; its
  ``ContainmentChoice.cold_start`` is False);
- ``arena new`` takes only ``--game``, with a help of its own (:func:`game_option`);
- ``arena doctor``'s ``--sandbox`` is another option (the containment to examine, no player runs);
- ``arena tournament`` declares the same default ``--move-ms`` but, when it was not given and
  only the sample players play (the demo torneo), plays ``DEMO_MOVE_MS`` (``arena.cli.torneo``);
  with ``--resume`` it refuses the rules, limits and ``--sandbox`` options (the torneo's own are
  stored), but not ``--cold-start``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import click

from arena import games, i18n
from arena.games.common.tute import RulesError
from arena.games.gamespec import choices
from arena.i18n import N_

if TYPE_CHECKING:
    from arena.referee.connection import Limits

DEFAULT_SAMPLES = ("random_legal", "a_mas", "a_menos")

F = TypeVar("F", bound=Callable[..., Any])
"""A click command function, as an option decorator takes and returns it."""


def _gathered(f: F, into: str, names: tuple[str, ...], make: Callable[..., Any]) -> F:
    """``f`` called with the values of the options ``names`` gathered by ``make`` into one ``into=``."""

    @functools.wraps(f)  # keeps f's __click_params__: the options declared so far stay the command's
    def command(*args: Any, **kwargs: Any) -> Any:
        kwargs[into] = make(**{name: kwargs.pop(name) for name in names})
        return f(*args, **kwargs)

    return command  # type: ignore[return-value]


@dataclass(frozen=True)
class RulesChoice:
    """What :func:`rules_options` read: the game as named on the command line and its rules' options."""

    game: str
    ruleset: str | None
    variants: tuple[str, ...]
    renuncio: str
    juegos: int | None

    def resolve(self) -> tuple[str, Any]:
        """The game's full name and its rule set; UsageError when wrong."""
        return game_rules(self.game, self.ruleset, self.variants, self.renuncio, self.juegos)


def game_rules(
    game: str, ruleset: str | None, variants: tuple[str, ...], renuncio: str, juegos: int | None
) -> tuple[str, Any]:
    """The game's full name and its rule set from ``rules_options``' values; UsageError when wrong."""
    try:
        full = games.spec(game).name
        return full, games.spec(full).checked_rules(ruleset, variants, renuncio, juegos)
    except (RulesError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


@dataclass(frozen=True)
class LimitsChoice:
    """What :func:`limits_options` read, in milliseconds (the wall-clock backstops None when not given)."""

    move_ms: int
    init_ms: int
    move_wall_ms: int | None
    init_wall_ms: int | None
    idle_ms: int
    init_idle_ms: int

    def limits(self) -> Limits:
        """The referee's limits (its default backstops where none was given)."""
        from arena.referee.connection import Limits

        return Limits(
            self.init_ms, self.move_ms, self.init_wall_ms, self.move_wall_ms, self.idle_ms, self.init_idle_ms
        )


@dataclass(frozen=True)
class ContainmentChoice:
    """What :func:`containment_options` read: ``--sandbox`` and ``--cold-start`` (False where absent)."""

    sandbox: str
    cold_start: bool = False

    def mechanism(self) -> str:
        """``--sandbox`` resolved on this machine (:func:`containment`)."""
        return containment(self.sandbox)


def containment_options(cold_start: bool = True) -> Callable[[F], F]:
    """``--sandbox`` and (``cold_start``: a command that starts players warm) ``--cold-start``,
    gathered into ``containment_choice: ContainmentChoice``."""

    def decorate(f: F) -> F:
        names: tuple[str, ...] = ("sandbox", "cold_start") if cold_start else ("sandbox",)
        f = _gathered(f, "containment_choice", names, ContainmentChoice)
        if cold_start:
            f = click.option(
                "--cold-start",
                is_flag=True,
                help=N_(
                    "Start every player process from scratch (sandbox, interpreter, imports) instead of "
                    "forking it from a prepared one; slower, same results. See docs/security.md."
                ),
            )(f)
        return click.option(
            "--sandbox",
            type=click.Choice(["auto", "bwrap", "rlimits", "none"]),
            default="auto",
            show_default=True,
            help=N_(
                "Containment of player processes: bubblewrap (auto refuses to run players without it), "
                "the weaker rlimits (root only, chosen explicitly), or none (debugging). "
                "See docs/security.md."
            ),
        )(f)

    return decorate


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
    """``--move-ms``, ``--init-ms`` (CPU time), the idle allowances and the wall-clock backstops,
    with the referee's defaults, gathered into ``limits_choice: LimitsChoice``."""
    from arena.referee.connection import Limits

    default = Limits()
    f = _gathered(f, "limits_choice", tuple(LimitsChoice.__dataclass_fields__), LimitsChoice)
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


def game_option(help: str) -> Callable[[F], F]:
    """``--game`` (a game's short or full name, default the default game's), with the command's ``help``."""
    return click.option(
        "--game",
        type=click.Choice(choices([(s.short for s in games.specs()), games.names()])),
        default=games.default().short,
        show_default=True,
        help=help,
    )


def rules_options(f: F) -> F:
    """``--game``, ``--ruleset``, ``--variant``, ``--renuncio`` and ``--juegos``, gathered into
    ``rules_choice: RulesChoice`` (:meth:`RulesChoice.resolve` makes the rule set)."""
    f = _gathered(f, "rules_choice", tuple(RulesChoice.__dataclass_fields__), RulesChoice)
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
    return game_option(
        N_("The game (docs/games.md); in a game of teams each entrant plays as a team of its own.")
    )(f)


speak_click()  # before any command is defined: some of click's texts are taken at definition
