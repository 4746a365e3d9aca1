"""The room display in a real browser against the real server: an event seeded where the server
reads it, the organizer importing results on one device, and a display (1920x1080, a second
browser context) that is read until it shows what the import counted.

The tables' result codes are signed as a table's device signs them, from the setup codes the
organizer's Seating page shows. Used by tests/browser/test_browser_room_display.py (the journey) and
tests/bench/bench_room_display.py (how long the display takes to follow)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.event.organizer import Organizer
from app.storage import FileStore
from engine import TableResult, TournamentFormat, decode_setup, encode_result, read_code, typing_form
from engine.codec import places_from
from tests.support.browser_support import TYPING_ATTEMPTS, TYPING_LANDS_MS, FlutterPage, in_thread, wait_until
from tests.support.follow_support import FOLLOW_CEILING_S
from tests.support.tournament_support import default_totals

if TYPE_CHECKING:
    from playwright.sync_api import Browser

DISPLAY_VIEWPORT = {"width": 1920, "height": 1080}
LAPTOP_VIEWPORT = {"width": 1280, "height": 800}


def seed_event(data_dir: Path, base: str, names: list[str], fmt: TournamentFormat | None = None) -> str:
    """An event with ``names`` checked in and round 1 drawn, written where the server will read it; its id."""
    store = FileStore(data_dir)

    async def seed() -> str:
        organizer = Organizer(store)
        tournament_id = await organizer.create("Mayor House Farkle", event_id="MAYOR-26", link_base=base, format=fmt)
        await organizer.act(lambda t: [t.check_in(t.sign_up(name)) for name in names])
        await organizer.act(lambda t: t.draw_seats(2026))
        return tournament_id

    try:
        return str(in_thread(seed()))
    finally:
        store.close()


@dataclass
class Room:
    """The organizer's device and the room display, on the real server or as two tabs of the PWA."""

    organizer: FlutterPage
    display: FlutterPage

    @classmethod
    def open(cls, browser: Browser, event_url: str) -> Room:
        """The display of the event at ``event_url`` (``…/organizer/<id>``) at 1920x1080 in a browser
        context of its own, and the organizer's results on a laptop in another."""
        organizer = FlutterPage(browser.new_context(viewport=LAPTOP_VIEWPORT).new_page())
        display = FlutterPage(browser.new_context(viewport=DISPLAY_VIEWPORT).new_page())
        display.open(event_url + "/display")
        organizer.open(event_url + "/results")
        organizer.wait_for_text("Result code")
        return cls(organizer, display).paused()

    def paused(self) -> Room:
        """The display stops paging by itself: the test turns its pages."""
        self.display.click_button("Pause paging")
        self.display.wait_for_text("Resume paging")
        return self

    def close(self) -> None:
        self.organizer.close()
        self.display.close()

    def shows(self, text: str) -> bool:
        return any(text in line for line in self.display.texts())

    def turn_to(self, title: str, pages: int = 12) -> None:
        """Press Next on the display until its page titled ``title`` (a part of it) is up; after each
        press, wait for the page number to change (on a busy machine the next page comes late, and a
        look before then would pass over the page wanted)."""
        for _ in range(pages):
            if self.shows(title):
                return
            shown = self.page_number()
            self.display.click_button("Next")
            wait_until(lambda: self.page_number() != shown, 10, lambda: f"Next left the display on page {shown}",
                       pause=self.display.pause, every_s=0.05)
        raise AssertionError(f"the display has no page {title!r}: {self.display.texts()}")

    def page_number(self) -> str:
        """The display's ``3/9`` (its page of how many)."""
        return next((line for line in self.display.texts() if re.fullmatch(r"\d+/\d+", line)), "")

    def import_code(self, code: str, counted: str) -> float:
        """The organizer types a table's result code and imports it, until the app says ``counted``;
        the seconds from the tap on Import to that."""
        self.organizer.type_into("Result code or link", typing_form(code))
        self.organizer.settle()
        tapped = time.monotonic()
        self.organizer.click_button("Import the result")
        self.organizer.wait_for_text(counted)
        return time.monotonic() - tapped

    def followed(self, text: str, what: str) -> float:
        """Seconds from now (the organizer's device acknowledged an action) until the display shows ``text``;
        fails past :data:`FOLLOW_CEILING_S`."""
        started = time.monotonic()
        wait_until(lambda: self.shows(text), FOLLOW_CEILING_S,
                   lambda: f"the display did not show {text!r} after {what}: {self.display.texts()}",
                   pause=self.display.pause, every_s=0.05)
        return time.monotonic() - started

    def setup_codes(self) -> list[str]:
        """Each table's setup code as the organizer's Seating page shows it (what a table's phone reads)."""
        self.organizer.click_button("Seating")
        self.organizer.wait_for_text("Setup code (QR version")
        codes = sorted((line for line in self.organizer.texts() if line.startswith("FT1-")),
                       key=lambda code: decode_setup(read_code(code)).table)  # cards side by side read across
        self.organizer.page.mouse.wheel(0, -5000)  # back to the top, where the pages' buttons are
        self.organizer.click_button("Results")
        self.organizer.wait_for_text("Result code")
        return codes


def signed_result(setup_code: str) -> str:
    """The result code a table's device signs once its game is over (the first seat wins)."""
    setup = decode_setup(read_code(setup_code))
    numbers = tuple(player.number for player in setup.players)
    totals = tuple(default_totals(numbers))
    result = TableResult(setup.event_id, setup.round, setup.table, numbers, totals, places_from(totals, ()), (),
                         setup.rules, bytes(16))
    return encode_result(result, setup.key)


def find_yourself(phone: FlutterPage, query: str) -> None:
    """On the players' page: type ``query`` into the search box (as :meth:`FlutterPage.type_into`
    does, typing again when a tap came before Flutter listened) and search, until the page answers
    about ``query`` (a player found or none): a tap on Find me that Flutter dropped is tapped
    again, as a person would."""
    phone.type_into("Your name or number", query)
    for attempt in range(TYPING_ATTEMPTS):
        phone.click_button("Find me")
        if wait_until(lambda: any(query in line for line in phone.texts()), TYPING_LANDS_MS / 1000,
                      lambda: f"the players' page never answered the search for {query!r}: {phone.texts()}",
                      pause=phone.pause, required=attempt + 1 == TYPING_ATTEMPTS):
            return
