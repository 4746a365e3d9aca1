"""The screen stays on at the table (app/views/table_awake.py, app/web/wake_lock.js).

The browser's Screen Wake Lock is stubbed in an init script, as the page sees it: each
``navigator.wakeLock.request`` and sentinel ``release`` is recorded, and hiding the page drops
every held lock and fires ``visibilitychange``, as a browser does when the phone locks or
another app comes to the front. Served by ``python -m app`` (the offline PWA:
tests/browser/test_browser_pwa_wake_lock.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.support.browser_support import AppServer, FlutterPage, new_game, throw

pytestmark = pytest.mark.browser

WAKE_LOCK_STUB = """
(() => {
  window.wakeLockCalls = [];
  const held = new Set();
  let visibility = "visible";
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => visibility});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => visibility !== "visible"});
  const drop = (lock) => {
    lock.released = true;
    held.delete(lock);
    lock.dispatchEvent(new Event("release"));
  };
  class Sentinel extends EventTarget {
    constructor() { super(); this.type = "screen"; this.released = false; }
    async release() {
      if (this.released) return;
      window.wakeLockCalls.push("release");
      drop(this);
    }
  }
  Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
    request: async (type) => {
      window.wakeLockCalls.push(`request ${type}`);
      const lock = new Sentinel();
      held.add(lock);
      return lock;
    },
  })});
  window.heldWakeLocks = () => held.size;
  window.showPage = (shown) => {
    visibility = shown ? "visible" : "hidden";
    if (!shown) for (const lock of [...held]) drop(lock);
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
"""A browser without the Screen Wake Lock (an installed iPhone web app, Firefox before 126)."""

NOTICE = "This browser may let the screen go dark between throws"


def phone(browser: Browser, app_server: AppServer, init_script: str) -> FlutterPage:
    page = FlutterPage.new_phone(browser)
    page.page.add_init_script(init_script)
    page.open(app_server.url)
    return page


@pytest.fixture
def stubbed_page(chromium_browser: Browser, app_server: AppServer) -> Iterator[FlutterPage]:
    page = phone(chromium_browser, app_server, WAKE_LOCK_STUB)
    try:
        yield page
    finally:
        page.close()


@pytest.fixture
def page_without_wake_lock(chromium_browser: Browser, app_server: AppServer) -> Iterator[FlutterPage]:
    page = phone(chromium_browser, app_server, NO_WAKE_LOCK)
    try:
        yield page
    finally:
        page.close()


def wake_lock_calls(page: FlutterPage, expected: list[str], held: int) -> None:
    """Wait until the page has made exactly these calls and holds ``held`` locks."""
    page.page.wait_for_function(
        "([expected, held]) => JSON.stringify(window.wakeLockCalls) === JSON.stringify(expected)"
        " && window.heldWakeLocks() === held",
        arg=[expected, held], timeout=15_000)


def test_the_table_keeps_the_screen_on_asks_again_when_shown_and_lets_go_when_left(stubbed_page: FlutterPage) -> None:
    page = stubbed_page
    assert page.page.evaluate("window.wakeLockCalls") == [], "home asked to keep the screen on"
    new_game(page, "Ann", "Bob")
    wake_lock_calls(page, ["request screen"], held=1)
    page.page.evaluate("window.showPage(false)")  # the phone locks: the browser drops the lock
    wake_lock_calls(page, ["request screen"], held=0)
    page.page.evaluate("window.showPage(true)")
    wake_lock_calls(page, ["request screen", "request screen"], held=1)
    throw(page, "1 1 1 2 3 5")
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    page.click_button("Home")
    page.wait_for_text("New game")
    wake_lock_calls(page, ["request screen", "request screen", "release"], held=0)
    page.page.evaluate("window.showPage(false)")
    page.page.evaluate("window.showPage(true)")  # away from the table: not asked again
    page.click_button("New game")
    expect(page.button("Start game")).to_be_visible()
    wake_lock_calls(page, ["request screen", "request screen", "release"], held=0)


def test_a_browser_without_a_wake_lock_is_told_once_on_this_device(page_without_wake_lock: FlutterPage) -> None:
    page = page_without_wake_lock
    new_game(page, "Ann", "Bob")
    page.wait_for_text(NOTICE, timeout_ms=15_000)
    stored = page.page.evaluate("Object.keys(localStorage).filter(key => key.includes('wake-lock'))")
    assert stored, "the notice was shown but not remembered on the device"
    page.click_button("Home")
    new_game(page, "Cy", "Di")
    throw(page, "1 1 1 2 3 5")  # later round trips than the table's request for the lock
    page.wait_for_text("Cy threw 1 1 1 2 3 5")
    expect(page.page.get_by_text(NOTICE)).to_have_count(0)

