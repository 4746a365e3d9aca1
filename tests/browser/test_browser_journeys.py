"""What a scorekeeper does, in real headless Chromium against the real server.

Phone-sized screenshots of the main screens go to a temporary folder (``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser_support import AppServer, FlutterPage, new_game, screenshots_dir, throw

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()


def test_a_house_game_through_entry_farkle_hot_dice_final_round_and_win(browser_page: FlutterPage):
    page = browser_page
    page.screenshot(SCREENSHOTS / "home.png")
    new_game(page, "Ann", "Bob", target="1000")
    page.screenshot(SCREENSHOTS / "table.png")

    throw(page, "2 2 3 3 4 6")
    page.wait_for_text("Farkle! 2 2 3 3 4 6 has nothing to set aside.")
    page.wait_for_text("Enter Bob's throw")

    throw(page, "5 2 3 4 6 6")
    page.click_button("Die 1 shows 5")  # the dice in the order typed
    page.wait_for_text("Bob needs 500 in one turn to get on the board: 50 is not enough, throw again.")
    assert not page.is_button_enabled("Bank 50")
    page.click_button("Roll five dice")
    throw(page, "1 1 1 2 3")
    page.click_button("Best: keep 1 1 1 for 1,000")
    page.screenshot(SCREENSHOTS / "keep.png")
    page.click_button("Bank 1,050")
    page.wait_for_text("Bob is on the board with 1,050.")
    page.wait_for_text("Final round · last turns: Ann")

    throw(page, "1 2 3 3 3 5")
    page.click_button("Best: keep 1 3 3 3 5 for 450")
    page.click_button("Roll one die")
    throw(page, "1")
    page.click_button("Die 1 shows 1")
    page.click_button("Hot dice! Roll six again")
    page.wait_for_text("Hot dice! All six dice scored")
    throw(page, "1 2 3 4 5 6")
    page.click_button("Best: keep 1 2 3 4 5 6 for 1,500")
    page.click_button("Bank 2,050")
    page.wait_for_text("Ann wins!")
    page.wait_for_text("1. Ann 2,050")
    page.screenshot(SCREENSHOTS / "game-over.png")


def test_a_progressive_pass_is_built_on_and_undo_takes_it_back(browser_page: FlutterPage):
    page = browser_page
    page.click_button("New game")
    page.type_into("Player 1 name", "Ann")
    page.type_into("Player 2 name", "Bob")
    page.click_button("Rules: House")
    page.click_button("Progressive")
    page.wait_for_text("progressive passing")
    page.click_button("Start game")
    throw(page, "1 1 1 5 2 3")
    page.click_button("Best: keep 1 1 1 5 for 1,050")
    page.click_button("Bank 1,050")
    page.wait_for_text("Ann: bank 1,050 with TWO dice to pass.")
    page.wait_for_text("On offer to Bob: 1,050 with TWO dice")
    page.screenshot(SCREENSHOTS / "progressive-offer.png")
    page.click_button("Build on 1,050")
    page.wait_for_text("Bob's turn · turn total 1,050 · two dice in hand")
    throw(page, "5 2")
    page.click_button("Die 1 shows 5")
    page.click_button("Bank 1,100")
    page.wait_for_text("Bob: bank 1,100 with ONE die to pass.")
    for shown in ["Bank 1,100 instead", "Bob threw 5 2", "Enter Bob's throw: two dice", "On offer to Bob"]:
        page.click_button("Undo")
        page.wait_for_text(shown)
    page.wait_for_text("On offer to Bob: 1,050 with TWO dice")


def test_the_game_survives_a_server_restart_mid_turn(browser_page: FlutterPage, app_server: AppServer):
    page = browser_page
    new_game(page, "Ann", "Bob")
    throw(page, "1 1 1 2 3 5")
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    app_server.restart(crash=True)
    page.reload()
    page.wait_for_text("Ann threw 1 1 1 2 3 5")
    page.click_button("Best: keep 1 1 1 5 for 1,050")
    page.click_button("Bank 1,050")
    page.wait_for_text("Ann banks 1,050: total 1,050.")


def test_the_quick_lookup_scores_a_throw_and_gives_the_odds(browser_page: FlutterPage):
    page = browser_page
    page.click_button("Score lookup")
    tapped = page.page.get_by_role("button", name=re.compile(r"^Remove \d"))
    for count, face in enumerate("1 2 4 4 4 5".split(), start=1):
        page.tap_to_count(f"Add {face}", tapped, count)
    page.wait_for_text("Best: 550")
    page.wait_for_text("three 4s 400 + 1 100 + 5 50")
    page.wait_for_text("Chance of a farkle with 6 dice: 2.31%")
    page.screenshot(SCREENSHOTS / "lookup.png")
