"""``arena serve``: the course ladder's web service (Django, served by waitress)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from arena.cli.options import lang_option
from arena.i18n import N_, _

INSTRUCTOR = "instructor"
"""The first instructor account's user name."""
LIMITS: dict[str, Any] = {"connection_limit": 1000, "asyncore_use_poll": True}
"""waitress's: a class keeps a few keep-alive connections per browser open, and at waitress's default
of 100 a class of 100 stalls (no new connection accepted until an idle one times out, 2 min);
``poll`` since ``select`` takes no file descriptor above 1023."""


PROXY_ENV = "ARENA_SERVE_PROXY"  # not shown


def proxy_options(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """waitress's options for the reverse proxy named by ``ARENA_SERVE_PROXY`` (its address as the
    server sees it, ``127.0.0.1`` for one on the same machine; ``*``: any peer): from that peer only,
    ``X-Forwarded-Proto`` is believed (``https`` makes the request secure: CSRF's origin check, the
    invitation links' ``https://``) and the last address of ``X-Forwarded-For`` (the one the proxy
    itself appended) becomes the request's address, so the login lockout counts failures per
    student's address, not per proxy. Unset (the default): no header of a proxy is believed, and
    waitress drops them all (``Forwarded``, ``X-Forwarded-*``) before Django sees the request."""
    proxy = (os.environ if environ is None else environ).get(PROXY_ENV, "").strip()
    if not proxy:
        return {}
    return {
        "trusted_proxy": proxy,
        "trusted_proxy_count": 1,
        "trusted_proxy_headers": {"x-forwarded-proto", "x-forwarded-for"},
    }


def instructor_link(base: str) -> str | None:
    """Create the first instructor account once; the link that sets its password while unused."""
    from django.contrib.auth import get_user_model

    from arena.serve.accounts.models import Invitation

    users = get_user_model()
    if not users.objects.filter(is_superuser=True).exists():
        user = users.objects.create_superuser(INSTRUCTOR, email="", password=None)
        user.set_unusable_password()
        user.save()
        Invitation.objects.create(user=user)
    user = users.objects.filter(username=INSTRUCTOR, is_superuser=True).first()
    if user is None or user.has_usable_password():
        return None
    pending = Invitation.objects.filter(user=user, used_at__isnull=True).first()
    return f"{base}/invite/{pending.token}" if pending else None


def _reach(scheduler: str) -> None:
    """The Dask cluster at ``scheduler`` answers, with a worker (else one line saying why)."""
    from arena.tournament.backend import BackendError

    try:
        from arena.serve.ladder.cluster import connect

        connect(scheduler).close()
    except BackendError as exc:
        raise click.ClickException(str(exc)) from None


MANAGE_HELP = N_(
    "Usage: arena serve manage DIR COMMAND [ARGS]...\n\n"
    "Runs one of Django's management commands on the database of the service in DIR, e.g. "
    "changepassword instructor, createsuperuser, migrate, collectstatic, db_worker --queue-name checks. "
    "arena serve manage DIR help lists them all; arena serve manage DIR help COMMAND explains one."
)


class _ServeCommand(click.Command):
    """``arena serve [DIR] [options]``, and ``arena serve manage DIR COMMAND [ARGS]...``: a
    first word ``manage`` hands the rest to :data:`manage_cmd` (a folder named so: ``./manage``)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args[:1] == ["manage"] and (len(args) < 2 or args[1] in ("--help", "-h")):
            click.echo(_(MANAGE_HELP))
            ctx.exit(0)
        if args[:1] == ["manage"]:
            ctx.meta["arena.serve.manage"] = True
            # Django's options as given, after the folder
            ctx.ignore_unknown_options, ctx.allow_interspersed_args = True, False
            return manage_cmd.parse_args(ctx, args[1:])
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        if ctx.meta.get("arena.serve.manage"):
            return ctx.invoke(manage, **ctx.params)
        return super().invoke(ctx)


def manage(folder: Path, command: tuple[str, ...]) -> None:
    """Run one of Django's management commands against the service in ``folder``."""
    try:
        from django.core.management import execute_from_command_line

        from arena.serve import boot
    except ImportError as exc:
        message = _("arena serve needs its dependencies: pip install '.[serve]' ({detail})")
        raise click.ClickException(message.format(detail=exc)) from None
    boot.configure(folder)
    execute_from_command_line(["arena serve manage DIR", *(command or ("help",))])  # not shown


manage_cmd = click.Command(
    "manage",
    callback=manage,
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
    add_help_option=False,
    params=[
        click.Argument(["folder"], type=click.Path(exists=True, file_okay=False, path_type=Path)),
        click.Argument(["command"], nargs=-1, type=click.UNPROCESSED),
    ],
)
"""``arena serve manage DIR COMMAND [ARGS]...``: Django's management commands on DIR's database."""


@click.command(
    "serve",
    cls=_ServeCommand,
    help=N_(
        "Start the course ladder's web service with its data in DIR (default serve/): students "
        "accept invitations and upload versions of their player, each checked in the sandbox.\n\n"
        "The database is SQLite in DIR, or PostgreSQL when DATABASE_URL is set; pip install "
        "'.[serve]' brings what it needs. See docs/serve.md.\n\n"
        "arena serve manage DIR COMMAND [ARGS]... runs one of Django's management commands on DIR's "
        "database: changepassword instructor, createsuperuser, migrate, collectstatic, db_worker, help."
    ),
)
@click.argument("folder", metavar="[DIR]", type=click.Path(file_okay=False, path_type=Path), default="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help=N_("The address to listen on."))
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help=N_("The port."))
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=1,
    show_default=True,
    help=N_(
        "Partidos played at once, each by a worker process of its own (0: none); other worker "
        "processes check the uploads and play the final torneos."
    ),
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT",
    help=N_(
        "Play the ladders' partidos on this Dask cluster, --workers of them at once (needs the "
        "distributed extra); the database stays here."
    ),
)
@lang_option
def serve_cmd(folder: Path, host: str, port: int, workers: int, scheduler: str | None) -> None:
    """``arena serve``: migrate, make the first instructor, print the address, serve with waitress."""
    try:
        import waitress
        import whitenoise  # type: ignore[import-untyped]  # noqa: F401  (arena/serve/settings.py)

        from arena.serve import boot
    except ImportError as exc:
        message = _("arena serve needs its dependencies: pip install '.[serve]' ({detail})")
        raise click.ClickException(message.format(detail=exc)) from None
    if host not in ("0.0.0.0", "::"):
        os.environ.setdefault("ARENA_SERVE_HOSTS", f"{host},localhost,127.0.0.1")
    if scheduler and workers:
        _reach(scheduler)
    boot.configure(folder)
    boot.migrate()
    shown = f"[{host}]" if ":" in host else host
    base = f"http://{shown}:{port}"
    from arena.serve.wsgi import application

    # Listen before anything starts (finals, workers): a port in use is one line, nothing half-started.
    try:
        server = waitress.create_server(
            application(), host=host, port=port, threads=8, ident="arena", **LIMITS, **proxy_options()
        )
    except OSError as exc:
        raise click.ClickException(_unbound(exc, host, port)) from None
    link = instructor_link(base)
    if link:
        click.echo(
            _("Instructor account: {user}. Set its password once, at: {link}").format(
                user=INSTRUCTOR, link=link
            )
        )
    click.echo(_("Serving {folder} at {address} (Ctrl-C stops it)").format(folder=folder, address=base + "/"))
    from django.conf import settings

    from arena.serve import startup
    from arena.serve.ladder import pool
    from arena.serve.ladder.tasks import PLAYERS_ENV, SCHEDULER_ENV

    # Before any worker runs (only arena serve runs them on DIR): what a killed server left running
    # is ready again, the ladder keeps W partido tasks (docs/serve.md, "Background work").
    startup.resume(workers)
    if scheduler and workers:
        os.environ[SCHEDULER_ENV] = scheduler  # each partido worker connects to it, once
    os.environ[PLAYERS_ENV] = str(workers)  # the prune tops the play tasks up to it (a broken chain)
    processes = pool.start_all(folder, workers, settings.CHECKERS)
    try:
        server.run()
    finally:
        server.close()
        pool.stop_all(processes)


def _unbound(exc: OSError, host: str, port: int) -> str:
    """Why the server cannot listen on ``host:port``, in one line that says what to do."""
    import errno

    if exc.errno == errno.EADDRINUSE:
        busy = _("Port {port} is already in use on {host}: stop what uses it, or choose another with --port.")
        return busy.format(port=port, host=host)
    return _("Cannot listen on {host} port {port}: {reason}. Choose another --host or --port.").format(
        host=host, port=port, reason=exc.strerror or exc
    )
