"""Speed as a person feels it in Chromium: page load to interactive, tap to visible update.

Figures for the closing note (pytest-benchmark), never asserted. A tap is timed inside the
page, from the click on the control to the accessibility tree (drawn in the same frame as
the canvas) showing the change, so Playwright's own round trips are not counted.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.browser_support import AppServer, FlutterPage, new_game, throw

pytestmark = pytest.mark.browser

# Click the button named `name`; resolve with the milliseconds until `done()` holds.
_TAP_UNTIL = """async ([name, kind, expected]) => {
  const host = document.querySelector('flt-semantics-host');
  const buttons = () => [...host.querySelectorAll('flt-semantics[role=button]')];
  const label = (e) => e.getAttribute('aria-label') || e.textContent.trim();
  const entered = () => buttons().filter(e => label(e).startsWith('Entered')).length;
  const before = entered();
  const done = kind === 'entered' ? () => entered() !== before : () => host.innerText.includes(expected);
  const button = buttons().find(e => label(e) === name);
  const started = performance.now();
  button.click();
  return await new Promise(resolve => {
    const observer = new MutationObserver(() => {
      if (done()) { observer.disconnect(); resolve(performance.now() - started); }
    });
    observer.observe(host, {subtree: true, childList: true, characterData: true, attributes: true});
  });
}"""


def test_bench_page_load_to_interactive(benchmark, chromium_browser: Browser, app_server: AppServer):
    def load() -> float:
        page = FlutterPage.new_phone(chromium_browser)
        try:
            seconds = page.open(app_server.url)
            page.button("New game").wait_for()
            return seconds
        finally:
            page.close()

    benchmark.pedantic(load, rounds=3, iterations=1)


def test_bench_tap_a_face_to_it_showing(benchmark, browser_page: FlutterPage):
    page = browser_page
    new_game(page, "Ann", "Bob")
    taps: list[float] = []

    def clear() -> tuple[tuple[()], dict[str, object]]:
        if len(taps) % 6 == 0 and taps:
            page.click_button("Clear")
            page.wait_for_text("Enter Ann's throw")
        return (), {}

    def tap() -> None:
        taps.append(page.page.evaluate(_TAP_UNTIL, ["Face 5", "entered", ""]))

    benchmark.pedantic(tap, setup=clear, rounds=12, iterations=1)
    benchmark.extra_info["in_page_ms"] = sorted(round(ms, 1) for ms in taps)


def test_bench_tap_bank_to_the_new_total_showing(benchmark, browser_page: FlutterPage):
    page = browser_page
    new_game(page, "Ann", "Bob")
    banks: list[float] = []
    totals = [0, 0]

    def throw_and_pick() -> tuple[tuple[()], dict[str, object]]:
        throw(page, "1 1 1 5 2 3")
        page.click_button("Best: keep 1 1 1 5 for 1,050")
        page.button("Bank 1,050").wait_for()
        return (), {}

    def bank() -> None:
        seat = len(banks) % 2
        totals[seat] += 1050
        banks.append(page.page.evaluate(_TAP_UNTIL, ["Bank 1,050", "text", f"total {totals[seat]:,}."]))

    benchmark.pedantic(bank, setup=throw_and_pick, rounds=6, iterations=1)
    benchmark.extra_info["in_page_ms"] = sorted(round(ms, 1) for ms in banks)
