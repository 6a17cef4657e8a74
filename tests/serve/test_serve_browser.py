"""``arena serve`` in a real browser: a term of the course ladder, from the instructor's first link
to the final torneo's downloads.

The real server (``arena serve DIR --workers 1``, waitress on a loopback port) is started as a
user starts it; headless Chromium (Debian's, through Selenium) does everything a person does:

* the instructor sets their password from the one-time link, imports the roster (a Moodle CSV)
  and opens a ladder of Tute de a dos;
* two students accept their invitations and upload bots: one clean, one broken (its report says
  why and it stays out of the standings); the second uploads a fixed version;
* a student watches the leaderboard update without reloading the page and opens a replay;
* a student gets "not found" for the other's versions and files;
* the instructor runs the final torneo and downloads the workbook and the grades CSV;
* the roster's *Copy* button puts a pending invitation's link on the clipboard.

With ``ARENA_SCREENSHOTS=DIR`` it also photographs the student's page, the leaderboard and the
instructor's page into DIR (``serve-student.png``, ``serve-standings.png``, ``serve-instructor.png``).
Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them as root).
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.browser import CHROMEDRIVER, require_browser
from tests.paths import ROOT
from tests.serve.support import answers, free_port

PASSWORD = "una-clave-larga-de-prueba-42"
ROSTER = (
    "Nombre,Apellido(s),Número de ID,Dirección de correo\n"
    "Ana María,Núñez,1001,ana@example.edu\n"
    "Bruno,Paz,1002,bruno@example.edu\n"
)
BROKEN = '''"""Answers every request with a card it does not hold."""

from arena.games.dos.sdk import DosPlayer, DosRequest


class Broken(DosPlayer):
    name = "Roto"

    def play(self, request: DosRequest) -> str:
        return "99"
'''

require_browser()
pytest.importorskip("django", reason="django is not installed (pip install '.[serve]')")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    NoSuchElementException,
    StaleElementReferenceException,
    WebDriverException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from scripts.screenshots import chromium_options  # noqa: E402  (the flags that keep it off the network)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, Path]]:
    """The real ``arena serve`` on a free loopback port: its address, the instructor's link, its folder."""
    folder = tmp_path_factory.mktemp("serve-browser")
    port = free_port()
    env = {**os.environ, "ARENA_SERVE_CHECK_PARTIDOS": "1", "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)  # its own SQLite: the server is a process of its own
    log = (folder / "server.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "serve", str(folder / "data"), "--port", str(port), "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        link = ""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            found = re.search(r"(http://\S+/invite/\S+)", line)
            link = found.group(1) if found else link
            if "127.0.0.1:" in line and "invite" not in line:
                break
        assert link, f"no instructor link; the server said: {(folder / 'server.log').read_text()[-2000:]}"
        base = f"http://127.0.0.1:{port}"
        _wait(lambda: answers(port), 60, "the server to listen")
        yield base, link, folder
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()



@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    profile = tempfile.mkdtemp(prefix="arena-chromium-")
    downloads = tmp_path_factory.mktemp("downloads")
    options = chromium_options(Path(profile))
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    browser = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    browser.set_window_size(1280, 900)
    browser.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)})
    browser.downloads = downloads  # type: ignore[attr-defined]
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _wait(ready: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            value = ready()
        except PAGE_CHANGING:  # the page changed under the read: try again
            value = None
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"waited {seconds:.0f} s for {what}")


PAGE_CHANGING = (StaleElementReferenceException, NoSuchElementException)
"""What reading a page raises while the browser replaces it: the old body gone stale, or the new
document without a body yet (both seen under load, after a form's submit)."""


def _text(driver: WebDriver) -> str:
    """The page's text; a page still being replaced (a stale or missing body) is read again."""
    for _ in range(40):
        try:
            return str(driver.find_element(By.TAG_NAME, "body").text)
        except PAGE_CHANGING:
            time.sleep(0.25)
        except WebDriverException as error:
            # Chromium's inspector, when the body found was replaced before its text was read.
            if "does not belong to the document" not in str(error):
                raise
            time.sleep(0.25)
    return str(driver.find_element(By.TAG_NAME, "body").text)


def _submit(driver: WebDriver, fields: dict[str, str], button: str | None = None) -> None:
    """Fill the named fields and press the form's button (the one whose text is ``button``)."""
    element = None
    for name, value in fields.items():
        # the page may still be arriving (seen under load, right after a log-in): wait for the field
        found = _wait(partial(driver.find_elements, By.NAME, name), 30, f"the field {name}")
        element = found[0]
        if element.get_attribute("type") != "file":
            element.clear()
        element.send_keys(value)
    if button is None:
        assert element is not None
        element.submit()
    else:
        xpath = f"//button[normalize-space()='{button}']"
        pressed = _wait(partial(driver.find_elements, By.XPATH, xpath), 30, f"the button {button}")
        pressed[0].click()


