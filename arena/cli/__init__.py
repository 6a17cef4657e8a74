"""The ``arena`` command line: parses options and calls the layers below.

One module per command group — ``partido`` (play, replay, demo), ``student``
(check, new), ``machine`` (doctor), ``torneo`` (tournament, standings), ``report`` (report),
``submissions`` (import, list), ``serve`` (serve) — over
``options`` (what they share); this module only assembles the group.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click

from arena import __version__, i18n
from arena.cli import audit, machine, partido, report, serve, student, submissions, torneo
from arena.cli.options import lang_option, translate
from arena.errors import ArenaError
from arena.i18n import N_
from arena.inert import printable

INTERRUPTED = 130
"""The exit status after Ctrl-C (or SIGTERM)."""


class _Arena(click.Group):
    """The group: any ArenaError a command lets through is its one-line message, status 1;
    help and click's own messages in the language in use (ARENA_LANG, then ``--lang``)."""

    def make_context(
        self, info_name: str | None, args: list[str], *rest: Any, **kwargs: Any
    ) -> click.Context:
        try:
            lang = _asked_language(args)
            if lang:
                i18n.use(lang)  # before parsing: `arena play --help --lang en` is English too
            translate(self)
            return super().make_context(info_name, args, *rest, **kwargs)
        except KeyboardInterrupt:  # Ctrl-C before any command began: nothing to say
            raise SystemExit(INTERRUPTED) from None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """As a program (the ``arena`` script, ``python -m arena``; not a test's ``main()``): exit
        status 130 after Ctrl-C is left at once, the output flushed. (Python would turn it into
        death by SIGINT if the Ctrl-C had landed in code run by ``exec`` — a dataclass being made
        while a module loads — even though the command handled it.)"""
        try:
            return self.main(*args, **kwargs)
        except SystemExit as exc:
            if exc.code != INTERRUPTED:
                raise
            import logging

            logging.shutdown()
            _release_semaphores()
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            os._exit(INTERRUPTED)

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except ArenaError as exc:
            raise click.ClickException(printable(str(exc), multiline=True)) from None


def _release_semaphores() -> None:
    """Unlink the worker pool's semaphores, as the exit this ``os._exit`` skips would: else
    multiprocessing's resource tracker, left alone, warns of "leaked semaphore objects" after the
    one line an interrupted torneo ends with (it unlinks them itself, so nothing is lost either way)."""
    with contextlib.suppress(Exception):  # private parts of multiprocessing: best effort, never a failure
        from multiprocessing import resource_tracker, synchronize, util

        for finalizer in list(util._finalizer_registry.values()):  # type: ignore[attr-defined]
            if getattr(finalizer, "_callback", None) is not synchronize.SemLock._cleanup:  # type: ignore[attr-defined]
                continue
            name = finalizer._args[0]
            finalizer.cancel()
            with contextlib.suppress(OSError):  # a worker may have unlinked it already
                synchronize.sem_unlink(name)  # type: ignore[attr-defined]
            resource_tracker.unregister(name, "semaphore")


def _asked_language(args: list[str]) -> str | None:
    """The language a command line asks for with ``--lang L`` or ``--lang=L`` (the last one), if valid."""
    asked = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else arg.removeprefix("--lang=")
        if (arg == "--lang" or arg.startswith("--lang=")) and value in i18n.LANGUAGES:
            asked = value
    return asked


@click.group(cls=_Arena, help=N_("tute-arena: referee and tournaments for Tute Cabrero bots."))
@click.version_option(__version__, prog_name="arena")
@lang_option
def main() -> None:
    """The ``arena`` command."""


for command in (
    partido.play,
    partido.replay_cmd,
    partido.demo,
    student.check,
    student.new,
    machine.doctor,
    torneo.tournament,
    torneo.standings_cmd,
    audit.audit,
    report.report_cmd,
    serve.serve_cmd,
):
    main.add_command(command)
main.add_command(submissions.submissions)
