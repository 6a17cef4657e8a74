"""``arena serve`` behind a reverse proxy that ends TLS (docs/serve.md, "Deployment"): with
``ARENA_SERVE_PROXY`` naming the proxy's address, waitress believes that peer's
``X-Forwarded-Proto``, so a form posted from ``https://host`` passes CSRF's origin check; unset
(the default), or from any other peer, the header is dropped before Django sees it, and such a post
is refused (403) — as every login through nginx was before the variable.

The real waitress server with Django's application, on a free loopback port, as ``arena serve``
builds it (:func:`arena.cli.serve.proxy_options`).
"""

from __future__ import annotations

import http.client
import re
import threading
from typing import Any

import pytest

from arena.cli.serve import LIMITS, proxy_options

HOST = "ladder.example"
PROXIED = {"Host": HOST, "X-Forwarded-Proto": "https", "Origin": f"https://{HOST}"}
"""What nginx (docs/serve.md's example) passes on for a form posted from https://ladder.example/."""


# The server answers from its own threads, which see only committed rows: each test's rows are
# committed, and every table emptied at its end.
pytestmark = pytest.mark.django_db(transaction=True)


def test_no_proxy_is_believed_unless_named() -> None:
    assert proxy_options({}) == {}
    assert proxy_options({"ARENA_SERVE_PROXY": " "}) == {}
    assert proxy_options({"ARENA_SERVE_PROXY": "127.0.0.1"}) == {
        "trusted_proxy": "127.0.0.1",
        "trusted_proxy_count": 1,
        "trusted_proxy_headers": {"x-forwarded-proto", "x-forwarded-for"},
    }


def _served(options: dict[str, Any]) -> Any:
    """A waitress server of the service on a free loopback port, running in a thread."""
    import waitress

    from arena.serve.wsgi import application

    server = waitress.create_server(application(), host="127.0.0.1", port=0, threads=2, **LIMITS, **options)
    threading.Thread(target=server.run, name="proxy-test-waitress", daemon=True).start()
    return server


def _logout_status(options: dict[str, Any]) -> int:
    """The status of a logout posted through the proxy with a valid CSRF token (cookie and form)."""
    from django.test.utils import override_settings

    server = _served(options)
    try:
        with override_settings(ALLOWED_HOSTS=[HOST]):
            connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
            connection.request("GET", "/login/", headers=PROXIED)
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200
            cookie = re.search(r"csrftoken=([^;]+)", answer.getheader("Set-Cookie") or "")
            assert cookie is not None
            token = cookie.group(1)
            headers = {
                **PROXIED,
                "Cookie": f"csrftoken={token}",
                "Content-Type": "application/x-www-form-urlencoded",
            }
            connection.request("POST", "/logout/", body=f"csrfmiddlewaretoken={token}", headers=headers)
            answer = connection.getresponse()
            answer.read()
            connection.close()
            return answer.status
    finally:
        server.close()


def test_a_form_posted_through_the_named_proxy_passes_csrf() -> None:
    assert _logout_status(proxy_options({"ARENA_SERVE_PROXY": "127.0.0.1"})) == 302


def test_without_a_named_proxy_its_header_is_dropped() -> None:
    assert _logout_status(proxy_options({})) == 403


def test_the_header_of_another_peer_is_dropped() -> None:
    assert _logout_status(proxy_options({"ARENA_SERVE_PROXY": "10.9.8.7"})) == 403


def _login_status(server: Any, username: str, password: str, forwarded_for: str) -> int:
    """The status of a login posted through the proxy for ``forwarded_for`` (the client's address
    as the proxy appends it), CSRF token and all."""
    headers = {**PROXIED, "X-Forwarded-For": forwarded_for}
    connection = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=30)
    connection.request("GET", "/login/", headers=headers)
    answer = connection.getresponse()
    page = answer.read().decode()
    cookie = re.search(r"csrftoken=([^;]+)", answer.getheader("Set-Cookie") or "")
    field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert cookie is not None and field is not None
    body = f"csrfmiddlewaretoken={field.group(1)}&username={username}&password={password}"
    form = {
        **headers,
        "Cookie": f"csrftoken={cookie.group(1)}",
        "Content-Type": "application/x-www-form-urlencoded",
    }
    connection.request("POST", "/login/", body=body, headers=form)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer.status


def test_behind_the_named_proxy_the_lockout_counts_the_students_address() -> None:
    """Through ``ARENA_SERVE_PROXY`` the lockout is per user name and the client's address the proxy
    names in ``X-Forwarded-For``: a guesser at one address does not lock the student out at another."""
    from axes.models import AccessAttempt  # type: ignore[import-untyped]
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test.utils import override_settings

    get_user_model().objects.create_user("proxy-lockout", password="right-password-1")
    server = _served(proxy_options({"ARENA_SERVE_PROXY": "127.0.0.1"}))
    try:
        with override_settings(ALLOWED_HOSTS=[HOST]):
            for _ in range(settings.AXES_FAILURE_LIMIT - 1):
                assert _login_status(server, "proxy-lockout", "wrong", "203.0.113.5") == 200
            # the last failure allowed locks the name out from that address
            assert _login_status(server, "proxy-lockout", "wrong", "203.0.113.5") == 429
            assert _login_status(server, "proxy-lockout", "right-password-1", "203.0.113.5") == 429
            assert _login_status(server, "proxy-lockout", "right-password-1", "203.0.113.6") == 302
        counted = AccessAttempt.objects.filter(username="proxy-lockout").values_list("ip_address", flat=True)
        assert set(counted) == {"203.0.113.5"}
    finally:
        server.close()
