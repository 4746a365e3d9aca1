"""The format editor in real headless Chromium against the real server (paper results are
covered through the client-less harness in tests/app/test_organizer_format.py).

The event is the one of tests/browser/test_browser_organizer.py: 8 players, round 1 drawn at 2 tables.
"""

from __future__ import annotations

import pytest

from tests.support.browser_support import FlutterPage
from tests.browser.test_browser_organizer import SCREENSHOTS, Event, event, open_page

__all__ = ["event"]  # the fixture, shared with the organizer's other browser journeys

pytestmark = pytest.mark.browser


def test_the_format_plan_follows_typing_and_choices(chromium_browser, event: Event):
    page = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(page, event.url("/organizer"))
        page.wait_for_text("Round 1: 40 players, 10 tables of 4, house rules; the 32 best totals")
        page.type_into("Player cap", "24")  # the plan is redrawn in place while the field keeps the cursor
        page.wait_for_text("Round 1: 24 players, 6 tables of 4, house rules; the 24 best totals")
        page.page.keyboard.insert_text("0")
        page.wait_for_text("Round 1: 240 players, 60 tables of 4")
        page.click_button("Round 1 cut: Best totals overall")
        page.click_button("Each table's winner")  # 60 winners: too many for rounds 2 and 3 to bring to 4
        page.wait_for_text("Not possible: With ")
        page.type_into("Player cap", "24")
        page.wait_for_text("Round 1: 24 players, 6 tables of 4, house rules; each table's winner goes on.")
        page.wait_for_text("Final: 4 players, 1 table of 4")
        page.screenshot(SCREENSHOTS / "organizer-format.png")
    finally:
        page.close()