def _set_password(driver: WebDriver, link: str) -> None:
    driver.get(link)
    _submit(driver, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    _wait(lambda: not driver.find_elements(By.NAME, "new_password1"), 20, "the password to be set")


def _log_in(driver: WebDriver, base: str, username: str) -> None:
    driver.delete_all_cookies()
    driver.get(f"{base}/login/")
    _submit(driver, {"username": username, "password": PASSWORD})
    _wait(lambda: "/login" not in driver.current_url, 30, f"{username} to log in")


def _zip(path: Path, files: dict[str, str]) -> Path:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    path.write_bytes(buffer.getvalue())
    return path


def _upload(driver: WebDriver, base: str, archive: Path) -> str:
    """Upload ``archive`` from the student's page; the new version's address once it is checked."""
    driver.get(f"{base}/me")
    _submit(driver, {"player": str(archive)}, button="Subir y revisar")
    _wait(lambda: "/versions/" in driver.current_url, 20, "the version page")
    page = driver.current_url

    def checked() -> bool:
        driver.get(page)
        return "en revisión" not in _text(driver).lower() and "Revisión:" in _text(driver)

    _wait(checked, 240, f"the check of {archive.name}")
    return str(page)


def _shoot(driver: WebDriver, name: str) -> None:
    folder = os.environ.get("ARENA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"serve-{name}.png"))


@pytest.mark.sandbox
@pytest.mark.browser
def test_a_term_of_the_ladder_in_the_browser(
    server: tuple[str, str, Path], driver: WebDriver, tmp_path: Path
) -> None:
    base, instructor_link, _folder = server

    # The instructor: password, roster, a ladder.
    _set_password(driver, instructor_link)
    _log_in(driver, base, "instructor")
    driver.get(f"{base}/instructor/roster")
    roster = tmp_path / "participantes.csv"
    roster.write_text(ROSTER, encoding="utf-8")
    _submit(driver, {"roster": str(roster)}, button="Importar")
    links = _wait(lambda: re.findall(r"http://\S+/invite/\S+", _text(driver)), 20, "the roster's invitations")
    assert len(links) == 2, _text(driver)
    driver.get(f"{base}/instructor/ladders")
    Select(driver.find_element(By.NAME, "game")).select_by_value("tute-dos")
    driver.find_element(By.XPATH, "//button[normalize-space()='Abrir']").click()
    _wait(lambda: "/ladders/" in driver.current_url, 30, "the ladder")
    ladder = driver.current_url.rstrip("/").rsplit("/", 1)[-1]

    # Two students accept their invitations; Ana uploads a clean bot, Bruno a broken one.
    driver.delete_all_cookies()
    _set_password(driver, links[0])
    driver.delete_all_cookies()
    _set_password(driver, links[1])
    clean = shutil.copy(ROOT / "sample_dos" / "random_legal" / "player.py", tmp_path / "player.py")
    _log_in(driver, base, "ana@example.edu")
    ana_version = _upload(
        driver, base, _zip(tmp_path / "ana.zip", {"azar/player.py": Path(clean).read_text()})
    )
    assert "Revisión: limpia" in _text(driver), _text(driver)
    _log_in(driver, base, "bruno@example.edu")
    bruno_broken = _upload(driver, base, _zip(tmp_path / "bruno.zip", {"roto/player.py": BROKEN}))
    report = _text(driver)
    assert "Revisión: con fallas" in report, report
    assert "99" in report  # the report names what was wrong: the card it does not hold
    driver.get(f"{base}/ladders/{ladder}/")
    assert "Bruno Paz" not in _text(driver)  # the broken version stays out
    basico = (ROOT / "sample_dos" / "basico" / "player.py").read_text()
    _upload(driver, base, _zip(tmp_path / "bruno2.zip", {"basico/player.py": basico}))
    assert "Revisión: limpia" in _text(driver)

    # Ana watches the leaderboard update without reloading, then opens a replay.
    _log_in(driver, base, "ana@example.edu")
    driver.get(f"{base}/me")
    _shoot(driver, "student")
    driver.get(f"{base}/ladders/{ladder}/")
    marker = driver.execute_script("window.__same_page = 1; return window.__same_page;")
    assert marker == 1
    first = driver.find_element(By.TAG_NAME, "table").text
    _wait(
        lambda: (
            driver.find_elements(By.CSS_SELECTOR, "a[href*='/partidos/']")
            and driver.find_element(By.TAG_NAME, "table").text != first
        ),
        240,
        "the live standings to change",
    )
    assert driver.execute_script("return window.__same_page;") == 1  # the page was not reloaded
    assert "Ana María Núñez" in _text(driver) and "Bruno Paz" in _text(driver)
    _shoot(driver, "standings")
    replay = driver.find_elements(By.CSS_SELECTOR, "a[href*='/partidos/']")[0].get_attribute("href")
    driver.get(str(replay))
    assert "partido" in _text(driver).lower()
    assert not [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]

    # Ana cannot reach Bruno's versions or their files.
    driver.get(bruno_broken)
    assert "Bruno" not in _text(driver) and "99" not in _text(driver)
    driver.get(f"{bruno_broken}/files")
    assert "Bruno" not in _text(driver)

    # The instructor runs the final torneo and downloads the workbook and the grades.
    _log_in(driver, base, "instructor")
    driver.get(f"{base}/instructor/ladders/{ladder}")
    _shoot(driver, "instructor")
    _final(driver, base, ladder)
    assert ana_version  # Ana's version played in the final (named in the grades below)


def _final(driver: WebDriver, base: str, ladder: str) -> None:
    """Start the final torneo from its page, wait for it, download the workbook and the grades."""
    driver.get(f"{base}/instructor/ladders/{ladder}/final")
    buttons = driver.find_elements(By.CSS_SELECTOR, "form button[type='submit']")
    assert buttons, _text(driver)
    buttons[-1].click()

    def done() -> bool:
        driver.get(f"{base}/instructor/ladders/{ladder}/final")
        return bool(driver.find_elements(By.CSS_SELECTOR, "a[href$='/workbook']"))

    _wait(done, 300, "the final torneo")
    downloads: Path = driver.downloads  # type: ignore[attr-defined]
    driver.find_element(By.CSS_SELECTOR, "a[href$='/workbook']").click()
    workbook = _wait(lambda: [p for p in downloads.glob("*.xlsx")], 60, "the workbook download")[0]
    import openpyxl

    assert openpyxl.load_workbook(workbook).sheetnames
    driver.find_element(By.CSS_SELECTOR, "a[href*='/grades.csv']").click()
    grades = _wait(lambda: [p for p in downloads.glob("*.csv")], 60, "the grades download")[0]
    rows = list(csv.reader(io.StringIO(grades.read_text(encoding="utf-8-sig"))))
    emails = {cell for row in rows[1:] for cell in row if "@" in cell}
    assert emails == {"ana@example.edu", "bruno@example.edu"}, rows


@pytest.mark.browser
def test_the_roster_copies_a_pending_link(
    server: tuple[str, str, Path], driver: WebDriver, tmp_path: Path
) -> None:
    """The roster's *Copy* button of a pending invitation puts its link on the clipboard
    (``ladder/copy.js``): read back from the clipboard where headless Chromium lets a page read it,
    else the page's own report of success (the button says *Copied* for a moment)."""
    base, instructor_link, _folder = server
    driver.delete_all_cookies()
    driver.get(instructor_link)
    if driver.find_elements(By.NAME, "new_password1"):  # this test alone: the instructor is new
        _set_password(driver, instructor_link)
    _log_in(driver, base, "instructor")
    driver.get(f"{base}/instructor/roster")
    roster = tmp_path / "participantes.csv"
    roster.write_text(
        "Nombre,Apellido(s),Número de ID,Dirección de correo\nCarla,Ortiz,1003,carla@example.edu\n",
        encoding="utf-8",
    )
    _submit(driver, {"roster": str(roster)}, button="Importar")
    row = "//tr[td[normalize-space()='carla@example.edu']]"
    _wait(lambda: driver.find_elements(By.XPATH, f"{row}//button[@data-copy]"), 30, "Carla's pending link")
    link = str(driver.find_element(By.XPATH, f"{row}//code").text).strip()
    assert re.fullmatch(r"http://\S+/invite/\S+", link), link
    # Let the page write (and this test read) the clipboard, as a person's browser asks to.
    driver.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": base, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )

    def pressed() -> bool:
        button = driver.find_element(By.XPATH, f"{row}//button[@data-copy]")
        # Record what the button says (copy.js says "Copied" for 1.5 s on success).
        driver.execute_script(
            "const b = arguments[0]; window.__said = [];"
            "new MutationObserver(() => window.__said.push(b.textContent))"
            ".observe(b, {childList: true, characterData: true, subtree: true});",
            button,
        )
        button.click()
        return True

    _wait(pressed, 30, "the copy button")
    copied = str(driver.find_element(By.XPATH, f"{row}//button[@data-copy]").get_attribute("data-copied"))
    said = _wait(
        lambda: driver.execute_script("return (window.__said || []).length ? window.__said : null;"),
        10,
        "the copy button's report",
    )
    assert said[0] == copied, said  # copy.js's success: the clipboard took the text
    read = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "navigator.clipboard.readText().then(done, (e) => done('unreadable: ' + e));"
    )
    if not str(read).startswith("unreadable: "):
        assert str(read).strip() == link, read
