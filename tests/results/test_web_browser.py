"""The results site (``arena report DIR --html``) in a real browser: headless Chromium driven by
Selenium, the pages opened from ``file://`` as a reader opens them.

The index opens without console errors and loads nothing from outside; its numbers are the
store's; the viewer steps through a whole partido (button and keyboard) showing at every step
the cards the replay says; a seat's view hides the others' hands; Tute por parejas too; the
standings need no JavaScript and a phone-sized window does not scroll sideways.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them as root) and
``selenium`` (the ``test`` extra); without them the module is skipped, saying which is missing.
"""

from __future__ import annotations

import json
import math
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import i18n
from tests.browser import CHROMEDRIVER, require_browser
from tests.paths import ROOT

CSP = "default-src 'none'; img-src 'self' data:; style-src 'self'; script-src 'self'"
PHONE = (390, 844)

require_browser()

from click.testing import CliRunner  # noqa: E402
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from arena.cli import main as arena_cli  # noqa: E402
from arena.cli.torneo import tournament  # noqa: E402
from arena.results.report import build  # noqa: E402
from arena.tournament.store import Store  # noqa: E402
from scripts.screenshots import chromium_options  # noqa: E402  (the flags that keep it off the network)

pytestmark = pytest.mark.usefixtures("player_processes")  # its torneos start player processes

# ---------------------------------------------------------------------------------------------
# The torneos, their sites, the browser


def _torneo(out: Path, *args: str) -> Path:
    """Play a small torneo into ``out`` and write its site with ``arena report out --html``."""
    with i18n.speaking(i18n.DEFAULT):
        run = CliRunner().invoke(tournament, [*args, "--seed", "1", "--out", str(out)])
        assert run.exit_code == 0, run.output
        site = CliRunner().invoke(arena_cli, ["report", str(out), "--html"])
        assert site.exit_code == 0, site.output
    assert (out / "web" / "index.html").is_file(), site.output
    return out


