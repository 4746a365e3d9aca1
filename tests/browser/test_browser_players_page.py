"""The players' page on a player's own phone, in real headless Chromium against the real server.

The server's data folder holds an event (round 1 drawn, table 1's result counted) guarded by an
organizer passphrase; no address is the organizer's own, so the organizer signs in on the event
page like any other device, and the phone is just a phone. The phone (390x844) reads the players'
QR from a screenshot of the organizer's switch, opens it, finds "Aleksandra" (García-Márquez, a
name of 25 characters) and sees her table, seat and place. Every HTTP response and websocket frame its session received is then searched for
every table's setup code and key, the passphrase, its hash and a session token: none is there.
When the organizer switches the page off, the phone showing it says so at once, and a new visit is refused.
A screen reader user who switches accessibility on once the page is drawn types their name and is found.

Screenshots (players-page.png, organizer-players-page.png) go to a temporary folder
(``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from app.event.organizer import Organizer
from app.event.passphrase import hash_passphrase
from app.storage import FileStore
from app.venue.client_address import ORGANIZER_ADDRESSES_ENV
from engine import Tournament, decode_setup, read_code, safe_form, typing_form
from tests.support.browser_support import (
    AppServer,
    FlutterPage,
    free_port,
    in_thread,
    screenshots_dir,
    start_app_server,
    wait_until,
)
from tests.support.fake_camera import qr_on_screen
from tests.support.follow_support import FOLLOW_CEILING_S
from tests.support.room_support import find_yourself
from tests.support.tournament_support import default_totals

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
PASSPHRASE = "mayor house 26"
NAMES = ["Aleksandra García-Márquez", "Bartholomew García-Márquez", "Cat", "Dmitri", "Esme", "Farid", "Gwen", "Hugo"]


@dataclass
class Event:
    server: AppServer
    tournament_id: str
    tournament: Tournament
    passphrase_hash: str

    def url(self, route: str) -> str:
        return self.server.url.rstrip("/") + route

    def secrets(self) -> list[str]:
        """What no phone may be sent: each table's setup code (every form) and key (hex, base64),
        the organizer passphrase and its hash."""
        found = [PASSPHRASE, self.passphrase_hash]
        for table in range(1, len(self.tournament.seating()) + 1):
            code = read_code(self.tournament.setup_code(table))
            key = decode_setup(code).key
            found += [code, safe_form(code), typing_form(code), key.hex(), key.hex().upper(),
                      base64.b64encode(key).decode().rstrip("="), base64.urlsafe_b64encode(key).decode().rstrip("=")]
        return found


def seed_event(data_dir: Path, base: str) -> tuple[str, Tournament, str]:
    store = FileStore(data_dir)

    async def seed() -> tuple[str, Tournament, str]:
        organizer = Organizer(store)
        tournament_id = await organizer.create("Mayor House Farkle", event_id="MAYOR-26", link_base=base,
                                               passphrase_hash=hash_passphrase(PASSPHRASE))
        await organizer.act(lambda t: [t.check_in(t.sign_up(name)) for name in NAMES])
        await organizer.act(lambda t: t.draw_seats(2026))
        await organizer.act(lambda t: t.record_result(1, default_totals(t.seating()[0]), reason="paper score sheet"))
        return tournament_id, organizer.open_tournament, organizer.passphrase_hash

    try:  # Playwright's sync API runs a loop in this thread: seed from another one
        return in_thread(seed())
    finally:
        store.close()


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    port = free_port()
    data_dir = tmp_path / "data"
    tournament_id, tournament, stored_hash = seed_event(data_dir, f"http://127.0.0.1:{port}")
    with start_app_server(data_dir, port=port, env={ORGANIZER_ADDRESSES_ENV: "192.0.2.1"}) as server:
        yield Event(server, tournament_id, tournament, stored_hash)


@dataclass
class Received:
    """Everything a phone's page was sent: HTTP responses (read at the end) and websocket frames."""

    responses: list[Any] = field(default_factory=list)
    frames: list[bytes] = field(default_factory=list)

    def watch(self, phone: FlutterPage) -> None:
        phone.page.on("response", lambda response: self.responses.append(response))
        phone.page.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: self.frames.append(
                payload if isinstance(payload, bytes) else payload.encode("utf-8"))))

    def everything(self) -> bytes:
        bodies = []
        for response in self.responses:
            try:
                bodies.append(response.body())
            except Exception:  # noqa: BLE001 - a redirect or an aborted request has no body
                continue
        return b"\n".join([*bodies, *self.frames])


