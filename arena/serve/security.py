"""The web service's own defences beside Django's (docs/security.md, "Web service"): the static
site's Content-Security-Policy on every response, and the login's lockout after repeated failures
(django-axes: :class:`LoginLockout`, :func:`client_ip`, :func:`locked_out`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axes.backends import AxesStandaloneBackend  # type: ignore[import-untyped]
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from arena.results.web import CSP


class ContentSecurityPolicy:
    """Sets the results site's policy (no inline script or style, nothing from elsewhere) on every
    response that has none: a page shows the students' names and reports, and runs none of them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response


def client_ip(request: HttpRequest) -> str | None:
    """The address a login failure is counted against: waitress's ``REMOTE_ADDR``, the peer of the
    connection — or, from the reverse proxy named by ``ARENA_SERVE_PROXY`` only, the last address of
    its ``X-Forwarded-For`` (waitress puts it there: :func:`arena.cli.serve.proxy_options`). From
    anyone else the header is dropped before Django sees it: a client cannot choose its address."""
    address = request.META.get("REMOTE_ADDR")
    return str(address) if address else None


def lockout_minutes() -> int:
    """How long a user name stays locked out from one address (``settings.AXES_COOLOFF_TIME``)."""
    return max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60))


class LoginLockout(AxesStandaloneBackend):
    """Axes's check before any password is hashed: a user name locked out from the request's
    address is refused at once (no PBKDF2 hash is computed for it). An authentication without a
    request (Django's test client ``login``, a shell) is not a page's login: it is not counted."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def locked_out(
    request: HttpRequest, original: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """The login page again, saying the account is locked out from this address for a while (429,
    with ``Retry-After``): the answer to every login of that user name from there until then."""
    from arena.serve.accounts.forms import LoginForm

    minutes = lockout_minutes()
    message = _("Too many failed logins: this account is locked from your address for {minutes} minutes.")
    context = {
        "form": LoginForm(request),
        "locked": message.format(minutes=minutes),
        "next": request.POST.get("next", ""),
    }
    response = render(request, "registration/login.html", context, status=429)
    response["Retry-After"] = str(60 * minutes)
    return response
