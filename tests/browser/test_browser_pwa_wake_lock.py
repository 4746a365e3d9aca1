"""The offline PWA keeps the screen on at the table too: the page's script ships in the built
site where Flutter's wakelock plugin loads it (build/build_pwa.py). Its own module: the PWA's
browser is a persistent profile of its own, and one Playwright per module can run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.browser_support import new_game
from tests.support.pwa_harness import Browser, built_site, serving, time_to_interactive
from tests.browser.test_browser_wake_lock import WAKE_LOCK_STUB, wake_lock_calls

pytestmark = pytest.mark.browser


def test_the_offline_pwa_keeps_the_screen_on_at_the_table_and_lets_go_when_left(tmp_path: Path) -> None:
    site, _ = built_site()
    with serving(site, tmp_path / "www") as server, Browser(tmp_path / "profile") as browser:
        browser.context.add_init_script(WAKE_LOCK_STUB)
        time_to_interactive(browser, server.url)
        page = browser.flutter
        new_game(page, "Ann", "Bob")
        wake_lock_calls(page, ["request screen"], held=1)
        page.click_button("Home")
        page.wait_for_text("New game")
        wake_lock_calls(page, ["request screen", "release"], held=0)
