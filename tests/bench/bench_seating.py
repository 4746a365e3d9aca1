"""The Seating page with 10 and 25 tables (40 and 100 players), the previous commit's app
against the working tree's, side by side in one run, at 390x844 and 1366x800:

- **first paint**: from opening the page's address to the first card's title drawn;
- **scroll to the last card**: how far the page scrolls to the last card's last button
  (px, and screens of it), and the time from a jump there to that button drawn.

Both servers run from the same venv (tests/support/baseline_app.py serves the commit's ``app/`` and
``engine/``), each on its own data folder seeded through the stores. Figures only, with
``os.getloadavg()`` (2 shared cores): nothing is asserted on time. Slow (about 30 page
loads), so it runs only when asked::

    FARKLE_BENCH_SEATING=1 .venv/bin/python -m pytest tests/bench/bench_seating.py -s
    FARKLE_BENCH_SEATING=1 FARKLE_BENCH_SEATING_BASELINE=<commit> ...   # another baseline
"""

from __future__ import annotations

import os
import statistics
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.support.baseline_app import WORKING_TREE, AppSource, export_commit, served
from tests.support.browser_support import FlutterPage
from tests.support.every_screen_seed import seed_seating

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("FARKLE_BENCH_SEATING"),
                       reason="a slow benchmark: set FARKLE_BENCH_SEATING=1 to run it"),
]

BASELINE = os.environ.get("FARKLE_BENCH_SEATING_BASELINE", "1fdd483")
"""The commit before the seating cards were fixed (each card held a grey box 100,000 px tall)."""
TABLES = (10, 25)
SIZES = {"390x844": {"width": 390, "height": 844}, "1366x800": {"width": 1366, "height": 800}}
ROUNDS = 3

# Jump to the end of the page's main scrollable; resolve with the distance and the milliseconds
# until the last "Revoke card" button is inside the visible part of the page and a frame is drawn.
_SCROLL_TO_LAST_CARD = """async () => {
  const main = [...document.querySelectorAll('flt-semantics')]
    .filter(e => getComputedStyle(e).overflowY === 'scroll')
    .sort((a, b) => b.clientWidth * b.clientHeight - a.clientWidth * a.clientHeight)[0];
  const distance = main.scrollHeight - main.clientHeight;
  const started = performance.now();
  main.scrollTop = distance;
  const visible = () => {
    const buttons = [...document.querySelectorAll('flt-semantics[role=button]')]
      .filter(e => e.textContent.trim() === 'Revoke card, issue a new one');
    if (!buttons.length) return false;
    const last = buttons[buttons.length - 1].getBoundingClientRect(), view = main.getBoundingClientRect();
    return last.top >= view.top - 1 && last.bottom <= view.bottom + 1;
  };
  while (!visible()) {
    if (performance.now() - started > 20000) return [distance, null];
    await new Promise(requestAnimationFrame);
  }
  await new Promise(requestAnimationFrame);
  return [distance, performance.now() - started];
}"""


def first_paint_and_scroll(browser: Browser, url: str, tables: int, size: dict[str, int]) -> tuple[float, int, float]:
    """(seconds to the first card drawn, px to the last card, ms to jump there and draw it)."""
    context = browser.new_context(viewport=size)  # type: ignore[arg-type]
    page = FlutterPage(context.new_page())
    try:
        started = time.monotonic()
        page.page.goto(url, wait_until="commit")
        page.enable_semantics()
        page.wait_for_text("Table 1 · Round 1", timeout_ms=60_000)
        painted = time.monotonic() - started
        page.wait_for_text(f"Table {tables} · Round 1", timeout_ms=60_000)
        distance, scroll_ms = page.page.evaluate(_SCROLL_TO_LAST_CARD)
        return painted, distance, scroll_ms if scroll_ms is not None else float("nan")
    finally:
        context.close()


def test_bench_seating_first_paint_and_scroll_to_the_last_card(
        chromium_browser: Browser, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    variants: dict[str, AppSource] = {"baseline": export_commit(BASELINE), "new": WORKING_TREE}
    lines = [f"Seating, median of {ROUNDS}: baseline = {variants['baseline'].label}, new = working tree",
             f"{'':<27}{'first paint (s)':>16}{'to last card (px)':>22}{'screens':>10}{'jump+draw (ms)':>18}"
             f"{'load':>7}"]
    with ExitStack() as stack:
        urls: dict[str, dict[int, str]] = {}
        for name, source in variants.items():
            data = tmp_path / name / "data"
            events = {tables: seed_seating(data, "http://127.0.0.1", tables) for tables in TABLES}
            server = stack.enter_context(served(source, data))
            urls[name] = {tables: f"{server.url}organizer/{event}/seating" for tables, event in events.items()}
        for tables in TABLES:
            for size_name, size in SIZES.items():
                for name in variants:
                    runs = []
                    for _ in range(ROUNDS):
                        runs.append(first_paint_and_scroll(chromium_browser, urls[name][tables], tables, size))
                    paint = statistics.median(run[0] for run in runs)
                    distance = statistics.median(run[1] for run in runs)
                    jump = statistics.median(run[2] for run in runs)
                    lines.append(f"{tables:>2} tables {size_name:<8}{name:>9}{paint:>9.2f}{distance:>22,.0f}"
                                 f"{distance / size['height']:>10.1f}{jump:>18.0f}{os.getloadavg()[0]:>7.2f}")
    one, five, fifteen = os.getloadavg()
    lines.append(f"os.getloadavg() at the end: {one:.2f} {five:.2f} {fifteen:.2f} (2 shared cores)")
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else ExitStack():
        if reporter is not None:
            reporter.write_line("")
            reporter.write_sep("-", "seating benchmark: baseline vs working tree")
            for line in lines:
                reporter.write_line(line)
