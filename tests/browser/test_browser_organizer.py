"""The tournament's hand-over in real headless Chromium against the real server.

The server starts on a data folder holding an event of 8 players with round 1 drawn
(2 tables) and a finished game of table 2, as the table's device keeps it. Results are
imported from their text form, from a deep link (what a phone's camera app opens
from the result QR), and through the camera: a second Chromium whose fake camera shows
a video of the table's real result QR. The seating card's setup QR holds an http join
link; a table device opens its game from that link, pasted.

Phone screenshots (organizer-*.png, table-result-code.png) go to a temporary folder (``make screenshots``: assets/screenshots/).
"""

from __future__ import annotations

import io
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect
from PIL import Image

from app.event.organizer import Organizer
from app.qr import qr_image
from app.table.scorekeeper import Scorekeeper
from app.storage import FileStore
from app.table.tournament_table import join_link, result_qr_text, tournament_meta
from engine import Game, Tournament, decode_setup, encode_result, result_from_game, typing_form
from tests.support.browser_support import (
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    AppServer,
    FlutterPage,
    confirm_every_seat,
    free_port,
    in_thread,
    screenshots_dir,
    start_app_server,
)
from tests.support.fake_camera import FAKE_CAMERA_ARGS, qr_on_screen, write_y4m
from tests.support.game_play import play_game

pytestmark = pytest.mark.browser

SCREENSHOTS = screenshots_dir()
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


@dataclass
class Event:
    server: AppServer
    tournament_id: str
    tournament: Tournament
    table_game_id: str

    @property
    def base(self) -> str:
        return self.server.url.rstrip("/")

    def url(self, route: str) -> str:
        return self.base + route

    def result_code(self, table: int, seed: int) -> str:
        """What table ``table``'s device shows once its game is over (QR form)."""
        setup = decode_setup(self.tournament.setup_code(table, self.base))
        game = play_game(Game(list(setup.names), setup.rules, 0), random.Random(seed))
        return encode_result(result_from_game(game, setup), setup.key)


def seed_event(data_dir: Path, base: str) -> tuple[str, Tournament, str]:
    """The organizer's event and table 2's finished game, written where the server will read them.
    The event keeps the ``ws://`` address earlier versions stored by default: its cards must
    still hand out http links."""
    store = FileStore(data_dir)

    async def seed() -> tuple[str, Tournament, str]:
        organizer = Organizer(store)
        tournament_id = await organizer.create("Mayor's cup", event_id="MAYOR-26",
                                               link_base=base.replace("http://", "ws://", 1))
        for name in NAMES:
            await organizer.act(lambda t, name=name: t.check_in(t.sign_up(name)))
        await organizer.act(lambda t: t.draw_seats(2026))
        tournament = organizer.open_tournament
        code = tournament.setup_code(2, base)
        setup = decode_setup(code)
        keeper = Scorekeeper(store)
        game_id = await keeper.start_game(list(setup.names), setup.rules, 0, meta=tournament_meta(setup, code))
        await keeper.act(lambda game: play_game(game, random.Random(5)) and None)
        return tournament_id, tournament, game_id

    try:  # Playwright's sync API runs a loop in this thread: seed from another one
        return in_thread(seed())
    finally:
        store.close()


@pytest.fixture
def event(tmp_path: Path) -> Iterator[Event]:
    port = free_port()
    data_dir = tmp_path / "data"
    tournament_id, tournament, game_id = seed_event(data_dir, f"http://127.0.0.1:{port}")
    with start_app_server(data_dir, port=port) as server:
        yield Event(server, tournament_id, tournament, game_id)


def open_page(page: FlutterPage, url: str) -> None:
    page.page.goto(url, wait_until="commit")
    page.enable_semantics()


def test_the_organizer_imports_a_result_typed_from_its_text_form(chromium_browser, event: Event):
    page = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(page, event.url(f"/organizer/{event.tournament_id}/seating"))
        page.wait_for_text("Table 1 · Round 1")
        page.wait_for_text("Seat 1: ")
        page.screenshot(SCREENSHOTS / "organizer-seating.png")
        _, setup_link = qr_on_screen(page, "Setup QR code for table 1")
        assert setup_link.startswith(f"HTTP://127.0.0.1:{event.server.port}/JOIN/FT1-"), setup_link
        page.page.mouse.wheel(0, -5000)  # back to the top, where the screen's buttons are
        page.click_button("Results")
        page.wait_for_text("Missing: tables 1, 2")
        page.type_into("Result code or link", typing_form(event.result_code(1, seed=3)))
        page.click_button("Import the result")
        page.wait_for_text("Round 1, table 1: result counted")
        page.wait_for_text("Missing: table 2")
        page.type_into("Result code or link", "FR1-THIS-IS-NOT-IT")
        page.click_button("Import the result")
        page.wait_for_text("Refused codes")
        page.screenshot(SCREENSHOTS / "organizer-results.png")
    finally:
        page.close()


