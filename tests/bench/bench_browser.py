"""Speed as a person feels it in Chromium, today's app against the working tree, side by side
in one run: page load to interactive, tap a face to it showing, tap Bank to the new total
showing.

    .venv/bin/pytest -q tests/bench/bench_browser.py            # both variants, then a small table
    FARKLE_BASELINE_COMMIT=bcc241c .venv/bin/pytest -q tests/bench/bench_browser.py   # against another commit

Two app servers run at once from the same venv: the working tree's (``python -m app``) and
the baseline commit's (tests/support/baseline_app.py: ``git archive`` of its app/ and engine/ into
build/cache/, started from there so it imports its own packages). Each measurement is a
pytest-benchmark test parametrized by variant, the two variants back to back, in one
browser. A tap is timed inside the page, from the click on the control to the
accessibility tree (drawn in the same frame as the canvas) showing the change, so
Playwright's own round trips are not counted; those in-page milliseconds are kept in
``extra_info`` and summed up at the end of the module in a table: baseline median, working
tree median, their ratio, ``os.getloadavg()`` (the machine is shared: read the figures
with the load) and the taps lost (nothing shown within 5 s: not timed, counted; today's
app drops taps that arrive while it rebuilds the screen). Figures only: nothing is
asserted on time.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from playwright.sync_api import Browser
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.support.baseline_app import WORKING_TREE, AppSource, baseline_commit, export_commit, served
from tests.support.browser_support import AppServer, FlutterPage, new_game, throw

pytestmark = pytest.mark.browser

VARIANTS = ["baseline", "working tree"]

# Click the button named `name`; resolve with the milliseconds until `done()` holds, or
# null after `give_up_ms` (the tap was lost: today's app drops taps that arrive mid-render).
_TAP_UNTIL = """async ([name, kind, expected, give_up_ms = 5000]) => {
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
    setTimeout(() => { observer.disconnect(); resolve(null); }, give_up_ms);
  });
}"""

# metric -> variant -> (samples, 1-minute load average when measured, taps lost)
_RESULTS: dict[str, dict[str, tuple[list[float], float, int]]] = {}


def _record(metric: str, variant: str, samples: list[float], lost: int = 0) -> None:
    _RESULTS.setdefault(metric, {})[variant] = (samples, os.getloadavg()[0], lost)


@pytest.fixture(scope="module")
def sources() -> dict[str, AppSource]:
    return {"baseline": export_commit(baseline_commit()), "working tree": WORKING_TREE}


@pytest.fixture(scope="module")
def servers(sources: dict[str, AppSource], tmp_path_factory: pytest.TempPathFactory,
            request: pytest.FixtureRequest) -> Iterator[Callable[[str], AppServer]]:
    """Start each variant's server when first asked for, and keep it for the module: one
    that does not start fails its own tests only."""
    running: dict[str, AppServer] = {}
    with ExitStack() as stack:
        def server(variant: str) -> AppServer:
            if variant not in running:
                data = tmp_path_factory.mktemp("bench-" + variant.replace(" ", "-")) / "data"
                running[variant] = stack.enter_context(served(sources[variant], data))
            return running[variant]

        yield server
    _print_summary(request, sources)


def _print_summary(request: pytest.FixtureRequest, sources: dict[str, AppSource]) -> None:
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    if reporter is None or not _RESULTS:
        return
    one, five, fifteen = os.getloadavg()
    lines = [f"Side by side, in-page medians: baseline = {sources['baseline'].label}, new = working tree",
             f"{'':<24}{'baseline':>12}{'new':>12}{'new/base':>10}{'load (b / n)':>16}{'lost (b / n)':>14}"]
    for metric, by_variant in _RESULTS.items():
        unit = "s" if metric == "page load" else "ms"
        medians = {v: statistics.median(s) for v, (s, _, _) in by_variant.items() if s}
        cells = [f"{medians[v]:>9.{2 if unit == 's' else 0}f} {unit:<2}" if v in medians else f"{'-':>12}"
                 for v in VARIANTS]
        ratio = (f"{medians['working tree'] / medians['baseline']:>10.2f}"
                 if {"baseline", "working tree"} <= medians.keys() and medians["baseline"] else f"{'-':>10}")
        loads = " / ".join(f"{by_variant[v][1]:.2f}" if v in by_variant else "-" for v in VARIANTS)
        lost = " / ".join(str(by_variant[v][2]) if v in by_variant else "-" for v in VARIANTS)
        lines.append(f"{metric:<24}{cells[0]}{cells[1]}{ratio}{loads:>16}{lost:>14}")
    lines.append(f"os.getloadavg() at the end: {one:.2f} {five:.2f} {fifteen:.2f} (2 shared cores)")
    # Module teardown output is captured like a test's: print past the capture.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else ExitStack():
        reporter.write_line("")
        reporter.write_sep("-", "browser benchmark: baseline vs working tree")
        for line in lines:
            reporter.write_line(line)


@pytest.fixture
def open_page(chromium_browser: Browser, servers: Callable[[str], AppServer]) -> Iterator[Callable[[str], FlutterPage]]:
    pages: list[FlutterPage] = []

    def open_variant(variant: str) -> FlutterPage:
        page = FlutterPage.new_phone(chromium_browser)
        pages.append(page)
        page.open(servers(variant).url)
        return page

    yield open_variant
    for page in pages:
        page.close()


def start_a_game(page: FlutterPage) -> None:
    """A two-player game from the home screen, once more from a fresh page if the first try
    does not reach the table (the previous commit's form could lose a typed character on a
    busy machine; what is measured here is the taps after it)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    home = page.page.url
    try:
        new_game(page, "Ann", "Bob")
    except PlaywrightTimeout:
        page.open(home)
        new_game(page, "Ann", "Bob")