def open_page(page: FlutterPage, url: str) -> None:
    page.page.goto(url, wait_until="commit")
    page.enable_semantics()


def sign_in(organizer: FlutterPage) -> None:
    """The organizer gives the passphrase at the gate (typed again when a tap came before Flutter listened)."""
    organizer.wait_for_text("Organizer sign-in")
    organizer.type_into("Organizer passphrase", PASSPHRASE)
    organizer.click_button("Open")


def test_a_phone_scans_the_players_qr_finds_aleksandra_and_is_sent_nothing_secret(chromium_browser, event: Event):
    organizer = FlutterPage.new_phone(chromium_browser)
    phone = FlutterPage.new_phone(chromium_browser)
    received = Received()
    received.watch(phone)
    table, seat = next((t, s) for t, numbers in enumerate(event.tournament.seating(), 1)
                       for s, number in enumerate(numbers, 1) if number == 1)
    try:
        open_page(organizer, event.url(f"/organizer/{event.tournament_id}"))
        sign_in(organizer)
        organizer.page.get_by_role("switch", name="Players' page: on").wait_for(timeout=20_000)
        _, link = qr_on_screen(organizer, "Players' page QR code")
        assert link == event.url("/players/MAYOR-26").upper()
        organizer.screenshot(SCREENSHOTS / "organizer-players-page.png")

        open_page(phone, link)
        phone.wait_for_text("Mayor House Farkle · MAYOR-26")
        phone.wait_for_text("Round 1 is being played: 1 of 2 tables have a result.")
        find_yourself(phone, "Aleksandra")
        phone.wait_for_text("Aleksandra García-Márquez · number 1")
        phone.wait_for_text(f"Round 1: table {table}, seat {seat}")
        phone.wait_for_text("Place ")
        phone.screenshot(SCREENSHOTS / "players-page.png")

        sent = received.everything()
        assert "Aleksandra García-Márquez".encode() in sent  # the frames are read: the search below can fail
        shown = [secret[:16] for secret in event.secrets() if secret.encode() in sent]
        tokens = re.findall(re.escape(event.tournament_id).encode() + rb"\.\d{9,}\.", sent)
        assert (shown, tokens) == ([], [])
    finally:
        organizer.close()
        phone.close()


def test_a_players_page_the_organizer_switches_off_closes_on_a_phone_showing_it_and_refuses_a_new_visit(
        chromium_browser, event: Event):
    organizer = FlutterPage.new_phone(chromium_browser)
    phone = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(phone, event.url("/players/MAYOR-26"))
        phone.wait_for_text("Mayor House Farkle · MAYOR-26")
        find_yourself(phone, "Hugo")
        phone.wait_for_text("Hugo · number 8")

        open_page(organizer, event.url(f"/organizer/{event.tournament_id}"))
        sign_in(organizer)
        organizer.page.get_by_role("switch", name="Players' page: on").click(timeout=20_000)
        organizer.wait_for_text("Players' page off: phones that open its link are told it is closed.")

        phone.wait_for_text("The organizer has closed the players' page for this event.")  # without a tap
        assert not any("Hugo" in line for line in phone.texts())
        open_page(phone, event.url("/players/MAYOR-26"))
        phone.wait_for_text("The organizer has closed the players' page for this event.")
        open_page(phone, event.url("/players/MAYOR-27"))
        phone.wait_for_text("No event here has the code MAYOR-27.")
        assert not any("Mayor House" in line for line in phone.texts())
    finally:
        organizer.close()
        phone.close()


def test_a_screen_reader_user_who_switches_accessibility_on_once_the_page_is_drawn_can_type_and_finds_hugo(
        chromium_browser, event: Event):
    """Flutter on the web picks how a field is typed into when a field first takes the focus: a
    field that took it on its own before the screen reader was on could not be typed into with it
    (flutter/flutter#129324). No screen's field takes the focus on its own."""
    phone = FlutterPage.new_phone(chromium_browser)
    received = Received()
    received.watch(phone)
    try:
        phone.page.goto(event.url("/players/MAYOR-26"), wait_until="commit")
        wait_until(lambda: any(b"players-query" in frame for frame in received.frames), FOLLOW_CEILING_S,
                   lambda: "the players' page never sent its search box", pause=phone.pause)
        phone.wait_frames()  # drawn
        phone.enable_semantics()
        find_yourself(phone, "Hugo")
        phone.wait_for_text("Hugo · number 8")
    finally:
        phone.close()