def test_the_organizer_imports_a_result_from_a_deep_link(chromium_browser, event: Event):
    link = result_qr_text(event.result_code(2, seed=4), event.base)
    assert link.startswith(f"HTTP://127.0.0.1:{event.server.port}/IMPORT/FR1-")
    page = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(page, link)  # what a phone's camera app opens from the result QR
        page.wait_for_text("Round 1, table 2: result counted")
        page.wait_for_text("Imported from a link.")
        page.wait_for_text("Missing: table 1")
    finally:
        page.close()


def test_a_table_device_opens_its_game_from_a_setup_code_and_shows_its_result_code(chromium_browser, event: Event):
    t = event.tournament
    first = t.player(t.seating()[0][0]).name
    page = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(page, event.server.url)
        page.click_button("Join a tournament table")
        page.type_into("Setup code", join_link(t.setup_code(1, event.base), event.base) + "\n")  # as copied
        page.click_button("Read the code")
        page.wait_for_text("MAYOR-26 · Round 1 · Table 1")
        page.wait_for_text(f"Seat 1: {first}")
        page.click_button("Start the table's game")
        page.wait_for_text(f"Enter {first}'s throw: six dice")
        page.page.goto(event.url(f"/game/{event.table_game_id}"), wait_until="commit")
        page.enable_semantics()
        confirm_every_seat(page)  # the last answer: "confirmed by 4 of 4"
        page.wait_for_text("Hand the result to the organizer")
        page.wait_for_text("Result code")
        page.page.mouse.wheel(0, 400)
        page.screenshot(SCREENSHOTS / "table-result-code.png")
    finally:
        page.close()


def test_the_organizer_imports_a_result_through_the_camera(tmp_path: Path, chromium_browser, event: Event):
    code = event.result_code(2, seed=6)
    shown = result_qr_text(code, event.base)  # exactly what the table's screen shows
    video = tmp_path / "result-qr.y4m"
    write_y4m([Image.open(io.BytesIO(qr_image(shown, box_size=8).png))], video)
    # The fake video is fixed at launch: a browser of its own (the shared one stays idle meanwhile).
    browser = chromium_browser.browser_type.launch(
        executable_path=CHROMIUM_PATH, headless=True,
        args=[*CHROMIUM_ARGS, *FAKE_CAMERA_ARGS, f"--use-file-for-fake-video-capture={video}"],
    )
    try:
        page = FlutterPage.new_phone(browser, permissions=["camera"])
        open_page(page, event.url(f"/organizer/{event.tournament_id}/results"))
        started = time.monotonic()
        page.click_button("Scan the tables' result codes, one after another")
        page.wait_for_text("Round 1, table 2: result counted", timeout_ms=30_000)
        print(f"camera import took {time.monotonic() - started:.1f} s from the tap")
        page.screenshot(SCREENSHOTS / "organizer-camera-import.png")
        page.click_button("Stop scanning")
        page.wait_for_text("1 read")
    finally:
        browser.close()


def test_the_room_lookup_finds_a_player_as_the_name_is_typed(chromium_browser, event: Event):
    t = event.tournament
    table, seat = next((ti, s) for ti, numbers in enumerate(t.seating(), 1)
                       for s, n in enumerate(numbers, 1) if n == 6)
    page = FlutterPage.new_phone(chromium_browser)
    try:
        open_page(page, event.url(f"/organizer/{event.tournament_id}/lookup"))
        page.type_into("Name or number", "Fl")
        expect(page.page.get_by_role("textbox", name="Name or number")).to_have_value("Fl")
        page.wait_for_text(f"Flo (number 6): round 1, table {table}, seat {seat}", timeout_ms=20_000)
        page.page.keyboard.type("x")
        page.wait_for_text("No player matches 'Flx'.")
        page.screenshot(SCREENSHOTS / "organizer-lookup.png")
    finally:
        page.close()
