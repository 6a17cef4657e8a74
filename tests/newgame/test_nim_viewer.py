"""The proof game's replay viewer: the site loads Nim's renderer (its spec's ``viewer`` file) before the
house's ``viewer.js``, and stepping through a partido draws the heaps the replay says, with no error."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import CHROMEDRIVER, require_browser
from tests.newgame import register

require_browser()

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402

from scripts.screenshots import chromium_options  # noqa: E402  (the flags that keep it off the network)

SAMPLES = Path(__file__).resolve().parent / "nim_game" / "samples"


@pytest.fixture
def driver() -> Iterator[WebDriver]:
    profile = tempfile.mkdtemp(prefix="arena-chromium-")
    options = chromium_options(Path(profile))
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    browser = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.usefixtures("player_processes")
def test_the_site_draws_nim_heaps_step_by_step(tmp_path: Path, driver: WebDriver) -> None:
    out = tmp_path / "torneo"
    folders = [str(SAMPLES / s) for s in ("azar", "optimo")]
    args = ["tournament", "--game", "nim", "--out", str(out), "--table-size", "2", "--rounds", "1", *folders]
    env = register.environment(tmp_path / "site")
    run = subprocess.run(
        [sys.executable, "-m", "arena", *args], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    page = sorted((out / "web" / "partidos").glob("*.html"))[0]
    events = [json.loads(line) for line in (out / "replays" / f"{page.stem}.jsonl").read_text().splitlines()]
    driver.get_log("browser")
    driver.get(page.as_uri())
    for step, event in enumerate(events, 1):
        driver.execute_script("document.getElementById('next').click()")
        sizes = driver.execute_script(
            "return Array.from(document.querySelectorAll('#heaps li')).map(li => Number(li.dataset.size))"
        )
        heaps = next((e["heaps"] for e in reversed(events[:step]) if "heaps" in e), [])
        assert sizes == heaps, f"step {step} ({event['type']}): {sizes}, expected {heaps}"
    errors = [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []
