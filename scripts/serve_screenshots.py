"""Screenshots of every page of ``arena serve`` for docs/serve.md: the real server, a demo course.

Builds a service folder in a temporary directory and starts the real server on it
(``python -m arena serve DIR --port P --workers 1``, with a tiny SMTP sink of its own on a loopback
port so that the password reset by email is offered and its link can be followed). Headless
Chromium (Debian's ``chromium`` and ``chromium-driver``, through Selenium: ``pip install
'.[serve,test]'``) then does what the people of a course do: the instructor sets their password,
imports a roster of five students and opens a ladder of the default game; four students accept
their invitations and upload sample players (one of them a second version), which are checked; the
server's worker plays partidos (and goes on while the pages are shot); one student resets their
password by email; the instructor runs a short final torneo. Every page met on the way is saved as
``docs/img/serve-<name>.png`` (the whole page, at most 1,800 px high; 1280 px wide, 390 px for the
phone shots), and two of them again in English (the language menu of every page).

    python scripts/serve_screenshots.py                      # 5 to 8 minutes on 2 cores
    python scripts/serve_screenshots.py --partidos 200 --out /tmp/img
    python scripts/serve_screenshots.py --keep /tmp/demo     # keep the service folder

The partidos are dealt from fresh secret keys: the figures differ from run to run.
"""

from __future__ import annotations

import argparse
import email
import io
import os
import re
import shutil
import signal
import socket
import socketserver
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import IO, Any

from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.screenshots import CHROMEDRIVER, chromium_options  # noqa: E402

PASSWORD = "una-clave-larga-de-prueba-42"
ROSTER = (
    "Nombre,Apellido(s),Número de ID,Dirección de correo\n"
    "Ana María,Núñez,1001,ana@example.edu\n"
    "Bruno,Paz,1002,bruno@example.edu\n"
    "Carla,Ortiz,1003,carla@example.edu\n"
    "Diego,Ferreyra,1004,diego@example.edu\n"
    "Elena,Suárez,1005,elena@example.edu\n"
)
PLAYERS = {  # who accepts their invitation and uploads which sample player (Elena never does)
    "ana@example.edu": "random_legal",
    "bruno@example.edu": "a_mas",
    "carla@example.edu": "a_menos",
    "diego@example.edu": "vigilante",
}
SECOND = ("ana@example.edu", "maestro")
"""A second version, uploaded once the first ones have played a while."""
WIDE = 1280
PHONE = 390
TALLEST = 1800
PAGE_CHANGING = (StaleElementReferenceException, NoSuchElementException)


class Sink(socketserver.ThreadingTCPServer):
    """An SMTP server on loopback that keeps every message it is given (and sends none)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _SinkHandler)
        self.messages: list[str] = []


class _SinkHandler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        server: Sink = self.server  # type: ignore[assignment]
        self.wfile.write(b"220 sink\r\n")
        body: list[bytes] | None = None
        for line in self.rfile:
            if body is not None:
                if line.rstrip(b"\r\n") == b".":
                    message = email.message_from_bytes(b"".join(body))
                    parts = [p for p in message.walk() if not p.is_multipart()]
                    text = "".join(
                        (p.get_payload(decode=True) or b"").decode("utf-8", "replace")  # type: ignore[union-attr]
                        for p in parts
                    )
                    server.messages.append(text)
                    body = None
                    self.wfile.write(b"250 kept\r\n")
                else:
                    body.append(line[1:] if line.startswith(b"..") else line)
                continue
            verb = line[:4].upper()
            if verb == b"DATA":
                body = []
                self.wfile.write(b"354 go on\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:  # EHLO, HELO, MAIL, RCPT, RSET, NOOP
                self.wfile.write(b"250 ok\r\n")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait(ready: Callable[[], Any], seconds: float, what: str) -> Any:
    """``ready()``'s first true value, asked every half second for ``seconds``; else stop."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = ready()
        except PAGE_CHANGING:
            value = None
        if value:
            return value
        time.sleep(0.5)
    raise SystemExit(f"waited {seconds:.0f} s for {what}")


