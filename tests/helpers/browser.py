"""A real headless Chromium (Debian's chromium + chromium-driver) driven by Selenium."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.helpers.paths import REPO

#: Screenshots and exports of the browser tests (kept as test artefacts; not committed).
ARTEFACTS = Path(os.environ.get("MSBENCH_TEST_ARTEFACTS", REPO / "tests" / "artefacts"))


def _binary(variable: str, names: tuple[str, ...]) -> str:
    found = os.environ.get(variable) or next(filter(None, map(shutil.which, names)), None)
    if not found:
        raise RuntimeError(
            f"no {names[0]} found: the review page tests need a real browser. Install it with "
            "`sudo bash scripts/install_browser.sh` (Debian/Ubuntu: apt-get install chromium "
            f"chromium-driver), or set {variable} to its path"
        )
    return found


def chromium(downloads: Path) -> Any:
    """A headless Chromium that saves downloads in ``downloads`` and plays audio without a device."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = _binary("MSBENCH_CHROMIUM", ("chromium", "chromium-browser"))
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        "--autoplay-policy=no-user-gesture-required",
        "--host-resolver-rules=MAP * ~NOTFOUND",  # no network at view time: nothing resolves
    ):
        options.add_argument(argument)
    downloads.mkdir(parents=True, exist_ok=True)
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(_binary("MSBENCH_CHROMEDRIVER", ("chromedriver",)))
    driver = webdriver.Chrome(service=service, options=options)
    driver.execute_cdp_cmd(
        "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    return driver


def wait_for(condition: Callable[[], Any], seconds: float = 15.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def downloaded(folder: Path, name: str) -> Path:
    """The file once Chromium has finished writing it."""
    path = folder / name
    wait_for(
        lambda: path.exists() and not (folder / f"{name}.crdownload").exists(),
        what=f"download {name}",
    )
    return path


def page_errors(driver: Any) -> list[str]:
    """Console errors and failed loads (a missing script, audio or image shows here)."""
    return [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
