"""What speaking another language costs the first screen (report, never assert on time).

    .venv/bin/pytest -q -s tests/bench/bench_languages.py

- **In the browser**: the local server's Home, from the address typed to its first text drawn, in
  Chromium at 390x844 with the browser's own locale English (no catalogue read, the client still
  asked for its languages), German and French (the catalogue read and parsed once per process,
  then shared by every session). The three alternate, a fresh browser context each, so load
  on the shared machine falls on all alike; medians with the load average.
- **In the process**: reading and parsing one catalogue (what the first German session on a server
  pays once), and one message said with its values in English and in German, side by side.
- **In the PWA's own Python** (its Pyodide and app.tar.gz, run by Node.js): the same parse, which
  a phone pays at its first screen in that language, against the English start.
"""

from __future__ import annotations

import os
import statistics
import time

import pytest

from app.i18n import CATALOGUE_FOLDER, catalogue_from_po, tr_in
from tests.support.browser_support import PHONE_VIEWPORT, FlutterPage

ROUNDS = 5
LOCALES = {"en": "en-US", "de": "de-DE", "fr": "fr-FR"}


@pytest.mark.browser
def test_bench_the_first_screen_in_english_german_and_french(chromium_browser, app_server) -> None:
    seconds: dict[str, list[float]] = {language: [] for language in LOCALES}
    loads: list[float] = []
    for _ in range(ROUNDS):
        for language, locale in LOCALES.items():
            page = FlutterPage(chromium_browser.new_context(viewport=PHONE_VIEWPORT, locale=locale).new_page())
            try:
                started = time.monotonic()
                page.open(app_server.url)
                page.wait_for_text(tr_in(language, "Unfinished games"))
                seconds[language].append(time.monotonic() - started)
            finally:
                page.close()
            loads.append(os.getloadavg()[0])
    english = statistics.median(seconds["en"])
    print(f"\nFirst screen on the local server, Chromium 390x844, median of {ROUNDS} (load "
          f"{min(loads):.1f}-{max(loads):.1f}):")
    for language, samples in seconds.items():
        median = statistics.median(samples)
        print(f"  {language}: {median:.2f} s ({median / english:.2f} x English)   "
              f"[{', '.join(f'{s:.2f}' for s in samples)}]")


def test_bench_reading_and_parsing_the_german_catalogue(benchmark) -> None:
    text = (CATALOGUE_FOLDER / "de.po").read_text(encoding="utf-8")
    catalogue = benchmark(catalogue_from_po, text)
    assert catalogue.gettext("New game") != "New game"


@pytest.mark.parametrize("language", ["en", "de"])
def test_bench_a_bank_notice_said_in_a_language(benchmark, language: str) -> None:
    said = benchmark(tr_in, language, "{who} banks {points:,}: total {total:,}.", who="Ann", points=350, total=10_050)
    assert "10" in said


PYODIDE_PARSE = """
import json, time
from pathlib import Path
import app.i18n as i18n
figures = {}
for language in ("de", "fr", "pl"):
    text = (i18n.CATALOGUE_FOLDER / f"{language}.po").read_text(encoding="utf-8")
    started = time.perf_counter()
    i18n.catalogue_from_po(text)
    figures[language] = {"parse_ms": (time.perf_counter() - started) * 1000, "bytes": len(text.encode())}
json.dumps(figures)
"""


def test_bench_parsing_a_catalogue_in_the_pwas_pyodide(tmp_path_factory) -> None:
    from tests.support.pwa_harness import run_in_pwa_pyodide

    figures = run_in_pwa_pyodide(tmp_path_factory, PYODIDE_PARSE, timeout_s=600)
    for language, figure in figures.items():
        print(f"\nPyodide (Node.js), load {os.getloadavg()[0]:.1f}: the {language} catalogue "
              f"({figure['bytes'] / 1000:.0f} KB) parsed in {figure['parse_ms']:.0f} ms")
