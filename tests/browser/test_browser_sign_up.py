"""Sign-up at the door in real headless Chromium: what the client-less tests cannot show is
that Flutter keeps the cursor in the field after Enter, so names are typed one after another
without a tap, and that the list's controls are found by the names a screen reader reads."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from app.event.organizer import Organizer
from app.storage import FileStore
from tests.support.browser_support import FlutterPage, in_thread, start_app_server, wait_until

FOCUS_CEILING_S = 30
"""How long the name field may take to get the focus back on a busy machine (it takes a frame)."""

FOCUSED = "() => { const e = document.activeElement; return e ? e.getAttribute('aria-label') : null; }"


def new_event(data_dir: Path) -> str:
    store = FileStore(data_dir)
    try:  # Playwright's sync API runs a loop in this thread: create the event from another one
        return in_thread(Organizer(store).create("Door cup", event_id="DOOR-1"))
    finally:
        store.close()


def test_names_typed_one_after_another_with_enter_and_a_pasted_list_sign_up_without_a_tap_between(
        chromium_browser: Browser, tmp_path: Path) -> None:
    tournament_id = new_event(tmp_path / "data")
    with start_app_server(tmp_path / "data") as server:
        page = FlutterPage.new_phone(chromium_browser)
        try:
            page.page.goto(server.url.rstrip("/") + f"/organizer/{tournament_id}/players", wait_until="commit")
            page.enable_semantics()
            page.type_into("Player name", "Ann")
            page.press("Enter")
            page.wait_for_text("Ann signed up as number 1.")
            wait_until(lambda: page.page.evaluate(FOCUSED) == "Player name", FOCUS_CEILING_S,  # follows the update
                       lambda: f"the focus is on {page.page.evaluate(FOCUSED)!r}, not back in the Player name field",
                       pause=page.pause)
            page.page.keyboard.insert_text("Bob")  # no tap: the cursor is still in the field
            page.press("Enter")
            page.wait_for_text("Bob signed up as number 2.")
            page.type_into("Names, one a line", "Cy\nDi\nann")
            page.click_button_until("Preview", 'Line 3: "ann" is already signed up: Ann (number 1).')
            page.click_button("Add 2 players")
            page.wait_for_text("2 players signed up, numbers 3, 4.")
            page.wait_for_text("4 players · 0 checked in")
            page.click_button("1. Ann · not checked in")
            page.wait_for_text("Ann (number 1) checked in.")
        finally:
            page.close()
