"""A headless Chromium for the browser tests: the system's ``chromium`` driven by Selenium.

``start()`` returns a driver or raises ``BrowserMissing`` saying why. When the variable ``CI`` is
set the browser tests must run, so a missing browser fails them; elsewhere they are skipped and
the run's summary says plainly that they did not run (``NOT_RUN``, read by tests/conftest.py).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
DRIVER = ("/usr/bin/chromedriver",)
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars",
)
SCREENSHOTS = Path(__file__).resolve().parent.parent / "test-output" / "screenshots"
NOT_RUN: list[str] = []
"""Why the browser tests did not run in this session (empty: they ran, or none was asked for)."""


class BrowserMissing(RuntimeError):
    """No headless Chromium could be started here."""


def _first(paths: tuple[str, ...], name: str) -> str:
    for path in paths:
        if os.path.exists(path):
            return path
    found = shutil.which(name)
    if found is None:
        raise BrowserMissing(f"no {name} on this machine (apt-get install chromium chromium-driver)")
    return found


def start() -> tuple[Any, str]:
    """Start a headless Chromium with a fresh profile; return (driver, profile directory)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as exc:
        raise BrowserMissing("selenium is not installed (requirements-dev.txt)") from exc
    browser, driver = _first(CHROMIUM, "chromium"), _first(DRIVER, "chromedriver")
    profile = tempfile.mkdtemp(prefix="conclave-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    try:
        return webdriver.Chrome(service=Service(driver), options=options), profile
    except Exception as exc:  # any start failure: say which, never hang the run
        shutil.rmtree(profile, ignore_errors=True)
        raise BrowserMissing(f"Chromium did not start: {type(exc).__name__}: {str(exc)[:200]}") from exc


def required() -> bool:
    """Whether a missing browser must fail the run (continuous integration)."""
    return bool(os.environ.get("CI"))
