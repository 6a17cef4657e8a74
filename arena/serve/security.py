"""The web service's own defences beside Django's: the static site's Content-Security-Policy on
every response (docs/security.md, "Web service")."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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
