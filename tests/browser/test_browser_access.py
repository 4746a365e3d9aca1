"""The organizer's gate in real headless Chromium against the real server.

The server counts only 192.0.2.1 (a documentation address nobody has) as the organizer's,
so this loopback browser stands in for a phone on the venue network. Without the event's
passphrase it sees no event, no print page and no setup code; with it, it does; a second
device (another browser context) still does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.venue.client_address import ORGANIZER_ADDRESSES_ENV
from app.event.passphrase import hash_passphrase
from app.event.organizer import Organizer
from app.storage import FileStore
from tests.support.browser_support import AppServer, FlutterPage, free_port, in_thread, start_app_server

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
PASSPHRASE = "harbour 9"


@dataclass
class Event:
    server: AppServer
    tournament_id: str

    def url(self, route: str) -> str:
        return self.server.url.rstrip("/") + route


def seed_event(data_dir: Path) -> str:
    store = FileStore(data_dir)

    async def seed() -> str:
        organizer = Organizer(store)
        tournament_id = await organizer.create("Harbour cup", event_id="HARBOUR-26",
                                               passphrase_hash=hash_passphrase(PASSPHRASE))
        for name in NAMES:
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(2026))
        return tournament_id

    try:  # Playwright's sync API runs a loop in this thread: seed from another one
        return in_thread(seed())
    finally:
        store.close()


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    data_dir = tmp_path / "data"
    tournament_id = seed_event(data_dir)
    with start_app_server(data_dir, port=free_port(), env={ORGANIZER_ADDRESSES_ENV: "192.0.2.1"}) as server:
        yield Event(server, tournament_id)


def open_page(page: FlutterPage, url: str) -> None:
    page.page.goto(url, wait_until="commit")
    page.enable_semantics()


def type_passphrase(page: FlutterPage, text: str) -> None:
    """The hidden-text field, typed as :meth:`FlutterPage.type_into` types (again, when a tap came before Flutter listened)."""
    page.type_into("Organizer passphrase", text)


def test_a_phone_sees_no_event_print_page_or_setup_code_until_it_gives_the_passphrase(chromium_browser,
                                                                                      event: Event):
    phone = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(phone, event.url("/organizer"))
        phone.wait_for_text("Organizer sign-in")
        assert not any("Harbour" in line for line in phone.texts())

        open_page(phone, event.url(f"/organizer/{event.tournament_id}/print"))
        phone.wait_for_text("Organizer sign-in")
        assert not any("Setup code" in line or "Ann" in line for line in phone.texts())
        assert phone.button("Draw the seats for round 1", exact=False).count() == 0

        type_passphrase(phone, "harbour 8")
        phone.click_button("Open")
        phone.wait_for_text("opens no event here", timeout_ms=20_000)
        assert not any("Setup code" in line for line in phone.texts())

        type_passphrase(phone, PASSPHRASE)
        phone.click_button("Open")
        phone.wait_for_text("Setup code", timeout_ms=20_000)
        phone.wait_for_text("Seat 1:")

        open_page(phone, event.url("/organizer"))  # signed in on this device: the list shows the event
        phone.wait_for_text("Harbour cup")
    finally:
        phone.close()

    other = FlutterPage.new_phone(chromium_browser)  # another device: its own storage, no session
    try:
        open_page(other, event.url(f"/organizer/{event.tournament_id}/print"))
        other.wait_for_text("Organizer sign-in")
        assert not any("Setup code" in line for line in other.texts())
    finally:
        other.close()
