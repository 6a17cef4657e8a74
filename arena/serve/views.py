"""The pages' shared parts: the style sheet."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def style(request: HttpRequest) -> HttpResponse:
    """The pages' style sheet (a file of its own: the Content-Security-Policy allows no inline style)."""
    response = render(request, "style.css", content_type="text/css; charset=utf-8")  # not shown
    response["Cache-Control"] = "max-age=3600"
    return response