class Server:
    """The real ``arena serve DIR --workers 1`` on a free loopback port."""

    def __init__(self, folder: Path, smtp_port: int, log: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "PYTHONUNBUFFERED": "1",
            "ARENA_SERVE_SMTP_HOST": "127.0.0.1",
            "ARENA_SERVE_SMTP_PORT": str(smtp_port),
            "ARENA_SERVE_SMTP_TLS": "0",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        }
        env.pop("DATABASE_URL", None)  # its own SQLite, which this script reads too
        self.log: IO[str] = log.open("w")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "arena", "serve", str(folder), "--port", str(self.port), "--workers", "1"],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=env,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        self.link = ""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            found = re.search(r"(http://\S+/invite/\S+)", line)
            self.link = found.group(1) if found else self.link
            if "127.0.0.1:" in line and "invite" not in line:
                break
        if not self.link:
            self.stop()
            raise SystemExit(f"no instructor link; see {self.log.name}")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()  # keep the pipe drained
        wait(self.answers, 60, "the server to listen")

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def done_partidos(self) -> int:
        with sqlite3.connect(self.folder / "serve.sqlite3", timeout=30) as db:
            row = db.execute("SELECT count(*) FROM ladder_ladderpartido WHERE status = 'done'").fetchone()
        return int(row[0])

    def checking(self) -> int:
        with sqlite3.connect(self.folder / "serve.sqlite3", timeout=30) as db:
            row = db.execute("SELECT count(*) FROM submissions_version WHERE status = 'checking'").fetchone()
        return int(row[0])

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        except ProcessLookupError:
            pass
        self.log.close()


class Camera:
    """Headless Chromium that saves whole pages as ``serve-<name>.png`` in ``out``."""

    def __init__(self, profile: Path, out: Path, base: str) -> None:
        self.driver = webdriver.Chrome(
            options=chromium_options(profile, "--hide-scrollbars", "--lang=es"), service=Service(CHROMEDRIVER)
        )
        self.out = out
        self.base = base
        self.width = WIDE
        self.made: list[tuple[str, str]] = []
        self.resize(WIDE, 900)

    def resize(self, width: int, height: int) -> None:
        self.driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    def get(self, path: str) -> None:
        self.driver.get(path if path.startswith("http") else self.base + path)

    def text(self) -> str:
        for _ in range(40):
            try:
                return str(self.driver.find_element(By.TAG_NAME, "body").text)
            except (*PAGE_CHANGING, WebDriverException):
                time.sleep(0.25)
        return ""

    def submit(self, fields: dict[str, str], button: str | None = None) -> None:
        """Fill the named fields and press the form's ``button`` (its text; else submit the last field)."""
        element = None
        for name, value in fields.items():
            element = wait(partial(self.driver.find_elements, By.NAME, name), 30, f"the field {name}")[0]
            if element.get_attribute("type") != "file":
                element.clear()
            element.send_keys(value)
        if button is None:
            assert element is not None
            element.submit()
        else:
            xpath = f"//button[normalize-space()='{button}']"
            wait(lambda: self.driver.find_elements(By.XPATH, xpath), 30, f"the button {button}")[0].click()

    def log_in(self, username: str) -> None:
        self.driver.delete_all_cookies()
        self.get("/login/")
        self.submit({"username": username, "password": PASSWORD})
        wait(lambda: "/login" not in self.driver.current_url, 30, f"{username} to log in")

    def set_password(self, link: str, shot: str | None = None) -> None:
        self.driver.delete_all_cookies()
        self.get(link)
        wait(lambda: self.driver.find_elements(By.NAME, "new_password1"), 30, "the password form")
        if shot:
            self.shoot(shot, "an invitation: set a password")
        self.submit({"new_password1": PASSWORD, "new_password2": PASSWORD})
        wait(lambda: not self.driver.find_elements(By.NAME, "new_password1"), 30, "the password to be set")

    def language(self, code: str) -> None:
        """Choose the language in the menu at the top of the page, as a reader does."""
        Select(self.driver.find_element(By.NAME, "language")).select_by_value(code)
        self.driver.find_element(By.CSS_SELECTOR, "form.language button").click()
        wait(lambda: self.driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == code, 30, code)

    def shoot(self, name: str, what: str) -> None:
        """The page shown now, whole (up to ``TALLEST`` px), as ``serve-<name>.png``."""
        self.driver.execute_script("document.activeElement && document.activeElement.blur(); scrollTo(0, 0);")
        time.sleep(0.4)  # fonts and layout settled
        height = int(self.driver.execute_script("return document.documentElement.scrollHeight"))
        self.resize(self.width, min(max(height, 200), TALLEST))
        time.sleep(0.3)
        png = self.out / f"serve-{name}.png"
        png.write_bytes(self.driver.get_screenshot_as_png())
        self.resize(self.width, 900)
        self.made.append((png.name, what))
        print(f"{png}: {png.stat().st_size // 1024} KB ({what})", flush=True)
        log: list[dict[str, Any]] = self.driver.get_log("browser")  # type: ignore[no-untyped-call]
        errors = [e for e in log if e.get("level") == "SEVERE"]
        if errors:
            print(f"  the browser's console: {errors}", flush=True)


