"""Options and helpers shared by the commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from arena.rules import DEFAULT_RULESET, RENUNCIO_POLICIES, RULESETS, VARIANTS, RulesError, RuleSet

DEFAULT_SAMPLES = ("random_legal", "a_mas", "a_menos")

F = TypeVar("F", bound=Callable[..., Any])
"""A click command function, as an option decorator takes and returns it."""


def _ruleset(ruleset: str, variants: tuple[str, ...], renuncio: str) -> RuleSet:
    try:
        return RuleSet(ruleset, frozenset(variants), renuncio)
    except RulesError as exc:
        raise click.UsageError(str(exc)) from None


def sandbox_option(f: F) -> F:
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
    from arena.referee.sandbox import SandboxError, preflight, resolve, warning

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


def limits_options(f: F) -> F:
    """``--move-ms``, ``--init-ms`` (CPU time) and their wall-clock backstops, with the referee's defaults."""
    from arena.referee.connection import Limits

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


def lang_option(f: F) -> F:
    return click.option(
        "--lang",
        type=click.Choice(["es", "en"]),
        default="es",
        show_default=True,
        envvar="ARENA_LANG",
        help="Language of what is written: the standings' headers, tables (also ARENA_LANG).",
    )(f)


def rules_options(f: F) -> F:
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
    f = click.option("--ruleset", type=click.Choice(RULESETS), default=DEFAULT_RULESET, show_default=True)(f)
    return f
