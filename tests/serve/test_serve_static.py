"""``arena serve``: the admin's static files through the real server (WhiteNoise), and a port in use.

The real server (``python -m arena serve DIR --port P --workers 1``, a process of its own with its
own SQLite) is started as a user starts it; a second one on the same port must say so in one line,
exit non-zero and leave no process behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("django")
pytest.importorskip("waitress")
pytest.importorskip("whitenoise")

from tests.serve.support import answers, free_port


def _serve(folder: Path, port: int, lang: str = "en") -> subprocess.Popen[str]:
    env = {**os.environ, "ARENA_LANG": lang, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)  # its own SQLite: the server is a process of its own
    return subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(folder), "--port", str(port), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


def _stop(process: subprocess.Popen[str]) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path]]:
    """The real ``arena serve`` on a free loopback port: its port and folder."""
    folder = tmp_path_factory.mktemp("serve-static")
    port = free_port()
    process = _serve(folder / "data", port)
    try:
        deadline = time.monotonic() + 120
        while not answers(port):
            assert process.poll() is None, f"the server stopped: {process.communicate()[1][-2000:]}"
            assert time.monotonic() < deadline, "the server never listened"
            time.sleep(0.2)
        yield port, folder
    finally:
        _stop(process)


def _get(port: int, path: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


@pytest.mark.parametrize(
    ("path", "kind", "text"),
    [
        ("/static/admin/css/base.css", "text/css", b"body"),
        ("/static/admin/js/core.js", "text/javascript", b"function"),
        ("/static/ladder/copy.js", "text/javascript", b"clipboard"),
    ],
)
def test_static_files_answer_through_the_real_server(
    server: tuple[int, Path], path: str, kind: str, text: bytes
) -> None:
    port, _folder = server
    status, content_type, body = _get(port, path)
    assert status == 200
    assert content_type.startswith(kind), content_type
    assert text in body


def test_the_admin_login_page_links_its_style_sheet(server: tuple[int, Path]) -> None:
    port, _folder = server
    status, _kind, body = _get(port, "/admin/login/")
    assert status == 200
    assert b'href="/static/admin/css/base.css"' in body


def test_a_missing_static_file_is_404(server: tuple[int, Path]) -> None:
    port, _folder = server
    with pytest.raises(urllib.error.HTTPError) as caught:
        _get(port, "/static/admin/css/no-such-file.css")
    assert caught.value.code == 404


@pytest.mark.parametrize(
    ("lang", "said"), [("en", "Port {port} is already in use"), ("es", "El puerto {port} ya está en uso")]
)
def test_a_port_in_use_is_one_line_and_nothing_starts(
    server: tuple[int, Path], lang: str, said: str, tmp_path: Path
) -> None:
    port, _folder = server
    second = _serve(tmp_path / "data", port, lang)
    try:
        out, err = second.communicate(timeout=120)
    finally:
        _stop(second)
    assert second.returncode != 0
    assert "Traceback" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert said.format(port=port) in lines[0] and "--port" in lines[0]
    assert "Serving" not in out and "Sirviendo" not in out  # it never said it was serving
    with pytest.raises(ProcessLookupError):  # no worker (nor anything else) of its session is left
        os.killpg(second.pid, 0)
    assert answers(port)  # the first server still serves
