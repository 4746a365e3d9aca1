"""The room display in real headless Chromium: on the real server, a display at 1920x1080 in a
second browser context follows each of the organizer's imports once acknowledged (how soon:
tests/bench/bench_room_display.py),
shows the cut line after round 1, and the champion once crowned; in the offline PWA, a second
tab of the same browser shows the display and follows the organizer's tab with the network cut.
The display holds the browser's Screen Wake Lock while shown (asked again when shown again) and
lets it go when left.

The display's picture at 1920x1080 (room-display.png) goes to a temporary folder
(``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.event.organizer import Organizer
from app.storage import MemoryPrefs, PrefsStore
from engine import Tournament, decode_setup, read_code
from tests.browser.test_browser_tabs import SEED_LOCAL_STORAGE
from tests.browser.test_browser_wake_lock import WAKE_LOCK_STUB, wake_lock_calls
from tests.support.browser_support import FlutterPage, free_port, in_thread, screenshots_dir, start_app_server
from tests.support.pwa_harness import BOOT_TIMEOUT_MS, app_ready, built_site, cut_network, serving, wait_precached
from tests.support.room_support import (
    DISPLAY_VIEWPORT,
    LAPTOP_VIEWPORT,
    Room,
    seed_event,
    signed_result,
)
from tests.support.tournament_support import TWO_ROUNDS, result_code

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
        opened = Room.open(chromium_browser, f"{server.url.rstrip('/')}/organizer/{tournament_id}")
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
    room.display.wait_for_text("Above the line: the 4 who go on to the final when the round closes.")
    room.display.screenshot(SCREENSHOTS / "room-display.png")

    room.organizer.click_button("Close round 1 and apply the cut")
    room.organizer.wait_for_text("Round 1 closed: 4 go on.")
    room.followed("Above the line: the 4 who go on to the final.", "the close of round 1")
    room.organizer.click_button("Seating")
    room.organizer.type_into("Draw seed (optional)", "7")
    room.organizer.click_button("Draw the seats for the final")
    room.organizer.wait_for_text("Seats drawn: 1 table (seed 7).")
    room.followed("Mayor House Farkle · Final", "the final's draw")

    final = room.setup_codes()
    room.import_code(signed_result(final[0]), "Final, table 1: result counted")
    room.organizer.click_button("Crown the champion")
    room.organizer.wait_for_text("is the champion!")
    room.followed("Champion of Mayor House Farkle", "the champion crowned")
    seated = [player.name for player in decode_setup(read_code(final[0])).players]
    assert room.shows(seated[0])  # the first seat's total won


def test_in_the_offline_pwa_a_display_tab_follows_the_organizers_tab(chromium_browser, tmp_path: Path):
    """A laptop on the projector with no network: the display in a second tab of the organizer's
    browser (one localStorage, a BroadcastChannel between the tabs' Pythons) follows each import."""
    tournament, entries = pwa_event()
    root, _ = built_site()
    with serving(root, tmp_path / "www") as site:
        context = chromium_browser.new_context(viewport=LAPTOP_VIEWPORT)
        context.add_init_script(SEED_LOCAL_STORAGE.replace("ENTRIES", json.dumps(entries)))
        try:
            organizer = FlutterPage(context.new_page())
            organizer.open(site.url)
            app_ready(organizer)
            wait_precached(organizer.page, root)
            cut_network(context)
            organizer.click_button("Organize a tournament")
            organizer.page.get_by_text("Mayor House Farkle (MAYOR-26)").first.click(timeout=20_000)
            organizer.wait_for_text("Round 1 is being played: waiting for tables 1, 2.", 20_000)
            event_url = organizer.page.url.rstrip("/")

            display = FlutterPage(context.new_page())
            display.page.set_viewport_size(DISPLAY_VIEWPORT)
            display.open(event_url + "/display")
            display.wait_for_text("the players' page needs the venue server", BOOT_TIMEOUT_MS)
            room = Room(organizer, display).paused()
            room.turn_to("Round 1: 0 of 2 tables reported")

            organizer.page.bring_to_front()
            organizer.click_button("Results")
            for table in (1, 2):
                organizer.page.bring_to_front()
                room.import_code(result_code(tournament, table), f"Round 1, table {table}: result counted")
                display.page.bring_to_front()  # the projector's window: in view
                room.followed(f"Round 1: {table} of 2 tables reported", f"table {table}'s import in the other tab")
            room.turn_to("Standings")
            display.wait_for_text("Above the line: the 4 who go on to the final when the round closes.")
        finally:
            context.close()


def pwa_event() -> tuple[Tournament, dict[str, str]]:
    """The journey's event (round 1 drawn) as the PWA keeps it: ``localStorage`` entries."""

    async def seed() -> Tournament:
        organizer = Organizer(await PrefsStore.open(prefs))
        await organizer.create("Mayor House Farkle", event_id="MAYOR-26", format=TWO_ROUNDS)
        await organizer.act(lambda t: [t.check_in(t.sign_up(name)) for name in NAMES])
        await organizer.act(lambda t: t.draw_seats(2026))
        return organizer.open_tournament

    prefs = MemoryPrefs()
    tournament = in_thread(seed())
    return tournament, {key: str(value) for key, value in prefs.values.items()}


def test_the_display_keeps_the_screen_on_through_the_browsers_wake_lock_and_lets_go_when_left(
        chromium_browser, tmp_path: Path):
    port = free_port()
    tournament_id = seed_event(tmp_path / "data", f"http://127.0.0.1:{port}", NAMES, TWO_ROUNDS)
    with start_app_server(tmp_path / "data", port=port) as server:
        display = FlutterPage(chromium_browser.new_context(viewport=DISPLAY_VIEWPORT).new_page())
        try:
            display.page.add_init_script(WAKE_LOCK_STUB)
            display.open(f"{server.url.rstrip('/')}/organizer/{tournament_id}/display")
            display.wait_for_text("Pause paging")
            wake_lock_calls(display, ["request screen"], held=1)
            display.page.evaluate("window.showPage(false)")  # the laptop's screen saver: the browser drops it
            display.page.evaluate("window.showPage(true)")
            wake_lock_calls(display, ["request screen", "request screen"], held=1)
            display.click_button("Back to the event")
            display.wait_for_text("Open the room display")
            wake_lock_calls(display, ["request screen", "request screen", "release"], held=0)
        finally:
            display.close()