def zipped(path: Path, player: str) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for file in sorted((ROOT / "sample_players" / player).iterdir()):
            if file.is_file():
                zf.writestr(f"{player}/{file.name}", file.read_bytes())
    path.write_bytes(buffer.getvalue())
    return path


def upload(cam: Camera, username: str, player: str, work: Path) -> str:
    """Upload ``player`` as ``username``; the new version's address (its check may still run)."""
    cam.log_in(username)
    cam.get("/me")
    cam.submit({"player": str(zipped(work / f"{player}.zip", player))}, button="Subir y revisar")
    wait(lambda: "/versions/" in cam.driver.current_url, 30, "the version page")
    return str(cam.driver.current_url)


def course(cam: Camera, server: Server, sink: Sink, work: Path, partidos: int, final_partidos: int) -> None:
    driver = cam.driver
    # The login page, and the instructor's first link.
    cam.get("/login/")
    cam.shoot("login", "the login page")
    cam.set_password(server.link, shot="invite")
    cam.log_in("instructor")

    # The roster and the ladder.
    cam.get("/instructor/roster")
    roster = work / "participantes.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    cam.submit({"roster": str(roster)}, button="Importar")
    text = wait(lambda: re.findall(r"http://\S+/invite/\S+", cam.text()) and cam.text(), 30, "the links")
    links = dict(re.findall(r"(\S+@example\.edu)\s.*?(http://\S+/invite/\S+)", text))
    if set(links) != set(PLAYERS) | {"elena@example.edu"}:
        raise SystemExit(f"the roster's links: {links}")
    cam.get("/instructor/ladders")
    cam.submit({}, button="Abrir")  # the first game listed: the default one
    wait(lambda: "/ladders/" in driver.current_url, 30, "the ladder")
    ladder = driver.current_url.rstrip("/").rsplit("/", 1)[-1]

    # The students accept their invitations and upload their players.
    for username in PLAYERS:
        cam.set_password(links[username])
    versions = {username: upload(cam, username, player, work) for username, player in PLAYERS.items()}
    wait(lambda: server.checking() == 0, 600, "the checks")

    # The ladder plays; halfway, Ana uploads a second version.
    wait(lambda: server.done_partidos() >= partidos // 2, 900, f"{partidos // 2} partidos")
    upload(cam, *SECOND, work)
    wait(lambda: server.checking() == 0, 600, "the second check")
    more = max(partidos, server.done_partidos() + partidos // 2)  # the second version plays too
    wait(lambda: server.done_partidos() >= more, 900, f"{more} partidos")
    print(f"{server.done_partidos()} partidos played", flush=True)

    # A student's pages.
    cam.log_in("ana@example.edu")
    cam.get("/me")
    cam.shoot("student", "Ana's page: her versions, each one's partidos, which plays, the upload form")
    first = versions["ana@example.edu"]
    cam.get(first)
    cam.shoot("version", "a version: its check, its strength and place as charts, its partidos")
    cam.get(f"{first}/files")
    cam.shoot("version-files", "a version's files")
    cam.get(f"/ladders/{ladder}/")
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "a[href*='/partidos/']"), 60, "a partido")
    cam.shoot("standings", "the live standings of the ladder")
    replay = str(driver.find_elements(By.CSS_SELECTOR, "a[href*='/partidos/']")[0].get_attribute("href"))
    cam.get(replay)
    viewer_step(cam)
    cam.shoot("partido", "a partido in the viewer")
    cam.width = PHONE
    cam.resize(PHONE, 800)
    cam.get(f"/ladders/{ladder}/")
    cam.shoot("phone-standings", "the standings on a phone")
    cam.get(first)
    cam.shoot("phone", "a version's page on a phone")
    cam.get("/me")
    cam.shoot("phone-me", "the student's page on a phone")
    cam.width = WIDE
    cam.resize(WIDE, 900)
    cam.get(f"/ladders/{ladder}/")
    cam.language("en")
    cam.shoot("standings-en", "the standings in English")
    cam.get("/me")
    cam.shoot("student-en", "the student's page in English")
    cam.language("es")

    # A forgotten password: the reset by email.
    driver.delete_all_cookies()
    cam.get("/login/")
    cam.get("/password_reset/")
    cam.shoot("reset", "the password reset request (offered when an SMTP server is named)")
    cam.submit({"email": "bruno@example.edu"})
    wait(lambda: "/password_reset/sent" in driver.current_url, 30, "the reset to be sent")
    cam.shoot("reset-sent", "the reset's 'sent' page")
    mail = wait(lambda: sink.messages, 60, "the reset email")[-1]
    found = re.search(r"http://\S+/reset/\S+/", mail)
    if not found:
        raise SystemExit(f"no reset link in the email: {mail}")
    cam.get(found.group(0))
    wait(lambda: driver.find_elements(By.NAME, "new_password1"), 30, "the new password form")
    cam.shoot("reset-confirm", "the reset link: choose a new password")
    cam.submit({"new_password1": PASSWORD, "new_password2": PASSWORD})
    wait(lambda: "/reset/done" in driver.current_url, 30, "the reset to be done")
    cam.shoot("reset-done", "the password was reset")

    # The instructor's pages.
    cam.log_in("instructor")
    cam.get("/instructor/roster")
    form = driver.find_elements(By.XPATH, "//tr[td[text()='bruno@example.edu']]//button")
    if form:  # a reset link from the instructor, listed among the pending ones
        form[0].click()
        wait(lambda: "/instructor/roster" in driver.current_url, 30, "the roster")
    cam.get("/instructor/roster")
    cam.shoot("roster", "the roster: import, the links not used yet (copy, CSV), a new link per student")
    cam.get("/instructor/ladders")
    cam.shoot("ladders", "the ladders, and opening one")
    cam.get(f"/instructor/ladders/{ladder}")
    cam.shoot("instructor", "a ladder's controls")
    cam.get(f"/instructor/ladders/{ladder}/final")
    cam.submit({"partidos": str(final_partidos)}, button="Congelar las versiones y empezar")

    def progressing() -> bool:
        cam.get(f"/instructor/ladders/{ladder}/final")
        return "Progreso" in cam.text() or bool(driver.find_elements(By.ID, "grades"))

    wait(progressing, 120, "the final's progress")
    cam.shoot("final-running", "the final torneo while it plays")

    def finished() -> bool:
        cam.get(f"/instructor/ladders/{ladder}/final")
        text = cam.text()
        if "Error" in text.split("\n"):
            raise SystemExit(f"the final failed: {text}")
        return bool(driver.find_elements(By.ID, "grades"))

    wait(finished, 900, "the final torneo")
    cam.shoot("final", "the final torneo: frozen versions, grades, downloads")
    driver.find_element(By.CSS_SELECTOR, "a[href*='/site/']").click()
    wait(lambda: "/site/" in driver.current_url, 30, "the final's site")
    time.sleep(1)
    cam.shoot("final-site", "the final's results site")
    cam.get("/admin/")
    cam.shoot("admin", "the Django admin")
    cam.get("/admin/ladder/version/")
    cam.shoot("admin-versions", "the admin's versions")