@pytest.fixture(scope="module")
def cabrero(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three sample players at one table of three: one Tute Cabrero partido of several manos."""
    players = [ROOT / "sample_players" / name for name in ("a_mas", "a_menos", "random_legal")]
    return _torneo(tmp_path_factory.mktemp("web") / "torneo", *map(str, players), "--table-size", "3")


@pytest.fixture(scope="module")
def parejas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample pairs: a Tute por parejas torneo."""
    out = tmp_path_factory.mktemp("web") / "parejas"
    return _torneo(out, "--game", "parejas", str(ROOT / "sample_pairs"))


@pytest.fixture(scope="module")
def driver() -> Iterator[WebDriver]:
    profile = tempfile.mkdtemp(prefix="arena-chromium-")
    options = chromium_options(Path(profile))
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    browser.set_window_size(1280, 900)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


def open_page(driver: WebDriver, path: Path) -> list[dict[str, Any]]:
    """Load ``path`` from file://; the console entries logged before it are dropped."""
    assert path.is_file(), f"no page {path}"
    driver.get_log("browser")
    driver.get(path.as_uri())
    return driver.get_log("browser")


def severe(entries: list[dict[str, Any]]) -> list[str]:
    return [e["message"] for e in entries if e.get("level") == "SEVERE"]


def replay(folder: Path, partido: str = "p0001") -> list[dict[str, Any]]:
    return [json.loads(line) for line in (folder / "replays" / f"{partido}.jsonl").read_text().splitlines()]


# ---------------------------------------------------------------------------------------------
# The viewer: the state the replay implies, the state the page shows


def expected_states(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The state after step K, K = 0..N (the contract: lines 0..K-1 applied): each seat's hand, the
    trick in progress as (seat, card) pairs, the trump and the shown card."""
    seats = len(lines[0]["players"])
    hands: list[list[str]] = [[] for _ in range(seats)]
    trick: list[tuple[int, str]] = []
    trump = shown = None

    def state() -> dict[str, Any]:
        return {
            "hands": [sorted(h) for h in hands],
            "trick": sorted(trick),
            "trump": trump,
            "shown": shown,
        }

    states = [state()]
    for line in lines:
        kind = line["type"]
        if kind == "mano_start":
            hands = [list(h or []) for h in line["hands"]]
            trick = []  # a new mano: nothing on the table (a trick cut short by a fault stays no longer)
            trump, shown = line["trump"], line.get("shown")
        elif kind == "played":
            hands[line["seat"]].remove(line["card"])
            trick.append((line["seat"], line["card"]))
        elif kind == "trick_end":
            trick = []
        states.append(state())
    return states


READ_STATE = """
const all = (sel, root) => Array.from((root || document).querySelectorAll(sel));
const viewer = document.getElementById('viewer');
const hands = {};
for (const seat of all('.seat[data-seat]')) {
  hands[seat.dataset.seat] = all('.hand .card', seat).map(c => ({
    card: c.hasAttribute('data-card') ? c.getAttribute('data-card') : null,
    back: c.classList.contains('back'),
  }));
}
const trump = document.getElementById('trump');
const shown = document.getElementById('shown');
const status = document.getElementById('status');
return {
  step: viewer && viewer.getAttribute('data-step'),
  steps: viewer && viewer.getAttribute('data-steps'),
  hands: hands,
  trick: all('#trick .card[data-card]').map(c => [c.getAttribute('data-seat'), c.getAttribute('data-card')]),
  trump: trump && trump.getAttribute('data-suit'),
  shown: shown && shown.getAttribute('data-card'),
  status: status ? status.textContent.trim() : null,
};
"""


def shown_state(driver: WebDriver, step: int | None = None) -> dict[str, Any]:
    """What the viewer shows; with ``step``, once its ``data-step`` says so (2 s at most)."""
    deadline = time.monotonic() + 2
    while True:
        got: dict[str, Any] = driver.execute_script(READ_STATE)
        if step is None or got["step"] == str(step) or time.monotonic() > deadline:
            return got
        time.sleep(0.01)


def mismatch(got: dict[str, Any], want: dict[str, Any], step: int, lines: list[dict[str, Any]]) -> str | None:
    """Why the omniscient view at ``step`` is not the replay's state (None when it is)."""
    why = []
    if got["step"] != str(step):
        why.append(f"#viewer[data-step] is {got['step']!r}, expected {step}")
    if sorted(got["hands"]) != sorted(str(s) for s in range(len(want["hands"]))):
        why.append(f".seat[data-seat] are {sorted(got['hands'])}, expected 0..{len(want['hands']) - 1}")
    for seat, expected in enumerate(want["hands"]):
        cards = got["hands"].get(str(seat), [])
        faces = sorted(c["card"] for c in cards if c["card"] is not None)
        if faces != expected or len(cards) != len(expected):
            why.append(
                f'.seat[data-seat="{seat}"] .hand .card: {faces} ({len(cards)} cards), expected {expected}'
            )
        if any(c["back"] for c in cards):
            why.append(f'.seat[data-seat="{seat}"] shows cards face down in the omniscient view')
    trick = sorted((int(s) if s is not None and s.isdigit() else s, c) for s, c in got["trick"])
    if trick != want["trick"]:
        why.append(f"#trick .card[data-seat][data-card]: {trick}, expected {want['trick']}")
    if want["trump"] is not None and got["trump"] != want["trump"]:
        why.append(f"#trump[data-suit] is {got['trump']!r}, expected {want['trump']!r}")
    if want["trump"] is not None and (got["shown"] or None) != want["shown"]:
        why.append(f"#shown[data-card] is {got['shown']!r}, expected {want['shown']!r}")
    if not why:
        return None
    last = json.dumps(lines[step - 1])[:200] if step else "(no line applied)"
    return f"step {step}, after replay line {step - 1}: {last}\n  " + "\n  ".join(why)


def blur(driver: WebDriver) -> None:
    """Focus on the page itself, so that the keys go to the viewer's handler (not a button or select)."""
    driver.execute_script("if (document.activeElement) document.activeElement.blur();")


def press(driver: WebDriver, key: str) -> None:
    ActionChains(driver, duration=0).send_keys(key).perform()


def click(driver: WebDriver, element: Any) -> None:
    """A real click (the pointer moves there at once), as a reader's."""
    ActionChains(driver, duration=0).click(element).perform()


def to_start(driver: WebDriver) -> None:
    click(driver, driver.find_element(By.ID, "first"))
    assert shown_state(driver, 0)["step"] == "0", "#first did not go to step 0"
    blur(driver)


def step_through(driver: WebDriver, lines: list[dict[str, Any]], advance: str) -> list[str]:
    """From step 0 to the last, one ``#next`` click or ArrowRight at a time; every step's cards checked.
    Returns ``#status`` at every step."""
    states = expected_states(lines)
    nxt = driver.find_element(By.ID, "next")
    to_start(driver)
    wrong = []
    statuses = []
    for step, want in enumerate(states):
        if step:
            if advance == "click":
                click(driver, nxt)
            else:
                press(driver, Keys.ARROW_RIGHT)
        got = shown_state(driver, step)
        statuses.append(got["status"] or "")
        why = mismatch(got, want, step, lines)
        if why:
            wrong.append(why)
            if len(wrong) >= 5:
                break
        if step and got["status"] == "":
            wrong.append(f"step {step}: #status is empty")
    assert not wrong, f"the viewer ({advance}) does not show the replay:\n" + "\n".join(wrong)
    # One more step stays on the last.
    if advance == "click":
        click(driver, nxt)
    else:
        press(driver, Keys.ARROW_RIGHT)
    assert shown_state(driver)["step"] == str(len(lines))
    return statuses


# ---------------------------------------------------------------------------------------------
# The index


def test_index_opens_without_console_errors_and_loads_nothing_from_outside(
    driver: WebDriver, cabrero: Path
) -> None:
    web = cabrero / "web"
    for page in (
        web / "index.html",
        web / "partidos" / "p0001.html",
        *sorted((web / "jugadores").glob("*.html")),
    ):
        errors = severe(open_page(driver, page))
        assert not errors, f"{page.relative_to(web)}: console errors {errors}"
        csp = driver.execute_script(
            "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]');"
            "return m && m.getAttribute('content');"
        )
        assert csp == CSP, f"{page.relative_to(web)}: Content-Security-Policy meta is {csp!r}"
        loaded = driver.execute_script(
            "return performance.getEntriesByType('resource').map(e => e.name)"
            ".concat(Array.from(document.querySelectorAll('[src],link[href]')).map(e => e.src || e.href));"
        )
        outside = [url for url in loaded if not url.startswith("file:")]
        assert not outside, f"{page.relative_to(web)} loads from outside: {outside}"
    open_page(driver, web / "index.html")
    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "es"
    from arena.results.web import site_title

    with i18n.speaking("es"):
        assert driver.find_element(By.TAG_NAME, "h1").text == site_title(cabrero.name)
    # Every link leads to a page of the site.
    hrefs = driver.execute_script("return Array.from(document.querySelectorAll('a[href]')).map(a => a.href)")
    local = [h.split("#")[0] for h in hrefs if h.startswith("file:")]
    broken = [h for h in local if not Path(h.removeprefix("file://")).exists()]
    assert not broken, f"broken links on the index: {broken}"
    assert any(h.endswith("/partidos/p0001.html") for h in local), "no link to the viewer of p0001"
    assert any("/jugadores/" in h for h in local), "no link to a player's page"
    svg = driver.find_elements(By.CSS_SELECTOR, "#chart svg[role='img']")
    assert svg and svg[0].find_elements(By.TAG_NAME, "title"), "#chart has no svg[role=img] with a <title>"


def test_english_site(driver: WebDriver, cabrero: Path, tmp_path: Path) -> None:
    """``--lang en``: an English page, as free of console errors, the same numbers."""
    folder = tmp_path / cabrero.name
    shutil.copytree(cabrero, folder, ignore=shutil.ignore_patterns("web"))
    run = CliRunner().invoke(arena_cli, ["report", str(folder), "--html", "--lang", "en"])
    assert run.exit_code == 0, run.output
    for page in (folder / "web" / "index.html", folder / "web" / "partidos" / "p0001.html"):
        errors = severe(open_page(driver, page))
        assert not errors, f"{page.name} (en): console errors {errors}"
        assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
    open_page(driver, folder / "web" / "index.html")
    assert_standings(driver, folder)


def _standings_on_page(driver: WebDriver) -> tuple[list[str], list[dict[str, str]]]:
    rows = driver.execute_script(
        """return Array.from(document.querySelectorAll('#posiciones tr.entrant')).map(tr => ({
             entrant: tr.getAttribute('data-entrant'),
             cells: Array.from(tr.querySelectorAll('td[data-col]')).map(td =>
               [td.getAttribute('data-col'), td.getAttribute('data-value')])}))"""
    )
    return [r["entrant"] for r in rows], [dict(r["cells"]) for r in rows]


def _same_number(shown: str | None, value: Any) -> bool:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return shown in ("", None)
    return shown not in ("", None) and float(shown) == float(value)


def assert_standings(driver: WebDriver, folder: Path) -> None:
    """``#posiciones`` holds the store's standings: its entrants in order, every number equal."""
    with i18n.speaking(i18n.DEFAULT):
        report = build(Store.open(folder))
    posiciones = report.posiciones
    names, cells = _standings_on_page(driver)
    assert names == list(posiciones["entrant"]), (
        "#posiciones tr.entrant[data-entrant] are not in standings order"
    )
    numeric = [c for c in posiciones.columns if posiciones[c].dtype.kind in "iuf"]
    core = {
        "puesto",
        "partidos",
        "ganados",
        "pct_ganados",
        "ic_bajo",
        "ic_alto",
        "lugar_medio",
        "porotos_100",
    }
    wrong = []
    for name, row, record in zip(names, cells, posiciones.to_dict("records"), strict=True):
        missing = core - set(row)
        if missing:
            wrong.append(f"{name}: no td[data-col] for {sorted(missing)}")
        for col in numeric:
            if col in row and not _same_number(row[col], record[col]):
                wrong.append(
                    f'{name}: td[data-col="{col}"][data-value] is {row[col]!r}, '
                    f"the store says {record[col]!r}"
                )
    assert not wrong, "the standings on the page are not the store's:\n" + "\n".join(wrong)
    # The head-to-head heat map: every number the store's.
    frame = report.frames["Enfrentamientos"]
    frame = frame.set_index(frame.columns[0])
    heat = driver.execute_script(
        "return Array.from(document.querySelectorAll('#enfrentamientos td[data-row][data-col]'))"
        ".map(td => [td.getAttribute('data-row'), td.getAttribute('data-col'),"
        " td.getAttribute('data-value')])"
    )
    valued = [(r, c, v) for r, c, v in heat if v not in ("", None)]
    expected = int(frame.notna().sum().sum())
    assert len(valued) == expected, (
        f"#enfrentamientos has {len(valued)} cells with a value, the store {expected}"
    )
    bad = [(r, c, v, frame.loc[r, c]) for r, c, v in valued if float(v) != float(frame.loc[r, c])]
    assert not bad, f"#enfrentamientos cells (row, col, page, store): {bad}"


def test_numbers_on_the_index_are_the_stores(driver: WebDriver, cabrero: Path) -> None:
    open_page(driver, cabrero / "web" / "index.html")
    assert_standings(driver, cabrero)
    partidos = driver.find_elements(By.CSS_SELECTOR, "#partidos tr[data-partido]")
    assert [p.get_attribute("data-partido") for p in partidos] == ["p0001"]


# ---------------------------------------------------------------------------------------------
# The viewer


def test_viewer_steps_through_a_whole_partido_showing_the_replays_cards(
    driver: WebDriver, cabrero: Path
) -> None:
    lines = replay(cabrero)
    open_page(driver, cabrero / "web" / "partidos" / "p0001.html")
    assert shown_state(driver)["steps"] == str(len(lines)), (
        "#viewer[data-steps] is not the replay's line count"
    )
    step_through(driver, lines, "click")
    step_through(driver, lines, "key")
    assert not severe(driver.get_log("browser")), "console errors while stepping through"


def test_viewer_buttons_keys_and_autoplay(driver: WebDriver, cabrero: Path) -> None:
    n = len(replay(cabrero))
    open_page(driver, cabrero / "web" / "partidos" / "p0001.html")
    to_start(driver)

    def at(step: int, how: str) -> None:
        got = shown_state(driver, step)["step"]
        assert got == str(step), f"{how}: #viewer[data-step] is {got}, expected {step}"

    click(driver, driver.find_element(By.ID, "last"))
    at(n, "#last")
    click(driver, driver.find_element(By.ID, "prev"))
    at(n - 1, "#prev")
    blur(driver)
    press(driver, Keys.ARROW_LEFT)
    at(n - 2, "ArrowLeft")
    press(driver, Keys.HOME)
    at(0, "Home")
    press(driver, Keys.END)
    at(n, "End")
    press(driver, Keys.HOME)
    at(0, "Home")
    # Autoplay: #play moves on by itself, Space pauses it.
    click(driver, driver.find_element(By.ID, "play"))
    deadline = time.monotonic() + 5
    while shown_state(driver)["step"] == "0" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert shown_state(driver)["step"] != "0", "#play did not move the viewer on within 5 s"
    blur(driver)
    press(driver, " ")
    paused = shown_state(driver)["step"]
    time.sleep(1.5)
    assert shown_state(driver)["step"] == paused, "Space did not pause the autoplay"
    status = driver.find_element(By.ID, "status")
    assert status.get_attribute("aria-live") == "polite"
    press(driver, Keys.END)
    assert driver.find_element(By.ID, "log").text.strip(), "#log is empty at the end of the partido"
    assert not severe(driver.get_log("browser"))


def test_viewing_as_one_seat_hides_the_others_cards(driver: WebDriver, cabrero: Path) -> None:
    lines = replay(cabrero)
    states = expected_states(lines)
    played = [k for k, line in enumerate(lines) if line["type"] == "played"]
    step = played[4] + 1  # mid-trick in the first mano: cards in hands and on the table
    open_page(driver, cabrero / "web" / "partidos" / "p0001.html")
    to_start(driver)
    for _ in range(step):
        press(driver, Keys.ARROW_RIGHT)
    assert shown_state(driver, step)["step"] == str(step)
    view = Select(driver.find_element(By.ID, "view-as"))
    values = [o.get_attribute("value") for o in view.options]
    assert "all" in values and all(str(s) in values for s in range(len(states[0]["hands"]))), values
    for seat in range(len(states[0]["hands"])):
        view.select_by_value(str(seat))
        got = shown_state(driver)
        assert got["step"] == str(step), "choosing a view moved the viewer"
        for other, cards in got["hands"].items():
            want = states[step]["hands"][int(other)]
            if int(other) == seat:
                faces = sorted(c["card"] for c in cards if c["card"])
                assert faces == want, f"viewing as {seat}: its own hand shows {faces}, expected {want}"
                assert not any(c["back"] for c in cards), f"viewing as {seat}: its own cards face down"
            else:
                faces = [c["card"] for c in cards if c["card"]]
                assert not faces, f'viewing as {seat}: .seat[data-seat="{other}"] shows {faces}'
                assert len(cards) == len(want) and all(c["back"] for c in cards), (
                    f'viewing as {seat}: .seat[data-seat="{other}"] has {len(cards)} cards '
                    f"({sum(c['back'] for c in cards)} .card.back), expected {len(want)} face down"
                )
        trick = sorted((int(s), c) for s, c in got["trick"])
        assert trick == states[step]["trick"], "the trick on the table is for everyone to see"
    view.select_by_value("all")
    assert mismatch(shown_state(driver), states[step], step, lines) is None


def test_parejas_viewer_steps_through(driver: WebDriver, parejas: Path) -> None:
    lines = replay(parejas)
    assert lines[0].get("game") == "tute-parejas"
    open_page(driver, parejas / "web" / "index.html")
    assert not severe(driver.get_log("browser"))
    assert_standings(driver, parejas)
    errors = severe(open_page(driver, parejas / "web" / "partidos" / "p0001.html"))
    assert not errors, f"console errors {errors}"
    assert shown_state(driver)["steps"] == str(len(lines))
    step_through(driver, lines, "click")
    assert not severe(driver.get_log("browser")), "console errors while stepping through"


def test_a_fault_its_report_and_its_evidence(
    driver: WebDriver, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A player that reneges mid-trick: the faults table links its incident report, and the viewer
    steps through the cut-short mano and tells the fault with its detail and evidence."""
    players = [
        ROOT / "tests" / "bots" / "renuncio",
        *(ROOT / "sample_players" / n for n in ("a_mas", "a_menos")),
    ]
    folder = _torneo(tmp_path_factory.mktemp("web") / "faltas", *map(str, players), "--table-size", "3")
    web = folder / "web"
    assert not severe(open_page(driver, web / "index.html"))
    with i18n.speaking(i18n.DEFAULT):
        faults = build(Store.open(folder)).frames["Descalificaciones"]
    rows = driver.find_elements(By.CSS_SELECTOR, "#faltas tr.fault")
    assert len(rows) == len(faults) >= 1, (
        f"#faltas tr.fault: {len(rows)} rows, the store has {len(faults)} faults"
    )
    links = [a.get_attribute("href") for row in rows for a in row.find_elements(By.CSS_SELECTOR, "a[href]")]
    reports = [Path(h.removeprefix("file://")) for h in links if "/incidentes/" in h]
    assert len(reports) == len(faults), f"incident links in #faltas: {links}"
    assert all(p.is_file() and p.read_text().strip() for p in reports), reports

    lines = replay(folder)
    fault = next(line for line in lines if line["type"] in ("disqualified", "penalized"))
    assert not severe(open_page(driver, web / "partidos" / "p0001.html"))
    step_through(driver, lines, "key")
    log = driver.find_element(By.ID, "log").text
    assert fault["detail"] in log, f"#log does not tell the fault's detail {fault['detail']!r}:\n{log}"
    assert fault["card"] in log, f"#log does not show the evidence {fault['card']!r}"


def test_accusations_under_the_accuse_policy(
    driver: WebDriver, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``--renuncio accuse``: renuncios accepted, an accusation ends a mano mid-way; the viewer
    still shows the replay's cards at every step and tells who accused whom."""
    players = [ROOT / "sample_players" / n for n in ("tramposo", "vigilante", "a_mas")]
    out = tmp_path_factory.mktemp("web") / "acusa"
    folder = _torneo(out, *map(str, players), "--table-size", "3", "--renuncio", "accuse")
    lines = replay(folder)
    accused = [k for k, line in enumerate(lines) if line["type"] == "accused"]
    if not accused:
        pytest.skip("no accusation in this partido: the sample players changed")
    assert not severe(open_page(driver, folder / "web" / "partidos" / "p0001.html"))
    statuses = step_through(driver, lines, "key")
    names = [p["name"] for p in lines[0]["players"]]
    for k in accused:
        by, seat = names[lines[k]["by"]], names[lines[k]["seat"]]
        assert by in statuses[k + 1] and seat in statuses[k + 1], (
            f"step {k + 1} (accused): #status {statuses[k + 1]!r} does not name both {by} and {seat}"
        )
    assert not severe(driver.get_log("browser"))


# ---------------------------------------------------------------------------------------------
# Without JavaScript, and on a phone


def test_standings_need_no_javascript(driver: WebDriver, cabrero: Path) -> None:
    driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        open_page(driver, cabrero / "web" / "index.html")
        assert driver.find_elements(By.CSS_SELECTOR, "#posiciones tr.entrant"), (
            "no standings without JavaScript"
        )
        assert_standings(driver, cabrero)
        assert driver.find_elements(By.CSS_SELECTOR, "#chart svg"), "no chart without JavaScript"
    finally:
        driver.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_a_phone_does_not_scroll_sideways(driver: WebDriver, cabrero: Path) -> None:
    width, height = PHONE
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        web = cabrero / "web"
        for page in (
            web / "index.html",
            web / "partidos" / "p0001.html",
            *sorted((web / "jugadores").glob("*.html"))[:1],
        ):
            open_page(driver, page)
            if page.parent.name == "partidos":
                to_start(driver)
                for _ in range(20):  # hands dealt, a trick on the table
                    press(driver, Keys.ARROW_RIGHT)
            size = driver.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth,"
                " document.querySelector('meta[name=viewport]') !== null]"
            )
            assert size[2], f"{page.relative_to(web)}: no <meta name=viewport>"
            assert size[0] <= size[1], (
                f"{page.relative_to(web)} at {width}×{height}: "
                f"document scrollWidth {size[0]} > innerWidth {size[1]}"
            )
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
