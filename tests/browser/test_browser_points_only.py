"""A kitchen-table game kept in points only, in real headless Chromium at 390x844 against the real server:
each turn typed as its bank or tapped as a farkle, the rules still kept, to the end of the final round."""

from __future__ import annotations

import pytest

from tests.support.browser_support import FlutterPage, screenshots_dir, start_game, throw

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()


def bank(page: FlutterPage, name: str, points: str, total: str) -> None:
    """Type the bank and press Bank; the table says the new total before the next turn is entered."""
    page.type_into("Points banked", points)
    page.click_button_until(f"Bank {points}", f"{name} banks {points}: total {total}.")


def new_points_game(page: FlutterPage, target: str, picture: str | None = None) -> None:
    page.click_button("New game")
    page.type_into("Player 1 name", "Ann")
    page.type_into("Player 2 name", "Bob")
    page.type_into("Target", target)
    page.switch_on("Points only")
    if picture:
        page.screenshot(SCREENSHOTS / picture)
    start_game(page, "Ann banks", exact=True)  # the points entry's heading


def test_a_casual_two_player_game_kept_in_points_only_to_the_end(browser_page: FlutterPage):
    page = browser_page
    new_points_game(page, "2000", picture="new-game-points-only.png")
    page.screenshot(SCREENSHOTS / "points-only.png")

    page.type_into("Points banked", "300")
    page.click_button("Bank 300")
    page.wait_for_text("Ann needs 500 in one turn to get on the board: 300 is not enough")
    page.click_button("Farkle")
    page.wait_for_text("Farkle for Ann.")
    page.wait_for_text("Bob banks")

    page.click_button("+500")
    page.click_button("+100")
    page.click_button("+50")
    page.click_button("Bank 650")
    page.wait_for_text("Bob banks 650: total 650.")
    page.wait_for_text("Bob is on the board with 650.")

    page.type_into("Points banked", "1,025")
    page.click_button("Bank 1,025")
    page.wait_for_text("1,025 cannot be banked under these rules: every score is a multiple of 50 (1,000 or 1,050?).")
    bank(page, "Ann", "1,050", "1,050")
    page.click_button("Undo")
    page.wait_for_text("Undone: Ann's bank of 1,050")
    page.click_button("Redo")
    page.wait_for_text("Bob banks")

    bank(page, "Bob", "1,400", "2,050")
    page.wait_for_text("Bob reached 2,050. Final round: last turns for Ann.")
    bank(page, "Ann", "800", "1,850")
    page.wait_for_text("Bob wins with 2,050!")
    page.wait_for_text("1. Bob 2,050")
    page.screenshot(SCREENSHOTS / "points-only-over.png")


def test_a_points_game_switches_to_dice_for_a_turn_and_back(browser_page: FlutterPage):
    page = browser_page
    new_points_game(page, "10000")
    bank(page, "Ann", "500", "500")
    page.click_button_until("Enter dice instead", "From Bob's turn on, turns are entered die by die.")
    throw(page, "2 2 3 3 4 6")
    page.wait_for_text("Farkle! 2 2 3 3 4 6 has nothing to set aside.")
    page.click_button_until("Enter points instead", "Ann banks", exact=True)  # the entry's heading
    bank(page, "Ann", "600", "1,100")
