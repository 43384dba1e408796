"""The table pages in a real headless Chromium (issue 30): board, slider, live update, seat link.

One browser for the module. The service and the web server run in each test's event loop; the
browser's blocking calls run in a worker thread so the server answers meanwhile. Screenshots at
390 px (a phone) and 1280 px (a desktop), light and dark, are saved under test-output/screenshots/.
"""

from __future__ import annotations

import asyncio
import shutil
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

import web
from tests import browser
from tests.async_helpers import ALICE, BOB, Harness
from tests.web_helpers import play_first_moves

WAIT = 20.0


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the module (CI: a browser that cannot start fails the run)."""
    try:
        driver, profile = browser.start()
    except browser.BrowserMissing as exc:
        if browser.required():
            pytest.fail(f"CI is set and the browser tests cannot run: {exc}")
        browser.NOT_RUN.append(str(exc))
        pytest.skip(f"browser tests did not run: {exc}")
    driver.set_page_load_timeout(30)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
async def served(h: Harness) -> AsyncIterator[tuple[Harness, web.WebServer]]:
    """The harness's service with its web pages on a free local port."""
    assert h.svc is not None
    server = await web.start(h.svc, web.WebConfig("127.0.0.1", 0))
    yield h, server
    await server.stop()


async def _until(check: Callable[[], Any], what: str) -> Any:
    """Poll the browser (in a worker thread) until ``check`` returns a true value."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = await asyncio.to_thread(check)
        if value:
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"the page never showed {what}")


def _js(driver: Any, script: str) -> Any:
    return driver.execute_script(script)


BACKGROUND = "return getComputedStyle(document.body).backgroundColor"


def _scheme(driver: Any, scheme: str) -> None:
    """Make the page see ``prefers-color-scheme: scheme`` (the phone's dark mode)."""
    features = [{"name": "prefers-color-scheme", "value": scheme}]
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def _board_width(driver: Any) -> int:
    return _js(driver, "const i = document.getElementById('board'); return i.complete ? i.naturalWidth : 0;")


async def test_the_page_shows_the_board_steps_back_in_history_and_updates_live(
    chromium: Any, served: tuple[Harness, web.WebServer]
) -> None:
    h, server = served
    assert h.svc is not None
    table_id = await h.table("institute")
    await play_first_moves(h, table_id, 5)
    latest = (await h.svc.table(table_id)).version
    await asyncio.to_thread(chromium.set_window_size, 1280, 1000)
    await asyncio.to_thread(chromium.get, server.links.table_url(table_id))
    assert await _until(lambda: _board_width(chromium), "a loaded board") > 0
    assert await asyncio.to_thread(_js, chromium, "return document.getElementById('board').alt.length") > 20
    browser.SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "table-1280.png"))
    await asyncio.to_thread(_scheme, chromium, "dark")
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "table-1280-dark.png"))
    await asyncio.to_thread(_scheme, chromium, "light")
    await asyncio.to_thread(chromium.set_window_size, 390, 844)
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "table-390.png"))
    assert await asyncio.to_thread(_js, chromium, "return document.documentElement.scrollWidth") <= 390
    light = await asyncio.to_thread(_js, chromium, BACKGROUND)
    await asyncio.to_thread(_scheme, chromium, "dark")
    assert await asyncio.to_thread(_js, chromium, BACKGROUND) != light
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "table-390-dark.png"))
    await asyncio.to_thread(_scheme, chromium, "light")

    # Two steps back with the keyboard: an earlier board and that move's events.
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    slider = await asyncio.to_thread(chromium.find_element, By.ID, "slider")
    await asyncio.to_thread(slider.send_keys, Keys.ARROW_LEFT, Keys.ARROW_LEFT)
    earlier = latest - 2
    await _until(lambda: chromium.find_element(By.ID, "caption").text.startswith(f"Version {earlier}:"),
                 f"version {earlier}")
    src = await asyncio.to_thread(_js, chromium, "return document.getElementById('board').src")
    assert src.endswith(f"/board/{earlier}.png") and f"?v={earlier}" in chromium.current_url
    await _until(lambda: _board_width(chromium), "the earlier board loaded")
    step = await server_step(h, table_id, earlier)
    items = await asyncio.to_thread(chromium.find_elements, By.CSS_SELECTOR, "#events li")
    shown = [await asyncio.to_thread(lambda e=e: e.text) for e in items]
    assert shown == list(step.events) and shown

    # Back to the latest, then a move through the service: the page follows without a reload.
    await asyncio.to_thread(lambda: chromium.find_element(By.ID, "latest").click())
    await _until(lambda: chromium.find_element(By.ID, "caption").text.startswith(f"Version {latest}:"),
                 "the latest version again")
    marker = await asyncio.to_thread(_js, chromium, "window.sameDocument = 1; return window.sameDocument")
    await play_first_moves(h, table_id, 1)
    now = (await h.svc.table(table_id)).version
    await _until(lambda: chromium.find_element(By.ID, "caption").text.startswith(f"Version {now}:"),
                 "the new move, live")
    assert await asyncio.to_thread(_js, chromium, "return window.sameDocument") == marker


async def server_step(h: Harness, table_id: int, version: int) -> Any:
    from service.pages import TablePages

    assert h.svc is not None
    return await TablePages(h.svc).step(table_id, version)


async def test_a_seat_link_shows_that_seat_and_an_expired_one_is_refused(
    chromium: Any, served: tuple[Harness, web.WebServer]
) -> None:
    h, server = served
    assert h.svc is not None
    table_id = await h.table("institute")
    from selenium.webdriver.common.by import By

    link = server.links.seat_url(table_id, BOB, h.clock.now())
    await asyncio.to_thread(chromium.set_window_size, 1280, 1000)
    await asyncio.to_thread(chromium.get, link)
    mine = (await h.svc.reads.hand(table_id, BOB)).text
    text = await _until(lambda: chromium.find_element(By.ID, "private-text").text, "bob's private view")
    assert text.strip() == mine.strip()
    assert text.strip() != (await h.svc.reads.hand(table_id, ALICE)).text.strip()
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "seat-1280.png"))
    await asyncio.to_thread(chromium.set_window_size, 390, 844)
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "seat-390.png"))
    await asyncio.to_thread(_scheme, chromium, "dark")
    await asyncio.to_thread(chromium.save_screenshot, str(browser.SCREENSHOTS / "seat-390-dark.png"))
    await asyncio.to_thread(_scheme, chromium, "light")
    expired = server.links.base + server.links.seat_path(table_id, BOB, int(h.clock.now()) - 1)
    await asyncio.to_thread(chromium.get, expired)
    body = await _until(lambda: chromium.find_element(By.TAG_NAME, "body").text, "the refusal")
    assert "expired or is not valid" in body and "private-text" not in chromium.page_source
