"""Screenshots of the results site for the docs: the index and the replay viewer mid-partido.

Plays the demo torneo (the sample players, as ``arena tournament`` with no paths) with a fixed
seed, so the same deals on every run (the strong player thinks on a clock: the play, and so the
figures, may differ a little from run to run), in a temporary folder, writes its site
(``arena report DIR --html``) and photographs it with Debian's headless Chromium through
Selenium (``apt-get install chromium chromium-driver``; ``pip install '.[test]'``):

* ``docs/img/site-index.png``: the top of ``web/index.html``;
* ``docs/img/site-viewer.png``: a viewer page in the middle of a baza of its second mano.

    python scripts/screenshots.py                   # the demo torneo, about 3 minutes
    python scripts/screenshots.py --torneo DIR      # an existing torneo folder instead (its site rewritten)
    python scripts/screenshots.py --lang en --out /tmp/img
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.cli import main as arena_cli  # noqa: E402

SEED = 1
SIZE = (1280, 900)
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_ARGS = (  # no network here: keep Chromium from reaching out
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def arena(*args: str) -> None:
    """Run an ``arena`` command in this process; stop the script if it fails."""
    try:
        arena_cli.main(list(args), prog_name="arena", standalone_mode=False)
    except SystemExit as exc:
        if exc.code:
            raise
    except Exception as exc:
        raise SystemExit(f"arena {' '.join(args)}: {exc}") from exc


def chromium_options(profile: Path, *extra: str) -> webdriver.ChromeOptions:
    """Debian's headless Chromium with a fresh ``profile`` and no reach to the network (also used by
    ``tests/results/test_web_browser.py``)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (*CHROMIUM_ARGS, *extra, f"--user-data-dir={profile}"):
        options.add_argument(arg)
    return options


def browser(profile: Path) -> WebDriver:
    driver = webdriver.Chrome(
        options=chromium_options(profile, "--hide-scrollbars"), service=Service(CHROMEDRIVER)
    )
    # The viewport itself, whatever the window's borders: the PNG is exactly SIZE.
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": SIZE[0], "height": SIZE[1], "deviceScaleFactor": 1, "mobile": False},
    )
    return driver


def replay(folder: Path, partido: str) -> list[dict[str, Any]]:
    text = (folder / "replays" / f"{partido}.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def mid_partido(folder: Path) -> tuple[str, int]:
    """A partido and a step worth showing: the first partido with a canto and two manos, two cards
    into the fourth baza of its second mano (a partido of the demo otherwise)."""
    partidos = sorted(p.stem for p in (folder / "replays").glob("*.jsonl"))
    if not partidos:
        raise SystemExit(f"{folder}: no replays")
    for partido in partidos:
        lines = replay(folder, partido)
        if not any(line["type"] == "sang" for line in lines):
            continue
        manos = bazas = played = 0
        for k, line in enumerate(lines):
            if line["type"] == "mano_start":
                manos, bazas = manos + 1, 0
            elif line["type"] == "trick_end":
                bazas, played = bazas + 1, 0
            elif line["type"] == "played" and manos == 2 and bazas == 3:
                played += 1
                if played == 2:
                    return partido, k + 1
    return partidos[0], len(replay(folder, partidos[0])) // 3


def shoot(driver: WebDriver, page: Path, png: Path) -> None:
    driver.get(page.as_uri())
    time.sleep(0.3)  # fonts and layout settled
    png.write_bytes(driver.get_screenshot_as_png())
    print(f"{png}: {png.stat().st_size // 1024} KB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--torneo", type=Path, help="an existing torneo folder (default: play the demo)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="where the PNGs go")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="the site's language")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="arena-screenshots-"))
    try:
        folder = args.torneo
        if folder is None:
            folder = work / "torneo-demo"
            # As `arena tournament` from the project's folder: the sample players.
            arena("tournament", str(ROOT / "sample_players"), "--seed", str(SEED), "--out", str(folder))
        arena("report", str(folder), "--html", "--lang", args.lang)
        web = folder / "web"
        args.out.mkdir(parents=True, exist_ok=True)
        driver = browser(work / "chromium")
        try:
            shoot(driver, web / "index.html", args.out / "site-index.png")
            partido, step = mid_partido(folder)
            driver.get((web / "partidos" / f"{partido}.html").as_uri())
            driver.find_element(By.ID, "first").click()
            nxt = driver.find_element(By.ID, "next")
            for _ in range(step):
                nxt.click()
            shown = driver.find_element(By.ID, "viewer").get_attribute("data-step")
            if shown != str(step):
                raise SystemExit(f"the viewer of {partido} is at step {shown}, not {step}")
            driver.execute_script("document.activeElement && document.activeElement.blur(); scrollTo(0, 0);")
            time.sleep(0.3)
            png = args.out / "site-viewer.png"
            png.write_bytes(driver.get_screenshot_as_png())
            print(f"{png}: {png.stat().st_size // 1024} KB ({partido}, step {step})")
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
