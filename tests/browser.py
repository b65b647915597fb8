"""Headless Debian Chromium for the browser tests (report, report annotate mode, run UI).

The flags keep Chromium off the network: without the background-networking ones it tries,
at every start, hosts this machine cannot reach. Each browser gets a profile of its own.
"""

from __future__ import annotations

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
MISSING = "headless Chromium not installed: apt-get install chromium chromium-driver"


def available() -> bool:
    return CHROMIUM.exists() and CHROMEDRIVER.exists()


@contextmanager
def headless_chromium(logs: tuple[str, ...] = ("browser",)) -> Iterator[Any]:
    """A selenium Chrome driver on Debian's Chromium, quit (and its profile removed) on exit;
    ``logs`` are the log types it keeps ("browser", "performance")."""
    if not available():
        pytest.skip(MISSING)
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed: pip install selenium")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="ragmeter-chromium-")
    options = Options()
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-quic", f"--user-data-dir={profile}", "--window-size=1400,1400"):
        options.add_argument(arg)
    options.binary_location = str(CHROMIUM)
    options.set_capability("goog:loggingPrefs", {kind: "ALL" for kind in logs})
    browser = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield browser
    finally:
        browser.quit()
        shutil.rmtree(profile, ignore_errors=True)