def viewer_step(cam: Camera) -> None:
    """Step the viewer into its partido, where there are cards on the table."""
    found = cam.driver.find_elements(By.ID, "next")
    for _ in range(40 if found else 0):
        try:
            found[0].click()
        except WebDriverException:
            break


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="where the PNGs go")
    parser.add_argument(
        "--partidos", type=int, default=40, help="ladder partidos played before the pages are shot (40)"
    )
    parser.add_argument("--final-partidos", type=int, default=12, help="partidos of the final torneo (12)")
    parser.add_argument("--keep", type=Path, help="make the service folder here and keep it")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="arena-serve-shots-"))
    folder = (args.keep or work / "service").resolve()
    if args.keep and folder.exists():
        raise SystemExit(f"{folder} exists")
    args.out.mkdir(parents=True, exist_ok=True)
    sink = Sink()
    threading.Thread(target=sink.serve_forever, daemon=True).start()
    server = None
    cam = None
    try:
        server = Server(folder, sink.server_address[1], work / "server.log")
        cam = Camera(work / "chromium", args.out, server.base)
        course(cam, server, sink, work, args.partidos, args.final_partidos)
        print("\n".join(f"{name}: {what}" for name, what in cam.made))
    finally:
        if cam is not None:
            cam.driver.quit()
        if server is not None:
            server.stop()
            if args.keep:
                shutil.copy(server.log.name, folder / "server.log")
        sink.shutdown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
