"""Play advice as a person meets it, in real headless Chromium against the real server: the
lookup's "Roll or bank?" for 350 with two dice under house rules, and a casual table with
Advice on marking the best keep. (A tournament table offers no advice switch: the phones-only
event checks that on every table it plays.)"""

from __future__ import annotations

import pytest

from engine import Rules, roll_value
from tests.support.browser_support import FlutterPage, new_game, throw

pytestmark = pytest.mark.browser


def test_the_lookup_advises_banking_350_with_two_dice_under_house_rules(browser_page: FlutterPage):
    page = browser_page
    page.click_button("Score lookup")
    page.wait_for_text("Roll or bank?")
    page.type_into("Turn total so far", "350")
    page.click_button("6 dice", exact=False)  # the "Dice to throw" menu, six by default
    page.click_button("2 dice")
    worth = f"{roll_value(Rules.preset('house'), 350, 2):,.0f}"
    page.wait_for_text(f"Bank: 350 now; throwing two dice is worth {worth} on average (44 % farkle).",
                       timeout_ms=60_000)  # the house tables are solved off the tap path first


def test_a_table_with_advice_on_marks_the_lone_1_over_the_1_and_5(browser_page: FlutterPage):
    page = browser_page
    new_game(page, "Ann", "Bob")
    page.click_button("Turn advice on")
    page.button("Turn advice off").wait_for()
    throw(page, "1 5 2 3 4 4")
    page.wait_for_text("keep 1  ·  advised", timeout_ms=60_000)  # once the tables are solved
    page.wait_for_text("Advice: Keep 1 and throw five dice")
    assert page.page.get_by_text("keep 1 5  ·  advised").count() == 0
    page.click_button("Turn advice off")
    page.button("Turn advice on").wait_for()
    page.wait_for_text_gone("Advice: ")
