"""What the headless-browser tests share: Debian's Chromium and its driver, or a skip that says why."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def require_browser() -> None:
    """Skip the calling test module (call it at import) when Chromium, its driver or selenium is missing."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if missing:
        pytest.skip(
            f"no headless browser: {', '.join(missing)} missing (Debian's chromium and chromium-driver; "
            ".ci/run installs them as root)",
            allow_module_level=True,
        )
    pytest.importorskip("selenium", reason="selenium is not installed (pip install '.[test]')")
