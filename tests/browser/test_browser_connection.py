"""The local server stops mid-game: the table says so, says what is saved, and comes back by itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser_support import AppServer, FlutterPage, new_game, throw

pytestmark = pytest.mark.browser


def test_a_lost_server_shows_a_banner_and_the_table_comes_back_by_itself(browser_page: FlutterPage,
                                                                        app_server: AppServer) -> None:
    page = browser_page
    new_game(page, "Ann", "Bob")
    throw(page, "1 1 1 2 3 5")
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    app_server.stop()
    banner = page.page.locator("#farkle-connection-lost")
    expect(banner).to_be_visible(timeout=15_000)
    expect(banner).to_contain_text("Connection to the scorekeeping server lost. Everything shown up to")
    expect(banner).to_contain_text("is saved. Reconnecting…")
    app_server.start()
    expect(banner).to_have_count(0, timeout=30_000)  # the page reloaded itself once the server answered
    page.enable_semantics()
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    page.click_button("Best: keep 1 1 1 5 for 1,050")
    page.click_button("Bank 1,050")
    page.wait_for_text("Ann banks 1,050: total 1,050.")
