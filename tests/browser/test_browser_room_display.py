"""The room display in real headless Chromium: on the real server, a display at 1920x1080 in a
second browser context follows the organizer's imports within 2 s of each being acknowledged,
shows the cut line after round 1, and the champion once crowned; in the offline PWA, a second
tab of the same browser shows the display and follows the organizer's tab with the network cut.

The display's picture at 1920x1080 (room-display.png) goes to a temporary folder
(``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import decode_setup, read_code
from tests.support.browser_support import free_port, screenshots_dir, start_app_server
from tests.support.room_support import Room, seed_event, signed_result
from tests.support.tournament_support import TWO_ROUNDS

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
NAMES = ["Aleksandra García-Márquez", "Bartholomew García-Márquez", "Cat", "Dmitri", "Esme", "Farid", "Gwen",
         "Hugo"]


@pytest.fixture
def room(chromium_browser, tmp_path: Path) -> Iterator[Room]:
    port = free_port()
    data_dir = tmp_path / "data"
    tournament_id = seed_event(data_dir, f"http://127.0.0.1:{port}", NAMES, TWO_ROUNDS)
    with start_app_server(data_dir, port=port) as server:
        opened = Room.open(chromium_browser, server, data_dir, tournament_id)
        try:
            yield opened
        finally:
            opened.close()


def test_a_display_follows_each_import_shows_the_cut_line_after_round_1_and_the_champion(room: Room):
    room.turn_to("Round 1: 0 of 2 tables reported")
    for table, setup in enumerate(room.setup_codes(), 1):
        room.import_code(signed_result(setup), f"Round 1, table {table}: result counted")
        room.followed(f"Round 1: {table} of 2 tables reported", f"table {table}'s import")
    room.turn_to("Standings")
    room.display.wait_for_text("Above the line: the 4 who go on to Final when the round closes.")
    room.display.screenshot(SCREENSHOTS / "room-display.png")

    room.organizer.click_button("Close round 1 and apply the cut")
    room.organizer.wait_for_text("Round 1 closed: 4 go on.")
    room.followed("Above the line: the 4 who go on to Final.", "the close of round 1")
    room.organizer.click_button("Seating")
    room.organizer.type_into("Draw seed (optional)", "7")
    room.organizer.click_button("Draw the seats for final")
    room.organizer.wait_for_text("Seats drawn: 1 table (seed 7).")
    room.followed("Mayor House Farkle · Final", "the final's draw")

    final = room.setup_codes()
    room.import_code(signed_result(final[0]), "Final, table 1: result counted")
    room.organizer.click_button("Crown the champion")
    room.organizer.wait_for_text("is the champion!")
    room.followed("Champion of Mayor House Farkle", "the champion crowned")
    seated = [player.name for player in decode_setup(read_code(final[0])).players]
    assert room.shows(seated[0])  # the first seat's total won
