"""The second screen in real headless Chromium: a table at 390x844 plays Ann and Bob's game to 1,000
and a follower at 1920x1080 shows each bank once the table acknowledged it (how soon:
tests/bench/bench_follow.py), the final round and the winner; on the real server (a second browser context, as a laptop on a TV) and in the
offline PWA (a second tab of the same browser, the network cut).

The follower's picture at 1920x1080 (follow.png) goes to a temporary folder
(``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.routes import follow_path
from tests.support.browser_support import PHONE_VIEWPORT, FlutterPage, screenshots_dir
from tests.support.follow_support import FOLLOWER_VIEWPORT, Followed
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, app_ready, built_site, cut_network, serving, wait_precached

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()


def play_and_follow(game: Followed, picture: Path | None = None) -> None:
    """Ann banks 1,050 (the final round opens), Bob banks 1,000 on his last turn: Ann wins. ``picture``: where
    the follower's picture in the final round goes."""
    game.bank("1 1 1 5 2 3", "Best: keep 1 1 1 5 for 1,050", "Bank 1,050", "Enter Bob's throw")
    game.followed("Bob to play", "Ann's bank")
    assert game.shows("1,050")
    assert game.shows("Final round · last turns: Bob")
    if picture is not None:
        game.follower.screenshot(picture)
    game.bank("1 1 1 2 3 4", "Best: keep 1 1 1 for 1,000", "Bank 1,000", "Ann wins!")
    game.followed("Ann wins with 1,050", "Bob's bank")
    assert not game.shows("Final round")


def test_a_follower_on_a_tv_shows_each_bank_of_a_phone_at_the_table_within_two_seconds(chromium_browser,
                                                                                       app_server):
    table = FlutterPage(chromium_browser.new_context(viewport=PHONE_VIEWPORT).new_page())
    table.open(app_server.url)

    def open_follower(url: str) -> FlutterPage:
        follower = FlutterPage(chromium_browser.new_context(viewport=FOLLOWER_VIEWPORT).new_page())
        follower.open(url)
        return follower

    game = Followed.start(table, open_follower)
    try:
        table.click_button("Follow on another screen")
        table.wait_for_text("Link: ")
        link = follow_path(game.follower.page.url.rsplit("/", 1)[-1])
        assert any(line.startswith("Link: http://") and line.endswith(link) for line in table.texts()), table.texts()
        table.click_button("Close")
        table.wait_for_text_gone("Link: ")
        play_and_follow(game, SCREENSHOTS / "follow.png")
    finally:
        table.close()
        game.follower.close()


def test_in_the_offline_pwa_a_second_tab_follows_the_table_tab(chromium_browser, tmp_path: Path):
    root, _ = built_site()
    with serving(root, tmp_path / "www") as site:
        context = chromium_browser.new_context(viewport=PHONE_VIEWPORT)
        try:
            table = FlutterPage(context.new_page())
            table.open(site.url)
            app_ready(table)
            wait_precached(table.page, root)
            cut_network(context)

            def open_follower(url: str) -> FlutterPage:
                """The table's own way: Follow on another screen, then Open in a new tab (the link is the site's
                ``#/follow/<id>``, which any static host answers)."""
                table.click_button("Follow on another screen")
                table.wait_for_text("Open the score in a second tab or window of this browser")
                with context.expect_page() as opened:
                    table.click_button("Open in a new tab")
                follower = FlutterPage(opened.value)
                follower.page.set_viewport_size(FOLLOWER_VIEWPORT)  # dragged to the TV
                follower.page.wait_for_url(url, timeout=BOOT_TIMEOUT_MS)
                follower.enable_semantics()  # as FlutterPage.open does: the texts are read from the accessibility tree
                table.page.bring_to_front()
                table.click_button("Close")
                return follower

            play_and_follow(Followed.start(table, open_follower))
        finally:
            context.close()
