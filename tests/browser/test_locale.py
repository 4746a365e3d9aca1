"""Any language setting a browser reports starts the app (app/web/locale.js).

Flutter's web client parses every tag of ``navigator.languages`` and never leaves its splash
screen when one is not a language tag: WebKitGTK under ``LANG=C.UTF-8`` reports ``"C"``.
The page script keeps the tags it can read and falls back to English; these tests run it
in Node against the tags browsers report, then start the local server's page and the PWA
in Chromium told its languages are ``"C"`` and a made-up tag.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.browser_support import BOOT_TIMEOUT_MS, FlutterPage
from tests.support.pwa_harness import built_site, serving

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.support.browser_support import AppServer

LOCALE_SCRIPT = Path(__file__).resolve().parents[2] / "app" / "web" / "locale.js"
MADE_UP_TAG = "klingon_Imperial!"


def languages_read_as(languages: list[str]) -> list[str]:
    """What the page script leaves in ``navigator.languages`` when the browser reports ``languages``."""
    probe = (f"globalThis.navigator = {{languages: {json.dumps(languages)}, language: {json.dumps(languages[0])}}};"
             "console.info = () => {};"
             f"{LOCALE_SCRIPT.read_text(encoding='utf-8')};"
             "process.stdout.write(JSON.stringify([navigator.languages, navigator.language]));")
    done = subprocess.run(["node", "-e", probe], capture_output=True, text=True, timeout=30, check=True)
    read, first = json.loads(done.stdout)
    assert first == read[0]
    return list(read)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run the page script")
@pytest.mark.parametrize(
    ("reported", "kept"),
    [
        (["en-GB", "fr"], ["en-GB", "fr"]),  # readable tags are left alone
        (["C"], ["en-US"]),  # WebKitGTK under LANG=C.UTF-8
        (["en_US.UTF-8"], ["en-US"]),  # a POSIX locale name
        (["de_DE", "C", "de-DE"], ["de-DE"]),  # the unreadable one dropped, the same one kept once
        ([MADE_UP_TAG], ["en-US"]),
        ([""], ["en-US"]),
    ],
)
def test_the_page_keeps_the_languages_it_can_read_and_falls_back_to_english(reported: list[str],
                                                                               kept: list[str]) -> None:
    assert languages_read_as(reported) == kept


def reporting_languages(page: FlutterPage, languages: list[str]) -> FlutterPage:
    """The page's browser reports ``languages`` as WebKitGTK or an odd set-up does (before any script runs)."""
    page.page.add_init_script(
        "(() => { const tags = %s;"
        " Object.defineProperty(Navigator.prototype, 'languages', {get: () => tags.slice()});"
        " Object.defineProperty(Navigator.prototype, 'language', {get: () => tags[0]}); })();" % json.dumps(languages))
    return page


@pytest.mark.browser
@pytest.mark.parametrize("languages", [["C"], [MADE_UP_TAG, "C"]], ids=["C", "made-up"])
def test_the_local_server_starts_whatever_language_the_browser_reports(
        chromium_browser: Browser, app_server: AppServer, languages: list[str]) -> None:
    page = reporting_languages(FlutterPage.new_phone(chromium_browser), languages)
    try:
        page.open(app_server.url)
        page.wait_for_text("New game")
        assert page.page.evaluate("navigator.language") == "en-US"
    finally:
        page.close()


@pytest.mark.browser
def test_the_offline_app_starts_in_the_c_locale(chromium_browser: Browser, tmp_path: Path) -> None:
    site: tuple[Path, dict[str, Any]] = built_site()
    with serving(site[0], tmp_path / "www") as server:
        page = reporting_languages(FlutterPage.new_phone(chromium_browser), ["C"])
        try:
            page.open(server.url, timeout_ms=BOOT_TIMEOUT_MS * 2)  # Python starts in the page
            page.wait_for_text("New game", timeout_ms=BOOT_TIMEOUT_MS)
        finally:
            page.close()