@pytest.mark.parametrize("variant", VARIANTS)
def test_bench_page_load_to_interactive(benchmark: Any, chromium_browser: Browser,
                                        servers: Callable[[str], AppServer], variant: str) -> None:
    url = servers(variant).url
    loads: list[float] = []

    def load() -> None:
        page = FlutterPage.new_phone(chromium_browser)
        try:
            started = time.monotonic()
            page.open(url)
            page.button("New game").wait_for()
            loads.append(time.monotonic() - started)  # from navigation to the home screen answering
        finally:
            page.close()

    benchmark.group = "page load"
    benchmark.pedantic(load, rounds=3, iterations=1)
    _record("page load", variant, loads)
    benchmark.extra_info.update(variant=variant, load_avg=os.getloadavg())


@pytest.mark.parametrize("variant", VARIANTS)
def test_bench_tap_a_face_to_it_showing(benchmark: Any, open_page: Callable[[str], FlutterPage], variant: str) -> None:
    page = open_page(variant)
    start_a_game(page)
    taps: list[float] = []
    lost = 0
    entered = page.page.get_by_role("button", name="Entered 5, tap to remove")

    def clear() -> tuple[tuple[()], dict[str, object]]:
        if entered.count() >= 6:
            for _ in range(3):  # a Clear can be lost too (today's app)
                page.click_button("Clear")
                try:
                    entered.first.wait_for(state="detached", timeout=5_000)
                    break
                except PlaywrightTimeoutError:
                    continue
        return (), {}

    def tap() -> None:
        nonlocal lost
        ms = page.page.evaluate(_TAP_UNTIL, ["Face 5", "entered", ""])
        if ms is None:
            lost += 1
        else:
            taps.append(ms)

    benchmark.group = "face tap"
    benchmark.pedantic(tap, setup=clear, rounds=12, iterations=1)
    _record("face tap to showing", variant, taps, lost)
    benchmark.extra_info.update(variant=variant, in_page_ms=sorted(round(ms, 1) for ms in taps), lost_taps=lost,
                                in_page_median_ms=round(statistics.median(taps), 1), load_avg=os.getloadavg())


@pytest.mark.parametrize("variant", VARIANTS)
def test_bench_tap_bank_to_the_new_total_showing(benchmark: Any, open_page: Callable[[str], FlutterPage],
                                                 variant: str) -> None:
    page = open_page(variant)
    start_a_game(page)
    banks: list[float] = []
    totals = [0, 0]

    def throw_and_pick() -> tuple[tuple[()], dict[str, object]]:
        throw(page, "1 1 1 5 2 3")
        page.click_button("Best: keep 1 1 1 5 for 1,050")
        page.button("Bank 1,050").wait_for()
        return (), {}

    lost = 0

    def bank() -> None:
        nonlocal lost
        seat = sum(totals) // 1050 % 2
        totals[seat] += 1050
        expected = f"total {totals[seat]:,}."
        ms = page.page.evaluate(_TAP_UNTIL, ["Bank 1,050", "text", expected])
        if ms is None:  # lost: bank the turn anyway, so the next round starts from a new throw
            lost += 1
            page.click_button("Bank 1,050")
            page.wait_for_text(expected)
        else:
            banks.append(ms)

    benchmark.group = "bank"
    benchmark.pedantic(bank, setup=throw_and_pick, rounds=6, iterations=1)
    _record("Bank to total showing", variant, banks, lost)
    benchmark.extra_info.update(variant=variant, in_page_ms=sorted(round(ms, 1) for ms in banks), lost_taps=lost,
                                in_page_median_ms=round(statistics.median(banks), 1), load_avg=os.getloadavg())
