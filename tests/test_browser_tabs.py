"""Nothing is lost across tabs: two tabs of one game in one browser (one context, two
pages), for the offline PWA (each tab its own Python, one localStorage) and for the local
server (`python -m app`, one data folder). An action in the tab that is behind is refused;
that tab then shows the newer state with a message, and the action entered there again
counts. Both tabs' actions are kept.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import (
    PHONE_VIEWPORT,
    FlutterPage,
    launch_chromium,
    new_game,
    start_app_server,
    throw,
)
from tests.pwa_harness import BOOT_TIMEOUT_MS, app_ready, built_site, serving

CHANGED = "This game was changed on another screen meanwhile"


def shows(page: FlutterPage, text: str, timeout_ms: int) -> bool:
    try:
        page.wait_for_text(text, timeout_ms)
    except Exception:  # noqa: BLE001 - Playwright's timeout
        return False
    return True


@contextlib.contextmanager
def two_tabs(kind: str, tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """One browser context (its tabs share the site's storage) and the URL of the app's start."""
    with contextlib.ExitStack() as stack:
        if kind == "pwa":
            root, _ = built_site()
            url = stack.enter_context(serving(root, tmp_path / "www")).url
        else:
            url = stack.enter_context(start_app_server(tmp_path / "data")).url
        browser = stack.enter_context(launch_chromium())
        context = browser.new_context(viewport=PHONE_VIEWPORT)
        stack.callback(context.close)
        yield context, url


@pytest.mark.browser
@pytest.mark.parametrize("kind", ["pwa", "server"])
def test_two_tabs_of_one_game_refuse_the_stale_action_and_lose_nothing(kind: str, tmp_path: Path) -> None:
    with two_tabs(kind, tmp_path) as (context, url):
        first = FlutterPage(context.new_page())
        first.open(url)
        app_ready(first)
        try:
            new_game(first, "Ann", "Bob")
        except Exception:
            first.screenshot(tmp_path / "first.png")
            raise
        game_url = first.page.url
        if kind == "pwa":  # the game's own address is answered by the service worker
            first.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=90_000)
        second = FlutterPage(context.new_page())  # a second tab, in front: typing goes to it
        second.open(game_url)
        second.wait_for_text("Enter Ann's throw", BOOT_TIMEOUT_MS)

        first.page.bring_to_front()
        throw(first, "2 2 3 3 4 6")  # Ann farkles in the first tab
        first.wait_for_text("Enter Bob's throw")

        second.page.bring_to_front()  # the second tab still shows Ann's turn
        throw(second, "1 1 1 2 3 4")
        if not shows(second, CHANGED, 5_000):  # a turn in progress may be written only at its end
            second.click_button("Best: keep 1 1 1 for 1,000")
            second.click_button("Bank 1,000")
            if not shows(second, CHANGED, 20_000):
                second.screenshot(tmp_path / "second.png")
                pytest.fail("the tab that was behind banked over the other tab's farkle: a turn was lost")
        second.wait_for_text("Enter Bob's throw")  # it now shows the first tab's state
        throw(second, "2 2 3 3 4 6")  # entered again where it now belongs: Bob farkles
        second.wait_for_text("Enter Ann's throw")

        first.page.bring_to_front()  # now the first tab is behind
        throw(first, "2 2 3 3 4 6")  # a farkle ends Bob's turn, over a game that moved on
        first.wait_for_text(CHANGED)
        first.wait_for_text("Enter Ann's throw")

        first.reload()  # what is stored: both farkles, nothing from the refused throws
        first.wait_for_text("Enter Ann's throw", BOOT_TIMEOUT_MS)
        first.click_button("History")
        first.wait_for_text("Ann")
        texts = " ".join(first.texts())
        assert texts.count("Farkle") >= 2 or texts.count("farkle") >= 2, texts
